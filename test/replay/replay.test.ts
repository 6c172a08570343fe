/**
 * Replays saved workflow histories against today's workflow code. A change
 * that would break workflows already running (a non-deterministic change)
 * fails here. Histories are recorded with `node dist/test/replay/record.js`
 * (see that file) and kept in test/replay/histories/.
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

test('there are saved histories of every workflow type', () => {
  const types = new Set(files.map((f) => f.split('.')[0]));
  for (const type of [
    'publication',
    'reply',
    'retentionSweep',
    'dispatchEvent',
    'outboxSweep',
    'webhookDelivery',
    'webhookCleanup',
    'scheduleRun',
    'journeyExecution',
    'monitorRun',
  ])
    assert.ok(types.has(type), type);
});

for (const file of files) {
  test(`replays ${file}`, async () => {
    const history = JSON.parse(readFileSync(resolve(HISTORIES_DIR, file), 'utf8'));
    await Worker.runReplayHistory({ workflowBundle: { codePath: WORKFLOW_BUNDLE } }, history, file);
  });
}
