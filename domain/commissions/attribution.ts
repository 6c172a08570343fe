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
import { clickById } from '../links/clicks';
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
    if (click) {
      return {
        method: 'click',
        click_id: click._id,
        offer_id: click.offer_id ?? null,
        publication_id: click.publication_id ?? null,
        group_id: click.group_id ?? null,
        segment_id: click.segment_id ?? null,
      };
    }
  }
  if (!r.product_url) return NONE;
  const offer = await tenantCollection<OfferDoc>(db, 'offers', tenant).findOne({ url: r.product_url });
  if (!offer) return NONE;
  const since = new Date(r.occurred_at.getTime() - ATTRIBUTION_WINDOW_DAYS * 86_400_000);
  const { items } = await tenantCollection<PublicationDoc>(db, 'publications', tenant).page(
    { offer_id: offer._id, queued_at: { $gte: since, $lte: r.occurred_at } },
    { limit: 1, offset: 0 },
    { queued_at: -1, _id: -1 },
  );
  const publication = items[0];
  if (!publication) return NONE;
  return {
    method: 'inferred',
    click_id: null,
    offer_id: offer._id,
    publication_id: publication._id,
    group_id: publication.group_id ?? (publication.group_ids.length === 1 ? publication.group_ids[0]! : null),
    segment_id: publication.segment_id ?? null,
  };
}
