#!/usr/bin/env node
/**
 * The `offerops` command. `-h`/`--help` prints help at every level (plain
 * text on stdout, exit 0). API commands (`offerops offers list`, one per
 * operation of the OpenAPI document: api-commands.ts) print the API's JSON,
 * or a table or record on a terminal; `login` saves a profile, `completion`
 * prints a shell script. Admin commands print one JSON object on stdout.
 * Failures go to stderr — readable text on a terminal; `{"error": …}` with
 * `--json` or when stdout is not a terminal — and exit 2 (a usage or input
 * error), 4 (the API refused: 4xx), 5 (5xx or no answer, after retries) or 1
 * (anything else). `recipes` commands print one JSON object too. `dev`
 * commands run until interrupted.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { TemporalDeps } from '../../temporal/start';
import { DomainError } from '../../domain/errors';
// The operator commands (and MongoDB) are loaded only when used: an API command starts without them.
import type { Command } from './commands';
import { UsageError } from './errors';
import { ApiError, NetworkError } from './api-client';
import { BUILT_IN } from './api-commands';
import { topHelp } from './api-help';
import { Api, ApiUsageError, loadApi, runApiCommand, runCompletion, runLogin } from './api-run';
import { dataDir, existingSecretKey, stackInfo } from './stack-config';

const HELP = new Set(['-h', '--help']);

/** Where in the command tree the arguments led: a whole command, or the words of a group of commands. */
type Place = { command: Command; rest: string[] } | { words: string[]; rest: string[] };

const startsWith = (words: string[], prefix: string[]): boolean => prefix.every((w, i) => words[i] === w);

/** Follows the leading words (skipping --help and --json) as far as they name commands. */
function locate(argv: string[], COMMANDS: Command[]): Place {
  const words: string[] = [];
  let i = 0;
  for (; i < argv.length; i++) {
    const token = argv[i]!;
    if (HELP.has(token) || token === '--json') continue;
    if (token.startsWith('-') || !COMMANDS.some((c) => startsWith(c.words, [...words, token]))) break;
    words.push(token);
    const command = COMMANDS.find((c) => c.words.length === words.length && startsWith(c.words, words));
    if (command) return { command, rest: argv.slice(i + 1) };
  }
  return { words, rest: argv.slice(i).filter((t) => !HELP.has(t) && t !== '--json') };
}

class Failure extends UsageError {
  constructor(
    message: string,
    readonly help: string,
  ) {
    super(message);
  }
}

/** The command's options and arguments, checked; a usage error names what is wrong. */
function parse(command: Command, rest: string[], usageLine: (c: Command) => string) {
  const hint = `Run 'offerops ${command.words.join(' ')} --help' for its options.`;
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: { ...command.options, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (err) {
    throw new Failure((err as Error).message, `usage: ${usageLine(command)}\n${hint}`);
  }
  const { positionals, values } = parsed;
  if (positionals.length < command.args.length) {
    throw new Failure(`missing ${command.args.slice(positionals.length).join(' ')}`, `usage: ${usageLine(command)}\n${hint}`);
  }
  if (positionals.length > command.args.length) {
    const extra = positionals.slice(command.args.length);
    throw new Failure(`unexpected argument${extra.length > 1 ? 's' : ''}: ${extra.join(' ')}`, `usage: ${usageLine(command)}\n${hint}`);
  }
  return { values: values as Record<string, string | boolean | undefined>, args: positionals };
}

async function runAdmin(command: Command, values: Record<string, string | boolean | undefined>, args: string[]): Promise<void> {
  const { MongoClient } = await import('mongodb');
  const info = stackInfo();
  const client = await MongoClient.connect(info.mongodb_uri, { serverSelectionTimeoutMS: 5_000 });
  // Temporal only for the commands that start or stop workflows (account create seeds the sandbox, sandbox reset).
  const { connectTemporal } = await import('../../domain/config.js');
  const { TASK_QUEUE } = await import('../../temporal/names.js');
  const held: { temporal?: ReturnType<typeof connectTemporal> } = {};
  const temporalDeps = async (): Promise<TemporalDeps> => {
    if (!info.temporal_address) throw new Error('the stack has no Temporal address (start it with npm start, or set TEMPORAL_ADDRESS)');
    held.temporal ??= connectTemporal({ temporalAddress: info.temporal_address, temporalNamespace: info.temporal_namespace || 'offerops' });
    return { client: (await held.temporal).client, taskQueue: process.env.OFFEROPS_TASK_QUEUE || TASK_QUEUE };
  };
  try {
    const db = client.db(info.mongodb_db);
    const input = { values, args, secretKey: () => existingSecretKey(dataDir()), temporal: temporalDeps, stack: info };
    if (command.stream) await command.stream(db, input, process.stdout);
    else process.stdout.write(`${JSON.stringify(await command.admin!(db, input))}\n`);
  } finally {
    await Promise.allSettled([client.close(), held.temporal?.then((t) => t.connection.close())]);
  }
}

/** Runs a dev server until SIGINT or SIGTERM. */
async function runDev(command: Command, values: Record<string, string | boolean | undefined>, json: boolean): Promise<void> {
  const opts = Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const { startDevGateway } = await import('./dev-gateway.js');
  const { startDevReceiver } = await import('./dev-receiver.js');
  const server =
    command.dev === 'gateway' ? await startDevGateway(opts, { json, input: process.stdin }) : await startDevReceiver(opts, { json });
  await new Promise<void>((done) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => done());
  });
  await server.close();
}

/**
 * `offerops api` / `offerops worker`: the process runs here, configured from
 * the environment, else from the stack running in the data directory.
 */
async function runServe(which: 'api' | 'worker', values: Record<string, string | boolean | undefined>): Promise<void> {
  if (!process.env.MONGODB_URI || !process.env.TEMPORAL_ADDRESS) {
    const info = stackInfo();
    process.env.MONGODB_URI ??= info.mongodb_uri;
    process.env.MONGODB_DB ??= info.mongodb_db;
    if (info.temporal_address) process.env.TEMPORAL_ADDRESS ??= info.temporal_address;
    if (info.temporal_namespace) process.env.TEMPORAL_NAMESPACE ??= info.temporal_namespace;
  }
  process.env.OFFEROPS_SECRET_KEY ??= existingSecretKey(dataDir()).toString('base64');
  if (typeof values.port === 'string') process.env.PORT = values.port;
  if (typeof values.host === 'string') process.env.HOST = values.host;
  // The process's own entry point (dist/api/main.js or dist/worker/main.js), which starts on load.
  await import(resolve(__dirname, '../..', which, 'main.js'));
}

/** The API commands of the document, or why there are none (the built-in commands work without it). */
function tryLoadApi(): { api: Api } | { error: string } {
  try {
    return { api: loadApi() };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

async function main(argv: string[], json: boolean): Promise<void> {
  const help = argv.some((t) => HELP.has(t));
  const first = argv.find((t) => !t.startsWith('-'));
  if (first === undefined && help) {
    const loaded = tryLoadApi();
    const { AREAS } = await import('./commands.js');
    process.stdout.write('api' in loaded ? topHelp(loaded.api.groups, AREAS) : topHelp(null, AREAS, loaded.error));
    return;
  }
  if (first !== undefined && (!BUILT_IN.includes(first) || first === 'login' || first === 'completion')) {
    const loaded = tryLoadApi();
    if (!('api' in loaded)) throw new UsageError(`cannot read the OpenAPI document: ${loaded.error}`);
    const { api } = loaded;
    if (first === 'login') return runLogin(api, argv, json, help);
    if (first === 'completion') return runCompletion(api, argv, (await import('./commands.js')).COMMANDS);
    if (api.groups.some((g) => g.name === first)) return runApiCommand(api, argv, json, help);
  }
  const { COMMANDS } = await import('./commands.js');
  const { commandHelp, groupHelp, usageLine } = await import('./help.js');
  const place = locate(argv, COMMANDS);
  if (!('command' in place)) {
    const known = place.words;
    if (help && place.rest.length === 0) {
      process.stdout.write(groupHelp(known));
      return;
    }
    const what = place.rest[0];
    const message =
      what === undefined
        ? known.length
          ? `'offerops ${known.join(' ')}' needs a command`
          : 'no command given'
        : what.startsWith('-')
          ? `unknown option ${what}`
          : `unknown command '${[...known, what].join(' ')}'`;
    throw new Failure(message, known.length ? `Run 'offerops ${known.join(' ')} --help' to see its commands.` : groupHelp(known).trimEnd());
  }
  const { command, rest } = place;
  if (help) {
    process.stdout.write(commandHelp(command));
    return;
  }
  const { values, args } = parse(command, rest, usageLine);
  if (command.admin || command.stream) await runAdmin(command, values, args);
  else if (command.recipes) process.stdout.write(`${JSON.stringify(await command.recipes(args, values))}\n`);
  else if (command.serve) await runServe(command.serve, values);
  else if (command.files) process.stdout.write(`${JSON.stringify(await command.files(values))}\n`);
  else await runDev(command, values, json);
}

const argv = process.argv.slice(2);
const json = argv.includes('--json') || !process.stdout.isTTY;
(argv[0] === 'mcp' ? import('./mcp.js').then((m) => m.runMcp()) : main(argv, json)).then(
  () => undefined,
  (err: unknown) => {
    const usage = err instanceof UsageError || err instanceof DomainError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    const message = (err as Error).message;
    if (err instanceof ApiError) {
      const fields = { error: message, status: err.status, code: err.code, request_id: err.requestId };
      process.stderr.write(
        json
          ? `${JSON.stringify(fields)}\n`
          : `offerops: ${err.status} ${err.code}: ${message}${err.requestId ? ` (request_id ${err.requestId})` : ''}\n`,
      );
      process.exitCode = err.status < 500 ? 4 : 5;
      return;
    }
    if (json) {
      const code = err instanceof DomainError ? { code: err.code } : {};
      process.stderr.write(`${JSON.stringify({ error: message, ...code })}\n`);
    } else {
      const hint = err instanceof Failure ? err.help : err instanceof ApiUsageError ? err.hint : null;
      process.stderr.write(`offerops: ${message}\n${hint ? `\n${hint}\n` : ''}`);
    }
    process.exitCode = err instanceof NetworkError ? 5 : usage ? 2 : 1;
  },
);
