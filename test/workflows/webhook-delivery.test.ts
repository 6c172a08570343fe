/**
 * Webhook delivery on the real stack: an in-process worker with the real
 * activities, a local HTTPS receiver (self-signed certificate made by the
 * openssl CLI, trusted through the worker's deps) that verifies every request
 * with the `standardwebhooks` package, short retry schedules. Covers the path
 * API → outbox → dispatchEvent → webhookDelivery → receiver, retries, 410,
 * redirects, the SSRF check at delivery time, the listing served from
 * Temporal, and DELETE removing the executions.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { AddressInfo, createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { WorkflowHandle, WorkflowNotFoundError } from '@temporalio/client';
import { ApplicationFailure, defaultPayloadConverter } from '@temporalio/common';
import { NativeConnection, Worker } from '@temporalio/worker';
import { WORKFLOW_BUNDLE } from '../../domain/config';
import { Webhook } from 'standardwebhooks';
import { seal } from '../../domain/sealing';
import { cleanupWorkflowId, deliveryWorkflowId, dispatchWorkflowId } from '../../temporal/names';
import { deliveryStartOptions } from '../../temporal/workflows';
import { redeliver } from '../../domain/webhooks/service';
import { ApiClient } from '../helpers/client';
import { HttpsReceiver, ReceivedRequest, startHttpsReceiver } from '../helpers/https-receiver';
import { seedTenant, stackEnv, startTestApp, Tenant, TestApp } from '../helpers/stack';
import { startTestWorker, workerLog } from '../helpers/worker';
import { waitFor } from '../helpers/wait';
import { deliveriesState, listedState, receivedState, tailOf } from '../helpers/states';

const taskQueue = `test-webhook-delivery-${randomBytes(4).toString('hex')}`;
const ALLOW = ['127.0.0.1', 'localhost'];
/** The attempt deadline (15 s in production), shorter so a receiver that never answers is quicker to test, ample for the others. */
const TIMEOUT_MS = 5_000;
let app: TestApp;
let receiver: HttpsReceiver;
let worker: { stop(): Promise<void> };

before(async () => {
  app = await startTestApp({ taskQueue, webhookAllow: ALLOW });
  receiver = await startHttpsReceiver();
  worker = await startTestWorker(app, taskQueue, { webhookAllow: ALLOW, webhookCa: receiver.ca, webhookTimeoutMs: TIMEOUT_MS });
});
after(async () => {
  await worker.stop();
  await receiver.close();
  await app.close();
});

let paths = 0;
/** A path of its own on the receiver, so tests never see each other's requests. */
const path = (name: string) => `/${name}-${++paths}`;

async function tenant(): Promise<{ api: ApiClient; who: Tenant }> {
  const who = await seedTenant(app.db);
  return { api: new ApiClient(app.baseUrl, who.apiKey), who };
}

async function createHook(api: ApiClient, at: string, events: string[], base = receiver.url) {
  const res = await api.post('/webhooks', { url: `${base}${at}`, events });
  assert.equal(res.status, 201, res.text);
  return res.body.data as { id: string; secret: string };
}

/** Verifies a request as a receiver would, with the standardwebhooks package; the payload. */
function verified(secret: string, request: ReceivedRequest): any {
  return new Webhook(secret).verify(request.body, request.headers);
}

/** A stored event of the tenant that nothing dispatches, for a delivery of our own. */
async function storeEvent(who: Tenant): Promise<string> {
  const id = `evt_${randomBytes(12).toString('hex')}`;
  const at = new Date();
  await app.db.collection('events').insertOne({
    _id: id as any,
    account_id: who.accountId,
    env: who.env,
    kind: 'segment.deleted',
    version: 1,
    occurred_at: at,
    occurred_day: at.toISOString().slice(0, 10),
    occurred_hour: at.getUTCHours(),
    data: { segment_id: 'seg_x' },
    dispatched_at: at,
  });
  return id;
}

/** Starts a delivery exactly as dispatchEvent does (same id, search attributes, memo), with a short schedule unless `delays` is left out. */
async function startDelivery(
  who: Tenant,
  webhookId: string,
  delays?: number[],
  queue = taskQueue,
): Promise<{ handle: WorkflowHandle; eventId: string }> {
  const eventId = await storeEvent(who);
  const options = deliveryStartOptions(
    {
      webhook_id: webhookId,
      event_id: eventId,
      account: who.accountId,
      environment: who.env,
      event_kind: 'segment.deleted',
      delays_ms: delays,
      host: new URL(receiver.url).hostname,
    },
    new Date(),
  );
  const handle = await app.temporal.client.workflow.start('webhookDelivery', { ...options, taskQueue: queue });
  return { handle, eventId };
}

/** The deliveries listing once visibility shows what `ready` expects. */
async function listed(api: ApiClient, webhookId: string, ready: (body: any) => boolean, query = '') {
  return waitFor(
    `deliveries of ${webhookId}${query}`,
    async () => {
      const res = await api.get(`/webhooks/${webhookId}/deliveries${query}`);
      assert.equal(res.status, 200, res.text);
      return ready(res.body) ? res.body : undefined;
    },
    30_000,
    () => deliveriesState(api, webhookId, query),
  );
}

describe('end to end', () => {
  test('creating an offer sends one signed offer.created to the subscribed webhook, webhook-id = the event id', async () => {
    const { api, who } = await tenant();
    const at = path('e2e');
    // By host name: the worker resolves it, checks every address and connects to those only.
    const hook = await createHook(api, at, ['offer.created'], receiver.url.replace('127.0.0.1', 'localhost'));
    const other = await createHook(api, path('other'), ['offer.updated']);
    const offer = (await api.post('/offers', { url: `https://shop.example/wh/${randomBytes(4).toString('hex')}`, title: 'Webhook offer' })).body
      .data;

    const body = await listed(api, hook.id, (b) => b.data[0]?.state === 'succeeded');
    // The delivery finished, so every request it made has arrived.
    const requests = receiver.on(at);
    assert.equal(requests.length, 1, 'delivered once');
    const payload = verified(hook.secret, requests[0]!);
    assert.equal(requests[0]!.headers['webhook-id'], payload.id);
    const event = await app.db.collection('events').findOne({ _id: payload.id });
    assert.ok(event, 'webhook-id names the stored event');
    assert.deepEqual(
      [event.kind, event.account_id, payload.kind, payload.version, payload.account, payload.environment, payload.data.offer.id],
      ['offer.created', who.accountId, 'offer.created', 1, who.accountId, 'live', offer.id],
    );
    assert.deepEqual(Object.keys(payload).sort(), ['account', 'data', 'environment', 'id', 'kind', 'occurred_at', 'version']);
    assert.throws(() => new Webhook(other.secret).verify(requests[0]!.body, requests[0]!.headers), 'another secret does not verify it');

    assert.equal(body.pagination.total, 1);
    const [delivery] = body.data;
    assert.deepEqual(
      [delivery.id, delivery.webhook_id, delivery.event_id, delivery.event_kind, delivery.next_attempt_at],
      [deliveryWorkflowId(hook.id, payload.id), hook.id, payload.id, 'offer.created', null],
    );
    assert.deepEqual(
      delivery.attempts.map((a: any) => [a.attempt, a.http_status, a.error]),
      [[1, 200, null]],
    );

    // Temporal UI names the delivery, its dispatch and its attempt by event, webhook and host (never the URL's path).
    const handle = app.temporal.client.workflow.getHandle(delivery.id);
    assert.equal(await (await handle.describe()).staticSummary(), `Deliver offer.created ${payload.id} to webhook ${hook.id} at localhost`);
    const dispatch = app.temporal.client.workflow.getHandle(dispatchWorkflowId(payload.id));
    assert.equal(await (await dispatch.describe()).staticSummary(), `Dispatch offer.created ${payload.id} to its webhooks and journeys`);
    const attempts = ((await handle.fetchHistory()).events ?? []).filter((e) => e.activityTaskScheduledEventAttributes);
    assert.deepEqual(
      attempts.map((e) => defaultPayloadConverter.fromPayload(e.userMetadata!.summary!)),
      ['POST to localhost attempt 1'],
    );
    assert.equal((await api.get(`/webhooks/${other.id}/deliveries`)).body.pagination.total, 0, 'not subscribed, not delivered');
    assert.ok((await api.get(`/webhooks/${hook.id}`)).body.data.last_delivery_at, 'the attempt is noted on the webhook');
  });
});

describe('attempts', () => {
  test('failures are retried on the schedule under the same webhook-id, each attempt its own activity and listed', async () => {
    const { api, who } = await tenant();
    const at = path('retry');
    const hook = await createHook(api, at, ['segment.deleted']);
    receiver.scripts.set(at, [500, 503]);
    const { handle, eventId } = await startDelivery(who, hook.id, [0, 100, 100, 100]);
    assert.deepEqual(await handle.result(), { state: 'succeeded', attempts: 3 });

    const requests = receiver.on(at);
    assert.equal(requests.length, 3);
    for (const r of requests) {
      assert.equal(r.headers['webhook-id'], eventId);
      assert.equal(verified(hook.secret, r).id, eventId);
    }
    const history = await handle.fetchHistory();
    assert.equal(history.events!.filter((e) => e.activityTaskScheduledEventAttributes).length, 3, 'one activity per attempt');
    const summaries = (has: (e: NonNullable<typeof history.events>[number]) => unknown) =>
      history.events!.filter(has).map((e) => defaultPayloadConverter.fromPayload(e.userMetadata!.summary!));
    assert.deepEqual(
      summaries((e) => e.activityTaskScheduledEventAttributes),
      [1, 2, 3].map((n) => `POST to 127.0.0.1 attempt ${n}`),
    );
    assert.deepEqual(
      summaries((e) => e.timerStartedEventAttributes),
      ['wait 100 ms before attempt 2', 'wait 100 ms before attempt 3'],
    );

    const body = await listed(api, hook.id, (b) => b.data[0]?.state === 'succeeded');
    const attempts = body.data[0].attempts;
    assert.deepEqual(
      attempts.map((a: any) => [a.attempt, a.http_status]),
      [
        [1, 500],
        [2, 503],
        [3, 200],
      ],
    );
    assert.match(attempts[0].error, /answered 500/);
    assert.equal(attempts[2].error, null);
    for (const a of attempts) assert.ok(Number.isInteger(a.duration_ms) && !Number.isNaN(Date.parse(a.at)));
  });

  test('when attempts run out the delivery fails; listing filters by state and kind, pages, and counts', async () => {
    const { api, who } = await tenant();
    const at = path('down');
    const hook = await createHook(api, at, ['segment.deleted']);
    receiver.scripts.set(at, [500, 502, 500, 502]);
    const first = await startDelivery(who, hook.id, [0, 50]);
    assert.deepEqual(await first.handle.result(), { state: 'failed', attempts: 2 });
    const second = await startDelivery(who, hook.id, [0, 50]);
    assert.deepEqual(await second.handle.result(), { state: 'failed', attempts: 2 });
    const third = await startDelivery(who, hook.id, [0]);
    assert.deepEqual(await third.handle.result(), { state: 'succeeded', attempts: 1 });

    const all = await listed(api, hook.id, (b) => b.pagination.total === 3 && b.data.every((d: any) => d.state !== 'pending'));
    // Visibility order: the most recently finished first.
    assert.deepEqual(
      all.data.map((d: any) => d.event_id),
      [third.eventId, second.eventId, first.eventId],
    );
    const failed = await listed(api, hook.id, (b) => b.pagination.total === 2, '?state=failed');
    assert.deepEqual(
      failed.data.map((d: any) => [d.event_id, d.attempts.length]),
      [
        [second.eventId, 2],
        [first.eventId, 2],
      ],
    );
    const page = await api.get(`/webhooks/${hook.id}/deliveries?state=failed&limit=1&offset=1`);
    assert.deepEqual(
      [page.body.data.map((d: any) => d.event_id), page.body.pagination],
      [[first.eventId], { total: 2, limit: 1, offset: 1, has_more: false }],
    );
    assert.equal((await api.get(`/webhooks/${hook.id}/deliveries?event_kind=offer.created`)).body.pagination.total, 0);
    assert.equal((await api.get(`/webhooks/${hook.id}/deliveries?event_kind=segment.deleted`)).body.pagination.total, 3);
  });

  test('a redelivery (the panel’s) sends the same webhook-id again and is listed as the same delivery, the attempts of both runs in order', async () => {
    const { api, who } = await tenant();
    const at = path('redeliver');
    const hook = await createHook(api, at, ['segment.deleted']);
    receiver.scripts.set(at, [500, 502]);
    const { handle, eventId } = await startDelivery(who, hook.id, [0, 50]);
    assert.deepEqual(await handle.result(), { state: 'failed', attempts: 2 });
    const deps = { db: app.db, temporal: { client: app.temporal.client, taskQueue } };
    const workflowId = deliveryWorkflowId(hook.id, eventId);
    // Only a failed delivery of this webhook: another's id is not found.
    await assert.rejects(
      redeliver(deps, { accountId: who.accountId, env: who.env }, hook.id, `${workflowId}x`.replace(hook.id, 'whk_other')),
      /No delivery/,
    );

    const failedRun = (await handle.describe()).runId;
    await redeliver(deps, { accountId: who.accountId, env: who.env }, hook.id, workflowId);
    assert.deepEqual(await app.temporal.client.workflow.getHandle(workflowId).result(), { state: 'succeeded', attempts: 1 });
    await assert.rejects(redeliver(deps, { accountId: who.accountId, env: who.env }, hook.id, workflowId), /The delivery is succeeded/);

    const requests = receiver.on(at);
    assert.deepEqual(
      requests.map((r) => [r.headers['webhook-id'], verified(hook.secret, r).id]),
      [
        [eventId, eventId],
        [eventId, eventId],
        [eventId, eventId],
      ],
    );
    // One delivery for the event, its three attempts numbered in order (the failed run, deleted, may still be in
    // visibility for a while: only the newest run of an id is listed).
    const body = await listed(api, hook.id, (b) => b.data[0]?.state === 'succeeded');
    assert.deepEqual(
      [body.data.length, body.data[0].id, body.data[0].attempts.map((a: any) => [a.attempt, a.http_status])],
      [
        1,
        workflowId,
        [
          [1, 500],
          [2, 502],
          [3, 200],
        ],
      ],
    );
    // Temporal deletes a closed run asynchronously: ~20 s on the dev server alone, over 30 s under the suite's load.
    await waitFor(
      'the failed run deleted',
      async () => {
        try {
          await app.temporal.client.workflow.getHandle(workflowId, failedRun).describe();
          return undefined;
        } catch (err) {
          if (err instanceof WorkflowNotFoundError) return true;
          throw err;
        }
      },
      120_000,
      () => tailOf(app.temporal.client.workflow.getHandle(workflowId, failedRun)),
    );
  });

  test('410 Gone disables the webhook (with its webhook.updated event) and stops; a disabled webhook gets nothing', async () => {
    const { api, who } = await tenant();
    const at = path('gone');
    const hook = await createHook(api, at, ['segment.deleted']);
    receiver.scripts.set(at, [410]);
    const gone = await startDelivery(who, hook.id, [0, 50, 50]);
    assert.deepEqual(await gone.handle.result(), { state: 'failed', attempts: 1 });
    const disabled = (await api.get(`/webhooks/${hook.id}`)).body.data;
    assert.deepEqual([disabled.state, disabled.disabled_reason], ['disabled', 'gone']);
    const event = await app.db.collection('events').findOne({ kind: 'webhook.updated', 'data.webhook.id': hook.id });
    assert.deepEqual(event?.data.changed, ['state', 'disabled_reason']);

    const next = await startDelivery(who, hook.id, [0]);
    assert.deepEqual(await next.handle.result(), { state: 'failed', attempts: 1 });
    assert.equal(receiver.on(at).length, 1, 'nothing was sent to the disabled webhook');
    const body = await listed(api, hook.id, (b) => b.pagination.total === 2 && b.data.every((d: any) => d.state === 'failed'));
    const stopped = body.data.find((d: any) => d.event_id === next.eventId);
    assert.deepEqual(
      stopped.attempts.map((a: any) => [a.http_status, a.error]),
      [[null, 'not sent: the webhook is disabled']],
    );
  });

  test('a receiver that does not answer in time is a failed attempt', async () => {
    const { api, who } = await tenant();
    const at = path('stuck');
    const hook = await createHook(api, at, ['segment.deleted']);
    receiver.scripts.set(at, [0]);
    const { handle } = await startDelivery(who, hook.id, [0, 50]);
    assert.deepEqual(await handle.result(), { state: 'succeeded', attempts: 2 });
    const memo = (await handle.describe()).memo!.delivery as any;
    assert.deepEqual(
      memo.attempts.map((a: any) => [a.http_status, a.error]),
      [
        [null, `no answer within ${TIMEOUT_MS / 1000} s`],
        [200, null],
      ],
    );
    assert.equal(receiver.on(at).length, 2);
  });

  test('a redirect is a failed attempt and is not followed', async () => {
    const { api, who } = await tenant();
    const at = path('moved');
    const hook = await createHook(api, at, ['segment.deleted']);
    receiver.scripts.set(at, [302, 307]);
    const { handle } = await startDelivery(who, hook.id, [0, 50]);
    assert.deepEqual(await handle.result(), { state: 'failed', attempts: 2 });
    assert.equal(receiver.on('/followed').length, 0, 'the Location was never requested');
    const memo = (await handle.describe()).memo!.delivery as any;
    assert.deepEqual(
      memo.attempts.map((a: any) => [a.http_status, a.error]),
      [
        [302, 'redirect (302) not followed'],
        [307, 'redirect (307) not followed'],
      ],
    );
  });

  test('the destination is checked again at every attempt: a private address the allow-list does not name is never contacted', async () => {
    const { api, who } = await tenant();
    const hook = await createHook(api, path('rebound'), ['segment.deleted']);
    // As if the host now resolved elsewhere: the stored URL points at a private address.
    await app.db.collection('webhooks').updateOne({ _id: hook.id } as any, { $set: { url: 'https://10.255.255.1/hook' } });
    const { handle } = await startDelivery(who, hook.id, [0, 50, 50]);
    assert.deepEqual(await handle.result(), { state: 'failed', attempts: 3 });
    const memo = (await handle.describe()).memo!.delivery as any;
    for (const attempt of memo.attempts) {
      assert.equal(attempt.http_status, null);
      assert.match(attempt.error, /^destination refused by this worker: .*10\.255\.255\.1.*OFFEROPS_WEBHOOK_ALLOW/);
    }
    const still = (await api.get(`/webhooks/${hook.id}`)).body.data;
    assert.deepEqual([still.state, still.disabled_reason], ['enabled', null], 'a refusal of one worker disables nothing');
  });

  test('two workers configured differently: the one whose allow-list lacks the receiver fails its attempts, the other delivers; the webhook stays enabled', async () => {
    const { api, who } = await tenant();
    const at = path('unlisted');
    const hook = await createHook(api, at, ['segment.deleted']);
    // A worker joined without OFFEROPS_WEBHOOK_ALLOW naming the receiver's loopback address.
    const strictQueue = `${taskQueue}-strict`;
    const strict = await startTestWorker(app, strictQueue, { webhookAllow: [], webhookCa: receiver.ca, webhookTimeoutMs: TIMEOUT_MS });
    let memo: any;
    try {
      const { handle } = await startDelivery(who, hook.id, [0, 50, 50], strictQueue);
      assert.deepEqual(await handle.result(), { state: 'failed', attempts: 3 });
      memo = (await handle.describe()).memo!.delivery;
    } finally {
      await strict.stop();
    }
    for (const attempt of memo.attempts) {
      assert.equal(attempt.http_status, null);
      assert.match(attempt.error, /^destination refused by this worker: 127\.0\.0\.1 resolves to a loopback.*\(its OFFEROPS_WEBHOOK_ALLOW/);
    }
    assert.equal(receiver.on(at).length, 0, 'the strict worker never contacted the receiver');
    const still = (await api.get(`/webhooks/${hook.id}`)).body.data;
    assert.deepEqual([still.state, still.disabled_reason], ['enabled', null]);
    // The worker allowed to reach it delivers the next event to the same webhook.
    const allowed = await startDelivery(who, hook.id, [0]);
    assert.deepEqual(await allowed.handle.result(), { state: 'succeeded', attempts: 1 });
    assert.equal(receiver.on(at).length, 1);
  });

  test('a failure of ours (a secret that does not unseal) shows the tenant only the internal-error text; the cause is logged', async () => {
    const { api, who } = await tenant();
    const at = path('sealed');
    const hook = await createHook(api, at, ['segment.deleted']);
    const elsewhere = seal(`whsec_${randomBytes(24).toString('base64')}`, randomBytes(32));
    await app.db.collection('webhooks').updateOne({ _id: hook.id } as any, { $set: { secret: elsewhere } });
    const { handle, eventId } = await startDelivery(who, hook.id, [0]);
    assert.deepEqual(await handle.result(), { state: 'failed', attempts: 1 });
    const workflowId = deliveryWorkflowId(hook.id, eventId);
    const body = await listed(api, hook.id, (b) => b.data[0]?.state === 'failed');
    assert.deepEqual(
      body.data[0].attempts.map((a: any) => [a.http_status, a.error]),
      [[null, `internal error; quote ${workflowId}`]],
    );
    assert.equal(receiver.on(at).length, 0, 'nothing was sent');
    const logged = workerLog.filter((e) => e.meta?.workflowId === workflowId);
    assert.equal(logged.length, 1, 'the cause is logged with the workflow id');
    assert.match(JSON.stringify(logged[0]!.meta!.cause), /authenticate data/);
  });

  test('a destination that refuses the connection is a failed attempt named by its error code only', async () => {
    const { api, who } = await tenant();
    // A port nothing listens on: one just taken and let go.
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const hook = await createHook(api, path('closed'), ['segment.deleted'], `https://127.0.0.1:${port}`);
    const { handle } = await startDelivery(who, hook.id, [0]);
    assert.deepEqual(await handle.result(), { state: 'failed', attempts: 1 });
    const memo = (await handle.describe()).memo!.delivery as any;
    assert.deepEqual(
      memo.attempts.map((a: any) => [a.http_status, a.error]),
      [[null, 'the destination could not be reached: connection refused (ECONNREFUSED)']],
    );
  });

  test('an attempt whose activity fails (a worker lost mid-attempt) is a failed attempt, and the schedule goes on', async () => {
    const fakeQueue = `${taskQueue}-fake`;
    const calls: string[] = [];
    const connection = await NativeConnection.connect({ address: stackEnv().temporalAddress });
    const fake = await Worker.create({
      connection,
      namespace: stackEnv().temporalNamespace,
      taskQueue: fakeQueue,
      workflowBundle: { codePath: WORKFLOW_BUNDLE },
      activities: {
        async attemptWebhookDelivery(input: { event_id: string }) {
          calls.push(input.event_id);
          if (calls.length === 1) throw ApplicationFailure.nonRetryable('connection to MongoDB lost', 'MongoNetworkError');
          return {
            outcome: 'succeeded',
            at: new Date().toISOString(),
            http_status: 204,
            duration_ms: 3,
            error: null,
          };
        },
      },
    });
    const options = deliveryStartOptions(
      {
        webhook_id: 'whk_fake',
        event_id: 'evt_fake',
        account: 'acc_fake',
        environment: 'test',
        event_kind: 'offer.created',
        delays_ms: [0, 50, 50],
        host: 'hooks.example',
      },
      new Date(),
    );
    const workflowId = `${options.workflowId}-${randomBytes(4).toString('hex')}`;
    try {
      const result = await fake.runUntil(
        app.temporal.client.workflow.execute('webhookDelivery', { ...options, workflowId, taskQueue: fakeQueue }),
      );
      assert.deepEqual(result, { state: 'succeeded', attempts: 2 });
    } finally {
      await connection.close();
    }
    const memo = (await app.temporal.client.workflow.getHandle(workflowId).describe()).memo!.delivery as any;
    assert.deepEqual(
      memo.attempts.map((a: any) => [a.attempt, a.http_status, a.error]),
      [
        [1, null, 'the attempt did not complete: connection to MongoDB lost'],
        [2, 204, null],
      ],
    );
    await app.temporal.client.workflowService.deleteWorkflowExecution({ namespace: app.temporal.namespace, workflowExecution: { workflowId } });
  });

  test('without a schedule of its own a delivery follows the production one: at once, then 5 s and 5 min later (±10%)', async () => {
    const { api, who } = await tenant();
    const at = path('production');
    const hook = await createHook(api, at, ['segment.deleted']);
    receiver.scripts.set(at, [500, 500]);
    const { handle } = await startDelivery(who, hook.id);
    // The pauses are durable timers: the history holds each one as the workflow drew it, jitter included.
    const pauses = await waitFor(
      'the pause after the second attempt',
      async () => {
        const timers = (await handle.fetchHistory()).events!.flatMap((e) => {
          const d = e.timerStartedEventAttributes?.startToFireTimeout;
          return d ? [Number(d.seconds ?? 0) * 1000 + Math.round((d.nanos ?? 0) / 1e6)] : [];
        });
        return timers.length >= 2 ? timers : undefined;
      },
      30_000,
      async () =>
        `${receivedState(
          'the receiver',
          receiver.on(at).map((r) => r.headers['webhook-id']),
        )}\n${await tailOf(handle)}`,
    );
    const within = (ms: number, nominal: number) => ms >= nominal * 0.9 && ms <= nominal * 1.1;
    assert.ok(within(pauses[0]!, 5_000), `first pause ${pauses[0]} ms`);
    assert.ok(within(pauses[1]!, 300_000), `second pause ${pauses[1]} ms`);
    assert.equal(receiver.on(at).length, 2, 'the first attempt at once, the second after the first pause');
    await handle.terminate('test over');
  });
});

describe('DELETE /webhooks/{id}', () => {
  test('removes the webhook and its delivery executions, the one still retrying included', async () => {
    const { api, who } = await tenant();
    const at = path('deleted');
    const hook = await createHook(api, at, ['offer.created', 'segment.deleted']);
    await api.post('/offers', { url: `https://shop.example/del/${randomBytes(4).toString('hex')}`, title: 'To be forgotten' });
    await listed(api, hook.id, (b) => b.data[0]?.state === 'succeeded');
    receiver.scripts.set(at, [500]);
    // Fails once, then waits a minute: still running when the webhook is deleted.
    const waiting = await startDelivery(who, hook.id, [0, 60_000]);
    const body = await listed(api, hook.id, (b) => b.pagination.total === 2 && b.data.some((d: any) => d.state === 'retrying'));
    const retrying = body.data[0];
    assert.deepEqual([retrying.event_id, retrying.state, retrying.attempts.length], [waiting.eventId, 'retrying', 1], 'in-progress first');
    assert.ok(Date.parse(retrying.next_attempt_at) > Date.parse(retrying.attempts[0].at));

    const res = await api.delete(`/webhooks/${hook.id}`);
    assert.deepEqual([res.status, res.body.deleted], [200, true]);
    assert.equal((await api.get(`/webhooks/${hook.id}`)).status, 404);
    assert.equal((await api.get(`/webhooks/${hook.id}/deliveries`)).status, 404);

    const cleanup = await waitFor(
      'the cleanup workflow',
      async () => {
        const handle = app.temporal.client.workflow.getHandle(cleanupWorkflowId(hook.id));
        return (await handle.describe().catch((err: unknown) => {
          if (!(err instanceof WorkflowNotFoundError)) throw err;
          return undefined; // not started yet
        }))
          ? handle
          : undefined;
      },
      30_000,
      () => tailOf(app.temporal.client.workflow.getHandle(cleanupWorkflowId(hook.id))),
    );
    const { passes } = await cleanup.result();
    assert.equal(await (await cleanup.describe()).staticSummary(), `Remove the delivery executions of deleted webhook ${hook.id}`);
    const steps = ((await cleanup.fetchHistory()).events ?? []).filter(
      (e) => e.activityTaskScheduledEventAttributes || e.timerStartedEventAttributes,
    );
    assert.deepEqual(
      steps.map((e) => defaultPayloadConverter.fromPayload(e.userMetadata!.summary!)),
      Array.from({ length: passes }, (_, i) => [`purge pass ${i + 1}`, `let visibility catch up before pass ${i + 2}`])
        .flat()
        .slice(0, -1),
    );
    const query = `OfferopsKind = 'webhook_delivery' AND OfferopsResourceId = '${hook.id}'`;
    await waitFor(
      'the executions to leave visibility',
      async () => ((await app.temporal.client.workflow.count(query)).count === 0 ? true : undefined),
      30_000,
      () => listedState(app.temporal.client, query),
    );
    for (const id of [waiting.handle.workflowId, body.data[1].id]) {
      await assert.rejects(app.temporal.client.workflow.getHandle(id).describe(), /not found/i, id);
    }
  });
});
