/** Which days a report reads closed (packed, kept summed) or live, which parts it reads them by, and the bound of what a process keeps. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  bucketId,
  dayVersionsId,
  monthBucketId,
  openFrom,
  packedBucketId,
  packedDayId,
  packVersionsId,
  windowDays,
} from '../../domain/analytics/buckets';
import { ClosedCache, dailyPlan, keyedPlan, versionIds } from '../../domain/analytics/reads';

const tenant = { accountId: 'acc_unit', env: 'live' as const };

test('a day is closed once it has ended in every zone (UTC−12 the last) more than an hour ago', () => {
  // 19 November ends in UTC−12 at 20 November 12:00 UTC.
  assert.equal(openFrom(new Date('2026-11-20T12:59:00Z')), '2026-11-19');
  assert.equal(openFrom(new Date('2026-11-20T13:00:00Z')), '2026-11-20');
  assert.equal(openFrom(new Date('2026-11-20T00:30:00Z')), '2026-11-19');
  // A `now` ahead of the clock counts from the clock.
  assert.ok(openFrom(new Date(Date.now() + 30 * 86_400_000)) <= new Date().toISOString().slice(0, 10));
});

test('a year: closed months packed whole, its first month packed less its days outside, the open month by its closed days, live days as they are', () => {
  const list = windowDays(new Date('2026-11-05T20:00:00Z'), 365, 'UTC');
  assert.deepEqual([list[0], list.at(-1)], ['2025-11-06', '2026-11-05']);
  const plan = keyedPlan(tenant, 'offers', list, '0000-01', '2026-11-05');
  const months = plan.parts.filter((part) => part.day === undefined);
  assert.deepEqual(
    months.map((part) => part.id),
    ['2025-11', '2025-12', '2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10'].map(
      (m) => packedBucketId(tenant, m, 'offers'),
    ),
  );
  assert.deepEqual(months[0]!.source, monthBucketId(tenant, '2025-11', 'offers'));
  const days = plan.parts.filter((part) => part.day !== undefined);
  // November 2025 less its 5 days before the window; November 2026's 4 closed days.
  assert.deepEqual(
    days.filter((part) => part.sign < 0).map((part) => part.day),
    ['2025-11-01', '2025-11-02', '2025-11-03', '2025-11-04', '2025-11-05'],
  );
  assert.deepEqual(
    days.filter((part) => part.sign > 0).map((part) => part.id),
    ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04'].map((day) => packedDayId(tenant, day, 'offers')),
  );
  assert.deepEqual(plan.live, [bucketId(tenant, '2026-11-05', 'offers')]);
  // What every report reads: the month counts, the day counts of the months it reads by days, the live documents.
  assert.deepEqual(versionIds(tenant, [plan]), [packVersionsId(tenant), dayVersionsId(tenant, '2025-11'), dayVersionsId(tenant, '2026-11')]);
  // Later in the month, the window's first month has 3 days in it: read by them.
  const late = keyedPlan(tenant, 'offers', windowDays(new Date('2026-11-27T20:00:00Z'), 365, 'UTC'), '0000-01', '2026-11-27');
  assert.deepEqual(
    late.parts.filter((part) => part.month === '2025-11').map((part) => [part.day, part.sign]),
    [
      ['2025-11-28', 1],
      ['2025-11-29', 1],
      ['2025-11-30', 1],
    ],
  );
});

test('a first month mostly outside the window is read by its days; months before month documents by their days', () => {
  const list = windowDays(new Date('2026-11-27T20:00:00Z'), 50, 'UTC');
  assert.equal(list[0], '2026-10-09');
  const plan = keyedPlan(tenant, 'groups', list, '0000-01', '2026-11-26');
  assert.equal(plan.parts.filter((part) => part.day === undefined).length, 1);
  assert.equal(plan.parts.filter((part) => part.sign < 0).length, 8);
  assert.deepEqual(
    plan.live,
    ['2026-11-26', '2026-11-27'].map((day) => bucketId(tenant, day, 'groups')),
  );
  const upgraded = keyedPlan(tenant, 'groups', list, '2026-11', '2026-11-26');
  assert.equal(upgraded.parts.filter((part) => part.day === undefined).length, 0);
  assert.equal(upgraded.parts.length, 48);
  assert.deepEqual(versionIds(tenant, [upgraded]), [dayVersionsId(tenant, '2026-10'), dayVersionsId(tenant, '2026-11')]);
});

test('the day by day totals: closed months’ daily documents packed, the open month’s live, days before month documents by their totals', () => {
  const list = windowDays(new Date('2026-11-27T20:00:00Z'), 365, 'UTC');
  const plan = dailyPlan(tenant, list, '0000-01', '2026-11-27');
  assert.equal(plan.parts.length, 12);
  assert.ok(plan.parts.every((part) => part.day === undefined && part.id.endsWith(':daily')));
  assert.deepEqual(plan.live, [monthBucketId(tenant, '2026-11', 'daily')]);
  const upgraded = dailyPlan(tenant, list, '2026-11', '2026-11-27');
  assert.equal(upgraded.parts.length, 365 - 27);
  assert.equal(upgraded.parts[0]!.id, packedDayId(tenant, '2025-11-28', 'totals'));
  assert.deepEqual(upgraded.live, [monthBucketId(tenant, '2026-11', 'daily')]);
});

test('the closed sums a process keeps stay within their bound, the least recently used forgotten first', () => {
  const cache = new ClosedCache(1_000);
  const sum = () => ({ sums: new Map(), derived: new Map() });
  const [a, b, c] = [sum(), sum(), sum()];
  cache.set('a', a, 400);
  cache.set('b', b, 400);
  assert.equal(cache.get('a'), a);
  cache.set('c', c, 400);
  assert.equal(cache.get('b'), undefined);
  assert.equal(cache.get('a'), a);
  assert.equal(cache.get('c'), c);
  assert.equal(cache.size, 800);
  // One larger than the bound is not kept, and forgets nothing.
  cache.set('huge', sum(), 2_000);
  assert.equal(cache.get('huge'), undefined);
  assert.equal(cache.size, 800);
  // Set again: counted once.
  cache.set('a', a, 500);
  assert.equal(cache.size, 900);
});
