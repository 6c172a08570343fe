/**
 * A paced publication too large for one workflow (more than 500 groups sent
 * one by one): the publication sends them in child batches (pacedDeliveries,
 * docs/architecture/decisions/0024-large-publications-in-child-batches.md).
 * Many channels with a short interval keep it quick; every group still
 * receives it exactly once, and no history passes Temporal's 10,240-event warning.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { Client } from '@temporalio/client';
import { secretKeyFromEnv } from '../../domain/sealing';
import { createChannel } from '../../domain/channels/store';
import { createGroup } from '../../domain/groups/store';
import { pacedDeliveriesWorkflowId, publicationWorkflowId } from '../../temporal/names';
import { FakeGateway, startFakeGateway } from '../helpers/fake-gateway';
import { ApiClient } from '../helpers/client';
import { seedTenant, startTestApp, TestApp } from '../helpers/stack';
import { publicationState } from '../helpers/states';
import { startTestWorker } from '../helpers/worker';
import { waitFor } from '../helpers/wait';

const taskQueue = `test-publish-batches-${randomBytes(4).toString('hex')}`;
const TOKEN = 'gw-batches-token';
/** Temporal warns past this many events in one history. */
const HISTORY_WARNING = 10_240;
let app: TestApp;
let worker: { stop(): Promise<void> };
let gateway: FakeGateway;

before(async () => {
  app = await startTestApp({ taskQueue, rateLimit: { limit: 100_000, windowMs: 60_000 } });
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

test('a paced publication to 510 groups (30 channels at 100 ms) goes in two child batches: each group once, every history small', async () => {
  const CHANNELS = 30;
  const PER_CHANNEL = 17;
  const tenant = await seedTenant(app.db);
  const api = new ApiClient(app.baseUrl, tenant.apiKey);
  const segment = (await api.post('/segments', { name: 'Batches' })).body.data;
  const addresses = new Map<string, string>();
  for (let c = 0; c < CHANNELS; c++) {
    const channel = await createChannel(
      app.db,
      tenant,
      { type: 'http', url: gateway.url, token: TOKEN, minIntervalMs: 100 },
      secretKeyFromEnv(),
    );
    for (let i = 0; i < PER_CHANNEL; i++) {
      const address = `5511${String(c).padStart(2, '0')}${String(i).padStart(4, '0')}@g.us`;
      const group = await createGroup(app.db, tenant, {
        name: `Batch group ${c}-${i}`,
        segment_id: segment.id,
        channel: { id: channel._id, type: 'http', address },
        minIntervalMs: 0,
      });
      addresses.set(group._id, address);
    }
  }
  const offer = (await api.post('/offers', { url: 'https://shop.example/batches', title: 'Batches offer' })).body.data;
  const id = (await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id })).body.data.publications[0].id as string;

  const done = await waitFor(
    `publication ${id} to finish`,
    async () => {
      const p = (await api.get(`/publications/${id}`)).body.data;
      return p?.completed_at && p.status !== 'sending' ? p : undefined;
    },
    150_000,
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

  // Two batches of 300, each a child named for its batch; no history near Temporal's warning.
  const client = app.temporal.client;
  const children = (await childrenOf(client, publicationWorkflowId(id))).sort();
  assert.deepEqual(children, [pacedDeliveriesWorkflowId(id, 1), pacedDeliveriesWorkflowId(id, 2)]);
  for (const workflowId of [publicationWorkflowId(id), ...children]) {
    const handle = client.workflow.getHandle(workflowId);
    const { historyLength } = await handle.describe();
    assert.ok(historyLength <= HISTORY_WARNING, `${workflowId}: ${historyLength} events`);
    console.log(`${workflowId}: ${historyLength} history events`);
  }
  const summary = await (await client.workflow.getHandle(children[0]!).describe()).staticSummary();
  assert.match(summary ?? '', new RegExp(`^Sends of batch 1 of 2 of publication ${id}, one by one: 255 groups: Batch group \\d+-\\d+ \\(grp_`));
});
