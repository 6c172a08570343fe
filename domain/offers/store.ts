import { Db, Filter } from 'mongodb';
import { OFFER_STATUSES } from '../../schemas/openapi/offers';
import { newId } from '../ids';
import { isDuplicateKey, OutboxEvent, Page, PageResult, Tenant } from '../db';
import { ResourceDoc, resourceStore } from '../resource';

export type OfferStatus = (typeof OFFER_STATUSES)[number];

/** The editable fields of spec 2.2 (status aside). */
export interface OfferFields {
  url: string;
  title: string;
  marketplace?: string;
  price?: number;
  original_price?: number;
  currency: string;
  image?: string;
  store?: string;
  category?: string;
  coupon?: string;
  /** A registered coupon (domain/coupons); null once detached. */
  coupon_id?: string | null;
  copy?: string;
}

export interface OfferDoc extends ResourceDoc, OfferFields {
  /** Set on offers a monitor run created (not shown by the API): which monitor, and which run (its workflow id). */
  found_by?: { monitor_id: string; run_id: string };
  status: OfferStatus;
  status_history: { status: OfferStatus; at: Date }[];
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
}

const store = resourceStore<OfferDoc>('offers');
const offers = store.coll;

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface OfferQuery {
  status?: OfferStatus;
  marketplace?: string;
  query?: string;
}

export function listOffers(db: Db, tenant: Tenant, q: OfferQuery, page: Page): Promise<PageResult<OfferDoc>> {
  const filter: Filter<OfferDoc> = q.status ? { status: q.status } : { status: { $ne: 'archived' } };
  if (q.marketplace !== undefined) filter.marketplace = q.marketplace;
  if (q.query !== undefined) {
    const pattern = { $regex: escapeRegex(q.query), $options: 'i' };
    filter.$or = [{ title: pattern }, { store: pattern }];
  }
  return offers(db, tenant).page(filter, page);
}

export const getOffer = store.get;

/** These offers (those that exist), by id, each read by `_id`. */
export async function getOffers(db: Db, tenant: Tenant, ids: string[]): Promise<Map<string, OfferDoc>> {
  return new Map((await offers(db, tenant).findByIds(ids)).map((o) => [o._id, o]));
}

/**
 * Creates a pending offer (with the event `describe` makes of it, in the same
 * write), or returns the tenant's offer with the same URL untouched.
 */
export async function insertOffer(
  db: Db,
  tenant: Tenant,
  fields: OfferFields,
  describe: (offer: OfferDoc) => OutboxEvent,
): Promise<{ offer: OfferDoc; created: boolean }> {
  const coll = offers(db, tenant);
  // Insert first and let the unique index on (tenant, url) find a repeat: one write, and no window between a
  // look-up and the insert for a concurrent create of the same url.
  const now = new Date();
  const doc = {
    _id: newId('off', now.getTime()),
    ...fields,
    status: 'pending' as const,
    status_history: [{ status: 'pending' as const, at: now }],
    created_at: now,
    updated_at: now,
    archived_at: null,
  };
  try {
    const offer = await coll.insert(doc, describe({ ...doc, account_id: tenant.accountId, env: tenant.env }));
    return { offer, created: true };
  } catch (err) {
    // This URL exists already (sent before, or by a concurrent request): that offer wins.
    if (!isDuplicateKey(err)) throw err;
    const winner = await coll.findOne({ url: fields.url });
    if (!winner) throw err;
    return { offer: winner, created: false };
  }
}

/**
 * Applies `set` and a status move to `current` unless the offer changed
 * since it was read (then null: the caller re-reads).
 */
export function saveOffer(
  db: Db,
  tenant: Tenant,
  current: OfferDoc,
  set: Partial<OfferFields>,
  move: OfferStatus | null,
  describe: (offer: OfferDoc) => OutboxEvent,
): Promise<OfferDoc | null> {
  const now = new Date();
  const moved: Partial<OfferDoc> = move
    ? {
        status: move,
        archived_at: move === 'archived' ? now : null,
        status_history: [...current.status_history, { status: move, at: now }],
      }
    : {};
  return offers(db, tenant).updateFrom(current, { ...set, ...moved }, describe);
}

/** The id of the tenant's offer at `url`, if any (a conflict names it). */
export const offerIdWithUrl = async (db: Db, tenant: Tenant, url: string): Promise<string | null> =>
  (await offers(db, tenant).findOne({ url }))?._id ?? null;

/**
 * The tenant's offers among `urls` (one query for the whole batch, not one
 * per URL): by URL, their id and the monitor run that created them, if any.
 */
export async function offersByUrl(db: Db, tenant: Tenant, urls: string[]): Promise<Map<string, Pick<OfferDoc, '_id' | 'found_by'>>> {
  if (!urls.length) return new Map();
  const found = await offers(db, tenant).all({ url: { $in: urls } });
  return new Map(found.map((o) => [o.url, { _id: o._id, found_by: o.found_by }]));
}

/**
 * Creates a pending offer found by a monitor run, with its event in the same
 * write; null when the tenant has an offer with that URL already (the unique
 * index refuses the insert: no lookup first).
 */
export async function insertFoundOffer(
  db: Db,
  tenant: Tenant,
  fields: OfferFields,
  foundBy: { monitor_id: string; run_id: string },
  describe: (offer: OfferDoc) => OutboxEvent,
): Promise<OfferDoc | null> {
  const now = new Date();
  const doc = {
    _id: newId('off', now.getTime()),
    ...fields,
    found_by: foundBy,
    status: 'pending' as const,
    status_history: [{ status: 'pending' as const, at: now }],
    created_at: now,
    updated_at: now,
    archived_at: null,
  };
  try {
    return await offers(db, tenant).insert(doc, describe({ ...doc, account_id: tenant.accountId, env: tenant.env }));
  } catch (err) {
    if (isDuplicateKey(err)) return null;
    throw err;
  }
}
