/**
 * The retention workflow on the real Temporal server, with fake activities:
 * a worker on a task queue of its own runs it until the workflow completes.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { WORKFLOW_BUNDLE } from '../../domain/config';
import { retentionSweep } from '../../workflows/index';
import { stackEnv } from '../helpers/stack';

// Keep the worker quiet unless something is wrong.
Runtime.install({ logger: new DefaultLogger('ERROR') });

const env = stackEnv();
let native: NativeConnection;
let connection: Connection;
let client: Client;

before(async () => {
  native = await NativeConnection.connect({ address: env.temporalAddress });
  connection = await Connection.connect({ address: env.temporalAddress });
  client = new Client({ connection, namespace: env.temporalNamespace });
});
after(async () => {
  await Promise.allSettled([connection?.close(), native?.close()]);
});

const unique = (what: string) => `test-${what}-${Date.now()}-${randomBytes(4).toString('hex')}`;

function worker(taskQueue: string, sweepExpiredRecords: () => Promise<Record<string, number>>) {
  return Worker.create({
    connection: native,
    namespace: env.temporalNamespace,
    taskQueue,
    workflowBundle: { codePath: WORKFLOW_BUNDLE },
    activities: { sweepExpiredRecords },
  });
}

test('retentionSweep returns what the sweep activity removed', async () => {
  const taskQueue = unique('retention');
  let calls = 0;
  const w = await worker(taskQueue, async () => {
    calls += 1;
    return { rate_limit_windows: 3 };
  });
  const result = await w.runUntil(client.workflow.execute(retentionSweep, { taskQueue, workflowId: unique('sweep') }));
  assert.deepEqual(result, { removed: { rate_limit_windows: 3 } });
  assert.equal(calls, 1);
});

test('a failing sweep is retried and the workflow still completes', async () => {
  const taskQueue = unique('retention-retry');
  let calls = 0;
  const w = await worker(taskQueue, async () => {
    calls += 1;
    if (calls === 1) throw new Error('MongoDB is briefly unreachable');
    return { rate_limit_windows: 2 };
  });
  const workflowId = unique('sweep-retry');
  const result = await w.runUntil(client.workflow.execute(retentionSweep, { taskQueue, workflowId }));
  assert.deepEqual(result, { removed: { rate_limit_windows: 2 } });
  assert.equal(calls, 2);
  // The history shows the failed first attempt: the retry came from the policy, not a second run.
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const scheduled = history.events?.filter((e) => e.activityTaskScheduledEventAttributes) ?? [];
  assert.equal(scheduled.length, 1);
  const completed = history.events?.find((e) => e.activityTaskCompletedEventAttributes);
  const started = history.events?.find((e) => e.activityTaskStartedEventAttributes);
  assert.ok(completed, 'activity completed');
  assert.equal(started?.activityTaskStartedEventAttributes?.attempt, 2);
});
