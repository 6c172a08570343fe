/**
 * Which domain events get a `dispatchEvent` workflow: those a subscribed
 * webhook awaits, and those with a follow-up (webhook.deleted,
 * schedule.deleted). The rest are marked dispatched without a workflow, so
 * Temporal UI is not buried under dispatches that do nothing.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { WorkflowNotFoundError } from '@temporalio/client';
import { dispatchWorkflowId } from '../../temporal/names';
import { ApiClient } from '../helpers/client';
import { seedTenant, startTestApp, terminateRunning, TestApp } from '../helpers/stack';

let app: TestApp;
const taskQueue = `test-dispatch-${Date.now()}`;

before(async () => {
  app = await startTestApp({ webhookAllow: ['127.0.0.1'], taskQueue });
});
after(async () => {
  await terminateRunning(app, taskQueue);
  await app.close();
});

const eventOf = async (kind: string, path: string, id: string) =>
  (await app.db.collection('events').findOne({ kind, [path]: id })) as unknown as { _id: string; dispatched_at: Date | null };

const dispatched = async (eventId: string): Promise<boolean> => {
  try {
    await app.temporal.client.workflow.getHandle(dispatchWorkflowId(eventId)).describe();
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
};

test('an event no webhook awaits is marked dispatched without a workflow', async () => {
  const api = new ApiClient(app.baseUrl, (await seedTenant(app.db)).apiKey);
  const offer = (await api.post('/offers', { url: `https://shop.example/d/${Date.now()}`, title: 'Quiet' })).body.data;
  const event = await eventOf('offer.created', 'data.offer.id', offer.id);
  assert.ok(event.dispatched_at, 'marked dispatched');
  assert.equal(await dispatched(event._id), false);
});

test('an event a webhook of the same account and environment subscribes to is dispatched; another account is not', async () => {
  const subscriber = new ApiClient(app.baseUrl, (await seedTenant(app.db)).apiKey);
  const other = new ApiClient(app.baseUrl, (await seedTenant(app.db)).apiKey);
  assert.equal((await subscriber.post('/webhooks', { url: 'https://127.0.0.1:8443/hook', events: ['offer.created'] })).status, 201);
  const mine = (await subscriber.post('/offers', { url: `https://shop.example/d/a${Date.now()}`, title: 'Heard' })).body.data;
  const theirs = (await other.post('/offers', { url: `https://shop.example/d/b${Date.now()}`, title: 'Unheard' })).body.data;
  assert.equal(await dispatched((await eventOf('offer.created', 'data.offer.id', mine.id))._id), true);
  assert.equal(await dispatched((await eventOf('offer.created', 'data.offer.id', theirs.id))._id), false);
});

test('a deletion with a follow-up is dispatched even with no webhook left', async () => {
  const api = new ApiClient(app.baseUrl, (await seedTenant(app.db)).apiKey);
  const hook = (await api.post('/webhooks', { url: 'https://127.0.0.1:8443/hook', events: ['offer.updated'] })).body.data;
  assert.equal((await api.delete(`/webhooks/${hook.id}`)).status, 200);
  assert.equal(await dispatched((await eventOf('webhook.deleted', 'data.webhook_id', hook.id))._id), true);
});
