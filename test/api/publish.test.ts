/**
 * Publishing end to end: the API queues, a worker (in this process, on its
 * own task queue, with the real activities) sends through the sandbox
 * connector, and the publication and its deliveries end in their final state.
 * Live channels send through each gateway connector (our http protocol,
 * Evolution API, WAHA) to its stand-in, under the same assertions.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { defaultPayloadConverter } from '@temporalio/common';
import { WorkflowFailedError, WorkflowHandle } from '@temporalio/client';
import { secretKeyFromEnv } from '../../domain/sealing';
import { AfterAnswer } from '../../domain/after-answer';
import { createChannel } from '../../domain/channels/store';
import { createGroup } from '../../domain/groups/store';
import { OfferopsState, OfferopsSubject, publicationWorkflowId } from '../../temporal/names';
import { FakeGateway, startFakeGateway } from '../helpers/fake-gateway';
import { FakeTelegram, startFakeTelegram } from '../helpers/fake-telegram';
import { GATEWAY_TYPES, startTestGateway, TestGateway } from '../helpers/gateways';
import { ApiClient } from '../helpers/client';
import { seedTenant, startTestApp, TestApp } from '../helpers/stack';
import { eventsState, listedState, publicationState, workflowTail } from '../helpers/states';
import { historyText, startTestWorker, workerLog } from '../helpers/worker';
import { waitFor } from '../helpers/wait';

const taskQueue = `test-publish-${randomBytes(4).toString('hex')}`;
let app: TestApp;
let worker: { stop(): Promise<void> };

before(async () => {
  // Its tests poll publications with one key for many seconds; the rate limit has tests of its own (limits.test.ts).
  app = await startTestApp({ taskQueue, rateLimit: { limit: 100_000, windowMs: 60_000 } });
  worker = await startTestWorker(app, taskQueue);
});
after(async () => {
  await worker.stop();
  await app.close();
});

let n = 0;
async function sandboxTenant() {
  const tenant = await seedTenant(app.db, { env: 'test' });
  const api = new ApiClient(app.baseUrl, tenant.apiKey);
  const offer = (await api.post('/offers', { url: `https://shop.example/pub/${++n}`, title: 'Air Fryer', price: 299.9, original_price: 499.9 }))
    .body.data;
  const segment = (await api.post('/segments', { name: `Cozinha ${n}` })).body.data;
  const groups = [];
  for (const name of ['A', 'B', 'C']) groups.push(await createGroup(app.db, tenant, { name: `Group ${name}`, segment_id: segment.id }));
  return { tenant, api, offer, segment, groups };
}

const finished = (api: ApiClient, id: string, timeoutMs = 90_000) =>
  waitFor(
    `publication ${id} to finish`,
    async () => {
      const reply = await api.get(`/publications/${id}`);
      // A 503 asks the client to try again (the database did not answer in time: a busy machine).
      if (reply.status === 503) return undefined;
      assert.equal(reply.status, 200, reply.text);
      const p = reply.body.data;
      // One that completed while the request's move to `sending` ran reads `sending` for the few ms before that move
      // puts its final status back (docs/guides/publishing.md, "Bookkeeping after the answer").
      return p.completed_at && p.status !== 'sending' ? p : undefined;
    },
    timeoutMs,
    () => publicationState(api, id, app.temporal.client),
  );

describe('POST /offers/{id}/publish', () => {
  test('to a segment: queued at once, then every active group receives it exactly once', async () => {
    const { api, offer, segment, groups } = await sandboxTenant();
    const res = await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id });
    assert.equal(res.status, 200);
    const queued = res.body.data.publications[0];
    assert.equal(queued.status, 'queued');
    assert.equal(queued.event_id, res.body.event_id);
    assert.deepEqual(queued.deliveries.map((d: any) => d.group_id).sort(), groups.map((g) => g._id).sort());
    // The event is relayed after the answer, within AFTER_ANSWER_MS, by itself (no flush here).
    const event = await waitFor(
      'the publication.queued event',
      async () => (await app.db.collection('events').findOne({ _id: res.body.event_id })) ?? undefined,
      undefined,
      () => eventsState(app.db, { kind: 'publication.queued' }),
    );
    assert.equal(event.kind, 'publication.queued');

    const done = await finished(api, queued.id);
    assert.equal(done.status, 'sent');
    for (const d of done.deliveries) {
      assert.equal(d.status, 'sent');
      assert.equal(d.attempts, 1);
      assert.ok(d.sent_at);
    }
    const sandbox = await app.db
      .collection('sandbox_messages')
      .find({ _id: { $regex: `^${queued.id}:` } } as any)
      .toArray();
    assert.equal(sandbox.length, 3, 'one message per group');
    // The event rides in the write that completed the publication and reaches `events` right after it.
    await waitFor(
      'the publication.completed event',
      async () => (await app.db.collection('events').findOne({ kind: 'publication.completed', 'data.publication.id': queued.id })) ?? undefined,
      undefined,
      () => eventsState(app.db, { 'data.publication.id': queued.id }),
    );
  });

  test('the same Idempotency-Key returns the same publication; another body under it is a 409', async () => {
    const { api, offer, groups } = await sandboxTenant();
    const key = `idem-${randomBytes(4).toString('hex')}`;
    const first = await api.post(`/offers/${offer.id}/publish`, { group_id: groups[0]!._id }, { headers: { 'Idempotency-Key': key } });
    const again = await api.post(`/offers/${offer.id}/publish`, { group_id: groups[0]!._id }, { headers: { 'Idempotency-Key': key } });
    assert.equal(again.body.data.publications[0].id, first.body.data.publications[0].id);
    const other = await api.post(`/offers/${offer.id}/publish`, { group_id: groups[1]!._id }, { headers: { 'Idempotency-Key': key } });
    assert.equal(other.status, 409);
    assert.equal(other.body.code, 'idempotency_key_reused');
    await finished(api, first.body.data.publications[0].id);
    const total = await app.db.collection('publications').countDocuments({ offer_id: offer.id });
    assert.equal(total, 1);
  });

  test('a double click without an Idempotency-Key: five at once make one publication, one message, each answer naming it', async () => {
    const { api, offer, groups } = await sandboxTenant();
    const answers = await Promise.all(Array.from({ length: 5 }, () => api.post(`/offers/${offer.id}/publish`, { group_id: groups[0]!._id })));
    for (const res of answers) assert.equal(res.status, 200, res.text);
    const ids = new Set(answers.map((res) => res.body.data.publications[0].id));
    assert.equal(ids.size, 1, `publications: ${[...ids].join(', ')}`);
    const [id] = ids as Set<string>;
    await finished(api, id!);
    assert.equal(await app.db.collection('publications').countDocuments({ offer_id: offer.id }), 1);
    const messages = await app.db
      .collection('sandbox_messages')
      .find({ _id: { $regex: `^${id}:` } } as any)
      .toArray();
    assert.equal(messages.length, 1, 'one message reached the group');
    // Once it has ended, the same request publishes again.
    const next = await api.post(`/offers/${offer.id}/publish`, { group_id: groups[0]!._id });
    assert.notEqual(next.body.data.publications[0].id, id);
    await finished(api, next.body.data.publications[0].id);
  });

  test('the list is newest queued_at first, whatever the ids (keyed publications have ids derived from their key)', async () => {
    const { api, offer, groups } = await sandboxTenant();
    const ids: string[] = [];
    for (const [i, key] of ['a', null, 'b', null].entries()) {
      const headers = key ? { 'Idempotency-Key': `order-${key}-${randomBytes(4).toString('hex')}` } : undefined;
      const res = await api.post(`/offers/${offer.id}/publish`, { group_id: groups[i % groups.length]!._id }, headers ? { headers } : {});
      assert.equal(res.status, 200, res.text);
      ids.push(res.body.data.publications[0].id);
      await finished(api, ids.at(-1)!); // not in flight, so the next request queues another
    }
    const listed = (await api.get(`/publications?offer_id=${offer.id}`)).body.data;
    assert.deepEqual(
      listed.map((p: any) => p.id),
      [...ids].reverse(),
    );
    const times = listed.map((p: any) => Date.parse(p.queued_at));
    assert.deepEqual(
      times,
      [...times].sort((a: number, b: number) => b - a),
    );
  });

  test("destinations are checked: one of group or segment, the account's, active", async () => {
    const { api, offer, groups, segment } = await sandboxTenant();
    assert.equal((await api.post(`/offers/${offer.id}/publish`, {})).status, 400);
    assert.equal((await api.post(`/offers/${offer.id}/publish`, { group_id: groups[0]!._id, segment_id: segment.id })).status, 400);
    const stranger = await sandboxTenant();
    const foreign = await api.post(`/offers/${offer.id}/publish`, { group_id: stranger.groups[0]!._id });
    assert.equal(foreign.status, 400);
    assert.equal(foreign.body.code, 'unknown_reference');
    await api.patch(`/groups/${groups[0]!._id}`, { active: false });
    const inactive = await api.post(`/offers/${offer.id}/publish`, { group_id: groups[0]!._id });
    assert.equal(inactive.status, 409);
    assert.equal(inactive.body.code, 'destination_unavailable');
    const empty = (await api.post('/segments', { name: `Empty ${++n}` })).body.data;
    assert.equal((await api.post(`/offers/${offer.id}/publish`, { segment_id: empty.id })).body.code, 'destination_unavailable');
    assert.equal(await app.db.collection('publications').countDocuments({ offer_id: offer.id }), 0, 'nothing recorded');
  });

  test('archived and rejected offers are not published (409)', async () => {
    const { api, offer, groups } = await sandboxTenant();
    await api.patch(`/offers/${offer.id}`, { status: 'rejected' });
    const res = await api.post(`/offers/${offer.id}/publish`, { group_id: groups[0]!._id });
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'offer_not_publishable');
  });
});

describe('segment distributions', () => {
  test('broadcast reaches every group of a segment of more than 1,000 groups: one delivery each, in id order', async () => {
    const { tenant, api, offer, segment, groups } = await sandboxTenant();
    const ids = groups.map((g) => g._id);
    for (let i = ids.length; i < 1001; i += 100) {
      const batch = Array.from({ length: Math.min(100, 1001 - i) }, (_, j) =>
        createGroup(app.db, tenant, { name: `Big ${i + j}`, segment_id: segment.id }),
      );
      ids.push(...(await Promise.all(batch)).map((g) => g._id));
    }
    const inactive = await createGroup(app.db, tenant, { name: 'Resting', segment_id: segment.id });
    assert.equal((await api.patch(`/groups/${inactive._id}`, { active: false })).status, 200);
    // Queuing is what is under test, not 1,001 sends: this API starts the workflow on a queue no worker polls.
    const idle = await startTestApp({ dbName: app.dbName, taskQueue: `${taskQueue}-idle` });
    try {
      const res = await new ApiClient(idle.baseUrl, tenant.apiKey).post(`/offers/${offer.id}/publish`, { segment_id: segment.id });
      assert.equal(res.status, 200, res.text);
      const queued = res.body.data.publications[0];
      const expected = [...ids].sort();
      assert.equal(expected.length, 1001);
      assert.deepEqual(
        queued.deliveries.map((d: any) => d.group_id),
        expected,
      );
      const read = await api.get(`/publications/${queued.id}`);
      assert.equal(read.status, 200, read.text);
      const got = read.body.data;
      assert.deepEqual(
        got.deliveries.map((d: any) => [d.group_id, d.status]),
        expected.map((id) => [id, 'queued']),
      );
      await idle.temporal.client.workflow.getHandle(publicationWorkflowId(queued.id)).terminate('test: the sends are not under test');
    } finally {
      await idle.close();
    }
  });

  test('least_loaded: the group with the fewest deliveries queued in the last 24 hours, however many it had before', async () => {
    const { tenant, api, offer } = await sandboxTenant();
    const segment = (await api.post('/segments', { name: `Least loaded ${++n}`, distribution: 'least_loaded' })).body.data;
    const busyLongAgo = await createGroup(app.db, tenant, { name: 'Busy long ago', segment_id: segment.id });
    const usedToday = await createGroup(app.db, tenant, { name: 'Used today', segment_id: segment.id });
    const publishTo = async (group_id: string) => {
      const res = await api.post(`/offers/${offer.id}/publish`, { group_id });
      assert.equal(res.status, 200, res.text);
      return finished(api, res.body.data.publications[0].id);
    };
    for (let i = 0; i < 3; i++) await publishTo(busyLongAgo._id);
    // Those three were two days ago.
    const moved = await app.db
      .collection('deliveries')
      .updateMany({ group_id: busyLongAgo._id }, { $set: { queued_at: new Date(Date.now() - 48 * 3_600_000) } });
    assert.equal(moved.modifiedCount, 3);
    await publishTo(usedToday._id);

    const res = await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id });
    assert.equal(res.status, 200, res.text);
    const queued = res.body.data.publications[0];
    assert.deepEqual(
      queued.deliveries.map((d: any) => d.group_id),
      [busyLongAgo._id],
    );
    await finished(api, queued.id);
    // Now each has one delivery within the window: the tie goes to the lowest id.
    const next = (await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id })).body.data.publications[0];
    assert.deepEqual(
      next.deliveries.map((d: any) => d.group_id),
      [[busyLongAgo._id, usedToday._id].sort()[0]],
    );
    await finished(api, next.id);
  });
});

describe('GET /publications', () => {
  test('lists with filters status, group_id and offer_id; get shows each group result', async () => {
    const { api, offer, groups, segment } = await sandboxTenant();
    const a = (await api.post(`/offers/${offer.id}/publish`, { group_id: groups[0]!._id })).body.data.publications[0];
    await finished(api, a.id);
    const b = (await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id })).body.data.publications[0];
    await finished(api, b.id);
    assert.deepEqual(
      (await api.get(`/publications?offer_id=${offer.id}`)).body.data.map((p: any) => p.id),
      [b.id, a.id],
    );
    assert.deepEqual(
      (await api.get(`/publications?group_id=${groups[1]!._id}`)).body.data.map((p: any) => p.id),
      [b.id],
    );
    assert.equal((await api.get(`/publications?offer_id=${offer.id}&status=sent`)).body.pagination.total, 2);
    assert.equal((await api.get(`/publications?offer_id=${offer.id}&status=failed`)).body.pagination.total, 0);
    const got = (await api.get(`/publications/${b.id}`)).body.data;
    assert.equal(got.deliveries.length, 3);
    assert.equal(got.segment_id, segment.id);
    assert.equal((await api.get('/publications/pub_0000000000000000000000')).status, 404);
  });
});

describe('bookkeeping after the answers (as `npm start` runs the API and the worker)', () => {
  test("the send's completion is answered first; its count, event and in-flight note follow, and a clean stop runs them", async () => {
    // A worker of its own with the worker process's afterAnswer, its interval long enough that nothing runs by itself here.
    const queue = `${taskQueue}-after`;
    const second = await startTestApp({ dbName: app.dbName, taskQueue: queue });
    const reported: unknown[] = [];
    const afterSend = new AfterAnswer((err) => reported.push(err), 60_000);
    const own = await startTestWorker(second, queue, { afterAnswer: afterSend });
    let running = true;
    try {
      const { api: firstApi, offer, groups } = await sandboxTenant();
      const api = new ApiClient(second.baseUrl, firstApi.apiKey);
      const completedEvent = async (id: string) =>
        app.db.collection('events').findOne({ kind: 'publication.completed', 'data.publication.id': id });
      const inFlight = (id: string) => app.db.collection('inflight_publications').countDocuments({ publication_id: id });
      const counted = async () => {
        const s = (await api.get('/analytics/summary?days=1')).body.data;
        return [s.publications, s.publications_sent, s.deliveries_sent];
      };

      const first = (await api.post(`/offers/${offer.id}/publish`, { group_id: groups[0]!._id })).body.data.publications[0];
      const done = await finished(api, first.id);
      assert.equal(done.status, 'sent');
      assert.equal(done.deliveries[0].status, 'sent');
      await second.settle();
      // The workflow has its result; what it leaves after it waits for the worker's interval.
      assert.equal(await completedEvent(first.id), null);
      assert.deepEqual(await counted(), [1, 0, 0]);
      assert.equal(await inFlight(first.id), 1, 'noted in flight by the request, not forgotten yet');
      await afterSend.flush();
      assert.equal((await completedEvent(first.id))?.kind, 'publication.completed');
      assert.deepEqual(await counted(), [1, 1, 1]);
      assert.equal(await inFlight(first.id), 0);

      // A clean stop (worker/main.ts: the worker drains, then afterAnswer closes) runs what waits.
      const next = (await api.post(`/offers/${offer.id}/publish`, { group_id: groups[1]!._id })).body.data.publications[0];
      await finished(api, next.id);
      await own.stop();
      running = false;
      assert.equal(await completedEvent(next.id), null);
      await afterSend.close();
      assert.equal((await completedEvent(next.id))?.kind, 'publication.completed');
      await second.settle();
      assert.deepEqual(await counted(), [2, 2, 2]);
      assert.deepEqual(reported, []);
    } finally {
      if (running) await own.stop();
      await afterSend.close();
      await second.close();
    }
  });
});

/** A tenant with a live channel to a gateway (unpaced), `groups` groups on it in a segment, and an offer with an image. */
async function liveTenant(connection: TestGateway['connection'], opts: { groups: number; groupIntervalMs?: number }) {
  const tenant = await seedTenant(app.db);
  const api = new ApiClient(app.baseUrl, tenant.apiKey);
  const channel = await createChannel(app.db, tenant, { ...connection, minIntervalMs: 0 }, secretKeyFromEnv());
  const segment = (await api.post('/segments', { name: `Live ${++n}` })).body.data;
  const groups = [];
  for (let i = 0; i < opts.groups; i++) {
    const address = `1203630${++n}@g.us`;
    groups.push({
      address,
      group: await createGroup(app.db, tenant, {
        name: `Live group ${i}`,
        segment_id: segment.id,
        channel: { id: channel._id, type: connection.type, address },
        minIntervalMs: opts.groupIntervalMs ?? 0,
      }),
    });
  }
  const offer = (
    await api.post('/offers', {
      url: `https://shop.example/live/${++n}`,
      title: 'Smart TV 50"',
      price: 1999,
      image: 'https://img.example/tv.png',
    })
  ).body.data;
  return { api, segment, groups, offer };
}

/** The summaries of the retry timers in a publication's history. */
async function retryWaits(publicationId: string): Promise<string[]> {
  const events = (await app.temporal.client.workflow.getHandle(publicationWorkflowId(publicationId)).fetchHistory()).events ?? [];
  return events
    .filter((e) => e.timerStartedEventAttributes && e.userMetadata?.summary)
    .map((e) => String(defaultPayloadConverter.fromPayload(e.userMetadata!.summary!)))
    .filter((summary) => summary.startsWith('retry:'));
}

// The same assertions for every connector that sends to a gateway: our http protocol, Evolution API and WAHA.
for (const type of GATEWAY_TYPES) {
  describe(`a live ${type} channel (its gateway's stand-in on loopback)`, () => {
    let gateway: TestGateway;
    before(async () => {
      gateway = await startTestGateway(type);
    });
    after(() => gateway.close());

    test('each group receives the publication once, with the image (in a chunk only if the gateway deduplicates); nothing leaks the address or the key', async () => {
      const { api, segment, groups, offer } = await liveTenant(gateway.connection, { groups: 3 });
      const res = await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id, with_image: true });
      const id = res.body.data.publications[0].id;
      const done = await finished(api, id);
      assert.equal(done.status, 'sent');
      for (const { address } of groups) {
        const got = gateway.delivered(address);
        assert.equal(got.length, 1, address);
        assert.equal(got[0]!.imageUrl, 'https://img.example/tv.png');
        assert.match(got[0]!.text, /Smart TV 50"/);
      }
      assert.ok(done.deliveries.every((d: any) => d.with_image));
      // A gateway that deduplicates takes unpaced groups in a chunk; one that cannot, each alone (a chunk lost with its
      // worker would send every group of it again).
      const handle = app.temporal.client.workflow.getHandle(publicationWorkflowId(id));
      const sends = ((await handle.fetchHistory()).events ?? [])
        .flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? [])
        .filter((name) => name.startsWith('deliverTo'));
      assert.deepEqual(sends, gateway.deduplicates ? ['deliverToGroups'] : ['deliverToGroup', 'deliverToGroup', 'deliverToGroup']);
      // Neither the API nor the workflow's history (the gateways' message ids included) shows an address or the key.
      const history = await historyText(handle);
      const text = JSON.stringify(done) + JSON.stringify((await api.get('/publications')).body) + history;
      for (const { address } of groups) assert.ok(!text.includes(address.split('@')[0]!), `${address} shown`);
      assert.ok(!text.includes(gateway.connection.token));
    });

    test('5xx is retried; a refused destination fails that group only, not retried: partial', async () => {
      const { api, segment, groups, offer } = await liveTenant(gateway.connection, { groups: 2 });
      gateway.failTo(groups[1]!.address, 400);
      gateway.failNext(2, 503);
      const res = await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id });
      const done = await finished(api, res.body.data.publications[0].id, 60_000);
      assert.equal(done.status, 'partial');
      const byGroup = new Map(done.deliveries.map((d: any) => [d.group_id, d]));
      const ok: any = byGroup.get(groups[0]!.group._id);
      const bad: any = byGroup.get(groups[1]!.group._id);
      assert.equal(ok.status, 'sent');
      assert.equal(bad.status, 'failed');
      assert.match(bad.error, gateway.refusal);
      // Two induced 503s (retried), one success, one refusal (not retried): four requests in all.
      const requests = groups.flatMap(({ address }) => gateway.requestsTo(address));
      assert.equal(requests.length, 4);
      assert.equal(ok.attempts + bad.attempts, 4, 'every attempt is counted');
      assert.equal(gateway.delivered(groups[0]!.address).length, 1);
      assert.equal(gateway.delivered(groups[1]!.address).length, 0);
    });

    test('429 is retried after the pause Retry-After asks for; without one, after the first retry pause', async () => {
      const { api, groups, offer } = await liveTenant(gateway.connection, { groups: 1 });
      const { address, group } = groups[0]!;
      for (const [retryAfter, pause] of [
        ['3', '3 s'],
        [undefined, '2 s'],
      ] as const) {
        gateway.failNext(1, 429, retryAfter);
        const id = (await api.post(`/offers/${offer.id}/publish`, { group_id: group._id })).body.data.publications[0].id;
        const done = await finished(api, id, 60_000);
        assert.deepEqual([done.status, done.deliveries[0].attempts], ['sent', 2], `Retry-After ${retryAfter}`);
        assert.deepEqual(await retryWaits(id), [`retry: wait ${pause} before attempt 2 to Live group 0 (${group._id})`]);
      }
      assert.equal(gateway.requestsTo(address).length, 4);
      assert.equal(gateway.delivered(address).length, 2, 'one message per publication');
    });

    test('a refused API key (401) fails the delivery at once: one request, no retry', async () => {
      const { api, groups, offer } = await liveTenant(gateway.connection, { groups: 1 });
      const { address, group } = groups[0]!;
      gateway.failNext(1, 401);
      const id = (await api.post(`/offers/${offer.id}/publish`, { group_id: group._id })).body.data.publications[0].id;
      const done = await finished(api, id);
      assert.equal(done.status, 'failed');
      assert.deepEqual([done.deliveries[0].status, done.deliveries[0].attempts], ['failed', 1]);
      assert.match(done.deliveries[0].error, gateway.badKey);
      assert.equal(gateway.requestsTo(address).length, 1);
      assert.deepEqual(await retryWaits(id), []);
    });

    test('pacing: two publications to one group are spaced by its minimum interval', async () => {
      const { api, groups, offer } = await liveTenant(gateway.connection, { groups: 1, groupIntervalMs: 1500 });
      const group = groups[0]!.group._id;
      const first = (await api.post(`/offers/${offer.id}/publish`, { group_id: group })).body.data.publications[0];
      const a = await finished(api, first.id);
      const second = (await api.post(`/offers/${offer.id}/publish`, { group_id: group })).body.data.publications[0];
      await finished(api, second.id);
      // The two sends took distinct slots of the group, one interval apart…
      const slots = (
        await app.db
          .collection('send_slots')
          .find({ _id: { $regex: `^group:${group}/` } } as any)
          .toArray()
      )
        .map((c) => c.at.getTime())
        .sort();
      // (a send that missed its slot's window took a later one: its first is a gap)…
      assert.ok(slots.length >= 2);
      for (let i = 1; i < slots.length; i++) assert.ok(slots[i]! - slots[i - 1]! >= 1500, `slots ${slots[i]! - slots[i - 1]!} ms apart`);
      // …the second waited for its slot, and the group received them at least the interval apart.
      const arrivals = gateway.requestsTo(groups[0]!.address).map((r) => r.at);
      assert.equal(arrivals.length, 2);
      assert.ok(arrivals[1]! >= slots[1]!, 'the second send did not start before its slot');
      assert.ok(arrivals[1]! - arrivals[0]! >= 1500, `arrived ${arrivals[1]! - arrivals[0]!} ms apart`);
      assert.ok(a.deliveries[0].sent_at);
    });
  });
}

describe('live http channels: chunks and failures of ours', () => {
  const TOKEN = 'gw-live-token';
  let gateway: FakeGateway;
  before(async () => {
    gateway = await startFakeGateway({ token: TOKEN });
  });
  after(() => gateway.close());

  test('30 unpaced groups go in two chunks; the group its chunk could not send goes alone, both tries counted: partial', async () => {
    const { api, segment, groups, offer } = await liveTenant({ type: 'http', url: gateway.url, token: TOKEN }, { groups: 30 });
    const refused = groups[27]!;
    gateway.failTo(refused.address, 400);
    const res = await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id });
    const id = res.body.data.publications[0].id;
    const done = await finished(api, id, 60_000);
    assert.equal(done.status, 'partial');
    for (const { address } of groups) if (address !== refused.address) assert.equal(gateway.messages(address).length, 1, address);
    for (const d of done.deliveries) {
      const failed = d.group_id === refused.group._id;
      assert.equal(d.status, failed ? 'failed' : 'sent', d.group_id);
      assert.equal(d.attempts, failed ? 2 : 1, d.group_id);
      if (failed) assert.match(d.error, /gateway answered 400/);
      else assert.ok(d.sent_at);
    }
    const events = (await app.temporal.client.workflow.getHandle(publicationWorkflowId(id)).fetchHistory()).events ?? [];
    const scheduled = (type: string) => events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === type);
    assert.deepEqual(
      scheduled('deliverToGroups').map((e) => defaultPayloadConverter.fromPayload<string>(e.userMetadata!.summary!).split(':')[0]),
      ['send to 25 groups', 'send to 5 groups'],
    );
    assert.deepEqual(
      scheduled('deliverToGroup').map((e) => defaultPayloadConverter.fromPayload<string>(e.userMetadata!.summary!)),
      [`send to Live group 27 (${refused.group._id}), attempt 2`],
    );
  });

  test('a publication no group received is a Failed workflow saying why, found by its OfferopsState', async () => {
    const { api, segment, groups, offer } = await liveTenant({ type: 'http', url: gateway.url, token: TOKEN }, { groups: 2 });
    for (const { address } of groups) gateway.failTo(address, 400);
    const res = await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id });
    const id = res.body.data.publications[0].id;
    assert.equal((await finished(api, id)).status, 'failed');
    const workflowId = publicationWorkflowId(id);
    await assert.rejects(app.temporal.client.workflow.getHandle(workflowId).result(), (err: unknown) => {
      assert.ok(err instanceof WorkflowFailedError);
      assert.equal(err.cause?.name, 'ApplicationFailure');
      assert.match(err.cause.message, /^no group received the publication: Live group \d \(grp_\w+\): the gateway answered 400; Live group/);
      // The reason names groups, never their addresses.
      for (const { address } of groups) assert.ok(!err.cause.message.includes(address));
      return true;
    });
    // What an operator's saved query finds: failed publications, by status and by state.
    const query = `WorkflowId = '${workflowId}' AND ExecutionStatus = 'Failed' AND OfferopsKind = 'publication' AND OfferopsState = 'failed'`;
    await waitFor(
      'the failed publication in visibility',
      async () => ((await app.temporal.client.workflow.count(query)).count === 1 ? true : undefined),
      undefined,
      () => listedState(app.temporal.client, `WorkflowId = '${workflowId}'`),
    );
  });

  test('a failure of ours (credentials sealed under another key) shows the tenant only the internal-error text; the cause is logged', async () => {
    const tenant = await seedTenant(app.db);
    const api = new ApiClient(app.baseUrl, tenant.apiKey);
    const channel = await createChannel(app.db, tenant, { type: 'http', url: gateway.url, token: TOKEN, minIntervalMs: 0 }, randomBytes(32));
    const address = `1203630${++n}@g.us`;
    const group = await createGroup(app.db, tenant, {
      name: 'Sealed elsewhere',
      channel: { id: channel._id, type: 'http', address },
      minIntervalMs: 0,
    });
    const offer = (await api.post('/offers', { url: `https://shop.example/sealed/${++n}`, title: 'Kettle' })).body.data;
    const res = await api.post(`/offers/${offer.id}/publish`, { group_id: group._id });
    assert.equal(res.status, 200, res.text);
    const id = res.body.data.publications[0].id;
    const safe = `internal error; quote ${publicationWorkflowId(id)}`;
    // Each attempt records it while the retries go on…
    const during = await waitFor(
      'the first attempt to fail',
      async () => {
        const p = (await api.get(`/publications/${id}`)).body.data;
        return p.deliveries[0].error ? p : undefined;
      },
      undefined,
      () => publicationState(api, id, app.temporal.client),
    );
    assert.equal(during.deliveries[0].error, safe);
    // …and it is what stays when they run out (about a minute of backoff: waited on the workflow, not by polling the API),
    // and what its failed workflow says.
    await assert.rejects(app.temporal.client.workflow.getHandle(publicationWorkflowId(id)).result(), (err: unknown) => {
      assert.ok(err instanceof WorkflowFailedError);
      assert.equal(err.cause?.message, `no group received the publication: Sealed elsewhere (${group._id}): ${safe}`);
      return true;
    });
    const done = (await api.get(`/publications/${id}`)).body.data;
    assert.equal(done.status, 'failed');
    assert.deepEqual([done.deliveries[0].status, done.deliveries[0].error], ['failed', safe]);
    assert.equal(gateway.messages(address).length, 0);
    const logged = workerLog.filter((e) => e.meta?.workflowId === publicationWorkflowId(id));
    assert.ok(logged.length >= 1, 'the cause is logged with the workflow id');
    assert.match(JSON.stringify(logged[0]!.meta!.cause), /authenticate data/);
  });

  test('a chunk that fails as a whole on a failure of ours records only the internal-error text; its groups then go alone', async () => {
    const tenant = await seedTenant(app.db);
    const api = new ApiClient(app.baseUrl, tenant.apiKey);
    const channel = await createChannel(app.db, tenant, { type: 'http', url: gateway.url, token: TOKEN, minIntervalMs: 0 }, randomBytes(32));
    const segment = (await api.post('/segments', { name: `Sealed ${++n}` })).body.data;
    const groups = [];
    for (const name of ['Sealed A', 'Sealed B'])
      groups.push(
        await createGroup(app.db, tenant, {
          name,
          segment_id: segment.id,
          channel: { id: channel._id, type: 'http', address: `1203630${++n}@g.us` },
          minIntervalMs: 0,
        }),
      );
    const offer = (await api.post('/offers', { url: `https://shop.example/sealed/${++n}`, title: 'Kettle' })).body.data;
    const id = (await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id })).body.data.publications[0].id;
    const handle = app.temporal.client.workflow.getHandle(publicationWorkflowId(id));
    // The chunk's three attempts fail on reading its channel (6 s of pauses between them); then each group is sent on its own.
    const events = await waitFor(
      'the groups sent alone after their chunk',
      async () => {
        const history = (await handle.fetchHistory()).events ?? [];
        const alone = history.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'deliverToGroup');
        return alone.length === 2 ? history : undefined;
      },
      undefined,
      () => workflowTail(handle),
    );
    await handle.terminate('the test saw what it needed');
    const chunk = events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'deliverToGroups');
    assert.ok(chunk, 'the two unpaced groups went in a chunk');
    const failed = events.find((e) => String(e.activityTaskFailedEventAttributes?.scheduledEventId) === String(chunk.eventId));
    const failure = failed?.activityTaskFailedEventAttributes?.failure;
    assert.equal(failure?.message, `internal error; quote ${publicationWorkflowId(id)}`);
    assert.ok(!JSON.stringify(events).includes('authenticate data'), 'the cause stays in the log');
  });
});

describe('Temporal UI', () => {
  const TOKEN = 'gw-summaries-token';
  let gateway: FakeGateway;
  before(async () => {
    gateway = await startFakeGateway({ token: TOKEN });
  });
  after(() => gateway.close());

  type HistoryEvent = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number];
  /** The user metadata summary of a history event, decoded ('' when it has none). */
  const summaryOf = (e: HistoryEvent): string =>
    e.userMetadata?.summary ? String(defaultPayloadConverter.fromPayload(e.userMetadata.summary)) : '';

  test('the publication, its activities and its pacing timers carry summaries naming the offer and each group; a send records the message id', async () => {
    const tenant = await seedTenant(app.db);
    const api = new ApiClient(app.baseUrl, tenant.apiKey);
    const channel = await createChannel(app.db, tenant, { type: 'http', url: gateway.url, token: TOKEN, minIntervalMs: 0 }, secretKeyFromEnv());
    const segment = (await api.post('/segments', { name: `Summaries ${++n}` })).body.data;
    const groups = [];
    for (const name of ['Grupo 1', 'Grupo 2']) {
      const address = `1203630${++n}@g.us`;
      groups.push(
        await createGroup(app.db, tenant, {
          name,
          segment_id: segment.id,
          channel: { id: channel._id, type: 'http', address },
          // Long enough that the second publication's slot lies well past how early a paced send wakes (800 ms),
          // however long the first one takes to finish on a busy machine.
          minIntervalMs: 12_000,
        }),
      );
    }
    const offer = (await api.post('/offers', { url: `https://shop.example/summaries/${++n}`, title: 'Cafeteira', price: 199 })).body.data;
    // The first publication takes each group's slot; the second waits for the next one on a durable timer.
    const first = (await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id })).body.data.publications[0];
    await finished(api, first.id);
    const second = (await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id })).body.data.publications[0];
    assert.equal((await finished(api, second.id)).status, 'sent');

    const handle = app.temporal.client.workflow.getHandle(`publication-${second.id}`);
    // The publication's status is written before its workflow's last task, which sets its OfferopsState.
    await handle.result();
    assert.equal(await (await handle.describe()).staticSummary(), `Publication ${second.id} of 'Cafeteira' to 2 groups`);
    const events = (await handle.fetchHistory()).events ?? [];
    // Each distinct summary once: a send that found its slot passed under load runs (and waits) again under the same summary.
    const summaries = (has: (e: HistoryEvent) => unknown) => [...new Set(events.filter(has).map(summaryOf))].sort();
    const ids = groups.map((g) => g._id).sort();
    assert.deepEqual(
      summaries((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'deliverToGroup'),
      groups.map((g) => `send to ${g.name} (${g._id})`).sort(),
    );
    assert.deepEqual(
      summaries((e) => e.timerStartedEventAttributes),
      groups.map((g) => `pacing: wait for ${g.name}'s slot`).sort(),
    );
    // Both first slots are reserved by one activity.
    const named = groups.map((g) => `${g.name} (${g._id})`);
    assert.deepEqual(
      summaries((e) => e.activityTaskScheduledEventAttributes?.activityType?.name?.startsWith('reserve')),
      [`pacing: reserve the slots of 2 groups: ${named[0]} … ${named[1]}`],
    );
    // The list shows what it is about, and where it stands.
    const attributes = (await handle.describe()).typedSearchAttributes;
    assert.equal(attributes.get(OfferopsSubject), 'Cafeteira · 2 groups');
    assert.equal(attributes.get(OfferopsState), 'sent');
    // deliverToGroup's result is in the history: the gateway's message id and the outcome.
    const results = events
      .filter((e) => e.activityTaskCompletedEventAttributes)
      .flatMap((e) => defaultPayloadConverter.fromPayload<unknown>(e.activityTaskCompletedEventAttributes!.result!.payloads![0]!))
      .filter((r): r is { outcome: string; message_id: string } => typeof r === 'object' && r !== null && 'message_id' in r);
    assert.deepEqual(
      results.map((r) => [r.outcome, r.message_id]).sort(),
      ids.map((id) => ['sent', `msg-${second.id}:${id}`]),
    );
    // Summaries name groups by name and id, never by their address.
    for (const e of events) for (const g of gateway.requests) assert.ok(!summaryOf(e).includes(g.to));
    // Waiting for a slot is no failure: a publication that went well shows no failed activity.
    assert.deepEqual(
      events.filter((e) => e.activityTaskFailedEventAttributes).map((e) => e.activityTaskFailedEventAttributes!.failure?.message),
      [],
    );
  });
});

describe('a live telegram channel (a local Bot API stand-in)', () => {
  let bot: FakeTelegram;
  before(async () => {
    bot = await startFakeTelegram();
  });
  after(() => bot.close());

  test('a telegram_html template is sent with parse_mode HTML, the offer values escaped', async () => {
    const tenant = await seedTenant(app.db);
    const api = new ApiClient(app.baseUrl, tenant.apiKey);
    const channel = await createChannel(
      app.db,
      tenant,
      { type: 'telegram', url: bot.url, token: '42:bot-token', minIntervalMs: 0 },
      secretKeyFromEnv(),
    );
    const chatId = `-100${++n}`;
    const group = await createGroup(app.db, tenant, { name: 'Telegram group', channel: { id: channel._id, type: 'telegram', address: chatId } });
    const template = (
      await api.post('/templates', { name: `Telegram ${n}`, body: '<b>{title}</b> por {price}', format: 'telegram_html', is_default: true })
    ).body.data;
    const offer = (await api.post('/offers', { url: `https://shop.example/tg/${n}`, title: 'Fone <Pro> & Case', price: 99.9 })).body.data;
    const published = await api.post(`/offers/${offer.id}/publish`, { group_id: group._id });
    assert.equal(published.status, 200, published.text);
    const done = await finished(api, published.body.data.publications[0].id);
    assert.deepEqual([done.status, done.template_id], ['sent', template.id], 'the account default template');
    const calls = bot.calls.filter((c) => c.body.chat_id === chatId);
    assert.deepEqual(
      calls.map((c) => [c.method, c.body.parse_mode]),
      [['sendMessage', 'HTML']],
    );
    assert.match(calls[0]!.body.text as string, /^<b>Fone &lt;Pro&gt; &amp; Case<\/b> por \S+\s?99[.,]90$/);
  });
});
