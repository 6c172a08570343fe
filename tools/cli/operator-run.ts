/**
 * Running an operator command of the table in commands.ts: an admin command
 * against the stack's MongoDB (and Temporal, for those that start or stop
 * workflows), a dev server until interrupted, a process of the service, a
 * command on the data directory's files, or a recipes command. Each loads
 * what it needs only when it runs.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { constants } from 'node:os';
import { resolve } from 'node:path';
import type { connectTemporal } from '../../domain/temporal-connection';
import type { TemporalDeps } from '../../temporal/start';
import type { AdminFn, Command } from './commands';
import { printRecords, wantsJson } from './output';
import { dataDir, existingSecretKey, StackInfo, stackInfo } from './stack-config';

type Values = Record<string, string | boolean | undefined>;

async function runAdmin(command: Command, values: Values, args: string[]): Promise<void> {
  const info = stackInfo();
  const [{ MongoClient }, admin] = await Promise.all([import('mongodb'), import('./admin.js')]);
  const client = await MongoClient.connect(info.mongodb_uri, { serverSelectionTimeoutMS: 5_000 });
  // Temporal (and its client's modules) only for the commands that start or stop workflows (sandbox seeding and reset, monitor run).
  const held: { temporal?: ReturnType<typeof connectTemporal> } = {};
  const temporalDeps = async (): Promise<TemporalDeps> => {
    if (!info.temporal_address) throw new Error('the stack has no Temporal address (start it with npm start, or set TEMPORAL_ADDRESS)');
    const [{ connectTemporal }, { TASK_QUEUE }] = await Promise.all([
      import('../../domain/temporal-connection.js'),
      import('../../temporal/names.js'),
    ]);
    held.temporal ??= connectTemporal({ temporalAddress: info.temporal_address, temporalNamespace: info.temporal_namespace || 'offerops' });
    return { client: (await held.temporal).client, taskQueue: process.env.OFFEROPS_TASK_QUEUE || TASK_QUEUE };
  };
  try {
    const db = client.db(info.mongodb_db);
    const input = { values, args, secretKey: () => existingSecretKey(dataDir()), temporal: temporalDeps, stack: info };
    if (command.stream) await admin[command.stream](db, input, process.stdout);
    else process.stdout.write(`${JSON.stringify(await (admin[command.admin!] as AdminFn)(db, input))}\n`);
  } finally {
    await Promise.allSettled([client.close(), held.temporal?.then((t) => t.connection.close())]);
  }
}

/** Runs a dev server until SIGINT or SIGTERM. */
async function runDev(command: Command, values: Values): Promise<void> {
  const opts = Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const json = wantsJson();
  // Listened for before the server says it listens: a stop that follows its banner at once is graceful too.
  const stopped = new Promise<void>((done) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => done());
  });
  const server =
    command.dev === 'gateway'
      ? await (await import('./dev-gateway.js')).startDevGateway(opts, { json, input: process.stdin })
      : await (await import('./dev-receiver.js')).startDevReceiver(opts, { json });
  await stopped;
  await server.close();
}

/**
 * `offerops api` / `offerops worker`: the process runs here, configured from
 * the environment, else from the stack running in the data directory (its
 * addresses, and the allow-list and certificate trust of its own processes).
 */
async function runServe(which: 'api' | 'worker', values: Values): Promise<void> {
  const ca = !process.env.MONGODB_URI || !process.env.TEMPORAL_ADDRESS ? joinStack(stackInfo(), process.env) : undefined;
  process.env.OFFEROPS_SECRET_KEY ??= existingSecretKey(dataDir()).toString('base64');
  if (typeof values.port === 'string') process.env.PORT = values.port;
  if (typeof values.host === 'string') process.env.HOST = values.host;
  // The process's own entry point (dist/api/main.js or dist/worker/main.js), which starts on load.
  const entry = resolve(__dirname, '../..', which, 'main.js');
  if (ca) await runTrusting(entry, ca);
  else await import(entry);
}

/**
 * Sets in `env` what a process joining the stack `info` needs and `env` does
 * not say: the stack's addresses and its processes' OFFEROPS_WEBHOOK_ALLOW.
 * Their CA bundle, when the process should start with it as NODE_EXTRA_CA_CERTS
 * (Node reads it at start only) and `env` names none of its own.
 */
export function joinStack(info: StackInfo, env: NodeJS.ProcessEnv): string | undefined {
  env.MONGODB_URI ??= info.mongodb_uri;
  env.MONGODB_DB ??= info.mongodb_db;
  if (info.temporal_address) env.TEMPORAL_ADDRESS ??= info.temporal_address;
  if (info.temporal_namespace) env.TEMPORAL_NAMESPACE ??= info.temporal_namespace;
  if (info.webhook_allow) env.OFFEROPS_WEBHOOK_ALLOW ??= info.webhook_allow;
  return info.ca_file && !env.NODE_EXTRA_CA_CERTS ? info.ca_file : undefined;
}

/** Runs `entry` in a child process started with NODE_EXTRA_CA_CERTS=`ca`; exits as it did. */
const runTrusting = (entry: string, ca: string): Promise<void> =>
  runChild(process.execPath, [entry], { ...process.env, NODE_EXTRA_CA_CERTS: ca });

/** Runs `file` with our terminal, handing it our signals; this process exits with its status. */
async function runChild(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const child = spawn(file, args, { env, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  process.exitCode = code ?? (signal ? 128 + constants.signals[signal] : 1);
}

/** `offerops admin temporal …`: the Temporal CLI with the running stack's address and namespace; exits as it did. */
async function runTemporal(args: string[]): Promise<void> {
  const info = stackInfo();
  const { temporalBinary } = await import('../stack/temporal-cli.js');
  const binary = await temporalBinary((line) => process.stderr.write(`offerops: ${line}\n`));
  const env = {
    ...process.env,
    TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS ?? info.temporal_address,
    TEMPORAL_NAMESPACE: process.env.TEMPORAL_NAMESPACE ?? info.temporal_namespace ?? 'offerops',
  };
  await runChild(binary, args, env);
}

export async function operatorCommand(command: Command, values: Values, args: string[]): Promise<void> {
  if (command.admin || command.stream) await runAdmin(command, values, args);
  else if (command.recipes) printRecords(await command.recipes(args, values));
  else if (command.serve) await runServe(command.serve, values);
  else if (command.passthrough) await runTemporal(args);
  else if (command.files) process.stdout.write(`${JSON.stringify(await command.files(values))}\n`);
  else await runDev(command, values);
}
