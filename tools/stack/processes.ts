/**
 * Child processes of the stack, supervised so that nothing outlives us.
 *
 * - Children stay in our process group (no `detached`): Ctrl-C in a terminal
 *   and a CI runner's kill of the group reach every one of them directly,
 *   even when this process is stuck.
 * - A stop request (signal, or an error at start-up) stops them in reverse
 *   start order — the app before Temporal, Temporal before MongoDB — with
 *   SIGTERM, then SIGKILL after a grace period.
 * - If this process is SIGKILLed: on Linux every child is started through
 *   `setpriv --pdeathsig TERM` (util-linux), so the kernel stops it; FerretDB
 *   also exits when its stdin pipe closes; elsewhere the pid files under
 *   `<data>/run/` let the next start on the same data directory stop the
 *   leftovers (a lock there also keeps two stacks off one data directory).
 * - Child output goes to `<data>/logs/<name>.log`, not the console.
 */
import { ChildProcess, execFile, execFileSync, spawn, spawnSync, StdioNull, StdioPipe } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { AddressInfo, connect, createServer, Server, Socket } from 'node:net';
import { constants as osConstants } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export type Log = (line: string) => void;

/** Progress lines on stderr, prefixed `offerops:`. */
export const log: Log = (line) => process.stderr.write(`offerops: ${line}\n`);

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type StopSignal = (typeof STOP_SIGNALS)[number];
/** How long a child ended by a stop signal waits for ours before it counts as a failure. */
const SIGNAL_GRACE_MS = 1_000;

/** Everything we spawned and that still runs; SIGKILLed if we exit without stopping it. */
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

let deathSignalPrefix: string[] | undefined;
/** `setpriv --pdeathsig TERM --` where it works (Linux, util-linux ≥ 2.33), else nothing. */
function withDeathSignal(argv: string[]): string[] {
  deathSignalPrefix ??=
    process.platform === 'linux' && spawnSync('setpriv', ['--pdeathsig', 'TERM', '--', 'true']).status === 0
      ? ['setpriv', '--pdeathsig', 'TERM', '--']
      : [];
  return [...deathSignalPrefix, ...argv];
}

function track(child: ChildProcess): ChildProcess {
  live.add(child);
  child.once('exit', () => live.delete(child));
  child.once('error', () => live.delete(child));
  return child;
}

/** Progress of a long `run`: a line every 5 s saying what runs, for how long, and its latest output line. */
export interface Progress {
  what: string;
  log: Log;
}

/** Runs a command to completion; rejects with the tail of its output when it fails. */
export function run(command: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; progress?: Progress } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = track(spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] }));
    let output = '';
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const started = Date.now();
    const progress = opts.progress;
    const ticker =
      progress &&
      setInterval(() => {
        const latest = output.trimEnd().split('\n').pop()?.trim();
        const seconds = Math.round((Date.now() - started) / 1000);
        progress.log(`${progress.what} … ${seconds} s${latest ? ` (${latest.length > 90 ? `${latest.slice(0, 89)}…` : latest})` : ''}`);
      }, 5_000);
    child.once('error', (err) => {
      clearInterval(ticker);
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearInterval(ticker);
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit code ${code}`})\n${output.trim()}`));
    });
  });
}

/** What a command prints on stdout, trimmed; rejects when it cannot run or fails. */
export function output(command: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { ...opts, encoding: 'utf8', timeout: 60_000 }, (err: Error | null, stdout) =>
      err ? reject(err) : resolve(stdout.trim()),
    );
  });
}

/**
 * Closes a listening `server` so that its port stays out of the OS's hands
 * for a while: one connection to it, closed from the server's side first,
 * leaves the port in TIME_WAIT, which the kernel skips when any program asks
 * for a free port (bind to port 0; Temporal's dev server does so for its
 * internal services), while a server binding it by number (SO_REUSEADDR, the
 * default in Node, Go and mongod) still can. Without it, a port we picked and
 * released could go to the next program that asks for any free port.
 * A connection someone else made meanwhile (a health poller) is cut, never
 * waited for: `server.close` would wait for it to end.
 */
async function closeKeepingPort(server: Server): Promise<void> {
  const accepted = new Set<Socket>();
  let closing = false;
  const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
  client.on('error', () => undefined);
  const mine = new Promise<Socket>((resolve) => {
    server.on('connection', (socket) => {
      accepted.add(socket);
      socket.on('error', () => undefined);
      if (closing) socket.destroy();
      if (client.localPort !== undefined && socket.remotePort === client.localPort) resolve(socket);
    });
    // The client's port is known once it connected; a connection accepted before that is looked at again.
    client.once('connect', () => {
      for (const socket of accepted) if (socket.remotePort === client.localPort) resolve(socket);
    });
  });
  const socket = await mine;
  const clientClosed = once(client, 'close');
  socket.end(); // our FIN first: the TIME_WAIT stays on the server's port
  client.end();
  await clientClosed;
  closing = true;
  const closed = new Promise((resolve) => server.close(resolve));
  for (const other of accepted) other.destroy();
  await closed;
}

/** Ports the OS considers free right now (all held open together, so they differ). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, async () => {
      const server = createServer().listen(0, '127.0.0.1');
      await once(server, 'listening');
      return server;
    }),
  );
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map(closeKeepingPort));
  return ports;
}

/** Whether nothing listens on 127.0.0.1:`port` right now (we could bind it); if so, kept from `freePorts`-like requests as there. */
export async function isPortFree(port: number): Promise<boolean> {
  const server = createServer();
  try {
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
  } catch {
    server.close();
    return false;
  }
  await closeKeepingPort(server);
  return true;
}

/** Retries `attempt` until it resolves; `check` throws to give up early (e.g. the server died). */
export async function poll<T>(
  what: string,
  attempt: () => Promise<T>,
  opts: { timeoutMs: number; intervalMs?: number; check?: () => void },
): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    opts.check?.();
    let result: T;
    try {
      result = await attempt();
    } catch (err) {
      opts.check?.();
      if (Date.now() >= deadline) {
        throw new Error(`timed out after ${opts.timeoutMs / 1000} s waiting for ${what}: ${(err as Error).message}`, { cause: err });
      }
      await sleep(opts.intervalMs ?? 250);
      continue;
    }
    opts.check?.();
    return result;
  }
}

/** Starts the lines each run appends to a child's log. */
const RUN_MARK = '=== offerops:';

/** The last lines a child's latest run wrote to its (possibly large) log file. */
export function logTail(file: string, lines = 25): string {
  try {
    const fd = openSync(file, 'r');
    try {
      const size = fstatSync(fd).size;
      const length = Math.min(size, 64 * 1024);
      const buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, size - length);
      const text = buffer.toString('utf8');
      return text
        .slice(Math.max(0, text.lastIndexOf(RUN_MARK)))
        .trimEnd()
        .split('\n')
        .slice(-lines)
        .join('\n');
    } finally {
      closeSync(fd);
    }
  } catch {
    return '(no log)';
  }
}

interface PidRecord {
  pid: number;
  cmdline: string;
}

/** The command line of a running process, or null when there is none (or no way to tell). */
function commandLine(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ') || null;
  } catch {
    if (process.platform === 'linux') return null;
  }
  try {
    const args = execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return args.trim() || null;
  } catch {
    return null;
  }
}

/** Still the very process the record describes (not a recycled pid)? */
const isRunning = (record: PidRecord): boolean => commandLine(record.pid) === record.cmdline;

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // it ended meanwhile
  }
}

function readRecord(file: string): PidRecord | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PidRecord;
  } catch {
    return null;
  }
}

export class ManagedChild {
  private stopRequested = false;
  private spawnError?: Error;
  readonly exited: Promise<void>;

  constructor(
    readonly name: string,
    readonly child: ChildProcess,
    readonly logFile: string,
    onExit: (managed: ManagedChild, expected: boolean) => void,
  ) {
    this.exited = new Promise((resolve) => {
      let ended = false;
      const done = (err?: Error) => {
        if (ended) return;
        ended = true;
        if (err instanceof Error) this.spawnError = err;
        onExit(this, this.stopRequested);
        resolve();
      };
      child.once('exit', () => done());
      child.once('error', done);
    });
  }

  get running(): boolean {
    return this.child.pid !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** How the child ended: "ferretdb was killed by SIGKILL". */
  get ending(): string {
    const how = this.child.signalCode
      ? `was killed by ${this.child.signalCode}`
      : this.child.exitCode !== null
        ? `exited with code ${this.child.exitCode}`
        : `could not be started (${this.spawnError?.message ?? 'unknown error'})`;
    return `${this.name} ${how}`;
  }

  /** An error that says how the child ended, with the end of its log. */
  failure(): Error {
    return new Error(`${this.ending}; last lines of ${this.logFile}:\n${logTail(this.logFile)}`);
  }

  /** Throws `failure()` unless the child still runs (a `poll` check). */
  assertRunning(): void {
    if (!this.running) throw this.failure();
  }

  async stop(graceMs = 10_000): Promise<void> {
    this.stopRequested = true;
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = sleep(graceMs, 'timeout', { ref: false });
    if ((await Promise.race([this.exited, timer])) === 'timeout') {
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }
}

/** What `Supervisor.spawn` runs, kept to run it again after a crash. */
interface SpawnSpec {
  command: string;
  args: string[];
  opts: { env?: NodeJS.ProcessEnv; stdin?: StdioPipe | StdioNull; stdout?: 'log' | 'pipe' | 'inherit' };
}

/** When a crashed child is started again, and when the stack gives up on it. */
export interface RestartPolicy {
  /** The wait before the first restart; it doubles with each crash in the window, up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /** More crashes than this within windowMs: the child keeps crashing, and the stack stops. */
  maxCrashes: number;
  windowMs: number;
}

export const RESTART_POLICY: RestartPolicy = { backoffMs: 1_000, maxBackoffMs: 30_000, maxCrashes: 5, windowMs: 5 * 60_000 };

/** One named child over its restarts. */
interface Service {
  spec: SpawnSpec;
  current: ManagedChild;
  /** When it crashed, within the policy's window. */
  crashes: number[];
}

/**
 * Owns everything one stack started, under one data directory, and stops it
 * all (once, in reverse order) on `stop()`. Once `restartCrashed` is called
 * (the stack is up), a child that ends on its own is started again with
 * backoff; one that keeps crashing ends the stack (`onUnexpectedExit`).
 */
export class Supervisor {
  /** Called when a child ends without being asked to and is not (or no longer) restarted. */
  onUnexpectedExit: (child: ManagedChild) => void = () => undefined;
  private readonly cleanups: Array<() => Promise<void> | void> = [];
  private readonly services = new Map<string, Service>();
  private restartPolicy?: RestartPolicy;
  private stopped?: Promise<void>;

  private constructor(
    readonly dataDir: string,
    private readonly log: Log,
  ) {}

  /** Takes the data directory's lock and stops what a crashed earlier run left behind. */
  static async open(dataDir: string, log: Log): Promise<Supervisor> {
    const runDir = join(dataDir, 'run');
    mkdirSync(runDir, { recursive: true });
    mkdirSync(join(dataDir, 'logs'), { recursive: true });
    const lock = join(runDir, 'supervisor.json');
    const mine = JSON.stringify({ pid: process.pid, cmdline: commandLine(process.pid) ?? '' } satisfies PidRecord);
    try {
      writeFileSync(lock, mine, { flag: 'wx' });
    } catch {
      const owner = readRecord(lock);
      if (owner && isRunning(owner)) {
        throw new Error(`another offerops stack (pid ${owner.pid}) is using ${dataDir}: stop it, or set OFFEROPS_DATA_DIR`);
      }
      rmSync(lock, { force: true });
      writeFileSync(lock, mine, { flag: 'wx' });
    }
    const supervisor = new Supervisor(dataDir, log);
    supervisor.defer(() => rmSync(lock, { force: true }));
    await supervisor.stopLeftovers(runDir);
    return supervisor;
  }

  get stopping(): boolean {
    return this.stopped !== undefined;
  }

  /** From now on, children spawned with `restart` are started again when they crash (see RestartPolicy). */
  restartCrashed(policy: RestartPolicy = RESTART_POLICY): void {
    this.restartPolicy = policy;
  }

  /** The arguments `name` is started with after a crash (e.g. the port a server chose at its first start). */
  restartWith(name: string, args: string[]): void {
    const service = this.services.get(name);
    if (service) service.spec.args = args;
  }

  spawn(name: string, command: string, args: string[], opts: SpawnSpec['opts'] & { restart?: boolean } = {}): ManagedChild {
    const { restart, ...spawnOpts } = opts;
    const spec: SpawnSpec = { command, args, opts: spawnOpts };
    const current = this.start(name, spec, restart === true);
    if (restart) {
      const service: Service = { spec, current, crashes: [] };
      this.services.set(name, service);
      // Stopped once, in its place in the order, whichever process it is by then.
      this.defer(() => service.current.stop());
    } else {
      this.defer(() => current.stop());
    }
    return current;
  }

  private start(name: string, spec: SpawnSpec, restartable: boolean): ManagedChild {
    if (this.stopping) throw new Error(`not starting ${name}: the stack is stopping`);
    const { command, args, opts } = spec;
    const logFile = join(this.dataDir, 'logs', `${name}.log`);
    const output = opts.stdout === 'inherit' ? 'inherit' : openSync(logFile, 'a');
    if (typeof output === 'number') writeSync(output, `${RUN_MARK} ${name} started at ${new Date().toISOString()}\n`);
    const [file, ...argv] = withDeathSignal([command, ...args]);
    let child: ChildProcess;
    try {
      child = track(
        spawn(file!, argv, {
          env: opts.env ?? process.env,
          stdio: [opts.stdin ?? 'ignore', opts.stdout === 'pipe' ? 'pipe' : output, output],
        }),
      );
    } finally {
      if (typeof output === 'number') closeSync(output);
    }
    const pidFile = join(this.dataDir, 'run', `${name}.json`);
    if (child.pid !== undefined) {
      writeFileSync(pidFile, JSON.stringify({ pid: child.pid, cmdline: [command, ...args].join(' ') } satisfies PidRecord));
    }
    return new ManagedChild(name, child, logFile, (ended, expected) => {
      rmSync(pidFile, { force: true });
      if (expected || this.stopping) return;
      const crashed = () => (restartable ? this.crashed(ended) : this.onUnexpectedExit(ended));
      // A stop signal sent to the terminal's process group reaches the children
      // too, and one may end before our own handler has run: it is a stop, not a
      // failure, if that handler starts stopping within a moment.
      const bySignal = ended.child.signalCode;
      if (bySignal === null || !STOP_SIGNALS.includes(bySignal as StopSignal)) {
        crashed();
        return;
      }
      setTimeout(() => {
        if (!this.stopping) crashed();
      }, SIGNAL_GRACE_MS);
    });
  }

  /** A restartable child ended on its own: started again after its backoff, unless it keeps crashing (or restarts are off). */
  private crashed(ended: ManagedChild): void {
    const service = this.services.get(ended.name);
    const policy = this.restartPolicy;
    if (!service || !policy) {
      this.onUnexpectedExit(ended);
      return;
    }
    const now = Date.now();
    service.crashes = [...service.crashes.filter((at) => at > now - policy.windowMs), now];
    const count = service.crashes.length;
    if (count > policy.maxCrashes) {
      this.log(`${ended.name} crashed ${count} times within ${policy.windowMs / 60_000} min: it keeps crashing, so the stack stops`);
      this.onUnexpectedExit(ended);
      return;
    }
    const waitMs = Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** (count - 1));
    this.log(
      `${ended.ending}; restarting it in ${waitMs / 1000} s (crash ${count} of at most ${policy.maxCrashes} within ${policy.windowMs / 60_000} min)`,
    );
    setTimeout(() => {
      if (this.stopping) return;
      try {
        service.current = this.start(ended.name, service.spec, true);
        this.log(`${ended.name} restarted (pid ${service.current.child.pid})`);
      } catch (err) {
        this.log(`${ended.name} could not be restarted: ${(err as Error).message}`);
        this.onUnexpectedExit(ended);
      }
    }, waitMs);
  }

  /** Runs `cleanup` on stop, before everything registered earlier. */
  defer(cleanup: () => Promise<void> | void): void {
    this.cleanups.push(cleanup);
  }

  stop(): Promise<void> {
    this.stopped ??= (async () => {
      for (const cleanup of this.cleanups.reverse()) {
        try {
          await cleanup();
        } catch (err) {
          this.log(`while stopping: ${(err as Error).message}`);
        }
      }
    })();
    return this.stopped;
  }

  private async stopLeftovers(runDir: string): Promise<void> {
    for (const entry of readdirSync(runDir).filter((f) => f.endsWith('.json') && f !== 'supervisor.json')) {
      const file = join(runDir, entry);
      const record = readRecord(file);
      if (record && isRunning(record)) {
        this.log(`stopping ${entry.slice(0, -5)} (pid ${record.pid}) left over from an earlier run`);
        signal(record.pid, 'SIGTERM');
        for (let i = 0; i < 40 && isRunning(record); i++) await sleep(250);
        if (isRunning(record)) signal(record.pid, 'SIGKILL');
      }
      rmSync(file, { force: true });
    }
  }
}

/**
 * On SIGINT, SIGTERM or SIGHUP: run `stop` once (later signals are ignored
 * while it runs), then exit with 128 + the signal number.
 */
export function onStopSignal(stop: (signal: NodeJS.Signals) => Promise<void>): void {
  let stopping = false;
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void stop(signal).finally(() => process.exit(128 + osConstants.signals[signal]));
    });
  }
}
