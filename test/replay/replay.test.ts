/**
 * Replays saved workflow histories against today's workflow code. A change
 * that would break workflows already running (a non-deterministic change)
 * fails here. Histories are recorded with `node dist/test/replay/record.js`
 * (see that file) and kept in test/replay/histories/: one current history per
 * workflow type, and one recorded before each patch still in the code
 * (docs/architecture/workflow-versioning.md).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { before, test } from 'node:test';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { WORKFLOW_BUNDLE } from '../../domain/config';

const HISTORIES_DIR = resolve(__dirname, '../../../test/replay/histories');

const files = readdirSync(HISTORIES_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

before(() => Runtime.install({ logger: new DefaultLogger('ERROR') }));

/** Every workflow type the worker runs (workflows/index.ts). */
const TYPES = [
  'dispatchEvent',
  'journeyExecution',
  'monitorRun',
  'outboxSweep',
  'pacedDeliveries',
  'publication',
  'reply',
  'retentionSweep',
  'scheduleRun',
  'webhookCleanup',
  'webhookDelivery',
];
const typeOf = (file: string) => file.split('.')[0]!;

test('each workflow type has one current history; any other is named before-<patch id>, for a patch still in the code', () => {
  const current = files.filter((f) => !f.split('.')[1]!.startsWith('before-'));
  assert.deepEqual(current.map(typeOf).sort(), TYPES);
  for (const file of files) assert.ok(TYPES.includes(typeOf(file)), file);
});

for (const file of files) {
  test(`replays ${file}`, async () => {
    const history = JSON.parse(readFileSync(resolve(HISTORIES_DIR, file), 'utf8'));
    await Worker.runReplayHistory({ workflowBundle: { codePath: WORKFLOW_BUNDLE } }, history, file);
  });
}
