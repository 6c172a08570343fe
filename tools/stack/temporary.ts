/**
 * One run on a stack of its own, the lifecycle `npm test` (tools/stack/test.ts)
 * and `npm run fuzz` (tools/fuzz/run.ts) share: a supervisor on a fresh data
 * directory, the stack started, one main child run on it (the tests, the
 * fuzzer), then everything stopped and the data directory removed — also on
 * a stop signal, and also when starting fails. Setting the `keep` variable to
 * 1 keeps the data directory (logs included).
 */
import { rmSync } from 'node:fs';
import { log, ManagedChild, onStopSignal, Supervisor } from './processes';
import { Stack, StackOptions, startStack } from './stack';

export interface TemporaryRun {
  /** A fresh directory for the stack's data, removed at the end. */
  dataDir: string;
  /** The environment variable that keeps `dataDir` when it is 1. */
  keep: string;
  /** What the data is called in the line saying where it was kept ("test data"). */
  what: string;
  stack: Pick<StackOptions, 'withApp' | 'containers'>;
  /** Starts the run's main child on the started stack; the run ends when it exits. */
  main(stack: Stack, supervisor: Supervisor): Promise<ManagedChild>;
}

/** The main child's exit code, or null when a stop signal handler owns the exit. */
export async function runOnTemporaryStack(run: TemporaryRun): Promise<number | null> {
  const supervisor = await Supervisor.open(run.dataDir, log);
  const finish = async () => {
    await supervisor.stop();
    if (process.env[run.keep] === '1') log(`${run.what} kept in ${run.dataDir}`);
    else rmSync(run.dataDir, { recursive: true, force: true });
  };
  let interrupted = false;
  onStopSignal(async () => {
    interrupted = true;
    await finish();
  });
  try {
    const stack = await startStack({ supervisor, log, ...run.stack });
    supervisor.restartCrashed();
    const started: { main?: ManagedChild } = {};
    // The main child's exit is the end of the run, not a failure of the stack.
    supervisor.onUnexpectedExit = (child) => {
      if (child !== started.main) log(child.failure().message);
    };
    const main = (started.main = await run.main(stack, supervisor));
    await main.exited;
    if (interrupted) return null;
    const code = main.child.exitCode ?? 1;
    await finish();
    return code;
  } catch (err) {
    if (interrupted) return null;
    await finish();
    throw err;
  }
}

/** Exits with the run's code (unless a stop signal handler owns the exit); a run that could not start exits 1 saying why. */
export function exitWith(run: Promise<number | null>, what: string): void {
  run.then(
    (code) => code !== null && process.exit(code),
    (err: Error) => {
      log(`${what} could not run: ${err.message}`);
      process.exit(1);
    },
  );
}
