/**
 * `node run-tests.js CONCURRENCY FILE…`: runs the test files through
 * node:test's `run`, each in its own process, CONCURRENCY at a time, started
 * in the order given (`node --test` sorts its files, so the longest could
 * start last); the spec reporter on stdout, exit code 1 when a test failed.
 * tools/stack/test.ts decides the order.
 */
import { run } from 'node:test';
import { spec } from 'node:test/reporters';

const [concurrency, ...files] = process.argv.slice(2);
const tests = run({ files, concurrency: Number(concurrency) });
tests.on('test:fail', () => (process.exitCode = 1));
tests.pipe(new spec()).pipe(process.stdout);
