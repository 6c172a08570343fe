/**
 * The test files' processes run with node:test's async hook replaced (tools/stack/test-async-hook.ts) and still charge
 * an error thrown or rejected outside any await to the test it came from, not to the file or the test after it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';

const RUNNER = resolve(__dirname, '../../tools/stack/run-tests.js');
const HOOK = resolve(__dirname, '../../tools/stack/test-async-hook.js');

const FIXTURE = `
const { it } = require('node:test');
const assert = require('node:assert/strict');
const later = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
it('runs with the hook replaced', () => assert.ok(process.listeners('uncaughtException').some((f) => f.name === 'charge')));
it('throws from a timer', async () => {
  setTimeout(() => { throw new Error('thrown by a timer'); }, 5);
  await later(200);
});
it('rejects unhandled', async () => {
  await later(5);
  Promise.resolve().then(() => { throw new Error('rejected unhandled'); });
  await later(200);
});
it('passes after them', () => later(5));
`;

test('an uncaught error fails the test it came from, the tests beside it pass', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'offerops-async-hook-'));
  try {
    writeFileSync(join(dir, 'errors.test.js'), FIXTURE);
    // As npm test starts it: not inside this file's own test context.
    const { NODE_TEST_CONTEXT: _context, ...env } = process.env;
    const runner = spawn(process.execPath, ['--require', HOOK, RUNNER, '1', join(dir, 'errors.test.js')], { env });
    let out = '';
    runner.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await once(runner, 'exit');
    const line = (name: string) => out.split('\n').find((l) => l.includes(name)) ?? `(no line for ${name} in:\n${out})`;
    assert.match(line('runs with the hook replaced'), /✔/);
    assert.match(line('throws from a timer'), /✖/);
    assert.match(line('rejects unhandled'), /✖/);
    assert.match(line('passes after them'), /✔/);
    // Each error is reported under its own test.
    const failures = out.slice(out.lastIndexOf('failing tests'));
    assert.match(failures, /throws from a timer[\s\S]*thrown by a timer[\s\S]*rejects unhandled[\s\S]*rejected unhandled/);
    assert.equal(runner.exitCode, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
