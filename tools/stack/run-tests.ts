/**
 * `node run-tests.js N FILE… [--lane N FILE…]…`: runs test files through
 * node:test's `run`, each in its own process, in lanes that run side by side:
 * each lane N files at a time, started in the order given (`node --test`
 * sorts its files, so the longest could start last). One spec reporter on
 * stdout (a summary per lane, then the failures of all); exit code 1 when a
 * test failed. tools/stack/test.ts decides the lanes and the order. A stop
 * signal (the launcher's SIGTERM, Ctrl-C) aborts the run, which ends every
 * file's process: none is left orphaned when only this one is signalled.
 */
import { setMaxListeners } from 'node:events';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';

const lanes: { concurrency: number; files: string[] }[] = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  if (i === 0 || args[i] === '--lane') lanes.push({ concurrency: Number(args[args[i] === '--lane' ? ++i : i]), files: [] });
  else lanes.at(-1)!.files.push(args[i]!);
}

const abort = new AbortController();
// Each file running listens to it: more than the default 10 at once is expected, not a leak.
setMaxListeners(0, abort.signal);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    abort.abort();
    process.exitCode = 1;
    // The files' processes get SIGTERM from the abort; this one goes once they have (or after a grace).
    setTimeout(() => process.exit(), 5_000).unref();
  });
}

/**
 * A file still running after this long fails, named (`run`'s timeout is per file), instead of holding its lane, and
 * every file reported after it, until CI's own limit. The longest file takes about 8 minutes on a loaded 2-core machine.
 * OFFEROPS_TEST_FILE_TIMEOUT_MS sets another bound.
 */
const FILE_TIMEOUT_MS = Number(process.env.OFFEROPS_TEST_FILE_TIMEOUT_MS || 20 * 60_000);

/**
 * Per file, the tests started (dequeued: `test:start` comes only with the result) and not ended yet: what a file that
 * timed out was doing, said at once on stderr.
 */
const unfinished = new Map<string, string[]>();
interface TestEvent {
  name: string;
  nesting: number;
  file?: string;
  details?: { error?: { failureType?: string } };
}
const started = ({ name, file }: TestEvent) => file && name !== file && unfinished.set(file, [...(unfinished.get(file) ?? []), name]);
const ended = ({ name, nesting, file, details }: TestEvent) => {
  if (!file) return;
  const left = unfinished.get(file) ?? [];
  const at = left.lastIndexOf(name);
  if (at >= 0) left.splice(at, 1);
  if (nesting === 0 && details?.error?.failureType === 'testTimeoutFailure')
    process.stderr.write(
      `${file} timed out; ${left.length ? `still running: ${left.join(' › ')}` : 'its tests had ended: a hook or an open handle held it'}\n`,
    );
};

const reporter = new spec();
reporter.pipe(process.stdout);
let running = lanes.filter((lane) => lane.files.length).length;
for (const { concurrency, files } of lanes.filter((lane) => lane.files.length)) {
  const tests = run({ files, concurrency, signal: abort.signal, timeout: FILE_TIMEOUT_MS });
  tests.on('test:dequeue', started);
  tests.on('test:pass', ended);
  tests.on('test:fail', ended);
  tests.on('test:fail', () => (process.exitCode = 1));
  tests.on('end', () => --running || reporter.end());
  tests.pipe(reporter, { end: false });
}
