/**
 * How the flags of an API command read in its help (from the parameter
 * schemas), and shell completion made from the command tree: every command,
 * its flags, and the values a flag takes (enums, booleans).
 */
import type { Command } from 'commander';
import { Flag } from './api-commands';

const placeholder = (f: Flag): string => f.name.toUpperCase().replace(/-/g, '_');

export function flagUsage(f: Flag): string {
  if (f.kind === 'boolean') return `--${f.flag}`;
  if (f.enum && f.kind !== 'list' && f.enum.join('|').length <= 40) return `--${f.flag} ${f.enum.join('|')}`;
  return `--${f.flag} ${f.kind === 'json' ? 'JSON' : placeholder(f)}`;
}

export function flagType(f: Flag): string {
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

export const EXIT_CODES =
  'Exit codes: 0 success, 2 usage error, 4 the API refused the request (4xx), 5 server or network error (5xx or no answer, after retries), 1 anything else.';

/** Command paths → the words that may follow; full command paths → their flags; `path --flag` → the flag's values. */
function completionTable(program: Command): { children: Map<string, string[]>; values: Map<string, string[]> } {
  const children = new Map<string, string[]>();
  const values = new Map<string, string[]>();
  const walk = (cmd: Command, path: string) => {
    if (cmd.commands.length) {
      children.set(
        path,
        cmd.commands.map((c) => c.name()),
      );
      for (const c of cmd.commands) walk(c, path ? `${path} ${c.name()}` : c.name());
      return;
    }
    const flags = cmd.options.filter((o) => !o.hidden && o.long).map((o) => o.long!);
    children.set(path, [...cmd.registeredArguments.flatMap((a) => a.argChoices ?? []), ...flags, '--help']);
    for (const o of cmd.options) if (o.argChoices && o.long) values.set(`${path} ${o.long}`, o.argChoices);
  };
  walk(program, '');
  return { children, values };
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** A script for bash or zsh: the same case tables, each shell's own glue. */
export function completionScript(shell: 'bash' | 'zsh', program: Command): string {
  const { children, values } = completionTable(program);
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
