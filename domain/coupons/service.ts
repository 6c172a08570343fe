/**
 * Coupons: the API record, the validity window, one live code per store
 * (store.ts), deactivation that keeps the coupon and its history, and what
 * offers need of a coupon (its text in a message, whether it can be
 * published). Every change records its event.
 */
import { Schema } from '../../schemas/types';
import { Tenant } from '../db';
import { conflict, invalid } from '../errors';
import { commitEvents } from '../events/commit';
import { prepareEvent } from '../events/store';
import { DomainDeps, found, iso, written } from '../resource';
import {
  claimCode,
  CodeTakenError,
  CouponChange,
  CouponDiscount,
  CouponDoc,
  CouponFields,
  CouponQuery,
  couponStatus,
  getCoupon,
  insertCoupon,
  listCoupons,
  newCouponId,
  releaseCode,
  saveCoupon,
  storeKey,
} from './store';

export { listCoupons, CouponQuery };

export function toCoupon(c: CouponDoc, now = new Date()): Schema<'Coupon'> {
  return {
    id: c._id,
    code: c.code,
    store: c.store,
    marketplace: c.marketplace,
    description: c.description,
    discount: c.discount,
    currency: c.currency,
    min_purchase: c.min_purchase,
    first_purchase_only: c.first_purchase_only,
    categories: c.categories,
    url: c.url,
    starts_at: iso(c.starts_at),
    expires_at: iso(c.expires_at),
    verified: c.verified,
    verified_at: iso(c.verified_at),
    active: c.active,
    status: couponStatus(c, now),
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
    deactivated_at: iso(c.deactivated_at),
    history: c.history.map((h) => ({ at: h.at.toISOString(), change: h.change, fields: h.fields })),
  };
}

export const mustGetCoupon = async (deps: DomainDeps, tenant: Tenant, id: string): Promise<CouponDoc> =>
  found(await getCoupon(deps.db, tenant, id), 'coupon', id);

const date = (v: string | null | undefined): Date | null => (v ? new Date(v) : null);

function discountOf(input: Schema<'CouponDiscountInput'>): CouponDiscount {
  if (input.type === 'percent') return { type: 'percent', value: input.value, max_amount: input.max_amount ?? null };
  if (input.type === 'amount') return { type: 'amount', value: input.value };
  return { type: 'free_shipping' };
}

function checkWindow(f: Pick<CouponFields, 'starts_at' | 'expires_at'>): void {
  if (f.starts_at && f.expires_at && f.expires_at <= f.starts_at) {
    throw invalid('validation_failed', 'Invalid body field expires_at: must be after starts_at.', [
      { location: 'body', field: 'expires_at', rule: 'after_starts_at', message: 'must be after starts_at' },
    ]);
  }
}

const codeTaken = (c: Pick<CouponFields, 'code' | 'store'>, holder: string): Error =>
  conflict(
    'conflict',
    `The code ${c.code} is already registered for the store ${c.store}${holder ? ` (coupon ${holder})` : ''} and is still valid; ` +
      'deactivate that coupon first or use another code.',
  );

async function claim(deps: DomainDeps, tenant: Tenant, id: string, c: Pick<CouponFields, 'code' | 'store'>): Promise<void> {
  try {
    await claimCode(deps.db, tenant, id, c);
  } catch (err) {
    if (err instanceof CodeTakenError) throw codeTaken(c, err.message);
    throw err;
  }
}

export async function createCoupon(deps: DomainDeps, tenant: Tenant, input: Schema<'CouponCreate'>): Promise<CouponDoc> {
  const now = new Date();
  const fields: CouponFields = {
    code: input.code,
    store: input.store.trim(),
    marketplace: input.marketplace ?? null,
    description: input.description ?? null,
    discount: discountOf(input.discount),
    currency: input.currency ?? 'BRL',
    min_purchase: input.min_purchase ?? null,
    first_purchase_only: input.first_purchase_only ?? false,
    categories: input.categories ?? [],
    url: input.url ?? null,
    starts_at: date(input.starts_at),
    expires_at: date(input.expires_at),
    verified: input.verified ?? false,
  };
  checkWindow(fields);
  const id = newCouponId(now);
  const doc: CouponDoc = {
    _id: id,
    account_id: tenant.accountId,
    env: tenant.env,
    ...fields,
    store_key: storeKey(fields.store),
    verified_at: fields.verified ? now : null,
    active: true,
    deactivated_at: null,
    history: [{ at: now, change: 'created', fields: [] }],
    created_at: now,
    updated_at: now,
  };
  // An already expired coupon is registered for the record but holds no code.
  if (couponStatus(doc, now) !== 'expired') await claim(deps, tenant, id, fields);
  try {
    await insertCoupon(deps.db, tenant, doc, prepareEvent(tenant, 'coupon.created', { coupon: toCoupon(doc, now) }, now));
  } catch (err) {
    await releaseCode(deps.db, tenant, id, fields);
    throw err;
  }
  await commitEvents(deps, 'coupons', id);
  return doc;
}

const FIELDS = [
  'code',
  'store',
  'marketplace',
  'description',
  'discount',
  'currency',
  'min_purchase',
  'first_purchase_only',
  'categories',
  'url',
  'starts_at',
  'expires_at',
  'verified',
] as const satisfies readonly (keyof CouponFields)[];

const same = (a: unknown, b: unknown): boolean =>
  a instanceof Date || b instanceof Date ? iso(a as Date | null) === iso(b as Date | null) : JSON.stringify(a) === JSON.stringify(b);

/** The fields the body sends with a new value, as stored. */
function changes(current: CouponDoc, input: Schema<'CouponUpdate'>): Partial<CouponFields> {
  const sent = input as Record<string, unknown>;
  const set: Record<string, unknown> = {};
  for (const field of FIELDS) {
    if (!(field in sent)) continue;
    const raw = sent[field];
    const value =
      field === 'discount'
        ? discountOf(raw as Schema<'CouponDiscountInput'>)
        : field === 'starts_at' || field === 'expires_at'
          ? date(raw as string | null)
          : field === 'store'
            ? (raw as string).trim()
            : raw;
    if (!same(value, current[field])) set[field] = value;
  }
  return set;
}

/** Neither inactive nor expired: the coupon holds its code at its store. */
const holdsCode = (c: CouponDoc, now: Date): boolean => ['active', 'scheduled'].includes(couponStatus(c, now));

/** Changes the fields sent, reactivates or deactivates (`active`); a change that would make two live coupons share a code is a 409. */
export async function updateCoupon(deps: DomainDeps, tenant: Tenant, id: string, input: Schema<'CouponUpdate'> | undefined): Promise<CouponDoc> {
  const current = await mustGetCoupon(deps, tenant, id);
  const body = input ?? {};
  const set: Partial<CouponDoc> = changes(current, body);
  const activeMove = body.active !== undefined && body.active !== current.active ? body.active : null;
  if (activeMove === false) {
    if (Object.keys(set).length) await updateCoupon(deps, tenant, id, { ...body, active: undefined });
    return deactivateCoupon(deps, tenant, id);
  }
  const fields = Object.keys(set);
  if (!fields.length && activeMove === null) return current;
  const now = new Date();
  if (set.verified === true) set.verified_at = now;
  if (set.store !== undefined) set.store_key = storeKey(set.store);
  const after = { ...current, ...set, active: activeMove ?? current.active };
  checkWindow(after);
  const holdsBefore = holdsCode(current, now);
  const holdsAfter = holdsCode(after, now);
  const moved = set.code !== undefined || set.store !== undefined;
  if (holdsAfter && (moved || !holdsBefore)) await claim(deps, tenant, id, after);
  if (activeMove) {
    set.active = true;
    set.deactivated_at = null;
  }
  const change: CouponChange = activeMove ? { at: now, change: 'reactivated', fields } : { at: now, change: 'updated', fields };
  const saved = await saveCoupon(deps.db, tenant, current, set, change, (doc) =>
    prepareEvent(tenant, 'coupon.updated', { coupon: toCoupon(doc, now), changed: [...fields, ...(activeMove ? ['active'] : [])] }, now),
  );
  if (!saved) {
    if (holdsAfter && (moved || !holdsBefore)) await releaseCode(deps.db, tenant, id, after);
    written(saved, 'coupon');
  }
  if (holdsBefore && (moved || !holdsAfter)) await releaseCode(deps.db, tenant, id, current);
  await commitEvents(deps, 'coupons', id);
  return saved!;
}

/** Deactivates the coupon (kept, with its history) and frees its code; deactivating an inactive coupon changes nothing. */
export async function deactivateCoupon(deps: DomainDeps, tenant: Tenant, id: string): Promise<CouponDoc> {
  const current = await mustGetCoupon(deps, tenant, id);
  if (!current.active) return current;
  const now = new Date();
  const saved = written(
    await saveCoupon(deps.db, tenant, current, { active: false, deactivated_at: now }, { at: now, change: 'deactivated', fields: [] }, (doc) =>
      prepareEvent(tenant, 'coupon.deactivated', { coupon: toCoupon(doc, now) }, now),
    ),
    'coupon',
  );
  await releaseCode(deps.db, tenant, id, current);
  await commitEvents(deps, 'coupons', id);
  return saved;
}
