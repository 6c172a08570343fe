/**
 * Editorial collections, managed by operators (`offerops admin collection
 * set|list|delete`) until the panel does it: a collection is named by its
 * slug, and `set` creates or replaces it whole.
 */
import { Db } from 'mongodb';
import { Tenant, tenantCollection } from '../db';
import { invalid, notFound } from '../errors';
import { OfferDoc } from '../offers/store';
import { slugify } from '../segments/service';
import { toCollection } from './service';
import { CollectionFields, deleteCollection, listCollections, putCollection } from './store';

/** Offers one collection holds at most. */
export const COLLECTION_MAX_OFFERS = 200;

export interface CollectionInput {
  title: string;
  slug?: string;
  description?: string | null;
  position?: number;
  published?: boolean;
  offer_ids: string[];
}

export async function setCollection(
  db: Db,
  tenant: Tenant,
  input: CollectionInput,
): Promise<{ collection: Record<string, unknown>; created: boolean }> {
  const slug = input.slug ?? slugify(input.title);
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) || slug.length > 80)
    throw invalid('validation_failed', `slug ${JSON.stringify(slug)} must be lower-case words joined by -, at most 80 characters`);
  if (input.title.length > 120) throw invalid('validation_failed', 'the title has at most 120 characters');
  const ids = [...new Set(input.offer_ids)];
  if (ids.length > COLLECTION_MAX_OFFERS) throw invalid('validation_failed', `a collection holds at most ${COLLECTION_MAX_OFFERS} offers`);
  const found = new Set((await tenantCollection<OfferDoc>(db, 'offers', tenant).findByIds(ids)).map((o) => o._id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw invalid('unknown_reference', `no offer ${missing.join(', ')} in this account and environment`);
  const fields: CollectionFields = {
    title: input.title,
    slug,
    description: input.description ?? null,
    position: input.position ?? 0,
    published: input.published ?? true,
    offer_ids: ids,
  };
  const { doc, created } = await putCollection(db, tenant, fields);
  return { collection: toCollection(doc), created };
}

export async function listOperatorCollections(db: Db, tenant: Tenant): Promise<Record<string, unknown>[]> {
  return (await listCollections(db, tenant, {}, { limit: 1000, offset: 0 })).items.map(toCollection);
}

export async function removeCollection(db: Db, tenant: Tenant, slug: string): Promise<void> {
  if (!(await deleteCollection(db, tenant, slug))) throw notFound('collection', slug);
}
