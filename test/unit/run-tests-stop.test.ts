/**
 * A stop signal to the test runner (tools/stack/run-tests.ts), as the
 * launcher sends it on Ctrl-C or SIGTERM, ends the processes of the test
 * files under way: none is left running, orphaned, after the runner. A file
 * that outlives its bound fails, saying what it was still running.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { waitFor } from '../helpers/wait';

const RUNNER = resolve(__dirname, '../../tools/stack/run-tests.js');

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('SIGTERM to the runner ends the test files it runs, within seconds', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'offerops-run-tests-'));
  try {
    const pidFile = join(dir, 'pid');
    // A test file that would run for ever: it notes its pid, then waits.
    writeFileSync(
      join(dir, 'forever.test.js'),
      `require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));\n` +
        `require('node:test').test('waits', () => new Promise(() => setInterval(() => undefined, 1000)));\n`,
    );
    // As npm test starts it: not inside this file's own test context.
    const { NODE_TEST_CONTEXT: _context, ...env } = process.env;
    const runner = spawn(process.execPath, [RUNNER, '1', join(dir, 'forever.test.js')], { stdio: 'ignore', env });
    const pid = await waitFor(
      'the test file to start',
      async () => (existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : undefined),
      undefined,
      () => `the runner ${runner.exitCode === null && runner.signalCode === null ? 'runs' : `exited (${runner.exitCode ?? runner.signalCode})`}`,
    );
    runner.kill('SIGTERM');
    await once(runner, 'exit');
    await waitFor(
      `test file process ${pid} to end`,
      async () => (alive(pid) ? undefined : true),
      10_000,
      () => `process ${pid} still runs after the runner exited`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a file past its bound fails, named, with the tests it was still running; one held by an open handle says so', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'offerops-run-tests-'));
  try {
    writeFileSync(
      join(dir, 'stuck.test.js'),
      `const { describe, test } = require('node:test');\n` +
        `test('quick', () => undefined);\n` +
        `describe('outer', () => test('waits', () => new Promise(() => setInterval(() => undefined, 1000))));\n`,
    );
    writeFileSync(join(dir, 'held.test.js'), `require('node:test').test('quick', () => undefined);\nsetInterval(() => undefined, 1000);\n`);
    const { NODE_TEST_CONTEXT: _context, ...env } = process.env;
    const runner = spawn(process.execPath, [RUNNER, '2', join(dir, 'stuck.test.js'), join(dir, 'held.test.js')], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...env, OFFEROPS_TEST_FILE_TIMEOUT_MS: '3000' },
    });
    let stderr = '';
    runner.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(runner, 'exit')) as [number | null];
    assert.equal(code, 1);
    assert.match(stderr, /stuck\.test\.js timed out; still running: outer › waits\n/);
    assert.match(stderr, /held\.test\.js timed out; its tests had ended: a hook or an open handle held it\n/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
