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
import { run } from 'node:test';
import { spec } from 'node:test/reporters';

const lanes: { concurrency: number; files: string[] }[] = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  if (i === 0 || args[i] === '--lane') lanes.push({ concurrency: Number(args[args[i] === '--lane' ? ++i : i]), files: [] });
  else lanes.at(-1)!.files.push(args[i]!);
}

const abort = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    abort.abort();
    process.exitCode = 1;
    // The files' processes get SIGTERM from the abort; this one goes once they have (or after a grace).
    setTimeout(() => process.exit(), 5_000).unref();
  });
}

const reporter = new spec();
reporter.pipe(process.stdout);
let running = lanes.filter((lane) => lane.files.length).length;
for (const { concurrency, files } of lanes.filter((lane) => lane.files.length)) {
  const tests = run({ files, concurrency, signal: abort.signal });
  tests.on('test:fail', () => (process.exitCode = 1));
  tests.on('end', () => --running || reporter.end());
  tests.pipe(reporter, { end: false });
}
