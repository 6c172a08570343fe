/**
 * The fast layer is what tools/stack/test-layers.ts says: `npm run test:unit`
 * runs exactly the folders that need no stack, and the import rule that keeps
 * their files off the stack helpers names those same folders.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { NO_STACK_DIRS } from '../../tools/stack/test-layers';

/** The checkout: this file runs from dist/test/unit/. */
const ROOT = resolve(__dirname, '../../..');

test('npm run test:unit runs the folders that need no stack, and only those', () => {
  const scripts = (JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const folders = scripts['test:unit']!.split(' tools/stack/test ')[1]!.split(' ');
  assert.deepEqual(
    folders,
    NO_STACK_DIRS.map((dir) => `test/${dir}`),
  );
});

test('the lint keeps the test files of those folders off the stack helpers', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the lint's configuration is CommonJS
  const config = require(resolve(ROOT, '.dependency-cruiser.cjs')) as { forbidden: { name: string; from: { path: string } }[] };
  const rule = config.forbidden.find((r) => r.name === 'no-stack-tests-reach-no-stack-helper');
  assert.equal(rule?.from.path, `^test/(${NO_STACK_DIRS.join('|')})/[^/]+[.]test[.]ts$`);
});
