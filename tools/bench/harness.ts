/**
 * What every benchmark script here shares: its entry (the benchmark, or one
 * of its child modes), its own stack in a temporary directory torn down on
 * every exit, the child process serving the measured servers (its config in
 * BENCH_SERVE, its ports as its first message, stopped by a 'stop' message),
 * the connections and the API's dependencies as the service makes them, and
 * the figures (quantiles, ratios marked against their goal).
 */
import { ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Db } from 'mongodb';
import pino from 'pino';
import type { AppDeps } from '../../api/handlers/types';
import { createAccount, createApiKey, setAccountRateLimit } from '../../domain/accounts/store';
import { connectMongo, DbTimeouts } from '../../domain/config';
import { connectTemporal } from '../../domain/temporal-connection';
import { ensureIndexes, Tenant } from '../../domain/db';
import { createOffer } from '../../domain/offers/service';
import type { OfferDoc } from '../../domain/offers/store';
import { DomainDeps } from '../../domain/resource';
import { createLogger } from '../../domain/logger';
import { newSecretKey } from '../../domain/sealing';
import { SCOPES } from '../../schemas/openapi/common';
import { log, Supervisor } from '../stack/processes';
import { startStack } from '../stack/stack';

/** Where the stack is: what a child needs to reach it, with the benchmark's database. */
export interface ServeConfig {
  mongodbUri: string;
  mongodbDb: string;
  temporalAddress: string;
  temporalNamespace: string;
}

export type Stack = Awaited<ReturnType<typeof startStack>>;

export const serveConfig = (stack: Stack, mongodbDb: string): ServeConfig => ({
  mongodbUri: stack.mongodbUri,
  mongodbDb,
  temporalAddress: stack.temporalAddress,
  temporalNamespace: stack.temporalNamespace,
});

/** The benchmark's database (its indexes made) and Temporal, and the two as the domain takes them; `close` ends both connections. */
export async function connectBench(config: ServeConfig, timeouts?: DbTimeouts) {
  const mongo = await connectMongo(config, timeouts);
  await ensureIndexes(mongo.db);
  const temporal = await connectTemporal(config);
  return {
    db: mongo.db,
    temporal,
    domain: { db: mongo.db, temporal: { client: temporal.client } },
    close: () => Promise.allSettled([mongo.client.close(), temporal.connection.close()]),
  };
}

/** The benchmark account's raised per-account limit (an operator setting; the default is 120 a minute). */
export const BENCH_RATE_LIMIT = 10_000_000;

/** The load's account, its limit raised the operator way (not a bypass of the limiter), and a live key with every scope. */
export async function benchAccount(db: Db): Promise<{ apiKey: string; tenant: Tenant }> {
  const account = await createAccount(db, { name: 'Bench' });
  await setAccountRateLimit(db, account._id, BENCH_RATE_LIMIT);
  const { apiKey } = await createApiKey(db, { accountId: account._id, env: 'live', scopes: SCOPES });
  return { apiKey, tenant: { accountId: account._id, env: 'live' } };
}

/** `count` offers of the tenant, created as the API creates them (each its own URL), in order. */
export async function seedOffers(domain: DomainDeps, tenant: Tenant, count: number): Promise<OfferDoc[]> {
  const offers: OfferDoc[] = [];
  for (let i = 0; i < count; i++) {
    const { offer } = await createOffer(domain, tenant, {
      url: `https://shop.example/bench/seed-${i}`,
      title: `Seeded offer ${i}`,
      price: 100 + i,
      original_price: 150 + i,
      store: 'Bench store',
      currency: 'BRL',
    });
    offers.push(offer);
  }
  return offers;
}

/**
 * In the child: the API's dependencies as api/main.ts makes them (a fresh
 * secret key; JSON lines on stdout, written asynchronously: the parent sends
 * them to /dev/null), on `db` or a connection of its own; `close` ends the
 * connections it made.
 */
export async function apiDeps(
  config: ServeConfig,
  db?: Db,
): Promise<{ deps: Pick<AppDeps, 'db' | 'secretKey' | 'temporal' | 'logger'>; close: () => Promise<unknown> }> {
  const mongo = db ? null : await connectMongo(config);
  const temporal = await connectTemporal(config);
  return {
    deps: {
      db: db ?? mongo!.db,
      secretKey: Buffer.from(newSecretKey(), 'base64'),
      temporal: { client: temporal.client, namespace: config.temporalNamespace },
      logger: createLogger('offerops-api', undefined, pino.destination({ dest: 1, sync: false })),
    },
    close: () => Promise.allSettled([mongo?.client.close(), temporal.connection.close()]),
  };
}

/** The q-quantile of `xs` (the nearest rank below). */
export const quantile = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

/** A figure's mark against its goal: ` ` when `met`, `!` when not, nothing when there is no goal. */
export const mark = (met?: boolean): string => (met === undefined ? '' : met ? ' ' : '!');

/** `1.23×` padded to `width` before the sign, then its mark against the goal (see mark). */
export const ratio = (x: number, width: number, met?: boolean): string => `${x.toFixed(2).padStart(width)}×${mark(met)}`;

/**
 * A script's entry: `node script MODE ARGS…` runs that child mode, anything
 * else the benchmark; a failure prints and exits 1.
 */
export function runBench(main: () => Promise<void>, modes: Record<string, (args: string[]) => Promise<void>> = {}): void {
  const [mode, ...args] = process.argv.slice(2);
  const run = mode !== undefined && Object.hasOwn(modes, mode) ? () => modes[mode]!(args) : main;
  run().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}

const children = new Set<ChildProcess>();

/**
 * Runs `body` with a stack of its own (MONGODB_URI / TEMPORAL_ADDRESS when
 * set) in a temporary directory named by `prefix`; afterwards, however it
 * ended, kills the children still running, stops the stack and removes the directory.
 */
export async function withStack(
  prefix: string,
  body: (bench: { dataDir: string; startStack: () => Promise<Stack> }) => Promise<void>,
): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const supervisor = await Supervisor.open(dataDir, log);
  try {
    await body({ dataDir, startStack: () => startStack({ supervisor, withApp: false, log }) });
  } finally {
    for (const child of children) child.kill();
    await supervisor.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Starts `filename` again as a child in `serve` mode with `config` in
 * BENCH_SERVE (its stdout ignored unless `stdout: 'inherit'`); resolves with
 * the child and its first message (its ports).
 */
export async function forkServer<Ready>(
  filename: string,
  config: object,
  opts: { execArgv?: string[]; stdout?: 'inherit' | 'ignore' } = {},
): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = fork(filename, ['serve'], {
    ...(opts.execArgv ? { execArgv: opts.execArgv } : {}),
    stdio: ['ignore', opts.stdout ?? 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, BENCH_SERVE: JSON.stringify(config) },
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const [ready] = (await once(child, 'message')) as [Ready];
  return { child, ready };
}

/** Tells a child of forkServer to stop, and waits for it to exit. */
export async function stopServer(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.send('stop');
  await exited;
}

/** Sends `message` to a child of forkServer and resolves with its next message (its answer). */
export async function ask<Reply>(child: ChildProcess, message: string): Promise<Reply> {
  child.send(message);
  return ((await once(child, 'message')) as [Reply])[0];
}

/** In the child: its CPU time so far (µs, user + system); the parent takes differences around a side's load. */
export function cpuUs(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** In the child: the config forkServer gave it. */
export const childConfig = <C>(): C => JSON.parse(process.env.BENCH_SERVE!) as C;

/** A server for `handle` on a free loopback port (a Koa handler settles its own promise: errors go to its onerror). */
export async function listen(handle: (req: IncomingMessage, res: ServerResponse) => unknown): Promise<Server> {
  const server = createServer((req, res) => void handle(req, res)).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

export const portOf = (server: Server): number => (server.address() as AddressInfo).port;

/**
 * In the child: sends `ready` to the parent; on 'stop', closes `servers`, then
 * runs `close` (apps, connections) and exits. Other messages go to `onMessage`.
 */
export function serveUntilStopped(
  servers: Server[],
  ready: object,
  close: () => Promise<unknown>,
  onMessage?: (message: unknown) => void,
): void {
  process.send!(ready);
  process.on('message', (message) => {
    if (message !== 'stop') {
      onMessage?.(message);
      return;
    }
    for (const s of servers) s.closeAllConnections();
    void Promise.all(servers.map((s) => new Promise((r) => s.close(r))))
      .then(close)
      .then(() => process.exit(0));
  });
}
