/**
 * The housekeeping workflows on the real Temporal server, with fake
 * activities: one long-lived execution per sweep and task queue, which
 * sweeps on a timer, rides out a failing sweep, and continues as new under
 * the same id and search attributes — so the workflow list gains a run per
 * many sweeps, not one per sweep.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { WORKFLOW_BUNDLE } from '../../domain/config';
import { OfferopsKind, OfferopsSubject, sweepWorkflowId } from '../../temporal/names';
import { startMaintenance } from '../../temporal/start';
import { stackEnv } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { tailOf } from '../helpers/states';

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

const unique = (what: string) => `test-${what}-${randomBytes(4).toString('hex')}`;

function worker(taskQueue: string, activities: Record<string, () => Promise<unknown>>) {
  return Worker.create({
    connection: native,
    namespace: env.temporalNamespace,
    taskQueue,
    workflowBundle: { codePath: WORKFLOW_BUNDLE },
    activities,
  });
}

/** The runs of workflow `workflowId` visibility lists, oldest first. */
async function runsOf(workflowId: string) {
  const runs = [];
  for await (const run of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) runs.push(run);
  return runs.sort((a, b) => a.startTime.getTime() - b.startTime.getTime());
}

test('the worker starts one execution per sweep, tagged maintenance; starting again (another worker) leaves it as it is', async () => {
  const taskQueue = unique('maintenance');
  await startMaintenance({ client, taskQueue });
  await startMaintenance({ client, taskQueue });
  try {
    for (const sweep of ['outbox', 'retention'] as const) {
      const workflowId = sweepWorkflowId(sweep, taskQueue);
      const described = await client.workflow.getHandle(workflowId).describe();
      assert.equal(described.status.name, 'RUNNING');
      assert.equal(described.typedSearchAttributes.get(OfferopsKind), 'maintenance');
      assert.equal(described.typedSearchAttributes.get(OfferopsSubject), `${sweep} sweep`);
      const runs = await waitFor(
        `${workflowId} in visibility`,
        async () => ((await runsOf(workflowId)).length ? runsOf(workflowId) : undefined),
        30_000,
        () => tailOf(client.workflow.getHandle(workflowId)),
      );
      assert.equal(runs.length, 1, 'one execution, however many workers start it');
    }
    assert.equal(sweepWorkflowId('outbox', 'offerops'), 'offerops-outbox-sweep');
  } finally {
    for (const sweep of ['outbox', 'retention'] as const)
      await client.workflow.getHandle(sweepWorkflowId(sweep, taskQueue)).terminate('test over');
  }
});

test('a sweep runs on a timer, a failing one is retried, and the run continues as new with its search attributes', async () => {
  const taskQueue = unique('retention');
  let calls = 0;
  const w = await worker(taskQueue, {
    async sweepExpiredRecords() {
      calls += 1;
      if (calls === 1) throw new Error('MongoDB is briefly unreachable');
      return { rate_limit_windows: 2 };
    },
  });
  const workflowId = unique('sweep');
  const handle = await client.workflow.start('retentionSweep', {
    workflowId,
    taskQueue,
    args: [{ every_ms: 100, sweeps: 3 }],
    typedSearchAttributes: [
      { key: OfferopsKind, value: 'maintenance' },
      { key: OfferopsSubject, value: 'retention sweep' },
    ],
  });
  await w.runUntil(async () => {
    // Three sweeps (the first tried twice) in the first run, then more in the next.
    const state = async () =>
      `${calls} sweeps so far, ${(await runsOf(workflowId)).length} runs listed\n${await tailOf(client.workflow.getHandle(workflowId))}`;
    await waitFor('the second run', async () => ((await runsOf(workflowId)).length >= 2 ? true : undefined), 30_000, state);
    await waitFor('a sweep of the second run', async () => (calls >= 5 ? true : undefined), 30_000, state);
  });
  await handle.terminate('test over');
  const [first, second] = await runsOf(workflowId);
  assert.equal(first!.status.name, 'CONTINUED_AS_NEW');
  assert.equal(second!.typedSearchAttributes.get(OfferopsKind), 'maintenance');
  assert.equal(second!.typedSearchAttributes.get(OfferopsSubject), 'retention sweep');
  // The first run's history: three sweeps, each an activity and a timer; the first sweep's retry is no activity of its own.
  const history = await client.workflow.getHandle(workflowId, first!.runId).fetchHistory();
  const scheduled = history.events!.filter((e) => e.activityTaskScheduledEventAttributes);
  const timers = history.events!.filter((e) => e.timerStartedEventAttributes);
  assert.equal(scheduled.length, 3);
  assert.equal(timers.length, 3);
  const firstStarted = history.events!.find((e) => e.activityTaskStartedEventAttributes);
  assert.equal(firstStarted?.activityTaskStartedEventAttributes?.attempt, 2);
});
