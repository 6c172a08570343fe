/**
 * Webhooks: CRUD and its disclosure rules, SSRF refusals, and signed
 * delivery end to end (API → outbox → dispatchEvent → webhookDelivery →
 * a local HTTPS receiver that verifies signatures with `standardwebhooks`),
 * with the delivery history read back from Temporal.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { deliveryWorkflowId } from '../../api/webhooks';
import { ApiClient } from '../helpers/client';
import { HttpsReceiver, startHttpsReceiver } from '../helpers/https-receiver';
import { seedTenant, startTestApp, TestApp } from '../helpers/stack';
import { startTestWorker, waitFor } from '../helpers/worker';

const taskQueue = `test-webhooks-${randomBytes(4).toString('hex')}`;
let app: TestApp;
let receiver: HttpsReceiver;
let worker: { stop(): Promise<void> };

before(async () => {
  app = await startTestApp({ taskQueue, webhookAllow: ['127.0.0.1'] });
  receiver = await startHttpsReceiver();
  worker = await startTestWorker(app, taskQueue, { webhookAllow: ['127.0.0.1'], webhookCa: receiver.ca });
});
after(async () => {
  await worker.stop();
  await receiver.close();
  await app.close();
});


async function tenant() {
  return new ApiClient(app.baseUrl, (await seedTenant(app.db)).apiKey);
}

describe('webhooks CRUD', () => {
  test('the secret is shown once, stored sealed, never listed, never changed by PATCH', async () => {
    const api = await tenant();
    const created = await api.post('/webhooks', { url: `${receiver.url}/hook`, events: ['offer.created'], description: 'CRM' });
    assert.equal(created.status, 201);
    const secret: string = created.body.data.secret;
    assert.match(secret, /^whsec_[A-Za-z0-9+/]+={0,2}$/);
    const id = created.body.data.id;
    for (const res of [await api.get(`/webhooks/${id}`), await api.get('/webhooks'), await api.patch(`/webhooks/${id}`, { description: 'CRM 2' })]) {
      assert.ok(!res.text.includes(secret) && !res.text.includes('secret'), res.text);
    }
    assert.equal((await api.patch(`/webhooks/${id}`, { secret: 'whsec_AAAA' })).status, 400);
    const raw = JSON.stringify(await app.db.collection('webhooks').findOne({ _id: id } as any));
    assert.ok(!raw.includes(secret.slice(6)), 'the database holds the secret sealed only');
    const events = JSON.stringify(await app.db.collection('events').find({ kind: /^webhook\./ } as any).toArray());
    assert.ok(!events.includes(secret.slice(6)));
  });

  test('HTTPS only, known event kinds only', async () => {
    const api = await tenant();
    assert.equal((await api.post('/webhooks', { url: 'http://example.com/hook', events: ['offer.created'] })).status, 400);
    const unknown = await api.post('/webhooks', { url: `${receiver.url}/hook`, events: ['offer.exploded'] });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.details[0].field, 'events');
    assert.equal((await api.post('/webhooks', { url: `${receiver.url}/hook`, events: ['*'] })).status, 201);
  });

  test('private, loopback, link-local and unique-local destinations are refused without the allow-list', async () => {
    const strict = await startTestApp({ dbName: app.dbName });
    try {
      const client = new ApiClient(strict.baseUrl, (await seedTenant(strict.db)).apiKey);
      for (const host of ['127.0.0.1', '10.1.2.3', '192.168.0.10', '172.16.5.5', '169.254.169.254', '[::1]', '[fd00::1]', '[::ffff:127.0.0.1]', 'localhost']) {
        const res = await client.post('/webhooks', { url: `https://${host}/hook`, events: ['offer.created'] });
        assert.equal(res.status, 400, host);
        assert.equal(res.body.details[0].field, 'url', host);
      }
    } finally {
      await strict.close();
    }
  });
});

describe('delivery', () => {
  test('an offer creation reaches the receiver once, signed; the delivery is listed from Temporal', async () => {
    const api = await tenant();
    const hook = (await api.post('/webhooks', { url: `${receiver.url}/e2e`, events: ['offer.created'] })).body.data;
    const offer = (await api.post('/offers', { url: `https://shop.example/wh/${randomBytes(3).toString('hex')}`, title: 'Webhook offer' })).body.data;
    const request = await waitFor('the delivery', async () => receiver.requests.find((r) => r.path === '/e2e'));
    const payload = new Webhook(hook.secret).verify(request.body, request.headers) as any;
    assert.equal(payload.kind, 'offer.created');
    assert.equal(payload.data.offer.id, offer.id);
    assert.equal(request.headers['webhook-id'], payload.id);
    const listed = await waitFor('the delivery in visibility', async () => {
      const res = await api.get(`/webhooks/${hook.id}/deliveries`);
      const d = res.body.data[0];
      return d && d.state === 'succeeded' ? res.body : undefined;
    });
    assert.equal(listed.pagination.total, 1);
    const delivery = listed.data[0];
    assert.equal(delivery.id, deliveryWorkflowId(hook.id, payload.id));
    assert.equal(delivery.event_kind, 'offer.created');
    assert.equal(delivery.attempts.length, 1);
    assert.equal(delivery.attempts[0].http_status, 200);
    await sleep(1000);
    assert.equal(receiver.requests.filter((r) => r.path === '/e2e').length, 1, 'delivered once');
  });

  /** A stored event nobody dispatches, delivered by a `webhookDelivery` run of our own with a short schedule. */
  async function deliverDirectly(api: ApiClient, path: string, script: number[], delays: number[]) {
    const hook = (await api.post('/webhooks', { url: `${receiver.url}${path}`, events: ['segment.deleted'] })).body.data;
    const me = (await api.get('/me')).body.data;
    const eventId = `evt_${randomBytes(12).toString('hex')}`.slice(0, 28);
    await app.db.collection('events').insertOne({
      _id: eventId as any, account_id: me.account.id, env: 'live', kind: 'segment.deleted', version: 1,
      occurred_at: new Date(), occurred_day: '2026-11-22', occurred_hour: 0, data: { segment_id: 'seg_x' }, dispatched_at: new Date(),
    });
    receiver.script.push(...script);
    const handle = await app.temporal.client.workflow.start('webhookDelivery', {
      workflowId: `test-delivery-${randomBytes(4).toString('hex')}`,
      taskQueue,
      args: [{ webhook_id: hook.id, event_id: eventId, account: me.account.id, environment: 'live', delays_ms: delays }],
    });
    return { hook, result: await handle.result(), handle };
  }

  test('failures are retried on the schedule, each attempt recorded with its status', async () => {
    const { result, handle } = await deliverDirectly(await tenant(), '/retry', [500, 503], [0, 100, 100, 100]);
    assert.deepEqual(result, { state: 'succeeded', attempts: 3 });
    const memo = (await handle.describe()).memo!.delivery as any;
    assert.deepEqual(memo.attempts.map((a: any) => a.http_status), [500, 503, 200]);
    assert.match(memo.attempts[0].error, /answered 500/);
    const history = await handle.fetchHistory();
    const scheduled = history.events!.filter((e) => e.activityTaskScheduledEventAttributes).length;
    assert.equal(scheduled, 3, 'each attempt is its own activity in history');
  });

  test('410 Gone disables the webhook; redirects are not followed', async () => {
    const api = await tenant();
    const gone = await deliverDirectly(api, '/gone', [410], [0, 100]);
    assert.deepEqual(gone.result, { state: 'failed', attempts: 1 });
    const after = (await api.get(`/webhooks/${gone.hook.id}`)).body.data;
    assert.equal(after.state, 'disabled');
    assert.equal(after.disabled_reason, 'gone');

    const moved = await deliverDirectly(api, '/moved', [302, 302], [0, 100]);
    assert.equal(moved.result.state, 'failed');
    const memo = (await moved.handle.describe()).memo!.delivery as any;
    assert.match(memo.attempts[0].error, /redirect \(302\) not followed/);
  });

  test('DELETE removes the webhook and its delivery executions', async () => {
    const api = await tenant();
    const hook = (await api.post('/webhooks', { url: `${receiver.url}/deleted`, events: ['offer.created'] })).body.data;
    await api.post('/offers', { url: `https://shop.example/del/${randomBytes(3).toString('hex')}`, title: 'To be forgotten' });
    await waitFor('a delivery', async () => ((await api.get(`/webhooks/${hook.id}/deliveries`)).body.pagination.total === 1 ? true : undefined));
    const res = await api.delete(`/webhooks/${hook.id}`);
    assert.deepEqual([res.status, res.body.deleted], [200, true]);
    assert.equal((await api.get(`/webhooks/${hook.id}`)).status, 404);
    const query = `OfferopsKind = 'webhook_delivery' AND OfferopsResourceId = '${hook.id}'`;
    // Deletion is asynchronous on the server and visibility follows it: allow it time under load.
    await waitFor('the executions to be deleted', async () => ((await app.temporal.client.workflow.count(query)).count === 0 ? true : undefined), 90_000);
  });
});
