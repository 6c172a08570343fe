/**
 * A paced publication too large for one workflow (more groups sent one by
 * one than its batch size, 500 unless the operator sets it): the publication
 * sends them in child batches (pacedDeliveries,
 * docs/architecture/decisions/0024-large-publications-in-child-batches.md).
 * The app here sets a batch of 20, so 60 groups make three; every group still
 * receives it exactly once, and a batch's history stays within the per-group
 * cost that keeps 500 groups under Temporal's 10,240-event warning.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { Client } from '@temporalio/client';
import { secretKeyFromEnv } from '../../domain/sealing';
import { pacedDeliveriesWorkflowId, publicationWorkflowId } from '../../temporal/names';
import { FakeGateway, startFakeGateway } from '../helpers/fake-gateway';
import { ApiClient } from '../helpers/client';
import { seedTenant, startTestApp, TestApp } from '../helpers/stack';
import { groupsOverChannels } from '../helpers/publications';
import { publicationState } from '../helpers/states';
import { startTestWorker } from '../helpers/worker';
import { waitFor } from '../helpers/wait';

const taskQueue = `test-publish-batches-${randomBytes(4).toString('hex')}`;
const TOKEN = 'gw-batches-token';
/** Temporal warns past this many events in one history. */
const HISTORY_WARNING = 10_240;
/** The publication's batch size here (OFFEROPS_PUBLICATION_BATCH_GROUPS); 500 by default. */
const BATCH = 20;
/** Events a batch of the default size may spend per group and stay under the warning. */
const EVENTS_PER_GROUP = Math.floor(HISTORY_WARNING / 500);
let app: TestApp;
let worker: { stop(): Promise<void> };
let gateway: FakeGateway;

before(async () => {
  app = await startTestApp({ taskQueue, rateLimit: { limit: 100_000, windowMs: 60_000 }, batchGroups: BATCH });
  worker = await startTestWorker(app, taskQueue);
  gateway = await startFakeGateway({ token: TOKEN });
});
after(async () => {
  await worker.stop();
  await gateway.close();
  await app.close();
});

/** The ids of the child workflows a workflow started, from its history. */
async function childrenOf(client: Client, workflowId: string): Promise<string[]> {
  const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  return events.flatMap((e) => e.childWorkflowExecutionStartedEventAttributes?.workflowExecution?.workflowId ?? []);
}

test('a paced publication to 60 groups in batches of 20 goes in three child batches: each group once, every history small', async () => {
  const CHANNELS = 6;
  const PER_CHANNEL = 10;
  const tenant = await seedTenant(app.db);
  const api = new ApiClient(app.baseUrl, tenant.apiKey);
  const segment = (await api.post('/segments', { name: 'Batches' })).body.data;
  const addresses = await groupsOverChannels(app.db, tenant, {
    gateway: { url: gateway.url, token: TOKEN },
    secretKey: secretKeyFromEnv(),
    segmentId: segment.id,
    channels: CHANNELS,
    perChannel: PER_CHANNEL,
    intervalMs: 100,
    name: 'Batch group',
    prefix: '5511',
  });
  const offer = (await api.post('/offers', { url: 'https://shop.example/batches', title: 'Batches offer' })).body.data;
  const id = (await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id })).body.data.publications[0].id as string;

  const done = await waitFor(
    `publication ${id} to finish`,
    async () => {
      const p = (await api.get(`/publications/${id}`)).body.data;
      return p?.completed_at && p.status !== 'sending' ? p : undefined;
    },
    120_000,
    () => publicationState(api, id, app.temporal.client),
  );
  assert.equal(done.status, 'sent');
  for (const d of done.deliveries as { group_id: string; status: string; attempts: number }[]) {
    const address = addresses.get(d.group_id)!;
    const requests = gateway.requests.filter((r) => r.to === address);
    assert.equal(d.status, 'sent', d.group_id);
    assert.equal(gateway.messages(address).length, 1, `${d.group_id} received exactly one message`);
    assert.deepEqual(new Set(requests.map((r) => r.idempotency_key)), new Set([`${id}:${d.group_id}`]), `${d.group_id}: one key`);
    // Every request the gateway received is an attempt the delivery counts.
    assert.equal(requests.length, d.attempts, `${d.group_id}: ${requests.length} requests, ${d.attempts} attempts`);
  }
  assert.equal(done.deliveries.length, CHANNELS * PER_CHANNEL);

  // Three batches of 20, each a child named for its batch; the parent's history does not grow with the groups, and
  // a batch's stays within the per-group cost that keeps a batch of 500 under the warning.
  const client = app.temporal.client;
  const children = (await childrenOf(client, publicationWorkflowId(id))).sort();
  assert.deepEqual(
    children,
    [1, 2, 3].map((n) => pacedDeliveriesWorkflowId(id, n)),
  );
  const { historyLength: parent } = await client.workflow.getHandle(publicationWorkflowId(id)).describe();
  assert.ok(parent <= 60, `the publication's own history: ${parent} events`);
  for (const workflowId of children) {
    const { historyLength } = await client.workflow.getHandle(workflowId).describe();
    assert.ok(historyLength <= BATCH * EVENTS_PER_GROUP, `${workflowId}: ${historyLength} events for ${BATCH} groups`);
  }
  const summary = await (await client.workflow.getHandle(children[0]!).describe()).staticSummary();
  assert.match(summary ?? '', new RegExp(`^Sends of batch 1 of 3 of publication ${id}, one by one: 20 groups: Batch group \\d+-\\d+ \\(grp_`));
});
