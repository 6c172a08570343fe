/**
 * Month documents (domain/analytics/buckets.ts): every report that reads them
 * equals the same report read from day documents alone, over windows that
 * cross month boundaries, in a time zone with daylight saving and a zone
 * change on the way; a deployment that had day documents only before falls
 * back to them for the months before its month documents; retention keeps a
 * month document as long as its last day.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Db, MongoClient } from 'mongodb';
import {
  addToBuckets,
  bucketId,
  BucketFact,
  BucketIncrement,
  Dimension,
  forgetTimeZone,
  lastDayOf,
  localDayHour,
  monthBucketId,
  monthBucketsFrom,
  openFrom,
  packedBucketId,
  packedDayId,
  packVersionsId,
  startMonthBuckets,
  sweepOldBuckets,
  weekdayOf,
  windowDays,
} from '../../domain/analytics/buckets';
import { completedFact, deliveryFact, queuedFact } from '../../domain/publications/counts';
import {
  groupsReport,
  heatmapReport,
  offersReport,
  reportPlans,
  sourcesReport,
  summaryReport,
  timeseriesReport,
} from '../../domain/analytics/service';
import { packingsDone } from '../../domain/analytics/reads';
import { platformCollection, Tenant } from '../../domain/db';
import { stackEnv } from '../helpers/stack';
import { waitFor } from '../helpers/wait';

const DAY = 86_400_000;
let client: MongoClient;
const dbs: Db[] = [];

before(async () => {
  client = await MongoClient.connect(stackEnv().mongodbUri, { serverSelectionTimeoutMS: 10_000 });
});
after(async () => {
  await Promise.all(dbs.map((db) => db.dropDatabase()));
  await client.close();
});

const newDb = (): Db => {
  const db = client.db(`t_months_${randomBytes(5).toString('hex')}`);
  dbs.push(db);
  return db;
};

/** The same account (and time zone) in each of `targets`. */
async function setZone(targets: Db[], accountId: string, timeZone: string): Promise<void> {
  for (const db of targets) {
    await platformCollection<{ _id: string; timezone?: string }>(db, 'accounts').updateOne(
      { _id: accountId },
      { $set: { timezone: timeZone } },
      { upsert: true },
    );
  }
  // The zone is kept a minute per process: forget it, as the operator command does.
  forgetTimeZone(accountId);
}

/** A small deterministic generator. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Publications (with deliveries), clicks and commissions at random times between `from` and `to`. */
function factsBetween(from: number, to: number, count: number, seed: number): BucketFact[] {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const groups = ['grp_a', 'grp_b', 'grp_c', 'grp_d'];
  const offers = ['off_1', 'off_2', 'off_3', 'off_4', 'off_5'];
  const facts: BucketFact[] = [];
  for (let i = 0; i < count; i++) {
    const at = new Date(from + rnd() * (to - from));
    const kind = rnd();
    if (kind < 0.2) {
      const p = {
        offer_id: pick(offers),
        segment_id: 'seg_x',
        source: pick(['amazon', 'shopee'] as const),
        queued_at: at,
        group_ids: [pick(groups), pick(groups)],
      };
      facts.push(queuedFact(p), deliveryFact({ group_id: p.group_ids[0]!, queued_at: at }, rnd() < 0.8 ? 'sent' : 'failed'));
      facts.push(completedFact(p, rnd() < 0.9 ? 'sent' : 'failed'));
    } else {
      const counter = rnd() < 0.1 ? 'bot_clicks' : 'clicks';
      const keyed: [Dimension, string][] = [
        ['offers', pick(offers)],
        ['sources', pick(['amazon', 'shopee', 'magalu'])],
        ...(rnd() < 0.4
          ? ([
              ['pages', pick(['pag_home', 'pag_deals'])],
              ['elements', pick(['offer-card', 'buy', 'banner'])],
            ] as [Dimension, string][])
          : ([['groups', pick(groups)]] as [Dimension, string][])),
      ];
      const incs: BucketIncrement[] = [
        { dimension: 'totals', counter, by: 1 },
        { dimension: 'hours', counter, by: 1 },
        ...keyed.map(([dimension, key]) => ({ dimension, key, counter, by: 1 })),
      ];
      if (counter === 'clicks' && rnd() < 0.1) {
        const currency = rnd() < 0.7 ? 'BRL' : 'USD';
        for (const [dimension, key] of [['totals', undefined], ...keyed] as [Dimension, string | undefined][]) {
          incs.push({ dimension, ...(key ? { key } : {}), counter: `commissions.${currency}.count`, by: 1 });
          incs.push({ dimension, ...(key ? { key } : {}), counter: `commissions.${currency}.amount_minor`, by: 100 + Math.floor(rnd() * 9000) });
        }
      }
      facts.push({ at, incs });
    }
  }
  return facts;
}

/** Every report over every window, as plain JSON. */
async function reports(db: Db, tenant: Tenant, now: Date, windows: number[]): Promise<unknown[]> {
  const page = { limit: 100, offset: 0 };
  const out: unknown[] = [];
  for (const days of windows) {
    for (const include_bots of [false, true]) {
      const q = { days, include_bots };
      out.push(
        await summaryReport(db, tenant, q, now),
        await timeseriesReport(db, tenant, q, now),
        await groupsReport(db, tenant, q, page, now),
        await offersReport(db, tenant, { ...q, sort: 'clicks' }, page, now),
        await sourcesReport(db, tenant, q, page, now),
        await heatmapReport(db, tenant, q, now),
      );
    }
  }
  return out;
}

// A live day; a month back (into the month before); a closed month plus days; three closed months whole; a year.
const WINDOWS = [1, 31, 45, 101, 365];

describe('analytics month documents', () => {
  it('every report over windows across month boundaries equals the day documents’ sums (New York, a zone change on the way)', async () => {
    const withMonths = newDb();
    const daysOnly = newDb(); // no marker: reports read day documents only
    assert.equal(await startMonthBuckets(withMonths), '0000-01');
    assert.equal(await monthBucketsFrom(daysOnly), '9999-12');
    const tenant: Tenant = { accountId: `acc_months${randomBytes(3).toString('hex')}`, env: 'live' };
    const now = new Date('2026-12-10T15:00:00Z');
    // Facts from 5 July to now: in UTC first, then the account moves to New York (daylight saving ends on 1 November).
    const early = factsBetween(Date.parse('2026-07-05T00:00:00Z'), Date.parse('2026-08-20T00:00:00Z'), 300, 1);
    const late = factsBetween(Date.parse('2026-08-20T00:00:00Z'), now.getTime(), 700, 2);
    // Month edges in New York: 1 October 02:00 UTC is still 30 September there, 22:00.
    const edge: BucketFact = {
      at: new Date('2026-10-01T02:00:00Z'),
      incs: [
        { dimension: 'totals', counter: 'clicks', by: 1 },
        { dimension: 'hours', counter: 'clicks', by: 1 },
      ],
    };
    for (const db of [withMonths, daysOnly]) {
      await setZone([db], tenant.accountId, 'UTC');
      for (let i = 0; i < early.length; i += 100) await addToBuckets(db, tenant, early.slice(i, i + 100));
      await setZone([db], tenant.accountId, 'America/New_York');
      for (let i = 0; i < late.length; i += 100) await addToBuckets(db, tenant, late.slice(i, i + 100));
      await addToBuckets(db, tenant, [edge]);
    }

    // The month documents are read (packed): a 101-day window (1 September – 10 December) reads September to November whole.
    const list = windowDays(now, 101, 'America/New_York');
    assert.deepEqual([list[0], list.at(-1)], ['2026-09-01', '2026-12-10']);
    const [groups] = reportPlans(tenant, 'groups', list, '0000-01', '2026-12-10');
    assert.deepEqual(
      groups!.parts.filter((part) => part.day === undefined).map((part) => part.id),
      ['2026-09', '2026-10', '2026-11'].map((m) => packedBucketId(tenant, m, 'groups')),
    );
    // With the days of December before the 10th, and the 10th live.
    assert.equal(groups!.parts.length, 3 + 9);
    assert.deepEqual(groups!.live, [bucketId(tenant, '2026-12-10', 'groups')]);
    assert.equal(
      reportPlans(tenant, 'heatmap', list, '0000-01', '2026-12-10').reduce((n, plan) => n + plan.parts.length + plan.live.length, 0),
      3 * 13,
    );
    // The summary and the timeseries read the `daily` document of each month the window touches, the open month's live.
    const year = windowDays(now, 365, 'America/New_York');
    for (const report of ['summary', 'timeseries'] as const) {
      const [daily] = reportPlans(tenant, report, year, '0000-01', '2026-12-10');
      const months = [...new Set(year.map((d) => d.slice(0, 7)))];
      assert.deepEqual(
        daily!.parts.map((part) => part.id),
        months.slice(0, -1).map((m) => packedBucketId(tenant, m, 'daily')),
      );
      assert.deepEqual(daily!.live, [monthBucketId(tenant, '2026-12', 'daily')]);
    }
    const september = await withMonths.collection('analytics_buckets').findOne({ _id: monthBucketId(tenant, '2026-09', 'hours') } as object);
    assert.equal(september?.day, '2026-09-30');
    // 30 September 22:00 in New York, a Wednesday.
    assert.equal(weekdayOf('2026-09-30'), 3);
    assert.ok((september?.c as Record<string, { clicks?: number }>)['3_22']?.clicks);

    // A closed month mostly inside the window is its month less its other days: 30 October – 28 November reads 5 documents.
    const lateNovember = new Date('2026-11-28T20:00:00Z');
    const [closed] = reportPlans(tenant, 'groups', windowDays(lateNovember, 30, 'America/New_York'), '0000-01', '2026-12-01');
    assert.deepEqual(
      closed!.parts.map((part) => [part.id, part.sign]),
      [
        [packedDayId(tenant, '2026-10-30', 'groups'), 1],
        [packedDayId(tenant, '2026-10-31', 'groups'), 1],
        [packedBucketId(tenant, '2026-11', 'groups'), 1],
        [packedDayId(tenant, '2026-11-29', 'groups'), -1],
        [packedDayId(tenant, '2026-11-30', 'groups'), -1],
      ],
    );
    // A month not closed whole is read by its closed days.
    const [open] = reportPlans(tenant, 'groups', windowDays(lateNovember, 30, 'America/New_York'), '0000-01', '2026-11-28');
    assert.equal(open!.parts.filter((part) => part.day === undefined).length, 0);
    assert.deepEqual(open!.live, [bucketId(tenant, '2026-11-28', 'groups')]);

    // On 10 December, and on 28 November (with facts on the days after it, which the reports leave out).
    for (const at of [now, lateNovember]) {
      const a = await reports(withMonths, tenant, at, WINDOWS);
      const b = await reports(daysOnly, tenant, at, WINDOWS);
      assert.equal(a.length, b.length);
      for (let i = 0; i < a.length; i++) assert.deepEqual(a[i], b[i], `${at.toISOString()}: report ${i}`);
    }

    // And both are the facts' own sums: the people's clicks of the year, counted in the zone each fact was written in.
    const clicksOf = (facts: BucketFact[], timeZone: string, first: string) =>
      facts
        .filter((f) => localDayHour(f.at, timeZone).day >= first)
        .flatMap((f) => f.incs)
        .filter((inc) => inc.dimension === 'totals' && inc.counter === 'clicks')
        .reduce((n, inc) => n + inc.by, 0);
    for (const days of [70, 101, 365]) {
      const first = windowDays(now, days, 'America/New_York')[0]!;
      const expected = clicksOf(early, 'UTC', first) + clicksOf([...late, edge], 'America/New_York', first);
      assert.equal((await summaryReport(withMonths, tenant, { days, include_bots: false }, now)).clicks, expected, `days=${days}`);
    }
  });

  it('a deployment with day documents only: months before the marker are read from their days, later ones from month documents', async () => {
    const upgraded = newDb();
    const daysOnly = newDb();
    const tenant: Tenant = { accountId: `acc_upgrade${randomBytes(3).toString('hex')}`, env: 'test' };
    await setZone([upgraded, daysOnly], tenant.accountId, 'America/Sao_Paulo');
    const started = new Date('2026-03-15T12:00:00Z');
    const before = factsBetween(Date.parse('2025-12-01T00:00:00Z'), started.getTime(), 400, 3);
    for (const db of [upgraded, daysOnly]) await addToBuckets(db, tenant, before);
    // What the earlier version wrote: day documents only.
    await upgraded.collection('analytics_buckets').deleteMany({ month: { $exists: true } });

    // The first start of this version: buckets exist, so month documents count whole from April on.
    assert.equal(await startMonthBuckets(upgraded, started), '2026-04');
    assert.equal(await startMonthBuckets(upgraded, new Date('2026-09-01T00:00:00Z')), '2026-04');
    // A deployment without buckets counts every month whole; one started late on 31 March UTC (1 April east of it) from May.
    const fresh = newDb();
    assert.equal(await startMonthBuckets(fresh, new Date('2026-03-31T23:00:00Z')), '0000-01');
    const lateStart = newDb();
    await addToBuckets(lateStart, tenant, [{ at: started, incs: [{ dimension: 'totals', counter: 'clicks', by: 1 }] }]);
    assert.equal(await startMonthBuckets(lateStart, new Date('2026-03-31T23:00:00Z')), '2026-05');

    // Then this version counts: late facts of old months (into their half-made month documents) and new ones.
    const now = new Date('2026-07-20T18:00:00Z');
    const lateOld = factsBetween(Date.parse('2026-01-10T00:00:00Z'), started.getTime(), 100, 4);
    const after = factsBetween(started.getTime(), now.getTime(), 400, 5);
    for (const db of [upgraded, daysOnly]) await addToBuckets(db, tenant, [...lateOld, ...after]);

    const list = windowDays(now, 365, 'America/Sao_Paulo');
    assert.deepEqual(
      reportPlans(tenant, 'groups', list, await monthBucketsFrom(upgraded), '2026-07-21')[0]!
        .parts.filter((part) => part.day === undefined)
        .map((part) => part.id),
      // July: its month less 21–31 July would be 12 documents rather than 20, but it is not closed: its days.
      ['2026-04', '2026-05', '2026-06'].map((m) => packedBucketId(tenant, m, 'groups')),
    );
    const a = await reports(upgraded, tenant, now, WINDOWS);
    const b = await reports(daysOnly, tenant, now, WINDOWS);
    for (let i = 0; i < a.length; i++) assert.deepEqual(a[i], b[i], `report ${i}`);
    // Reading March's half-made month document would have missed what the earlier version counted.
    const march = await upgraded.collection('analytics_buckets').findOne({ _id: monthBucketId(tenant, '2026-03', 'daily') } as object);
    const marchDays = await upgraded
      .collection('analytics_buckets')
      .find({ account_id: tenant.accountId, dimension: 'totals', day: { $gte: '2026-03-01', $lte: '2026-03-31' }, month: { $exists: false } })
      .toArray();
    const clicks = (counters: unknown[]) => counters.reduce<number>((n, c) => n + ((c as { clicks?: number }).clicks ?? 0), 0);
    assert.ok(clicks(Object.values(march?.c ?? {})) < clicks(marchDays.map((d) => d.c)));
  });

  it('retention: a month document stays until its last day is 400 days old, like a day document', async () => {
    const db = newDb();
    await startMonthBuckets(db);
    const tenant: Tenant = { accountId: `acc_ret${randomBytes(3).toString('hex')}`, env: 'live' };
    await setZone([db], tenant.accountId, 'UTC');
    const now = new Date('2026-11-24T12:00:00Z'); // 400 days before: 2025-10-20
    const fact = (iso: string): BucketFact => ({
      at: new Date(`${iso}T12:00:00Z`),
      incs: [{ dimension: 'groups', key: 'grp_1', counter: 'clicks', by: 1 }],
    });
    await addToBuckets(db, tenant, [fact('2025-09-30'), fact('2025-10-05'), fact('2025-10-25'), fact('2026-11-24')]);
    // One key: each keyed document is one shard (`…~NN`), named here by the document it is a shard of.
    const ids = async () =>
      (await db.collection('analytics_buckets').find({}).toArray())
        .map((d) =>
          String(d._id)
            .split(':')
            .slice(2)
            .join(':')
            .replace(/~\d{2}$/, ''),
        )
        .sort();
    // Each fact is a late write (its day over more than 12 hours ago): counted per month in `packs`, per day in its month's counts.
    assert.deepEqual(await ids(), [
      '2025-09-30:groups',
      '2025-10-05:groups',
      '2025-10-25:groups',
      '2026-11-24:groups',
      'M2025-09:groups',
      'M2025-10:groups',
      'M2026-11:groups',
      'packs',
      'packs:2025-09',
      'packs:2025-10',
      'packs:2026-11',
    ]);
    assert.equal(await sweepOldBuckets(db, now), 4);
    // October 2025 ends on the 31st, 389 days before: its month document (and its day counts) stays while its last days do.
    assert.deepEqual(await ids(), [
      '2025-10-25:groups',
      '2026-11-24:groups',
      'M2025-10:groups',
      'M2026-11:groups',
      'packs',
      'packs:2025-10',
      'packs:2026-11',
    ]);
    assert.equal(await sweepOldBuckets(db, new Date(now.getTime() + 12 * DAY)), 3);
    // The `packs` document (a count per month with late writes) is never swept.
    assert.deepEqual(await ids(), ['2026-11-24:groups', 'M2026-11:groups', 'packs', 'packs:2026-11']);
  });

  it('packed months: reports read a closed month packed, stay exact through a late write (the packing goes stale, then is redone)', async () => {
    const packed = newDb();
    const daysOnly = newDb();
    await startMonthBuckets(packed);
    const tenant: Tenant = { accountId: `acc_pack${randomBytes(3).toString('hex')}`, env: 'live' };
    // Months well over at this process's clock (openFrom takes the earlier of `now` and the clock).
    const now = new Date(Date.now() - 40 * DAY);
    const zone = 'America/Sao_Paulo';
    const facts = factsBetween(now.getTime() - 200 * DAY, now.getTime(), 600, 7);
    for (const db of [packed, daysOnly]) {
      await setZone([db], tenant.accountId, zone);
      for (let i = 0; i < facts.length; i += 100) await addToBuckets(db, tenant, facts.slice(i, i + 100));
    }
    const open = openFrom(now);
    const list = windowDays(now, 101, zone);
    const [plan] = reportPlans(tenant, 'offers', list, '0000-01', open);
    const months = plan!.parts.filter((part) => part.day === undefined).map((part) => part.month);
    assert.ok(months.length >= 2, 'at least two months of the window are read packed');
    assert.ok(months.every((m) => lastDayOf(m) < open));
    assert.ok(plan!.live.length <= 2);

    const same = async (what: string) => {
      const a = await reports(packed, tenant, now, [31, 101, 200]);
      const b = await reports(daysOnly, tenant, now, [31, 101, 200]);
      for (let i = 0; i < a.length; i++) assert.deepEqual(a[i], b[i], `${what}: report ${i}`);
    };
    const packedDoc = (month: string) =>
      packed.collection('analytics_buckets').findOne({ _id: packedBucketId(tenant, month, 'offers') } as object) as Promise<{
        v: number;
        p: string;
      } | null>;
    // The first reports read the month documents and pack them; the next ones read them packed.
    await same('before packing');
    const month = months[0]!;
    const packing = async () =>
      `the packed document of ${month} is at version ${(await packedDoc(month))?.v ?? 'none'}; the pack versions: ${JSON.stringify(
        (await packed.collection('analytics_buckets').findOne({ _id: packVersionsId(tenant) } as object))?.c ?? null,
      )}`;
    await waitFor('the month packed', async () => ((await packedDoc(month)) ? true : undefined), 30_000, packing);
    const first = (await packedDoc(month))!;
    // Packed at the month's count of writes since it could be packed (the seeding's, written after the month was over).
    const count = async () =>
      ((await packed.collection('analytics_buckets').findOne({ _id: packVersionsId(tenant) } as object))?.c as Record<string, number>)[month];
    assert.equal(first.v, await count());
    await same('packed');

    // A late commission on that month (a report import of an old sale): the packing goes stale at once.
    const late: BucketFact = {
      at: new Date(`${month}-15T15:00:00Z`),
      incs: [
        { dimension: 'offers', key: 'off_late', counter: 'commissions.BRL.count', by: 1 },
        { dimension: 'offers', key: 'off_late', counter: 'commissions.BRL.amount_minor', by: 4321 },
        { dimension: 'totals', counter: 'commissions.BRL.count', by: 1 },
        { dimension: 'totals', counter: 'commissions.BRL.amount_minor', by: 4321 },
      ],
    };
    for (const db of [packed, daysOnly]) await addToBuckets(db, tenant, [late]);
    assert.deepEqual((await packedDoc(month))?.p, first.p, 'the packed document is not rewritten by the write');
    await same('after a late write');
    const repacked = await waitFor(
      'the month packed again',
      async () => {
        const doc = await packedDoc(month);
        return doc && doc.v > first.v ? doc : undefined;
      },
      30_000,
      packing,
    );
    assert.equal(repacked.v, await count());
    assert.ok(repacked.p.includes('off_late'));
    await same('packed again');
  });

  it('a late click changes the year’s reports at once, though the process keeps their closed sums; a click today too', async () => {
    const db = newDb();
    await startMonthBuckets(db);
    const tenant: Tenant = { accountId: `acc_late${randomBytes(3).toString('hex')}`, env: 'live' };
    await setZone([db], tenant.accountId, 'UTC');
    const now = Date.now();
    const facts = factsBetween(now - 300 * DAY, now - 2 * DAY, 900, 11);
    for (let i = 0; i < facts.length; i += 100) await addToBuckets(db, tenant, facts.slice(i, i + 100));
    const q = { days: 365, include_bots: false };
    const page = { limit: 100, offset: 0 };
    const year = () =>
      Promise.all([
        summaryReport(db, tenant, q),
        offersReport(db, tenant, { ...q, sort: 'clicks' }, page),
        heatmapReport(db, tenant, q),
        groupsReport(db, tenant, q, page),
      ]);
    const [summary, offers, heatmap, groups] = await year();
    await packingsDone();
    // Read again from what this process kept (and the packed documents): the same.
    assert.deepEqual(await year(), [summary, offers, heatmap, groups]);

    const click = (at: number, offer: string, by: number): BucketFact => ({
      at: new Date(at),
      incs: [
        { dimension: 'totals', counter: 'clicks', by },
        { dimension: 'hours', counter: 'clicks', by },
        { dimension: 'offers', key: offer, counter: 'clicks', by },
        { dimension: 'groups', key: 'grp_a', counter: 'clicks', by },
      ],
    });
    const offerClicks = (report: typeof offers, offer: string) => report.items.find((r) => r.offer_id === offer)?.clicks;
    const groupClicks = (report: typeof groups) => report.items.find((r) => r.group_id === 'grp_a')?.clicks ?? 0;
    // Late: three months ago (a month read packed) and two days ago (a closed day of a month read by its days).
    for (const [age, offer] of [
      [90, 'off_late_month'],
      [2, 'off_late_day'],
    ] as const) {
      const before = await year();
      await addToBuckets(db, tenant, [click(now - age * DAY, offer, 7)]);
      const after = await year();
      assert.equal(after[0].clicks, before[0].clicks + 7, `${age} days ago: summary`);
      assert.equal(offerClicks(after[1], offer), 7, `${age} days ago: offers`);
      assert.equal(after[1].total, before[1].total + 1);
      assert.equal(after[2].clicks, before[2].clicks + 7, `${age} days ago: heatmap`);
      assert.equal(groupClicks(after[3]), groupClicks(before[3]) + 7, `${age} days ago: groups`);
    }
    // And today's, read live.
    const before = await year();
    await addToBuckets(db, tenant, [click(now, 'off_today', 3)]);
    const after = await year();
    assert.equal(after[0].clicks, before[0].clicks + 3);
    assert.equal(offerClicks(after[1], 'off_today'), 3);
  });
});
