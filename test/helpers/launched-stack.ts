/**
 * A whole stack of its own, started as an operator starts it (the launcher of
 * `npm start`, in a child process, on a fresh data directory and a free API
 * port): FerretDB, Temporal, the worker and the API as separate processes,
 * supervised and restarted by the launcher. Fault tests signal those
 * processes by the pids the launcher records (`<data>/run/<name>.json`), so
 * nothing outside this stack is touched.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePorts, logTail } from '../../tools/stack/processes';

export type Server = 'ferretdb' | 'temporal' | 'worker' | 'api';

export interface LaunchedStack {
  origin: string;
  /** `<origin>/api/v1` */
  baseUrl: string;
  dataDir: string;
  accountId: string;
  /** The demo account's keys, printed at the first start of a data directory only. */
  keys: { live: string; test: string } | null;
  /** What `<data>/stack.json` says: the database and Temporal the processes use. */
  info: { mongodb_uri: string; mongodb_db: string; temporal_address: string; temporal_namespace: string };
  /** The pid `name` runs as now (after a restart, the new one), or null while it is down. */
  pid(name: Server): number | null;
  /** Sends `signal` to `name`'s current process; its pid. */
  signal(name: Server, signal: NodeJS.Signals): number;
  /**
   * Sends SIGSTOP to `name` and waits until every thread of it has stopped: the
   * kernel stops a process's threads one by one, and on a busy machine a thread
   * can still answer a request for a while after the signal was sent. Its pid.
   */
  stall(name: Server): Promise<number>;
  /** Waits until the launcher has started `name` again after `oldPid` ended; the new pid. */
  restarted(name: Server, oldPid: number, timeoutMs?: number): Promise<number>;
  /** What `name`'s process is doing, for a failure's message: its pid, its threads' states and what its first thread waits in. */
  processState(name: Server): string;
  /** Everything the launcher printed on stderr so far. */
  stderr(): string;
  /** The last lines of a server's log (for the message of a failed assertion). */
  logTail(name: Server, lines?: number): string;
  stop(): Promise<void>;
}

const DIST = resolve(__dirname, '../..');

/** `dataDir`: start on that data directory (e.g. a restored one) instead of a fresh one; it is left in place on stop. */
export async function launchStack(opts: { env?: Record<string, string>; dataDir?: string } = {}): Promise<LaunchedStack> {
  const env = opts.env ?? {};
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'offerops-faults-'));
  const [port] = (await freePorts(1)) as [number];
  const childEnv: NodeJS.ProcessEnv = { ...process.env, OFFEROPS_DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', ...env };
  for (const name of ['MONGODB_URI', 'MONGODB_DB', 'TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE', 'OFFEROPS_SECRET_KEY', 'OFFEROPS_TEST_DATA_DIR']) {
    delete childEnv[name];
  }
  const launcher: ChildProcess = spawn(process.execPath, [join(DIST, 'tools/stack/start.js')], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  launcher.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  launcher.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(launcher, 'exit');
  await new Promise<void>((done, fail) => {
    launcher.stdout!.on('data', () => stdout.includes('Press Ctrl-C to stop.') && done());
    void exited.then(() => fail(new Error(`the launcher ended before the stack was up:\n${stdout}\n${stderr}`)));
  });
  const accountId = /Demo account (acc_\w+)/.exec(stdout)![1]!;
  const live = /live key: (oo_live_\w+)/.exec(stdout)?.[1];
  const test = /test key: (oo_test_\w+)/.exec(stdout)?.[1];
  const info = JSON.parse(readFileSync(join(dataDir, 'stack.json'), 'utf8')) as LaunchedStack['info'];

  const pid = (name: Server): number | null => {
    try {
      return (JSON.parse(readFileSync(join(dataDir, 'run', `${name}.json`), 'utf8')) as { pid: number }).pid;
    } catch {
      return null;
    }
  };
  const signal = (name: Server, sig: NodeJS.Signals): number => {
    const current = pid(name);
    if (current === null) throw new Error(`${name} is not running`);
    process.kill(current, sig);
    return current;
  };
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: `${origin}/api/v1`,
    dataDir,
    accountId,
    keys: live && test ? { live, test } : null,
    info,
    pid,
    signal,
    async stall(name) {
      const stalled = signal(name, 'SIGSTOP');
      const deadline = Date.now() + 10_000;
      for (;;) {
        const states = threadStates(stalled);
        if (states.every((state) => state === 'T')) return stalled;
        if (Date.now() > deadline) throw new Error(`${name} (pid ${stalled}) did not stop within 10 s: its threads' states ${states.join('')}`);
        await sleep(10);
      }
    },
    async restarted(name, oldPid, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const current = pid(name);
        if (current !== null && current !== oldPid) return current;
        if (Date.now() > deadline)
          throw new Error(
            `${name} was not restarted within ${timeoutMs / 1000} s (its pid: ${current ?? 'none, down'}, was ${oldPid}):\n${stderr}`,
          );
        await sleep(100);
      }
    },
    processState(name) {
      const current = pid(name);
      if (current === null) return `${name}: not running`;
      try {
        const wchan = readFileSync(`/proc/${current}/wchan`, 'utf8');
        return `${name}: pid ${current}, threads ${threadStates(current).join('')}, waiting in ${wchan || 'nothing'}`;
      } catch (err) {
        return `${name}: pid ${current}, unreadable (${(err as Error).message})`;
      }
    },
    stderr: () => stderr,
    logTail: (name, lines = 40) => logTail(join(dataDir, 'logs', `${name}.log`), lines),
    async stop() {
      if (launcher.exitCode === null && launcher.signalCode === null) {
        launcher.kill('SIGTERM');
        await exited;
      }
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The state letter of each thread of `pid` (`T`: stopped by a signal), from /proc. */
function threadStates(pid: number): string[] {
  const tasks = `/proc/${pid}/task`;
  return readdirSync(tasks).map((tid) => {
    const stat = readFileSync(`${tasks}/${tid}/stat`, 'utf8');
    // The command name in parentheses may hold spaces: the state follows its closing parenthesis.
    const state = stat.lastIndexOf(')') + 2;
    return stat.slice(state, state + 1);
  });
}
