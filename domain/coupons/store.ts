/**
 * Coupons, and the claim that keeps one live code per store.
 *
 * A coupon's status is never stored: it is derived from `active` and the
 * validity window against the clock of the read (`couponStatus`), and the
 * list filters on the same instants, so a coupon past its `expires_at` leaves
 * the active list by itself, with no job.
 *
 * Uniqueness without partial indexes or a racy look-up: every live coupon
 * holds a claim document in `coupon_codes` whose `_id` is derived from
 * (account, env, store key, code key). Claiming inserts it first — the `_id`
 * makes two concurrent claims of one code collide, and one loses. A claim
 * whose holder is no longer live (deactivated, expired, or gone after a
 * create that never finished) is taken over with a compare-and-swap on its
 * holder (`{_id, coupon_id: <old holder>}`), so two requests taking over the
 * same stale claim cannot both win. A claim whose holder is not written yet
 * is a create in progress (the claim comes first, the coupon right after it):
 * it holds the code for `PENDING_CLAIM_MS` from `claimed_at`, and only a
 * claim older than that with no coupon behind it is an abandoned one. Deactivation releases the claim; an expired
 * coupon keeps its claim document until someone takes it over, which is
 * allowed as soon as the coupon is expired: expiry needs no job either.
 */
import { Db, Filter } from 'mongodb';
import { COUPON_CHANGES, COUPON_STATUSES } from '../../schemas/openapi/coupons';
import { derivedId, newId } from '../ids';
import { isDuplicateKey, OutboxEvent, Page, PageResult, Tenant, tenantCollection, TenantDoc } from '../db';
import { ResourceDoc, resourceStore } from '../resource';

export type CouponStatus = (typeof COUPON_STATUSES)[number];

export type CouponDiscount =
  { type: 'percent'; value: number; max_amount: number | null } | { type: 'amount'; value: number } | { type: 'free_shipping' };

export interface CouponFields {
  code: string;
  store: string;
  marketplace: string | null;
  description: string | null;
  discount: CouponDiscount;
  currency: string;
  min_purchase: number | null;
  first_purchase_only: boolean;
  categories: string[];
  url: string | null;
  starts_at: Date | null;
  expires_at: Date | null;
  verified: boolean;
}

export interface CouponChange {
  at: Date;
  change: (typeof COUPON_CHANGES)[number];
  fields: string[];
}

export interface CouponDoc extends ResourceDoc, CouponFields {
  /** Lower-cased store, for the case-insensitive store filter. */
  store_key: string;
  verified_at: Date | null;
  active: boolean;
  deactivated_at: Date | null;
  history: CouponChange[];
}

interface ClaimDoc extends TenantDoc {
  coupon_id: string;
  /** When `coupon_id` took the claim (absent on claims written before it was recorded: treated as old). */
  claimed_at?: Date;
}

/** How long a claim whose coupon is not written yet holds the code: a create still running, not one that crashed. */
export const PENDING_CLAIM_MS = 60_000;

const store = resourceStore<CouponDoc>('coupons');
const coupons = store.coll;
const claims = (db: Db, tenant: Tenant) => tenantCollection<ClaimDoc>(db, 'coupon_codes', tenant);

export const storeKey = (s: string): string => s.trim().toLowerCase();
const codeKey = (code: string): string => code.toUpperCase();

/** The claim's `_id` for a code at a store: one per (tenant, store, code), case-insensitive. */
const claimId = (tenant: Tenant, c: Pick<CouponFields, 'store' | 'code'>): string =>
  derivedId('cpc', tenant.accountId, tenant.env, storeKey(c.store), codeKey(c.code));

/** `inactive` once deactivated, else `expired` from `expires_at`, else `scheduled` before `starts_at`, else `active`. */
export function couponStatus(c: Pick<CouponDoc, 'active' | 'starts_at' | 'expires_at'>, now = new Date()): CouponStatus {
  if (!c.active) return 'inactive';
  if (c.expires_at && c.expires_at <= now) return 'expired';
  if (c.starts_at && c.starts_at > now) return 'scheduled';
  return 'active';
}

/** A coupon that holds its code: neither inactive nor expired. */
const live = (c: CouponDoc, now: Date): boolean => {
  const s = couponStatus(c, now);
  return s === 'active' || s === 'scheduled';
};

const notExpired = (now: Date): Filter<CouponDoc> => ({ $or: [{ expires_at: null }, { expires_at: { $gt: now } }] });

/** The filter of each status, on the instant `now` (the same rules as couponStatus). */
function statusFilter(status: CouponStatus, now: Date): Filter<CouponDoc> {
  switch (status) {
    case 'inactive':
      return { active: false };
    case 'expired':
      return { active: true, expires_at: { $lte: now } };
    case 'scheduled':
      return { active: true, starts_at: { $gt: now }, ...notExpired(now) };
    case 'active':
      return { active: true, $and: [notExpired(now), { $or: [{ starts_at: null }, { starts_at: { $lte: now } }] }] };
  }
}

export interface CouponQuery {
  status: CouponStatus | 'any';
  verification: 'verified' | 'unverified' | 'any';
  store?: string;
  marketplace?: string;
}

export function listCoupons(db: Db, tenant: Tenant, q: CouponQuery, page: Page, now = new Date()): Promise<PageResult<CouponDoc>> {
  const filter: Filter<CouponDoc> = q.status === 'any' ? {} : statusFilter(q.status, now);
  if (q.verification !== 'any') filter.verified = q.verification === 'verified';
  if (q.store !== undefined) filter.store_key = storeKey(q.store);
  if (q.marketplace !== undefined) filter.marketplace = q.marketplace;
  return coupons(db, tenant).page(filter, page);
}

export const getCoupon = store.get;

/** A claim whose coupon is not written yet and that was taken recently: its create is still running. */
const pending = (claim: ClaimDoc, now: Date): boolean =>
  claim.claimed_at !== undefined && now.getTime() - claim.claimed_at.getTime() < PENDING_CLAIM_MS;

/** The code is taken at this store by another live coupon (or one being created). */
export class CodeTakenError extends Error {}

/**
 * Makes `couponId` the holder of the claim on (store, code): inserts the
 * claim, or takes it over from a holder that is no longer live. Throws
 * CodeTakenError when a live coupon holds it.
 */
export async function claimCode(
  db: Db,
  tenant: Tenant,
  couponId: string,
  c: Pick<CouponFields, 'store' | 'code'>,
  now = new Date(),
): Promise<void> {
  const id = claimId(tenant, c);
  const coll = claims(db, tenant);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await coll.insert({ _id: id, coupon_id: couponId, claimed_at: now });
      return;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const claim = await coll.findById(id);
    if (!claim) continue; // released meanwhile: insert again
    if (claim.coupon_id === couponId) return;
    const holder = await getCoupon(db, tenant, claim.coupon_id);
    if (holder ? live(holder, now) : pending(claim, now)) throw new CodeTakenError(claim.coupon_id);
    // Compare-and-swap on the holder: of two requests taking over one stale claim, one wins.
    if (await coll.updateById(id, { $set: { coupon_id: couponId, claimed_at: now } }, { coupon_id: claim.coupon_id })) return;
  }
  throw new CodeTakenError('');
}

/** Gives the claim on (store, code) up, if `couponId` holds it. */
export async function releaseCode(db: Db, tenant: Tenant, couponId: string, c: Pick<CouponFields, 'store' | 'code'>): Promise<void> {
  const coll = claims(db, tenant);
  const id = claimId(tenant, c);
  const claim = await coll.findById(id);
  if (claim?.coupon_id === couponId) await coll.deleteById(id, { coupon_id: couponId });
}

export const newCouponId = (now: Date): string => newId('cpn', now.getTime());

export function insertCoupon(db: Db, tenant: Tenant, doc: Omit<CouponDoc, 'account_id' | 'env'>, event: OutboxEvent): Promise<CouponDoc> {
  return coupons(db, tenant).insert(doc, event);
}

/** Applies `set` and appends `change` to the history unless the coupon changed since `current` was read (then null). */
export function saveCoupon(
  db: Db,
  tenant: Tenant,
  current: CouponDoc,
  set: Partial<CouponDoc>,
  change: CouponChange,
  describe: (after: CouponDoc) => OutboxEvent,
): Promise<CouponDoc | null> {
  return coupons(db, tenant).updateFrom(current, { ...set, history: [...current.history, change] }, describe);
}
