#!/usr/bin/env node
/**
 * The `offerops` command. `-h`/`--help` prints help at every level (plain
 * text on stdout, exit 0). Admin commands print one JSON object on stdout.
 * Failures go to stderr — readable text on a terminal; `{"error": …}` with
 * `--json` or when stdout is not a terminal — and exit 2 (a usage or input
 * error) or 1 (anything else). `recipes` commands print one JSON object too.
 * `dev` commands run until interrupted.
 */
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { DomainError } from '../../domain/errors';
import { Command, COMMANDS } from './commands';
import { startDevGateway } from './dev-gateway';
import { startDevReceiver } from './dev-receiver';
import { runMcp } from './mcp';
import { UsageError } from './errors';
import { dataDir, existingSecretKey, stackInfo } from './stack-config';
import { commandHelp, groupHelp, usageLine } from './help';

const HELP = new Set(['-h', '--help']);

/** Where in the command tree the arguments led: a whole command, or the words of a group of commands. */
type Place = { command: Command; rest: string[] } | { words: string[]; rest: string[] };

const startsWith = (words: string[], prefix: string[]): boolean => prefix.every((w, i) => words[i] === w);

/** Follows the leading words (skipping --help and --json) as far as they name commands. */
function locate(argv: string[]): Place {
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
function parse(command: Command, rest: string[]) {
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
  const info = stackInfo();
  const client = await MongoClient.connect(info.mongodb_uri, { serverSelectionTimeoutMS: 5_000 });
  try {
    const db = client.db(info.mongodb_db);
    const result = await command.admin!(db, { values, args, secretKey: () => existingSecretKey(dataDir()) });
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await client.close();
  }
}

/** Runs a dev server until SIGINT or SIGTERM. */
async function runDev(command: Command, values: Record<string, string | boolean | undefined>, json: boolean): Promise<void> {
  const opts = Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const server =
    command.dev === 'gateway' ? await startDevGateway(opts, { json, input: process.stdin }) : await startDevReceiver(opts, { json });
  await new Promise<void>((done) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => done());
  });
  await server.close();
}

async function main(argv: string[], json: boolean): Promise<void> {
  const place = locate(argv);
  const help = argv.some((t) => HELP.has(t));
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
  const { values, args } = parse(command, rest);
  if (command.admin) await runAdmin(command, values, args);
  else if (command.recipes) process.stdout.write(`${JSON.stringify(await command.recipes(args))}\n`);
  else await runDev(command, values, json);
}

const argv = process.argv.slice(2);
const json = argv.includes('--json') || !process.stdout.isTTY;
(argv[0] === 'mcp' ? runMcp() : main(argv, json)).then(
  () => undefined,
  (err: unknown) => {
    const usage = err instanceof UsageError || err instanceof DomainError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    const message = (err as Error).message;
    if (json) {
      const code = err instanceof DomainError ? { code: err.code } : {};
      process.stderr.write(`${JSON.stringify({ error: message, ...code })}\n`);
    } else {
      process.stderr.write(`offerops: ${message}\n${err instanceof Failure ? `\n${err.help}\n` : ''}`);
    }
    process.exitCode = usage ? 2 : 1;
  },
);
