/**
 * The offerops stack: a MongoDB-protocol server, a Temporal server (our
 * namespace and search attributes ensured on it) and, with `withApp`, the
 * worker and API processes. Every part comes from the environment when given
 * (MONGODB_URI, TEMPORAL_ADDRESS), else is started here with its state under
 * the supervisor's data directory, on the ports it had at the last start while
 * they are free (`<data>/ports.json`), else on free ones.
 */
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient } from 'mongodb';
import { secretKeyFor } from '../cli/stack-config';
import { ferretdbBinary, mongodOnPath } from './binaries';
import { temporalBinary } from './temporal-cli';
import { freePorts, isPortFree, Log, poll, Supervisor } from './processes';
import { ensureNamespace, waitForTemporal } from './temporal-setup';

export interface StackOptions {
  /** Owns everything the stack starts; `stack.stop()` is `supervisor.stop()`. */
  supervisor: Supervisor;
  /** Also run the worker and the API (`npm start`); the test runner does not. */
  withApp: boolean;
  /** The API's port (default: a free one). */
  port?: number;
  /** Run MongoDB and Temporal in Docker containers when an engine answers (test runner only). */
  containers?: boolean;
  log: Log;
}

export interface Stack {
  mongodbUri: string;
  mongodbDb: string;
  temporalAddress: string;
  temporalNamespace: string;
  /** The namespace's workflow list in the Temporal Web UI, when we started the server. */
  temporalUiUrl?: string;
  /** `http://127.0.0.1:PORT/api/v1`, with `withApp`. */
  apiUrl?: string;
  /** The worker's Prometheus metrics (`http://127.0.0.1:PORT/metrics`), with `withApp`. */
  workerMetricsUrl?: string;
  /** What the API and the worker were given beyond the addresses, with `withApp`: a process that joins gets the same. */
  webhookAllow?: string;
  caFile?: string;
  stop(): Promise<void>;
}

interface Backends {
  mongodbUri: string;
  temporalAddress: string;
  temporalUi?: string;
}

const STARTUP_TIMEOUT_MS = 60_000;

/** Hides credentials in a connection string before it reaches a message. */
const redact = (uri: string): string => uri.replace(/\/\/[^@/]*@/, '//***@');

export async function startStack(opts: StackOptions): Promise<Stack> {
  const { supervisor, log } = opts;
  const mongodbDb = process.env.MONGODB_DB || 'offerops';
  const temporalNamespace = process.env.TEMPORAL_NAMESPACE || 'offerops';
  try {
    if (opts.withApp && opts.port !== undefined) await assertPortFree(opts.port); // before minutes of first-start work
    const tryContainers = opts.containers === true && !process.env.MONGODB_URI && !process.env.TEMPORAL_ADDRESS && (await dockerAnswers());
    const backends = (tryContainers ? await startContainers(supervisor, log) : null) ?? (await startLocal(supervisor, temporalNamespace, log));
    await ensureNamespace(backends.temporalAddress, temporalNamespace, log);
    const stack: Stack = {
      mongodbUri: backends.mongodbUri,
      mongodbDb,
      temporalAddress: backends.temporalAddress,
      temporalNamespace,
      ...(backends.temporalUi ? { temporalUiUrl: `${backends.temporalUi}/namespaces/${temporalNamespace}/workflows` } : {}),
      stop: () => supervisor.stop(),
    };
    if (opts.withApp) Object.assign(stack, await startApp(supervisor, stack, log, opts.port));
    writeStackFile(supervisor, stack);
    return stack;
  } catch (err) {
    await supervisor.stop();
    throw err;
  }
}

type PortName = 'mongodb' | 'temporal' | 'temporal_ui';
const PORT_LABELS: Record<PortName, string> = { mongodb: 'MongoDB', temporal: 'Temporal', temporal_ui: 'Temporal UI' };

/**
 * `<data>/ports.json`: the port each embedded server listened on, so that the
 * next start on this data directory uses the same ones (the Temporal UI's
 * address stays bookmarkable) while they are free.
 */
class SavedPorts {
  private readonly file: string;
  private readonly saved: Partial<Record<PortName, number>>;
  private readonly taken = new Set<number>();

  constructor(
    dataDir: string,
    private readonly log: Log,
  ) {
    this.file = join(dataDir, 'ports.json');
    try {
      this.saved = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<Record<PortName, number>>;
    } catch {
      this.saved = {};
    }
  }

  /** The port `name` had last time if it is free now, else null (saying so when there was one). */
  async reuse(name: PortName): Promise<number | null> {
    const saved = this.saved[name];
    if (saved === undefined || !Number.isInteger(saved)) return null;
    if (!this.taken.has(saved) && (await isPortFree(saved))) {
      this.taken.add(saved);
      return saved;
    }
    this.log(`${PORT_LABELS[name]} port ${saved} (used last time) is taken: picking a new one, kept for later starts`);
    return null;
  }

  /** The port `name` had last time if it is free now, else a free one. */
  async pick(name: PortName): Promise<number> {
    return (await this.reuse(name)) ?? (await this.fresh());
  }

  /** A free port, none of those given out before. */
  async fresh(): Promise<number> {
    let port: number;
    do [port] = (await freePorts(1)) as [number];
    while (this.taken.has(port));
    this.taken.add(port);
    return port;
  }

  /** Records the port `name` listens on, for the next start. */
  keep(name: PortName, port: number): void {
    if (this.saved[name] === port) return;
    this.saved[name] = port;
    writeFileSync(this.file, `${JSON.stringify(this.saved, null, 2)}\n`);
  }
}

async function startLocal(supervisor: Supervisor, namespace: string, log: Log): Promise<Backends> {
  const ports = new SavedPorts(supervisor.dataDir, log);
  const [mongodbUri, temporal] = await Promise.all([startMongo(supervisor, ports, log), startTemporal(supervisor, namespace, ports, log)]);
  return { mongodbUri, ...temporal };
}

async function waitForMongo(uri: string, check?: () => void): Promise<void> {
  await poll(
    `MongoDB at ${redact(uri)}`,
    async () => {
      const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 2_000 });
      try {
        await client.db('admin').command({ ping: 1 });
      } finally {
        await client.close();
      }
    },
    { timeoutMs: STARTUP_TIMEOUT_MS, intervalMs: 300, check },
  );
}

/** MONGODB_URI, else `mongod` on PATH, else the embedded FerretDB. */
async function startMongo(supervisor: Supervisor, ports: SavedPorts, log: Log): Promise<string> {
  if (process.env.MONGODB_URI) {
    await waitForMongo(process.env.MONGODB_URI);
    return process.env.MONGODB_URI;
  }
  const mongod = mongodOnPath();
  if (mongod) {
    const port = await ports.pick('mongodb');
    const dbpath = join(supervisor.dataDir, 'mongod');
    mkdirSync(dbpath, { recursive: true });
    const child = supervisor.spawn('mongod', mongod, ['--dbpath', dbpath, '--bind_ip', '127.0.0.1', '--port', String(port)], { restart: true });
    const uri = `mongodb://127.0.0.1:${port}/`;
    await waitForMongo(uri, () => child.assertRunning());
    ports.keep('mongodb', port);
    return uri;
  }
  const binary = await ferretdbBinary(log);
  let port = await ports.reuse('mongodb'); // else FerretDB picks one itself
  const uri = await retryTakenPort('FerretDB', log, async (taken) => {
    if (taken !== null) port = null;
    const dir = join(supervisor.dataDir, 'ferretdb');
    const child = supervisor.spawn('ferretdb', binary, ['--listen', `127.0.0.1:${port ?? 0}`, '--dir', dir], {
      stdin: 'pipe', // FerretDB exits when this pipe closes, i.e. when we do.
      stdout: 'pipe', // its one line: the URI, once it listens
      restart: true,
    });
    const lines = createInterface({ input: child.child.stdout! });
    const [line] = (await Promise.race([
      once(lines, 'line', { signal: AbortSignal.timeout(STARTUP_TIMEOUT_MS) }),
      child.exited.then(() => Promise.reject(child.failure())),
    ])) as [string];
    await waitForMongo(line, () => child.assertRunning());
    // Restarted after a crash, it listens where clients already connect.
    supervisor.restartWith('ferretdb', ['--listen', `127.0.0.1:${new URL(line).port}`, '--dir', dir]);
    return line;
  });
  const listening = Number(new URL(uri).port);
  if (listening) ports.keep('mongodb', listening);
  return uri;
}

/** The port a server's failure says was taken (Go's "listen tcp 127.0.0.1:PORT: bind: address already in use"), or null. */
const takenPort = (err: Error): number | null => {
  const match = /127\.0\.0\.1:(\d+): bind: address already in use/.exec(err.message);
  return match ? Number(match[1]) : null;
};

/**
 * `start(null)`, and again (twice at most) when it failed because a port it
 * was to listen on was taken between our check and its bind — by then,
 * `start(thatPort)` knows which one to replace.
 */
async function retryTakenPort<T>(what: string, log: Log, start: (taken: number | null) => Promise<T>): Promise<T> {
  let taken: number | null = null;
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(taken);
    } catch (err) {
      taken = takenPort(err as Error);
      if (taken === null || attempt === 3) throw err;
      log(`${what} found port ${taken} taken meanwhile: starting it again on another`);
    }
  }
}

/** TEMPORAL_ADDRESS, else `temporal server start-dev` on SQLite with the Web UI. */
async function startTemporal(
  supervisor: Supervisor,
  namespace: string,
  ports: SavedPorts,
  log: Log,
): Promise<{ temporalAddress: string; temporalUi?: string }> {
  if (process.env.TEMPORAL_ADDRESS) {
    await waitForTemporal(process.env.TEMPORAL_ADDRESS);
    return { temporalAddress: process.env.TEMPORAL_ADDRESS };
  }
  const binary = await temporalBinary(log);
  let port = await ports.pick('temporal');
  let uiPort = await ports.pick('temporal_ui');
  const dir = join(supervisor.dataDir, 'temporal');
  mkdirSync(dir, { recursive: true });
  await retryTakenPort('Temporal', log, async (taken) => {
    if (taken === port) port = await ports.fresh();
    if (taken === uiPort) uiPort = await ports.fresh();
    // prettier-ignore
    const child = supervisor.spawn('temporal', binary, [
      'server', 'start-dev',
      '--db-filename', join(dir, 'temporal.db'),
      '--ip', '127.0.0.1', '--port', String(port), '--ui-port', String(uiPort),
      '--namespace', namespace,
      '--log-level', 'warn',
    ], { restart: true });
    await waitForTemporal(`127.0.0.1:${port}`, { check: () => child.assertRunning() });
  });
  ports.keep('temporal', port);
  ports.keep('temporal_ui', uiPort);
  return { temporalAddress: `127.0.0.1:${port}`, temporalUi: `http://127.0.0.1:${uiPort}` };
}

async function assertPortFree(port: number): Promise<void> {
  if (!(await isPortFree(port))) throw new Error(`port ${port} is already in use on 127.0.0.1: stop what uses it, or set PORT`);
}

/**
 * The sample webhook receiver (`offerops dev receiver`) keeps its self-signed
 * certificate in the data directory: when it is there, the API and the worker
 * trust it and webhooks may reach 127.0.0.1, so trying webhooks locally needs
 * no environment of its own. An operator's NODE_EXTRA_CA_CERTS is kept: both
 * go into one bundle beside the certificate.
 */
export function trustSampleReceiver(dataDir: string, env: NodeJS.ProcessEnv, log: Log): void {
  const cert = join(dataDir, 'dev-receiver', 'cert.pem');
  if (!existsSync(cert)) return;
  const theirs = env.NODE_EXTRA_CA_CERTS;
  if (theirs && theirs !== cert) {
    let bundle: string;
    try {
      bundle = `${readFileSync(theirs, 'utf8').trimEnd()}\n${readFileSync(cert, 'utf8')}`;
    } catch (err) {
      log(
        `not trusting the sample receiver's certificate: NODE_EXTRA_CA_CERTS names ${theirs}, which cannot be read (${(err as Error).message})`,
      );
      return;
    }
    const both = join(dataDir, 'dev-receiver', 'trusted.pem');
    writeFileSync(both, bundle);
    env.NODE_EXTRA_CA_CERTS = both;
  } else env.NODE_EXTRA_CA_CERTS = cert;
  env.OFFEROPS_WEBHOOK_ALLOW = [...(env.OFFEROPS_WEBHOOK_ALLOW ?? '').split(','), '127.0.0.1'].filter(Boolean).join(',');
  const also = env.NODE_EXTRA_CA_CERTS === cert ? '' : ` beside ${theirs}`;
  log(`trusting the sample webhook receiver's certificate (${cert})${also}; webhooks may reach 127.0.0.1`);
}

/** The worker and the API (built into dist/ by `npm run build`); resolves with the API's base URL and the worker's metrics. */
async function startApp(supervisor: Supervisor, stack: Stack, log: Log, port?: number): Promise<Partial<Stack>> {
  const [apiPort, metricsPort] = port === undefined ? ((await freePorts(2)) as [number, number]) : [port, (await freePorts(1))[0]!];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MONGODB_URI: stack.mongodbUri,
    MONGODB_DB: stack.mongodbDb,
    TEMPORAL_ADDRESS: stack.temporalAddress,
    TEMPORAL_NAMESPACE: stack.temporalNamespace,
    PORT: String(apiPort),
    OFFEROPS_DATA_DIR: supervisor.dataDir,
    OFFEROPS_SECRET_KEY: secretKeyFor(supervisor.dataDir),
    // The panel links to Temporal UI.
    ...(stack.temporalUiUrl ? { OFFEROPS_TEMPORAL_UI_URL: stack.temporalUiUrl } : {}),
    OFFEROPS_WORKER_METRICS_ADDRESS: `127.0.0.1:${metricsPort}`,
  };
  trustSampleReceiver(supervisor.dataDir, env, log);
  const dist = resolve(__dirname, '../..');
  const worker = supervisor.spawn('worker', process.execPath, [join(dist, 'worker/main.js')], { env, restart: true });
  const api = supervisor.spawn('api', process.execPath, [join(dist, 'api/main.js')], { env, restart: true });
  const origin = `http://127.0.0.1:${apiPort}`;
  // Ready, not only healthy: /healthz is 200 while the API still builds its indexes and answers requests 503.
  await poll(
    `${origin}/readyz`,
    async () => {
      const response = await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (response.status !== 200) throw new Error(`it answered ${response.status}`);
    },
    {
      timeoutMs: STARTUP_TIMEOUT_MS,
      intervalMs: 300,
      check: () => {
        worker.assertRunning();
        api.assertRunning();
      },
    },
  );
  return {
    apiUrl: `${origin}/api/v1`,
    workerMetricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    ...(env.OFFEROPS_WEBHOOK_ALLOW ? { webhookAllow: env.OFFEROPS_WEBHOOK_ALLOW } : {}),
    ...(env.NODE_EXTRA_CA_CERTS ? { caFile: env.NODE_EXTRA_CA_CERTS } : {}),
  };
}

/**
 * `<data>/stack.json` tells operator commands where the running stack is, and
 * a process that joins it (`offerops api|worker`) the destination policy and
 * certificate trust its own API and worker have.
 */
function writeStackFile(supervisor: Supervisor, stack: Stack): void {
  const file = join(supervisor.dataDir, 'stack.json');
  const info = {
    mongodb_uri: stack.mongodbUri,
    mongodb_db: stack.mongodbDb,
    temporal_address: stack.temporalAddress,
    temporal_namespace: stack.temporalNamespace,
    temporal_ui_url: stack.temporalUiUrl ?? null,
    api_url: stack.apiUrl ?? null,
    webhook_allow: stack.webhookAllow ?? null,
    ca_file: stack.caFile ?? null,
    pid: process.pid,
  };
  writeFileSync(file, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
  supervisor.defer(() => rmSync(file, { force: true }));
}

/** A Docker engine answers (testcontainers' own detection, bounded); OFFEROPS_NO_DOCKER=1 skips it. */
async function dockerAnswers(): Promise<boolean> {
  if (process.env.OFFEROPS_NO_DOCKER === '1') return false;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    const timeout = sleep(5_000, undefined, { ref: false }).then(() => Promise.reject(new Error('no answer')));
    await Promise.race([getContainerRuntimeClient(), timeout]);
    return true;
  } catch {
    return false;
  }
}

/**
 * mongo:7 and the Temporal CLI image (testcontainers' reaper removes them even
 * if we die); null when they cannot be started, e.g. images out of reach.
 */
async function startContainers(supervisor: Supervisor, log: Log): Promise<Backends | null> {
  const { GenericContainer } = await import('testcontainers');
  log('a Docker engine answers: running MongoDB and Temporal in containers');
  const started = async (container: InstanceType<typeof GenericContainer>) => {
    const running = await container.start();
    supervisor.defer(async () => {
      await running.stop();
    });
    return running;
  };
  try {
    const [mongo, temporal] = await Promise.all([
      started(new GenericContainer('mongo:7').withExposedPorts(27017)),
      started(
        new GenericContainer('temporalio/temporal:1.5.1').withCommand(['server', 'start-dev', '--ip', '0.0.0.0']).withExposedPorts(7233, 8233),
      ),
    ]);
    const backends: Backends = {
      mongodbUri: `mongodb://${mongo.getHost()}:${mongo.getMappedPort(27017)}/?directConnection=true`,
      temporalAddress: `${temporal.getHost()}:${temporal.getMappedPort(7233)}`,
      temporalUi: `http://${temporal.getHost()}:${temporal.getMappedPort(8233)}`,
    };
    await Promise.all([waitForMongo(backends.mongodbUri), waitForTemporal(backends.temporalAddress)]);
    return backends;
  } catch (err) {
    log(`containers failed (${(err as Error).message.split('\n')[0]}); using local processes`);
    return null;
  }
}
