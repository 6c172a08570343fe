/**
 * `npm test`: starts the stack (without the app) on a fresh data directory,
 * runs `node --test` over every compiled test file — or the files, folders and
 * `--flag=value` options given after `npm test --` — with the stack's
 * coordinates in its environment, stops the stack and exits with the tests'
 * exit code. When every file given needs no shared stack (test/unit: pure
 * functions; test/stack and test/faults: stacks of their own), none starts.
 * OFFEROPS_KEEP_TEST_DATA=1 keeps the data directory (logs included).
 */
import { secretKeyFor } from '../cli/stack-config';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { log, Supervisor } from './processes';
import { exitWith, runOnTemporaryStack } from './temporary';

const DIST = resolve(__dirname, '../..');
/** Tests that need no shared stack: pure functions, and tests that start stacks of their own. */
const STANDALONE_DIRS = ['unit', 'stack', 'faults'].map((dir) => join(DIST, 'test', dir));
/** Every test run's data directory lives here, so a later run can clear a crashed one's. */
const RUNS_DIR = join(tmpdir(), 'offerops-tests');

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

const isUnder = (path: string, dir: string): boolean => !relative(dir, resolve(path)).startsWith('..');

/** Runs `node --test` with `args` in this environment, no stack; its exit code. */
async function runWithoutStack(args: string[]): Promise<number> {
  const tests = spawn(process.execPath, ['--test', '--test-reporter=spec', ...args], { stdio: 'inherit' });
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
  if (named.length && named.every((file) => STANDALONE_DIRS.some((dir) => isUnder(file, dir)))) return runWithoutStack(args);
  mkdirSync(RUNS_DIR, { recursive: true });
  const dataDir = mkdtempSync(join(RUNS_DIR, 'run-'));
  await removeAbandonedRuns(dataDir);
  return runOnTemporaryStack({
    dataDir,
    keep: 'OFFEROPS_KEEP_TEST_DATA',
    what: 'test data',
    stack: { withApp: false, containers: true },
    async main(stack, supervisor) {
      const files = named.length ? [] : testFiles(join(DIST, 'test'));
      return supervisor.spawn('tests', process.execPath, ['--test', '--test-reporter=spec', ...args, ...files], {
        stdout: 'inherit',
        env: {
          ...process.env,
          MONGODB_URI: stack.mongodbUri,
          MONGODB_DB: stack.mongodbDb,
          TEMPORAL_ADDRESS: stack.temporalAddress,
          TEMPORAL_NAMESPACE: stack.temporalNamespace,
          OFFEROPS_TEST_DATA_DIR: dataDir,
          OFFEROPS_SECRET_KEY: secretKeyFor(dataDir),
        },
      });
    },
  });
}

exitWith(main(), 'tests');
