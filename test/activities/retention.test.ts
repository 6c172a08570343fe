/**
 * The retention activity against a real MongoDB-protocol database (the
 * stack's): it stands in for TTL indexes by deleting finished windows.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Client, Connection } from '@temporalio/client';
import { Db, MongoClient } from 'mongodb';
import { createActivities } from '../../activities/index';
import { secretKeyFromEnv } from '../../domain/sealing';
import { ensureIndexes } from '../../domain/db';
import { hit } from '../../domain/accounts/rate-limits';
import { insertRequestLogs } from '../../domain/developer/request-logs';
import { claimIdempotencyKey, completeIdempotencyKey } from '../../domain/developer/idempotency';
import {
  addToBuckets,
  bucketId,
  BUCKET_RETENTION_DAYS,
  localDayHour,
  monthBucketId,
  packVersionsId,
  shardId,
} from '../../domain/analytics/buckets';
import { stackEnv } from '../helpers/stack';

let client: MongoClient;
let db: Db;
let connection: Connection;
let temporal: Client;

before(async () => {
  client = await MongoClient.connect(stackEnv().mongodbUri, { serverSelectionTimeoutMS: 10_000 });
  connection = await Connection.connect({ address: stackEnv().temporalAddress });
  temporal = new Client({ connection, namespace: stackEnv().temporalNamespace });
  db = client.db(`t_ret_${randomBytes(6).toString('hex')}`);
  await ensureIndexes(db);
});
after(async () => {
  await db.dropDatabase();
  await client.close();
  await connection.close();
});

const MIN = 60_000;
const windows = () => db.collection<{ _id: string; window_start: Date; window_end: Date; count: number }>('rate_limits');

/** A window of one credential that ended (or ends) `endOffsetMs` from now. */
function win(id: string, endOffsetMs: number) {
  const end = new Date(Date.now() + endOffsetMs);
  return { _id: id, window_start: new Date(end.getTime() - MIN), window_end: end, count: 7 };
}

test('sweepExpiredRecords removes only windows that ended, and reports how many', async () => {
  await windows().deleteMany({});
  await windows().insertMany([
    win('key_ended_1', -60 * MIN),
    win('key_ended_2', -2 * 24 * 60 * MIN),
    win('key_ended_3', -10 * MIN),
    win('key_open_1', 30_000),
    win('key_open_2', 59_000),
  ]);
  const activities = createActivities({ db, secretKey: secretKeyFromEnv(), temporal });
  const result = await activities.sweepExpiredRecords();
  assert.deepEqual(result, {
    rate_limit_windows: 3,
    send_slots: 0,
    request_logs: 0,
    idempotency_keys: 0,
    oauth_tokens: 0,
    analytics_buckets: 0,
  });
  const left = (await windows().find({}).toArray()).map((w) => w._id).sort();
  assert.deepEqual(left, ['key_open_1', 'key_open_2']);
  // The survivors are untouched.
  assert.equal((await windows().findOne({ _id: 'key_open_1' }))?.count, 7);
  // Nothing more to do: a second sweep removes nothing.
  assert.deepEqual(await activities.sweepExpiredRecords(), {
    rate_limit_windows: 0,
    send_slots: 0,
    request_logs: 0,
    idempotency_keys: 0,
    oauth_tokens: 0,
    analytics_buckets: 0,
  });
  assert.equal(await windows().countDocuments(), 2);
});

test('a window that ended moments ago is kept for the grace period (default one minute), then removed', async () => {
  await windows().deleteMany({});
  await windows().insertMany([win('key_just_ended', -5_000), win('key_long_gone', -5 * MIN)]);
  assert.deepEqual(await createActivities({ db, secretKey: secretKeyFromEnv(), temporal }).sweepExpiredRecords(), {
    rate_limit_windows: 1,
    send_slots: 0,
    request_logs: 0,
    idempotency_keys: 0,
    oauth_tokens: 0,
    analytics_buckets: 0,
  });
  assert.deepEqual(
    (await windows().find({}).toArray()).map((w) => w._id),
    ['key_just_ended'],
  );
  // With no grace, it goes too.
  assert.deepEqual(await createActivities({ db, secretKey: secretKeyFromEnv(), temporal, windowGraceMs: 0 }).sweepExpiredRecords(), {
    rate_limit_windows: 1,
    send_slots: 0,
    request_logs: 0,
    idempotency_keys: 0,
    oauth_tokens: 0,
    analytics_buckets: 0,
  });
  assert.equal(await windows().countDocuments(), 0);
});

test('windows written by the rate limiter itself are swept once finished, and the limiter starts afresh', async () => {
  await windows().deleteMany({});
  const long = new Date(Date.now() - 10 * MIN);
  await hit(db, 'key_old', MIN, long);
  await hit(db, 'key_old', MIN, new Date(long.getTime() + 1_000));
  await hit(db, 'key_now', MIN);
  assert.equal(await windows().countDocuments(), 2);
  assert.deepEqual(await createActivities({ db, secretKey: secretKeyFromEnv(), temporal }).sweepExpiredRecords(), {
    rate_limit_windows: 1,
    send_slots: 0,
    request_logs: 0,
    idempotency_keys: 0,
    oauth_tokens: 0,
    analytics_buckets: 0,
  });
  assert.deepEqual(
    (await windows().find({}).toArray()).map((w) => w._id),
    ['key_now'],
  );
  const fresh = await hit(db, 'key_old', MIN);
  assert.equal(fresh.count, 1);
});

test('an empty collection: zero removed', async () => {
  await windows().deleteMany({});
  assert.deepEqual(await createActivities({ db, secretKey: secretKeyFromEnv(), temporal }).sweepExpiredRecords(), {
    rate_limit_windows: 0,
    send_slots: 0,
    request_logs: 0,
    idempotency_keys: 0,
    oauth_tokens: 0,
    analytics_buckets: 0,
  });
});

test('request logs are kept 90 days, then removed', async () => {
  await windows().deleteMany({});
  const DAY = 24 * 60 * MIN;
  const entry = (requestId: string, ageMs: number) => ({
    time: new Date(Date.now() - ageMs),
    request_id: requestId,
    method: 'GET',
    route: '/offers/{id}',
    status: 200,
    duration_ms: 1.5,
    credential_id: 'key_retention',
    account_id: 'acc_retention',
    env: 'live' as const,
  });
  await insertRequestLogs(db, [entry('req_old', 91 * DAY), entry('req_edge', 89 * DAY), entry('req_new', MIN)]);
  const result = await createActivities({ db, secretKey: secretKeyFromEnv(), temporal }).sweepExpiredRecords();
  assert.equal(result.request_logs, 1);
  const left = (await db.collection('request_logs').find({}).toArray()).map((d) => d.request_id).sort();
  assert.deepEqual(left, ['req_edge', 'req_new']);
});

test('idempotency keys are kept 24 hours, then removed', async () => {
  const DAY = 24 * 60 * MIN;
  const old = await claimIdempotencyKey(db, 'key_retention', 'old-key', 'f', new Date(Date.now() - DAY - MIN));
  const young = await claimIdempotencyKey(db, 'key_retention', 'young-key', 'f', new Date(Date.now() - DAY + MIN));
  assert.equal(old.kind, 'claimed');
  assert.equal(young.kind, 'claimed');
  if (old.kind === 'claimed') await completeIdempotencyKey(db, old, { status: 201, body: {} });
  const result = await createActivities({ db, secretKey: secretKeyFromEnv(), temporal }).sweepExpiredRecords();
  assert.equal(result.idempotency_keys, 1);
  assert.deepEqual(
    (await db.collection('idempotency_keys').find({}).toArray()).map((d) => d.credential_id),
    ['key_retention'],
  );
});

test('analytics buckets are kept 400 days after their day, every dimension and tenant alike, then removed', async () => {
  const DAY = 24 * 60 * MIN;
  assert.equal(BUCKET_RETENTION_DAYS, 400);
  const a = { accountId: 'acc_retention_a', env: 'live' as const };
  const b = { accountId: 'acc_retention_b', env: 'test' as const };
  const fact = (ageDays: number) => ({
    at: new Date(Date.now() - ageDays * DAY),
    incs: [
      { dimension: 'totals' as const, counter: 'clicks', by: 1 },
      { dimension: 'hours' as const, counter: 'clicks', by: 1 },
      { dimension: 'groups' as const, key: 'grp_retention', counter: 'clicks', by: 1 },
    ],
  });
  await addToBuckets(db, a, [fact(401), fact(399), fact(0)]);
  await addToBuckets(db, b, [fact(500)]);
  const day = (ageDays: number) => localDayHour(new Date(Date.now() - ageDays * DAY), 'UTC').day;
  // A keyed dimension's counters are in the shard of their key.
  const ids = (t: typeof a | typeof b, ageDays: number) => [
    bucketId(t, day(ageDays), 'totals'),
    bucketId(t, day(ageDays), 'hours'),
    shardId(bucketId(t, day(ageDays), 'groups'), 'grp_retention'),
  ];
  const monthIds = (t: typeof a | typeof b, ageDays: number) => [
    monthBucketId(t, day(ageDays).slice(0, 7), 'daily'),
    monthBucketId(t, day(ageDays).slice(0, 7), 'hours'),
    shardId(monthBucketId(t, day(ageDays).slice(0, 7), 'groups'), 'grp_retention'),
  ];
  const buckets = () => db.collection<{ _id: string; c: unknown; month?: string }>('analytics_buckets');
  const dayDocs = async () =>
    (
      await buckets()
        .find({ month: { $exists: false }, dimension: { $ne: 'packs' } })
        .toArray()
    )
      .map((d) => d._id)
      .sort();
  // The late writes counted in each tenant's `packs` document (domain/analytics/reads.ts), which retention keeps.
  const packs = [packVersionsId(a), packVersionsId(b)];
  const packsLeft = () => buckets().countDocuments({ _id: { $in: packs } });
  assert.equal(await packsLeft(), 2);
  const monthDocs = async () =>
    new Set(
      (
        await buckets()
          .find({ month: { $exists: true } })
          .toArray()
      ).map((d) => d._id),
    );
  assert.equal((await dayDocs()).length, 12);
  const total = await buckets().countDocuments();

  const result = await createActivities({ db, secretKey: secretKeyFromEnv(), temporal }).sweepExpiredRecords();
  assert.deepEqual(await dayDocs(), [...ids(a, 399), ...ids(a, 0)].sort());
  // Month documents go 400 days after their month's last day: those of 399 days ago and today stay, 500 days ago go.
  const months = await monthDocs();
  assert.deepEqual(
    [...monthIds(a, 399), ...monthIds(a, 0)].filter((id) => !months.has(id)),
    [],
  );
  assert.deepEqual(
    monthIds(b, 500).filter((id) => months.has(id)),
    [],
  );
  assert.equal(result.analytics_buckets, total - (await buckets().countDocuments()));
  assert.equal(await packsLeft(), 2);
  // What is kept is untouched, and a second sweep removes nothing.
  assert.deepEqual((await buckets().findOne({ _id: shardId(bucketId(a, day(399), 'groups'), 'grp_retention') }))?.c, {
    grp_retention: { clicks: 1 },
  });
  assert.equal((await createActivities({ db, secretKey: secretKeyFromEnv(), temporal }).sweepExpiredRecords()).analytics_buckets, 0);
});
