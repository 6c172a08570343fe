/**
 * Where a sale came from. The tracked link puts our click id on the
 * affiliate URL as the network's sub-id, so a report that returns it leads to
 * the click (its batch read by `_id`, checked to be this tenant's: clickById), and the click names
 * the offer, publication, group and segment. Without a click, the product
 * URL the network reports is matched to this tenant's offer of that URL, and
 * the sale is attributed to the offer's latest publication within
 * ATTRIBUTION_WINDOW_DAYS before the order, marked `inferred`. Otherwise the
 * commission is recorded unattributed (`none`).
 */
import { Db } from 'mongodb';
import { Tenant, tenantCollection } from '../db';
import { clickById, ClickDoc } from '../links/clicks';
import { OfferDoc } from '../offers/store';
import { PublicationDoc } from '../publications/store';
import { Attribution } from './store';

export const ATTRIBUTION_WINDOW_DAYS = 7;

const NONE: Attribution = { method: 'none', click_id: null, offer_id: null, publication_id: null, group_id: null, segment_id: null };

export async function attribute(
  db: Db,
  tenant: Tenant,
  r: { sub_id: string | null; product_url: string | null; occurred_at: Date },
): Promise<Attribution> {
  if (r.sub_id) {
    const click = await clickById(db, tenant, r.sub_id);
    if (click) return byClick(click);
  }
  if (!r.product_url) return NONE;
  const offer = await tenantCollection<OfferDoc>(db, 'offers', tenant).findOne({ url: r.product_url });
  if (!offer) return NONE;
  const publication = await tenantCollection<PublicationDoc>(db, 'publications', tenant).findOne(
    { offer_id: offer._id, queued_at: inferenceWindow(r.occurred_at) },
    { queued_at: -1, _id: -1 },
  );
  return publication ? inferredFrom(publication) : NONE;
}

/** A sale whose report carried our click id: the offer, publication, group and segment the click names. */
export const byClick = (click: Pick<ClickDoc, '_id' | 'offer_id' | 'publication_id' | 'group_id' | 'segment_id'>): Attribution => ({
  method: 'click',
  click_id: click._id,
  offer_id: click.offer_id ?? null,
  publication_id: click.publication_id ?? null,
  group_id: click.group_id ?? null,
  segment_id: click.segment_id ?? null,
});

/** When a publication of the offer must have been queued to be a sale's inferred origin: within the window before the order. */
export const inferenceWindow = (occurredAt: Date): { $gte: Date; $lte: Date } => ({
  $gte: new Date(occurredAt.getTime() - ATTRIBUTION_WINDOW_DAYS * 86_400_000),
  $lte: occurredAt,
});

/** A sale inferred from the offer's latest publication in the window: its group when it went to one group, its segment. */
export const inferredFrom = (publication: Pick<PublicationDoc, '_id' | 'offer_id' | 'group_id' | 'group_ids' | 'segment_id'>): Attribution => ({
  method: 'inferred',
  click_id: null,
  offer_id: publication.offer_id,
  publication_id: publication._id,
  group_id: publication.group_id ?? (publication.group_ids.length === 1 ? publication.group_ids[0]! : null),
  segment_id: publication.segment_id ?? null,
});
