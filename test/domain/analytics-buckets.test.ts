import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addToBuckets,
  BucketDoc,
  bucketId,
  KEY_SHARDS,
  localDayHour,
  monthBucketId,
  readBuckets,
  readBucketDocs,
  windowDays,
} from '../../domain/analytics/buckets';
import { platformCollection } from '../../domain/db';
import { seedTenant, startTestApp, TestApp } from '../helpers/stack';

describe('analytics buckets', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  it('local days and hours follow the time zone', () => {
    assert.deepEqual(localDayHour(new Date('2026-11-24T02:30:00Z'), 'America/Sao_Paulo'), { day: '2026-11-23', hour: 23 });
    assert.deepEqual(localDayHour(new Date('2026-11-24T02:30:00Z'), 'UTC'), { day: '2026-11-24', hour: 2 });
    assert.deepEqual(windowDays(new Date('2026-03-01T12:00:00Z'), 3, 'UTC'), ['2026-02-27', '2026-02-28', '2026-03-01']);
  });

  it('merges a batch into one upsert per day and dimension, counts per key and hour, and keeps tenants apart', async () => {
    const a = await seedTenant(app.db);
    const b = await seedTenant(app.db);
    await platformCollection<{ _id: string; timezone?: string }>(app.db, 'accounts').updateOne(
      { _id: a.accountId },
      { $set: { timezone: 'America/Sao_Paulo' } },
    );
    const at = new Date('2026-11-24T02:30:00Z'); // 23:30 on the 23rd in São Paulo
    const click = (group: string) => ({
      at,
      incs: [
        { dimension: 'totals' as const, counter: 'clicks', by: 1 },
        { dimension: 'hours' as const, counter: 'clicks', by: 1 },
        { dimension: 'groups' as const, key: group, counter: 'clicks', by: 1 },
        { dimension: 'totals' as const, counter: 'commissions.BRL.amount_minor', by: 1250 },
      ],
    });
    await addToBuckets(app.db, a, [click('grp_1'), click('grp_1'), click('grp_2')]);
    await addToBuckets(app.db, a, [click('grp_2')]);
    await addToBuckets(app.db, b, [click('grp_9')]);

    const [totals] = await readBuckets(app.db, a, 'totals', ['2026-11-23']);
    assert.deepEqual(totals?.c, { clicks: 4, commissions: { BRL: { amount_minor: 5000 } } });
    const [hours] = await readBuckets(app.db, a, 'hours', ['2026-11-23']);
    assert.deepEqual(hours?.c, { '23': { clicks: 4 } });
    const [groups] = await readBuckets(app.db, a, 'groups', ['2026-11-22', '2026-11-23', '2026-11-24']);
    assert.equal(groups?.day, '2026-11-23');
    assert.deepEqual(groups?.c, { grp_1: { clicks: 2 }, grp_2: { clicks: 2 } });
    // The other account (UTC) counted its click on the 24th, and neither sees the other's buckets.
    assert.deepEqual((await readBuckets(app.db, b, 'groups', ['2026-11-23', '2026-11-24']))[0]?.c, { grp_9: { clicks: 1 } });
    assert.equal((await readBuckets(app.db, b, 'totals', ['2026-11-23'])).length, 0);
  });

  it("spreads a keyed dimension's keys over shard documents, read back as one with a document written whole before them", async () => {
    const t = await seedTenant(app.db);
    const at = new Date('2026-11-12T12:00:00Z');
    const keys = Array.from({ length: 200 }, (_, i) => `grp_${String(i).padStart(3, '0')}`);
    await addToBuckets(app.db, t, [{ at, incs: keys.map((key) => ({ dimension: 'groups' as const, key, counter: 'deliveries', by: 1 })) }]);
    const day = bucketId(t, '2026-11-12', 'groups');
    await app.db.collection<BucketDoc>('analytics_buckets').insertOne({
      _id: day,
      account_id: t.accountId,
      env: t.env,
      day: '2026-11-12',
      dimension: 'groups',
      c: { grp_000: { deliveries: 5 }, grp_old: { deliveries: 1 } },
    });
    const shards = await app.db
      .collection<{ _id: string; c: object }>('analytics_buckets')
      .find({ _id: { $gt: `${day}~`, $lt: `${day}~~` } })
      .toArray();
    // 200 keys over 16 shards: each document holds a small share of them.
    assert.ok(shards.length > KEY_SHARDS / 2 && shards.length <= KEY_SHARDS, `${shards.length} shards`);
    assert.ok(shards.every((doc) => Object.keys(doc.c).length < 30));
    const expected = {
      ...Object.fromEntries(keys.map((key) => [key, { deliveries: 1 }])),
      grp_000: { deliveries: 6 },
      grp_old: { deliveries: 1 },
    };
    assert.deepEqual((await readBuckets(app.db, t, 'groups', ['2026-11-12']))[0]?.c, expected);
    const [month] = await readBucketDocs(app.db, t, [monthBucketId(t, '2026-11', 'groups')]);
    assert.deepEqual(month?.c, Object.fromEntries(keys.map((key) => [key, { deliveries: 1 }])));
  });

  it('counts every increment of concurrent writers of one bucket, whether it exists yet or not', async () => {
    const t = await seedTenant(app.db);
    const at = new Date('2026-11-10T12:00:00Z');
    const one = () => addToBuckets(app.db, t, [{ at, incs: [{ dimension: 'groups', key: 'grp_1', counter: 'deliveries_sent', by: 1 }] }]);
    await Promise.all(Array.from({ length: 40 }, one));
    await Promise.all(Array.from({ length: 40 }, one));
    const [groups] = await readBuckets(app.db, t, 'groups', ['2026-11-10']);
    assert.deepEqual(groups?.c, { grp_1: { deliveries_sent: 80 } });
  });
});
