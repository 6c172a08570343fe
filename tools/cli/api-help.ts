/**
 * Help texts and shell completion of the API commands, made from the
 * commands derived from the OpenAPI document (summaries, descriptions,
 * parameter schemas) and from the built-in command table.
 */
import { ApiCommand, ApiGroup, Flag } from './api-commands';
import type { Command } from './commands';

const indent = (lines: string[]): string => lines.map((l) => `  ${l}`).join('\n');

function table(rows: [string, string][]): string {
  const width = Math.max(...rows.map(([a]) => a.length)) + 3;
  return indent(rows.map(([a, b]) => (b ? `${a.padEnd(width)}${b}` : a)));
}

const firstLine = (s: string): string => s.split('\n')[0]!.trim();
const placeholder = (f: Flag): string => f.name.toUpperCase().replace(/-/g, '_');

export function flagUsage(f: Flag): string {
  if (f.kind === 'boolean') return `--${f.flag}`;
  if (f.enum && f.kind !== 'list' && f.enum.join('|').length <= 40) return `--${f.flag} ${f.enum.join('|')}`;
  return `--${f.flag} ${f.kind === 'json' ? 'JSON' : placeholder(f)}`;
}

function flagType(f: Flag): string {
  const parts: string[] = [];
  if (f.kind === 'list') parts.push(`list of ${f.itemKind}, comma-separated or repeated`);
  else if (f.kind === 'json') parts.push('JSON');
  else if (f.kind === 'boolean') parts.push(`boolean (--${f.flag}, --${f.flag}=false or --no-${f.flag})`);
  else parts.push(f.kind);
  if (f.enum) parts.push(`one of: ${f.enum.join(', ')}`);
  if (f.nullable) parts.push('or null');
  if (f.required) parts.push('required');
  if (f.default !== undefined) parts.push(`default ${JSON.stringify(f.default)}`);
  return parts.join('; ');
}

export const COMMON_OPTIONS: [string, string][] = [
  ['--profile NAME', 'the credentials of a profile saved by offerops login (else OFFEROPS_API_KEY, else the profile default)'],
  ['--json', "print the API's JSON (the default when stdout is not a terminal)"],
  ['-h, --help', 'this help'],
];

export const EXIT_CODES =
  'Exit codes: 0 success, 2 usage error, 4 the API refused the request (4xx), 5 server or network error (5xx or no answer, after retries), 1 anything else.';

export function apiUsageLine(c: ApiCommand): string {
  const required = c.flags.filter((f) => f.required).map(flagUsage);
  return ['offerops', c.group, c.name, ...c.args.map((a) => a.name.toUpperCase()), ...required, '[options]'].join(' ');
}

export function apiCommandHelp(c: ApiCommand): string {
  const options: [string, string][] = c.flags.map((f) => [
    flagUsage(f),
    [flagType(f), f.description ? firstLine(f.description) : '', f.in === 'body' ? '(body)' : ''].filter(Boolean).join(' — '),
  ]);
  if (c.body) {
    options.push([
      '--data JSON',
      `the request body${c.body.required ? ' (required)' : ''}: JSON, @file.json, or - to read stdin; the flags above set its top-level fields over it`,
    ]);
  }
  if (c.pageable) options.push(['--all', `follow the pages (limit/offset, up to ${c.maxLimit ?? 100} a page) and print every item`]);
  options.push(...COMMON_OPTIONS);
  return [
    `usage: ${apiUsageLine(c)}`,
    '',
    c.summary,
    ...(c.description ? ['', c.description.trim()] : []),
    '',
    `${c.method} ${c.path}   (operation ${c.operationId}${c.scope ? `, scope ${c.scope}` : ''})`,
    ...(c.args.length
      ? [
          '',
          'arguments:',
          table(c.args.map((a) => [a.name.toUpperCase(), a.description ? firstLine(a.description) : `the ${a.name} of the resource`])),
        ]
      : []),
    '',
    'options:',
    table(options),
    '',
    EXIT_CODES,
    '',
  ].join('\n');
}

export function apiGroupHelp(g: ApiGroup): string {
  return [
    `offerops ${g.name}: ${firstLine(g.description)}`,
    '',
    `usage: offerops ${g.name} <command> [arguments] [options]`,
    '',
    'commands:',
    table(g.commands.map((c) => [[c.name, ...c.args.map((a) => a.name.toUpperCase())].join(' '), c.summary])),
    '',
    `Run 'offerops ${g.name} <command> --help' for its arguments and options.`,
    '',
  ].join('\n');
}

export const BUILT_IN_SUMMARIES: [string, string][] = [
  ['login', 'save an API key as a profile, checked against the API (offerops login --help)'],
  ['completion', 'print a shell completion script: offerops completion bash|zsh'],
];

export function topHelp(groups: ApiGroup[] | null, areas: Record<string, string>, docError?: string): string {
  return [
    'offerops: the offerops API from the command line, and operator commands for a stack',
    '',
    'usage: offerops <group> <command> [arguments] [options]',
    '',
    'API commands, one per operation of the OpenAPI document, by tag:',
    groups ? table(groups.map((g) => [g.name, firstLine(g.description)])) : `  (unavailable: ${docError ?? 'no document'})`,
    '',
    'other commands:',
    table([...BUILT_IN_SUMMARIES, ...Object.entries(areas)]),
    '',
    "Run 'offerops <group> --help' for its commands and 'offerops <group> <command> --help' for one command.",
    'API credentials: offerops login, or OFFEROPS_API_KEY and OFFEROPS_BASE_URL.',
    '',
    'options:',
    table([
      ['-h, --help', 'this help'],
      ['--json', 'JSON output and errors (the default when stdout is not a terminal)'],
    ]),
    '',
    EXIT_CODES,
    '',
  ].join('\n');
}

export const LOGIN_HELP = [
  'usage: offerops login [--profile NAME] [--api-key KEY] [--base-url URL]',
  '',
  'Save an API key as a profile after checking it against the API (the account it belongs to is printed, never the key).',
  'Without --api-key the key is asked for on the terminal (not echoed), or read from the first line of stdin.',
  'Profiles are kept in $XDG_CONFIG_HOME/offerops/config.json (default ~/.config/offerops/config.json), mode 0600.',
  '',
  'options:',
  table([
    ['--profile NAME', 'the profile to save (default: default)'],
    ['--api-key KEY', 'the key (oo_live_… or oo_test_…); prefer the prompt or stdin, a command line can be seen by others'],
    ['--base-url URL', "the API's base URL, ending in /api/v1 (default: OFFEROPS_BASE_URL, else the document's server)"],
    ['--json', 'print JSON'],
    ['-h, --help', 'this help'],
  ]),
  '',
  EXIT_CODES,
  '',
].join('\n');

/** Command paths → the words that may follow; full command paths → their flags; `path --flag` → the flag's values. */
function completionTable(
  groups: ApiGroup[],
  builtIn: Pick<Command, 'words' | 'options'>[],
): { children: Map<string, string[]>; values: Map<string, string[]> } {
  const children = new Map<string, string[]>();
  const values = new Map<string, string[]>();
  const add = (path: string, word: string) => {
    const list = children.get(path) ?? [];
    if (!list.includes(word)) list.push(word);
    children.set(path, list);
  };
  for (const g of groups) {
    add('', g.name);
    for (const c of g.commands) {
      add(g.name, c.name);
      const path = `${g.name} ${c.name}`;
      const flags = [
        ...c.flags.map((f) => `--${f.flag}`),
        ...(c.body ? ['--data'] : []),
        ...(c.pageable ? ['--all'] : []),
        '--profile',
        '--json',
        '--help',
      ];
      children.set(path, flags);
      for (const f of c.flags) {
        if (f.enum) values.set(`${path} --${f.flag}`, f.enum.map(String));
        else if (f.kind === 'boolean') values.set(`${path} --${f.flag}`, []);
      }
    }
  }
  for (const [word] of BUILT_IN_SUMMARIES) add('', word);
  children.set('login', ['--profile', '--api-key', '--base-url', '--json', '--help']);
  children.set('completion', ['bash', 'zsh']);
  for (const c of builtIn) {
    for (let i = 0; i < c.words.length; i++) add(c.words.slice(0, i).join(' '), c.words[i]!);
    children.set(c.words.join(' '), [...Object.keys(c.options).map((o) => `--${o}`), '--json', '--help']);
  }
  return { children, values };
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** A script for bash or zsh: the same case tables, each shell's own glue. */
export function completionScript(shell: 'bash' | 'zsh', groups: ApiGroup[], builtIn: Pick<Command, 'words' | 'options'>[]): string {
  const { children, values } = completionTable(groups, builtIn);
  const cases = (map: Map<string, string[]>) => [...map.entries()].map(([k, v]) => `    ${quote(k)}) REPLY=${quote(v.join(' '))} ;;`).join('\n');
  const shared = [
    '# The words after a command path (its subcommands, or its flags).',
    '_offerops_children() {',
    '  case "$1" in',
    cases(children),
    "    *) REPLY='' ;;",
    '  esac',
    '}',
    '# The values of a flag: "<command path> --flag".',
    '_offerops_values() {',
    '  case "$1" in',
    cases(values),
    '    *) return 1 ;;',
    '  esac',
    '}',
    '# The command path of the words typed so far (as far as they name commands) → $OFFEROPS_PATH.',
    '_offerops_path() {',
    '  local w path=""',
    '  for w in "$@"; do',
    '    _offerops_children "$path"',
    '    case " $REPLY " in *" $w "*) [ "${w#-}" = "$w" ] && path="${path:+$path }$w" || break ;; *) break ;; esac',
    '  done',
    '  OFFEROPS_PATH="$path"',
    '}',
  ].join('\n');
  if (shell === 'bash') {
    return [
      '# offerops completion for bash: eval "$(offerops completion bash)" (e.g. in ~/.bashrc)',
      shared,
      '_offerops() {',
      '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" REPLY OFFEROPS_PATH',
      '  _offerops_path "${COMP_WORDS[@]:1:COMP_CWORD-1}"',
      '  if [[ "$prev" == --* ]] && _offerops_values "$OFFEROPS_PATH $prev"; then',
      '    COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))',
      '    return',
      '  fi',
      '  _offerops_children "$OFFEROPS_PATH"',
      '  COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))',
      '}',
      'complete -F _offerops offerops',
      '',
    ].join('\n');
  }
  return [
    '#compdef offerops',
    '# offerops completion for zsh: eval "$(offerops completion zsh)" (e.g. in ~/.zshrc, after compinit)',
    shared,
    '_offerops() {',
    '  local REPLY OFFEROPS_PATH prev="${words[CURRENT-1]}"',
    '  _offerops_path "${(@)words[2,CURRENT-1]}"',
    '  if [[ "$prev" == --* ]] && _offerops_values "$OFFEROPS_PATH $prev"; then',
    '    compadd -- ${=REPLY}',
    '    return',
    '  fi',
    '  _offerops_children "$OFFEROPS_PATH"',
    '  compadd -- ${=REPLY}',
    '}',
    'compdef _offerops offerops',
    '',
  ].join('\n');
}
