/**
 * Offers: the API record, curation (the moves a PATCH may make), creation
 * idempotent by URL, archiving and preview. Every change records its event.
 */
import { Schema } from '../../schemas/types';
import { isDuplicateKey, Tenant } from '../db';
import { conflict, invalid } from '../errors';
import { commitEvents, dispatch } from '../events/commit';
import { prepareEvent, recordEvent } from '../events/store';
import { changedFields, DomainDeps, found, iso, referenced, written } from '../resource';
import { referencedSegment } from '../segments/service';
import { getCoupon } from '../coupons/store';
import { discountPct, renderOfferForSend } from './render';
import { getOffer, insertOffer, listOffers, offerIdWithUrl, OfferDoc, OfferFields, OfferQuery, OfferStatus, saveOffer } from './store';

/** Only pending or approved offers go out: an archived or rejected one is a 409 `offer_not_publishable` (`what`: what it would be). */
export function checkPublishable(offer: OfferDoc, what: 'published' | 'scheduled'): void {
  if (offer.status === 'archived' || offer.status === 'rejected') {
    throw conflict('offer_not_publishable', `The offer is ${offer.status}; only pending or approved offers are ${what}.`);
  }
}

/** Curation moves a PATCH may make (archiving is DELETE's job). */
const MOVES: Record<OfferStatus, readonly OfferStatus[]> = {
  pending: ['approved', 'rejected'],
  approved: ['pending', 'rejected'],
  rejected: ['pending', 'approved'],
  archived: ['pending'],
};

const FIELDS = [
  'url',
  'title',
  'marketplace',
  'price',
  'original_price',
  'currency',
  'image',
  'store',
  'category',
  'coupon',
  'coupon_id',
  'copy',
] as const satisfies readonly (keyof OfferFields)[];

export function toOffer(o: OfferDoc): Schema<'Offer'> {
  return {
    id: o._id,
    url: o.url,
    title: o.title,
    marketplace: o.marketplace ?? null,
    price: o.price ?? null,
    original_price: o.original_price ?? null,
    discount_pct: discountPct(o.price, o.original_price),
    currency: o.currency,
    image: o.image ?? null,
    store: o.store ?? null,
    category: o.category ?? null,
    coupon: o.coupon ?? null,
    coupon_id: o.coupon_id ?? null,
    copy: o.copy ?? null,
    status: o.status,
    status_history: o.status_history.map((h) => ({ status: h.status, at: h.at.toISOString() })),
    created_at: o.created_at.toISOString(),
    updated_at: o.updated_at.toISOString(),
    archived_at: iso(o.archived_at),
    monitor_id: o.found_by?.monitor_id ?? null,
  };
}

export { listOffers, OfferQuery };

/** The coupon an offer names: this tenant's (else a 400 `unknown_reference` on `coupon_id`). */
const referencedCoupon = (deps: DomainDeps, tenant: Tenant, id: string) =>
  referenced('coupon_id', 'coupon', id, (cid) => getCoupon(deps.db, tenant, cid));

export const mustGetOffer = async (deps: DomainDeps, tenant: Tenant, id: string): Promise<OfferDoc> =>
  found(await getOffer(deps.db, tenant, id), 'offer', id);

/** A pending offer, or this tenant's offer with the same URL untouched (`created: false`). */
export async function createOffer(
  deps: DomainDeps,
  tenant: Tenant,
  input: Schema<'OfferCreate'>,
): Promise<{ offer: OfferDoc; created: boolean }> {
  if (input.coupon_id) await referencedCoupon(deps, tenant, input.coupon_id);
  const fields = Object.fromEntries(FIELDS.filter((f) => f in input).map((f) => [f, input[f]])) as unknown as OfferFields;
  const result = await insertOffer(deps.db, tenant, fields, (o) => prepareEvent(tenant, 'offer.created', { offer: toOffer(o) }));
  if (result.created) await commitEvents(deps, 'offers', result.offer._id);
  return result;
}

/** Changes the fields sent and makes a curation move; an archived offer changes only by being restored to pending. */
export async function updateOffer(deps: DomainDeps, tenant: Tenant, id: string, input: Schema<'OfferUpdate'>): Promise<OfferDoc> {
  const offer = await mustGetOffer(deps, tenant, id);
  const set = changedFields<OfferFields, (typeof FIELDS)[number]>(offer, input, FIELDS);
  if (set.coupon_id) await referencedCoupon(deps, tenant, set.coupon_id);
  const target = input.status;
  const move = target !== undefined && target !== offer.status ? target : null;
  if (move && !MOVES[offer.status].includes(move)) {
    throw invalid('invalid_transition', `An offer cannot move from ${offer.status} to ${move}.`, [
      { location: 'body', field: 'status', rule: 'transition', message: `allowed from ${offer.status}: ${MOVES[offer.status].join(', ')}` },
    ]);
  }
  const changed = [...Object.keys(set), ...(move ? ['status'] : [])];
  if (offer.status === 'archived' && move !== 'pending' && changed.length) {
    throw conflict('offer_archived', 'The offer is archived; restore it with status pending before changing it.');
  }
  if (!changed.length) return offer;
  let updated: OfferDoc | null;
  try {
    updated = await saveOffer(deps.db, tenant, offer, set, move, (after) =>
      prepareEvent(tenant, 'offer.updated', { offer: toOffer(after), changed }),
    );
  } catch (err) {
    if (!isDuplicateKey(err) || set.url === undefined) throw err;
    const holder = await offerIdWithUrl(deps.db, tenant, set.url);
    throw conflict('conflict', `${holder ? `Offer ${holder}` : 'Another offer of this account'} already has this url.`);
  }
  const saved = written(updated, 'offer');
  await commitEvents(deps, 'offers', offer._id);
  return saved;
}

/** Archives the offer (history kept); archiving an archived offer changes nothing. */
export async function archiveOffer(deps: DomainDeps, tenant: Tenant, id: string): Promise<OfferDoc> {
  const offer = await mustGetOffer(deps, tenant, id);
  if (offer.status === 'archived') return offer;
  const archived = written(
    await saveOffer(deps.db, tenant, offer, {}, 'archived', (after) => prepareEvent(tenant, 'offer.archived', { offer: toOffer(after) })),
    'offer',
  );
  await commitEvents(deps, 'offers', offer._id);
  return archived;
}

/**
 * The message as a group would receive it, with no change of state; records
 * `offer.previewed`. `affiliateUrl`: the links area's conversion of a URL,
 * passed in by the caller (links sits above offers).
 */
export async function previewOffer(
  deps: DomainDeps & { affiliateUrl?: (rawUrl: string) => Promise<string | null> },
  tenant: Tenant,
  id: string,
  input: Schema<'OfferPreviewRequest'> | undefined,
) {
  const offer = await mustGetOffer(deps, tenant, id);
  const segment = input?.segment_id ? await referencedSegment(deps, tenant, input.segment_id) : null;
  // `{url}` previews as the affiliate URL when the account has the integration (a send gets a tracked link per group).
  const url = deps.affiliateUrl ? await deps.affiliateUrl(offer.url) : null;
  const { text, templateId } = await renderOfferForSend(deps.db, tenant, {
    offer,
    segment,
    templateId: input?.template_id,
    ...(url ? { url } : {}),
  });
  const preview = {
    offer_id: offer._id,
    segment_id: segment?._id ?? null,
    template_id: templateId,
    text,
    image: offer.image ?? null,
    length: [...text].length,
  };
  const event = await recordEvent(deps.db, tenant, 'offer.previewed', { preview });
  await dispatch(deps, event);
  return { preview, event };
}
