/**
 * The command tree of `offerops` on commander: one group per tag of the
 * OpenAPI document with one command per operation (api-commands.ts), the
 * operator commands of the table in commands.ts, and `login`, `completion`
 * and `mcp`. Each command's action loads what it needs when it runs: help
 * and the API commands start without MongoDB, Temporal or Koa.
 */
import { Argument, Option } from 'commander';
import { Api, parseValue, runApiCommand, runCompletion, runLogin } from './api-run';
import { ApiCommand, Flag } from './api-commands';
import { EXIT_CODES, flagType, flagUsage } from './api-help';
import { AREAS, Command, COMMANDS, NOUNS } from './commands';
import { OfferopsCommand } from './help';
import { operatorCommand } from './operator-run';

const STACK =
  'Admin commands find the stack through OFFEROPS_DATA_DIR (default: the .offerops directory of the offerops checkout ' +
  'the command runs in, found by walking up from the working directory), or MONGODB_URI and MONGODB_DB. Each prints ' +
  'one JSON object on stdout; a failure exits 2 (usage or input) or 1.';

/** The options of the command line itself, on every command. */
function common(cmd: OfferopsCommand, json: string): void {
  cmd.addOption(new Option('--json', json));
  cmd.helpOption('-h, --help', 'this help');
}

/** `--price <PRICE>` for the flags of an API command, each value checked against its schema as it is read. */
function apiOption(f: Flag, hint: () => string): Option[] {
  const term = flagUsage(f).replace(/ (.+)$/, ' <$1>');
  const description = [flagType(f), f.description?.split('\n')[0]!.trim(), f.in === 'body' ? '(body)' : ''].filter(Boolean).join(' — ');
  const option = new Option(f.kind === 'boolean' ? `--${f.flag} [true|false]` : term, description).argParser(
    (raw: string, previous: unknown) => {
      const value = parseValue(f, raw, hint());
      return f.kind === 'list' && Array.isArray(previous) ? [...(previous as unknown[]), ...(value as unknown[])] : value;
    },
  );
  if (f.enum) option.argChoices = f.enum.map(String);
  else if (f.kind === 'boolean') option.argChoices = [];
  return f.kind === 'boolean' ? [option, new Option(`--no-${f.flag}`).hideHelp()] : [option];
}

/** bash or zsh; completion offers them, and runCompletion refuses another in its own words. */
function shellArgument(): Argument {
  const shell = new Argument('<SHELL>', 'bash or zsh');
  shell.argChoices = ['bash', 'zsh'];
  return shell;
}

function addApiCommand(api: Api, group: OfferopsCommand, c: ApiCommand): void {
  const cmd = group.command(c.name);
  const required = c.flags.filter((f) => f.required).map(flagUsage);
  cmd
    .summary(c.summary)
    .description(
      // The document's descriptions are Markdown: bold marks dropped for a terminal, code spans kept.
      [
        c.summary,
        c.description.trim().replace(/\*\*([^*]+)\*\*/g, '$1'),
        `${c.method} ${c.path}   (operation ${c.operationId}${c.scope ? `, scope ${c.scope}` : ''})`,
      ]
        .filter(Boolean)
        .join('\n\n'),
    )
    .usage([...c.args.map((a) => a.name.toUpperCase()), ...required, '[options]'].join(' '));
  for (const a of c.args) cmd.argument(`<${a.name.toUpperCase()}>`, a.description?.split('\n')[0]!.trim() ?? `the ${a.name} of the resource`);
  const byFlag = new Map<Flag, Option>();
  for (const f of c.flags) {
    const [option, ...more] = apiOption(f, () => cmd.hint());
    byFlag.set(f, option!);
    for (const o of [option!, ...more]) cmd.addOption(o);
  }
  if (c.body) {
    cmd.option(
      '--data <JSON>',
      `the request body${c.body.required ? ' (required)' : ''}: JSON, @file.json, or - to read stdin; the flags above set its top-level fields over it`,
    );
  }
  if (c.pageable) cmd.option('--all', `follow the pages (limit/offset, up to ${c.maxLimit ?? 100} a page) and print every item`);
  cmd.option('--profile <NAME>', 'the credentials of a profile saved by offerops login (else OFFEROPS_API_KEY, else the profile default)');
  common(cmd, "print the API's JSON (the default when stdout is not a terminal)");
  cmd.notes = [EXIT_CODES];
  cmd.action(() => {
    const values = new Map<Flag, unknown>();
    for (const [f, option] of byFlag) {
      const value: unknown = cmd.getOptionValue(option.attributeName());
      if (value !== undefined) values.set(f, value);
    }
    const opts = cmd.opts<{ data?: string; all?: boolean; profile?: string }>();
    return runApiCommand(api, c, { positionals: cmd.args, values, ...opts, all: opts.all === true }, cmd.hint());
  });
}

/** The options of an operator command: its `options`, described by the lines of `details` that start with the flag. */
function addOperatorCommand(parent: OfferopsCommand, c: Command): void {
  const cmd = parent.command(c.words[c.words.length - 1]!);
  cmd
    .summary(c.summary)
    .description(`${c.summary[0]!.toUpperCase()}${c.summary.slice(1)}.`)
    .usage([...c.args, c.synopsis].filter(Boolean).join(' '));
  for (const a of c.args) cmd.argument(`<${a}>`);
  // The other tool's words, options included, reach it as they are.
  if (c.passthrough) cmd.argument('[args...]').allowUnknownOption().helpOption(false);
  const described = new Map<string, { term: string; text: string }>();
  const prose: string[] = [];
  let last: { term: string; text: string } | null = null;
  for (const line of c.details) {
    const m = /^--([a-z-]+)(?: (\S+))?\s{2,}(.*)$/.exec(line);
    if (m && m[1]! in c.options) {
      last = { term: m[2] ? `--${m[1]} <${m[2]}>` : `--${m[1]}`, text: m[3]! };
      described.set(m[1]!, last);
    } else if (/^\s/.test(line) && last) last.text += ` ${line.trim()}`;
    else {
      prose.push(line);
      last = null;
    }
  }
  for (const [name, spec] of Object.entries(c.options)) {
    const about = described.get(name);
    const term = about?.term ?? (spec.type === 'string' ? `--${name} <VALUE>` : `--${name}`);
    cmd.option(term, about?.text ?? '');
  }
  common(cmd, 'errors as {"error": …} on stderr (the default when stdout is not a terminal)');
  cmd.notes = [
    ...(c.prints ? [`prints: ${c.prints}`] : []),
    ...(prose.length ? [prose.join(' ')] : []),
    ...(c.admin || c.stream ? [STACK] : []),
  ];
  cmd.action(() => {
    const values: Record<string, string | boolean | undefined> = {};
    for (const o of cmd.options) values[o.long!.slice(2)] = cmd.getOptionValue(o.attributeName()) as string | boolean | undefined;
    return operatorCommand(c, values, cmd.args);
  });
}

/** A group of commands: `offers`, `admin`, `admin key`. */
function group(parent: OfferopsCommand, name: string, description: string): OfferopsCommand {
  const cmd = parent.command(name).description(description).usage('<command> [arguments] [options]');
  cmd.helpOption('-h, --help', 'this help');
  return cmd;
}

/** `offerops` and everything under it; without a document (`api` holds why), only the commands that need none. */
export function buildProgram(api: Api | { error: string }): OfferopsCommand {
  const program = new OfferopsCommand('offerops');
  program
    .description('The offerops API from the command line, and operator commands for a stack.')
    .usage('<group> <command> [arguments] [options]')
    .helpCommand(false)
    .exitOverride()
    .configureOutput({ outputError: () => undefined })
    .hook('preAction', (_program, command) => (command as OfferopsCommand).refuseOptionsAsValues());
  common(program, 'JSON output and errors (the default when stdout is not a terminal)');

  program.commandsGroup('API commands, one per operation of the OpenAPI document:');
  if ('groups' in api) {
    for (const g of api.groups) {
      const cmd = group(program, g.name, g.description.split('\n')[0]!.trim());
      for (const c of g.commands) addApiCommand(api, cmd, c);
    }
  }

  program.commandsGroup('Other commands:');
  const login = program
    .command('login')
    .summary('save an API key as a profile, checked against the API (offerops login --help)')
    .description(
      'Save an API key as a profile after checking it against the API (the account it belongs to is printed, never the key). ' +
        'Without --api-key the key is asked for on the terminal (not echoed), or read from the first line of stdin. ' +
        'Profiles are kept in $XDG_CONFIG_HOME/offerops/config.json (default ~/.config/offerops/config.json), mode 0600.',
    )
    .usage('[--profile NAME] [--api-key KEY] [--base-url URL]')
    .option('--profile <NAME>', 'the profile to save (default: default)')
    .option('--api-key <KEY>', 'the key (oo_live_… or oo_test_…); prefer the prompt or stdin, a command line can be seen by others')
    .option('--base-url <URL>', "the API's base URL, ending in /api/v1 (default: OFFEROPS_BASE_URL, else the document's server)");
  common(login, 'print JSON');
  login.notes = [EXIT_CODES];
  login.action(() => {
    if (!('groups' in api)) throw new Error(`cannot read the OpenAPI document: ${api.error}`);
    return runLogin(api, login.opts());
  });

  const completion = program
    .command('completion')
    .summary('print a shell completion script: offerops completion bash|zsh')
    .description('Print a completion script for bash (eval "$(offerops completion bash)" in ~/.bashrc) or zsh (in ~/.zshrc, after compinit).')
    .addArgument(shellArgument());
  completion.helpOption('-h, --help', 'this help');
  completion.action((shell: string) => runCompletion(shell, program));

  const mcp = program
    .command('mcp')
    .summary('the MCP server over stdio, for an MCP client (docs/guides/mcp.md)')
    .description(
      'Run the MCP server over stdio: its tools are the operations of the OpenAPI document, each called on OFFEROPS_BASE_URL ' +
        '(default http://127.0.0.1:8080/api/v1) with OFFEROPS_API_KEY.',
    );
  mcp.helpOption('-h, --help', 'this help');
  mcp.action(async () => (await import('./mcp.js')).runMcp());

  const groups = new Map<string, OfferopsCommand>();
  for (const c of COMMANDS) {
    let parent = program;
    for (let i = 1; i < c.words.length; i++) {
      const prefix = c.words.slice(0, i).join(' ');
      let next = groups.get(prefix);
      if (!next) {
        next = group(parent, c.words[i - 1]!, NOUNS[prefix] ?? AREAS[prefix] ?? '');
        if (c.words[0] === 'admin') next.notes = [STACK];
        groups.set(prefix, next);
      }
      parent = next;
    }
    addOperatorCommand(parent, c);
  }

  program.notes = [
    "Run 'offerops <group> --help' for its commands and 'offerops <group> <command> --help' for one command.\n" +
      'API credentials: offerops login, or OFFEROPS_API_KEY and OFFEROPS_BASE_URL.',
    ...('error' in api ? [`The API commands are unavailable: cannot read the OpenAPI document (${api.error}).`] : []),
    EXIT_CODES,
  ];
  return program;
}
