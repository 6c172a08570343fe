/**
 * What the public storefront reads: a live, active store by its subdomain
 * (test-environment and inactive stores are never public), its published
 * collections with their approved offers, its published pages.
 */
import { Db } from 'mongodb';
import { Tenant, tenantCollection } from '../db';
import { OfferDoc } from '../offers/store';
import { CollectionDoc, getPageBySlug, listCollections, liveStoreAt, liveStoreAtDomain, PageDoc, publishedPages, StoreDoc } from './store';

/** What a storefront shows at most: collections, offers per collection, pages listed. */
export const STOREFRONT_LIMITS = { collections: 20, offersPerCollection: 48, pages: 50 } as const;

export interface StorefrontOffer {
  title: string;
  price: number | null;
  original_price: number | null;
  currency: string;
  coupon: string | null;
  image: string | null;
  url: string;
}

export interface StorefrontCollection {
  title: string;
  slug: string;
  description: string | null;
  offers: StorefrontOffer[];
}

export const toStorefrontOffer = (o: OfferDoc): StorefrontOffer => ({
  title: o.title,
  price: o.price ?? null,
  original_price: o.original_price ?? null,
  currency: o.currency,
  coupon: o.coupon ?? null,
  image: o.image ?? null,
  url: o.url,
});

export const toStorefrontCollection = (c: CollectionDoc, offers: Map<string, StorefrontOffer>): StorefrontCollection => ({
  title: c.title,
  slug: c.slug,
  description: c.description,
  offers: c.offer_ids.flatMap((id) => offers.get(id) ?? []),
});

export interface PublicStore {
  store: StoreDoc;
  tenant: Tenant;
}

/** The public store at `/s/{subdomain}/`, or (with `byDomain`) on the Host of its verified custom domain. */
export async function publicStore(db: Db, subdomain: string, byDomain = false): Promise<PublicStore | null> {
  const store = byDomain ? await liveStoreAtDomain(db, subdomain) : await liveStoreAt(db, subdomain);
  if (!store || store.active !== 1) return null;
  return { store, tenant: { accountId: store.account_id, env: store.env } };
}

/** The published collections, in public order, each with its approved offers in its order. */
export async function publicCollections(db: Db, tenant: Tenant): Promise<StorefrontCollection[]> {
  const { items } = await listCollections(db, tenant, { published: true }, { limit: STOREFRONT_LIMITS.collections, offset: 0 });
  const ids = [...new Set(items.flatMap((c) => c.offer_ids.slice(0, STOREFRONT_LIMITS.offersPerCollection)))];
  const offers = await tenantCollection<OfferDoc>(db, 'offers', tenant).findByIds(ids);
  const approved = new Map<string, StorefrontOffer>(offers.filter((o) => o.status === 'approved').map((o) => [o._id, toStorefrontOffer(o)]));
  return items.map((c) => toStorefrontCollection({ ...c, offer_ids: c.offer_ids.slice(0, STOREFRONT_LIMITS.offersPerCollection) }, approved));
}

export async function publicPages(db: Db, tenant: Tenant): Promise<PageDoc[]> {
  return (await publishedPages(db, tenant, STOREFRONT_LIMITS.pages)).items;
}

export async function publicPage(db: Db, tenant: Tenant, slug: string): Promise<PageDoc | null> {
  const page = await getPageBySlug(db, tenant, slug);
  return page?.published ? page : null;
}
