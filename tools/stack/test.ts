/**
 * `npm test`: starts the stack (without the app) on a fresh data directory,
 * runs every compiled test file — or the files and folders given after
 * `npm test --` — with the stack's coordinates in its environment, stops the
 * stack and exits with the tests' exit code. When every file given needs no
 * shared stack (test/unit, test/contract, test/replay: none at all; test/stack
 * and test/faults: stacks of their own; ./test-layers.ts), none starts, and
 * the files run without the stack's settings. Files on the shared stack run several at a
 * time (OFFEROPS_TEST_CONCURRENCY), each in its own process on its own
 * database and task queue; beside them, the files that start stacks of
 * their own run one at a time; the longest start first
 * (tools/stack/run-tests.ts). With `--flag=value` options among the
 * arguments, `node --test` runs them as given.
 * OFFEROPS_KEEP_TEST_DATA=1 keeps the data directory (logs included).
 */
import { secretKeyFor } from '../cli/stack-config';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { log, Supervisor } from './processes';
import { exitWith, runOnTemporaryStack } from './temporary';
import { NO_STACK_DIRS, OWN_STACK_DIRS, STACK_SETTINGS } from './test-layers';

const DIST = resolve(__dirname, '../..');
const TESTS = join(DIST, 'test');
/**
 * Test files on the shared stack running at once. Most of a file's time is spent waiting (timers, back-offs, other
 * processes), not on a core, so more files than the machine's 2 cores run at once (`node --test` ran one at a time).
 */
const CONCURRENCY = Number(process.env.OFFEROPS_TEST_CONCURRENCY || 3);
/**
 * Files that start whole stacks of their own (`npm start`'s launcher): two at a time, beside the others. They wait
 * (restarts, time-outs) far more than they compute; more than two starting at once on a busy 2-core machine missed
 * their start-up deadline.
 */
const OWN_STACK_CONCURRENCY = 2;
const OWN_STACKS = ['faults', 'stack/launcher.test.js', 'stack/backup.test.js'].map((path) => join(TESTS, path));
/**
 * Files that take about half a minute or more alone (most of it waiting: retries, back-offs, restarts), started first
 * in this order, so that none starts last and runs on alone while the machine idles.
 */
const LONGEST = [
  'faults/worker-kill.test.js',
  'faults/dependencies.test.js',
  'stack/launcher.test.js',
  'api/publish.test.js',
  'domain/analytics-months.test.js',
  'workflows/webhook-delivery.test.js',
  'api/whatsapp.test.js',
  'cli/manage.test.js',
  'cli/admin.test.js',
  'processes/scale-out.test.js',
  'workflows/publication.test.js',
  'api/replies.test.js',
  'workflows/schedules.test.js',
  // Shorter, but mostly waiting: better early than beside the last files.
  'processes/worker-metrics.test.js',
  'workflows/monitors.test.js',
  'workflows/maintenance.test.js',
];
const RUNNER = join(__dirname, 'run-tests.js');
/** Loaded into the test files' processes (node:test passes its `--require` on): ./test-async-hook.ts says why. */
const PRELOAD = ['--require', join(__dirname, 'test-async-hook.js')];
/**
 * The run's files are loaded from dist/ while it runs: an `npm start` inside a test (the launcher tests) must not
 * rebuild it under them when sources changed since (tools/build/run.mjs then runs the build as it is).
 */
const FROZEN_BUILD = { OFFEROPS_FROZEN_BUILD: '1' };
/**
 * The run's temporary files — the stacks' SQLite files, written and synced all run long, and the test files' own
 * folders — go to RAM-backed /dev/shm when the machine has one and TMPDIR is not set; every process of the run
 * inherits it. On disk, the kernel's journaling of those syncs takes CPU a 2-core run lacks (docs/testing.md).
 */
function preferRamTmpdir(): void {
  if (process.env.TMPDIR || process.platform !== 'linux') return;
  try {
    accessSync('/dev/shm', constants.W_OK);
    process.env.TMPDIR = '/dev/shm';
  } catch {
    // No /dev/shm to write to: the system's temporary directory.
  }
}
preferRamTmpdir();
/** Every test run's data directory lives here, so a later run can clear a crashed one's. */
const RUNS_DIR = join(tmpdir(), 'offerops-tests');

const isUnder = (path: string, dir: string): boolean => !relative(dir, resolve(path)).startsWith('..');
/**
 * Whether `file` runs without the shared stack: a test file needing none, or any file starting its own (a script
 * beside the tests, as test/replay/record.js, needs the stack).
 */
const needsNoSharedStack = (file: string): boolean =>
  (file.endsWith('.test.js') && NO_STACK_DIRS.some((dir) => isUnder(file, join(TESTS, dir)))) ||
  OWN_STACK_DIRS.some((dir) => isUnder(file, join(TESTS, dir)));

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return testFiles(path);
      return entry.name.endsWith('.test.js') ? [path] : [];
    })
    .sort();
}

/** `test/x.test.ts` is accepted for `dist/test/x.test.js`, and a folder for the test files in it. */
const compiledPaths = (arg: string): string[] => {
  if (arg.startsWith('-')) return [arg];
  const path = arg.replace(/^(\.\/)?test(\/|$)/, 'dist/test$2').replace(/\.test\.ts$/, '.test.js');
  return existsSync(path) && statSync(path).isDirectory() ? testFiles(path) : [path];
};

/** `files`, the LONGEST first. */
function longestFirst(files: string[]): string[] {
  const rank = (file: string) => {
    const i = LONGEST.indexOf(relative(TESTS, file));
    return i < 0 ? LONGEST.length : i;
  };
  return files
    .map((file, i) => ({ file, i }))
    .sort((a, b) => rank(a.file) - rank(b.file) || a.i - b.i)
    .map(({ file }) => file);
}

/**
 * The test process's arguments: the runner over the files, in two lanes (the shared stack's, and one for the files
 * with stacks of their own), or `node --test` when options are given.
 */
function testProcessArgs(args: string[]): string[] {
  if (args.some((arg) => arg.startsWith('-'))) {
    const concurrency = args.some((arg) => arg.startsWith('--test-concurrency')) ? [] : [`--test-concurrency=${CONCURRENCY}`];
    return [...PRELOAD, '--test', '--test-reporter=spec', ...concurrency, ...args];
  }
  const files = longestFirst(args.map((file) => resolve(file)));
  const own = (file: string) => OWN_STACKS.some((path) => isUnder(file, path));
  return [
    ...PRELOAD,
    RUNNER,
    String(CONCURRENCY),
    ...files.filter((file) => !own(file)),
    '--lane',
    String(OWN_STACK_CONCURRENCY),
    ...files.filter(own),
  ];
}

/** Runs the tests `args` name in this environment without the stack's settings, no stack; their exit code. */
async function runWithoutStack(args: string[]): Promise<number> {
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !STACK_SETTINGS.includes(name))), ...FROZEN_BUILD };
  const tests = spawn(process.execPath, testProcessArgs(args), { stdio: 'inherit', env });
  const [code] = (await once(tests, 'exit')) as [number | null];
  return code ?? 1;
}

/** Data directories of earlier runs that died without cleaning up (their lock is stale). */
async function removeAbandonedRuns(except: string): Promise<void> {
  for (const entry of readdirSync(RUNS_DIR)) {
    const dir = join(RUNS_DIR, entry);
    if (dir === except || !existsSync(join(dir, 'run', 'supervisor.json'))) continue;
    try {
      await (await Supervisor.open(dir, log)).stop();
      rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      // A live run owns it (its lock is held): leave it. Anything else is worth saying.
      if (!/another offerops stack/.test((err as Error).message)) log(`could not clear ${dir}: ${(err as Error).message}`);
    }
  }
}

/** Resolves with the exit code, or null when a stop signal handler owns the exit. */
async function main(): Promise<number | null> {
  const args = process.argv.slice(2).flatMap(compiledPaths);
  const named = args.filter((arg) => !arg.startsWith('-'));
  if (named.length && named.every(needsNoSharedStack)) return runWithoutStack(args);
  mkdirSync(RUNS_DIR, { recursive: true });
  const dataDir = mkdtempSync(join(RUNS_DIR, 'run-'));
  await removeAbandonedRuns(dataDir);
  return runOnTemporaryStack({
    dataDir,
    keep: 'OFFEROPS_KEEP_TEST_DATA',
    what: 'test data',
    stack: { withApp: false, containers: true },
    async main(stack, supervisor) {
      return supervisor.spawn('tests', process.execPath, testProcessArgs(named.length ? args : [...args, ...testFiles(TESTS)]), {
        stdout: 'inherit',
        env: {
          ...process.env,
          MONGODB_URI: stack.mongodbUri,
          MONGODB_DB: stack.mongodbDb,
          TEMPORAL_ADDRESS: stack.temporalAddress,
          TEMPORAL_NAMESPACE: stack.temporalNamespace,
          OFFEROPS_TEST_DATA_DIR: dataDir,
          OFFEROPS_SECRET_KEY: secretKeyFor(dataDir),
          ...FROZEN_BUILD,
        },
      });
    },
  });
}

exitWith(main(), 'tests');
