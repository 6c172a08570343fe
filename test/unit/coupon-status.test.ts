/** A coupon's status, derived from its flag and its window at the moment of the read (domain/coupons/store.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { couponStatus } from '../../domain/coupons/store';

const now = new Date('2026-11-20T12:00:00Z');
const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000);

test('active inside its window, or with no window', () => {
  assert.equal(couponStatus({ active: true, starts_at: null, expires_at: null }, now), 'active');
  assert.equal(couponStatus({ active: true, starts_at: at(-60), expires_at: at(60) }, now), 'active');
  // Its start is the first instant it is active.
  assert.equal(couponStatus({ active: true, starts_at: now, expires_at: null }, now), 'active');
});

test('scheduled before its start, expired from its expiry on', () => {
  assert.equal(couponStatus({ active: true, starts_at: at(1), expires_at: null }, now), 'scheduled');
  assert.equal(couponStatus({ active: true, starts_at: null, expires_at: now }, now), 'expired');
  assert.equal(couponStatus({ active: true, starts_at: at(-60), expires_at: at(-1) }, now), 'expired');
});

test('a coupon goes from scheduled to active to expired as the clock moves, with no write', () => {
  const coupon = { active: true, starts_at: at(10), expires_at: at(20) };
  assert.deepEqual(
    [0, 10, 19, 20, 30].map((m) => couponStatus(coupon, at(m))),
    ['scheduled', 'active', 'active', 'expired', 'expired'],
  );
});

test('inactive whatever its window says', () => {
  assert.equal(couponStatus({ active: false, starts_at: null, expires_at: null }, now), 'inactive');
  assert.equal(couponStatus({ active: false, starts_at: at(10), expires_at: null }, now), 'inactive');
  assert.equal(couponStatus({ active: false, starts_at: null, expires_at: at(-10) }, now), 'inactive');
});
