/**
 * The sandbox: `admin account create` seeds the test environment through the
 * domain services; `admin sandbox reset` puts it back to exactly that seed —
 * extra test data and its Temporal Schedules gone — and leaves live data alone.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ScheduleNotFoundError } from '@temporalio/client';
import { ApiClient } from '../helpers/client';
import { cliEnv, ok, runCli, usage } from '../helpers/cli';
import { addKey, stackEnv, startTestApp, terminateRunning, TestApp } from '../helpers/stack';
import { startTestWorker } from '../helpers/worker';
import { createGroup } from '../../domain/groups/store';
import { TENANT_COLLECTIONS } from '../../domain/db';
import { SANDBOX_SEED } from '../../domain/sandbox/seed';
import { publicationWorkflowId } from '../../temporal/names';
import { eventErrors } from '../../schemas/events/index';

const taskQueue = `test-sandbox-${randomBytes(4).toString('hex')}`;
const YEAR = new Date().getUTCFullYear() + 2;
let app: TestApp;
let worker: { stop(): Promise<void> };
let tmp: string;

before(async () => {
  app = await startTestApp({ taskQueue, rateLimit: { limit: 100_000, windowMs: 60_000 } });
  worker = await startTestWorker(app, taskQueue);
  tmp = mkdtempSync(join(tmpdir(), 'offerops-sandbox-'));
});
after(async () => {
  await terminateRunning(app, taskQueue);
  await worker.stop();
  rmSync(tmp, { recursive: true, force: true });
  await app.close();
});

const cli = (...args: string[]) =>
  runCli(args, cliEnv({ MONGODB_URI: stackEnv().mongodbUri, MONGODB_DB: app.dbName, OFFEROPS_TASK_QUEUE: taskQueue }), tmp);

/** How many documents the account's environment has in each tenant collection. */
async function counts(accountId: string, env: 'live' | 'test'): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const name of TENANT_COLLECTIONS) out[name] = await app.db.collection(name).countDocuments({ account_id: accountId, env });
  return out;
}

/**
 * The seeded publication once its workflow has ended, as the API shows it.
 * Not as soon as the API says `sent`: the workflow's last step sets that
 * status, then counts the completion in the analytics buckets and relays its
 * `publication.completed` event — documents of the test environment that a
 * count taken at `sent` would race.
 */
async function sent(api: ApiClient, id: string) {
  const { status } = (await app.temporal.client.workflow.getHandle(publicationWorkflowId(id)).result()) as { status: string };
  assert.equal(status, 'sent');
  const res = await api.get(`/publications/${id}`);
  assert.equal(res.body.data.status, 'sent');
  return res.body.data;
}

const describeSchedule = (id: string) => app.temporal.client.schedule.getHandle(`schedule-${id}`).describe();

describe('sandbox seed and reset', () => {
  let account: string;
  let live: ApiClient;
  let testApi: ApiClient;
  let seeded: Record<string, string>;
  let seedCounts: Record<string, number>;

  before(async () => {
    const out = ok(await cli('admin', 'account', 'create', '--name', 'Sandbox account'));
    account = out.account_id;
    seeded = out.sandbox;
    live = new ApiClient(app.baseUrl, out.api_key);
    testApi = new ApiClient(app.baseUrl, (await addKey(app.db, { accountId: account }, { env: 'test' })).apiKey);
    await sent(testApi, seeded.publication_id!);
    seedCounts = await counts(account, 'test');
  });

  test('account create seeds the test environment through the services; the seed is readable with a test key', async () => {
    assert.deepEqual(Object.keys(seeded).sort(), [
      'channel_id',
      'coupon_id',
      'group_id',
      'offer_id',
      'publication_id',
      'segment_id',
      'template_id',
    ]);
    const offers = (await testApi.get('/offers')).body;
    assert.deepEqual(
      offers.data.map((o: { url: string; title: string }) => [o.url, o.title]),
      [[SANDBOX_SEED.offer.url, SANDBOX_SEED.offer.title]],
    );
    // The spec's sandbox lists a coupon: the offer carries it.
    const coupons = (await testApi.get('/coupons')).body.data;
    assert.deepEqual(
      coupons.map((c: { id: string; code: string; status: string }) => [c.id, c.code]),
      [[seeded.coupon_id, 'SAMPLE10']],
    );
    assert.equal(offers.data[0].coupon_id, seeded.coupon_id);
    const segments = (await testApi.get('/segments')).body.data;
    assert.deepEqual(
      segments.map((s: { id: string; slug: string }) => [s.id, s.slug]),
      [[seeded.segment_id, 'sample-segment']],
    );
    const group = (await testApi.get(`/groups/${seeded.group_id}`)).body.data;
    assert.equal(group.segment_id, seeded.segment_id);
    const template = (await testApi.get(`/templates/${seeded.template_id}`)).body.data;
    assert.equal(template.is_default, true);
    const publication = await sent(testApi, seeded.publication_id!);
    assert.equal(publication.offer_id, seeded.offer_id);
    // Each creation recorded its event, like the API's.
    const kinds = await app.db.collection('events').distinct('kind', { account_id: account, env: 'test' });
    for (const kind of ['segment.created', 'coupon.created', 'offer.created', 'template.created', 'publication.queued'])
      assert.ok(kinds.includes(kind), kind);
    // Nothing of it is live.
    assert.equal((await live.get('/offers')).body.pagination.total, 0);
    // Seeding again changes nothing.
    const again = ok(await cli('admin', 'sandbox', 'seed', '--account', account));
    assert.deepEqual(again, { seed: seeded, created: false });
    assert.deepEqual(await counts(account, 'test'), seedCounts);
  });

  test('reset: exactly the seed is left in test, test Schedules are gone, live data is intact; sandbox.reset recorded', async () => {
    // Extra test data, with a Temporal Schedule.
    const extraOffer = (await testApi.post('/offers', { url: 'https://shop.example/sandbox/extra', title: 'Extra', price: 10 })).body.data;
    const extraSegment = (await testApi.post('/segments', { name: 'Extra segment' })).body.data;
    const testSchedule = await testApi.post('/schedules', {
      offer_id: extraOffer.id,
      group_id: seeded.group_id,
      run_at: `${YEAR}-06-01T12:00:00Z`,
    });
    assert.equal(testSchedule.status, 201, testSchedule.text);
    assert.ok(await describeSchedule(testSchedule.body.data.id));
    assert.equal((await testApi.get('/segments')).body.pagination.total, 2);
    assert.ok(extraSegment.id);

    // Live data, with a Temporal Schedule.
    const liveOffer = (await live.post('/offers', { url: 'https://shop.example/live/1', title: 'Live offer', price: 20 })).body.data;
    const liveSegment = (await live.post('/segments', { name: 'Live segment' })).body.data;
    const liveGroup = await createGroup(app.db, { accountId: account, env: 'live' }, { name: 'Live group', segment_id: liveSegment.id });
    const liveSchedule = await live.post('/schedules', { offer_id: liveOffer.id, group_id: liveGroup._id, run_at: `${YEAR}-07-01T12:00:00Z` });
    assert.equal(liveSchedule.status, 201, liveSchedule.text);
    const liveBefore = await counts(account, 'live');

    const out = ok(await cli('admin', 'sandbox', 'reset', '--account', account));
    assert.equal(out.account_id, account);
    assert.equal(out.schedules_deleted, 1);
    assert.ok(out.removed.offers >= 2 && out.removed.schedules === 1, JSON.stringify(out.removed));
    assert.deepEqual(Object.keys(out.seed).sort(), Object.keys(seeded).sort());
    assert.equal(out.seed.publication_id, seeded.publication_id, 'the seeded publication id is derived from its Idempotency-Key');
    assert.notEqual(out.seed.offer_id, seeded.offer_id);

    // Exactly the seed: its documents and events, plus the reset's event.
    await sent(testApi, out.seed.publication_id);
    const after = await counts(account, 'test');
    assert.deepEqual(after, { ...seedCounts, events: seedCounts.events! + 1 });
    assert.deepEqual(
      (await testApi.get('/offers')).body.data.map((o: { id: string }) => o.id),
      [out.seed.offer_id],
    );
    assert.equal((await testApi.get(`/offers/${extraOffer.id}`)).status, 404);
    assert.equal((await testApi.get(`/schedules/${testSchedule.body.data.id}`)).status, 404);
    await assert.rejects(describeSchedule(testSchedule.body.data.id), ScheduleNotFoundError);

    // Live: untouched, its Schedule still there.
    assert.deepEqual(await counts(account, 'live'), liveBefore);
    assert.equal((await live.get(`/offers/${liveOffer.id}`)).body.data.title, 'Live offer');
    assert.equal((await live.get(`/schedules/${liveSchedule.body.data.id}`)).status, 200);
    assert.ok(await describeSchedule(liveSchedule.body.data.id));

    const event = await app.db.collection('events').findOne({ _id: out.event_id } as never);
    assert.ok(event);
    assert.equal(event.kind, 'sandbox.reset');
    assert.equal(event.env, 'test');
    assert.equal(
      eventErrors({
        id: event._id,
        kind: event.kind,
        version: event.version,
        account: event.account_id,
        environment: event.env,
        occurred_at: event.occurred_at.toISOString(),
        data: event.data,
      } as never),
      null,
    );
    await app.temporal.client.schedule.getHandle(`schedule-${liveSchedule.body.data.id}`).delete();
  });

  test('reset of an unknown account is a usage error and changes nothing', async () => {
    const before = await counts(account, 'test');
    assert.match(usage(await cli('admin', 'sandbox', 'reset', '--account', 'acc_nobody')), /no account/);
    assert.match(usage(await cli('admin', 'sandbox', 'reset')), /--account/);
    assert.deepEqual(await counts(account, 'test'), before);
  });
});
