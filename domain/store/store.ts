/**
 * Persistence of the store area. Every record has an id derived from what
 * makes it unique, so it is read by `_id` alone (the cheapest read on every
 * engine) and a duplicate is refused by the `_id` itself:
 * the store of a tenant (`sto_` of account and environment), a page (`pag_`
 * of the tenant and its slug), a collection (`col_` of the tenant and its
 * slug). Subdomains are unique across accounts through a unique index.
 */
import { Db } from 'mongodb';
import { COLOR_ROLES, STORE_NETWORKS, STORE_THEMES } from '../../schemas/openapi/store';
import { Schema } from '../../schemas/types';
import { crossTenantCollection, isDuplicateKey, OutboxEvent, Tenant } from '../db';
import { derivedId } from '../ids';
import { ResourceDoc, resourceStore } from '../resource';

export type StoreTheme = (typeof STORE_THEMES)[number];
export type ColorRole = (typeof COLOR_ROLES)[number];
export type Network = (typeof STORE_NETWORKS)[number];
export type StoreHour = Schema<'StoreHours'>[number];
export type StoreContact = Schema<'StoreContact'>;

export interface StoreFields {
  subdomain: string;
  name: string;
  tagline: string | null;
  description: string | null;
  theme: StoreTheme;
  colors: Partial<Record<ColorRole, string>>;
  logo: string | null;
  networks: Partial<Record<Network, string>>;
  hours: StoreHour[];
  timezone: string;
  contact: StoreContact | null;
  seo_title: string | null;
  seo_description: string | null;
  domain: string | null;
  domain_verified: 0 | 1;
  active: 0 | 1;
}

export interface StoreDoc extends ResourceDoc, StoreFields {}

export interface PageFields {
  title: string;
  slug: string;
  summary: string | null;
  body: string;
  cover: string | null;
  seo_title: string | null;
  seo_description: string | null;
  published: boolean;
  published_at: Date | null;
}

export interface PageDoc extends ResourceDoc, PageFields {}

export interface CollectionFields {
  title: string;
  slug: string;
  description: string | null;
  position: number;
  published: boolean;
  offer_ids: string[];
}

export interface CollectionDoc extends ResourceDoc, CollectionFields {}

const stores = resourceStore<StoreDoc>('stores');
const pages = resourceStore<PageDoc>('store_pages');
const collections = resourceStore<CollectionDoc>('store_collections');

export class SubdomainTakenError extends Error {}
export class PageSlugTakenError extends Error {}

export const storeIdOf = (tenant: Tenant): string => derivedId('sto', tenant.accountId, tenant.env);
export const pageIdOf = (tenant: Tenant, slug: string): string => derivedId('pag', tenant.accountId, tenant.env, slug);
export const collectionIdOf = (tenant: Tenant, slug: string): string => derivedId('col', tenant.accountId, tenant.env, slug);

export const getStoredStore = (db: Db, tenant: Tenant): Promise<StoreDoc | null> => stores.get(db, tenant, storeIdOf(tenant));

/** The first write of a tenant's store. */
export async function insertStore(
  db: Db,
  tenant: Tenant,
  doc: StoreFields & { created_at: Date; updated_at: Date },
  describe: (s: StoreDoc) => OutboxEvent,
) {
  const full = { _id: storeIdOf(tenant), ...doc };
  try {
    return await stores.coll(db, tenant).insert(full, describe({ ...full, account_id: tenant.accountId, env: tenant.env }));
  } catch (err) {
    if (isDuplicateKey(err)) throw new SubdomainTakenError(doc.subdomain);
    throw err;
  }
}

/** Applies `set` unless the store changed since it was read (then null). */
export async function saveStore(
  db: Db,
  tenant: Tenant,
  current: StoreDoc,
  set: Partial<StoreFields>,
  describe: (after: StoreDoc) => OutboxEvent,
) {
  try {
    return await stores.update(db, tenant, current, set, describe);
  } catch (err) {
    if (isDuplicateKey(err)) throw new SubdomainTakenError(set.subdomain ?? '');
    throw err;
  }
}

/**
 * The live store at `subdomain`, whoever's it is: the public storefront
 * starts from an address, not a tenant. Test-environment stores are never
 * looked up, so they are never public.
 */
export const liveStoreAt = (db: Db, subdomain: string): Promise<StoreDoc | null> =>
  crossTenantCollection<StoreDoc>(db, 'stores').findOne({ env: 'live', subdomain, _deleted: { $ne: true } });

/** The live store whose verified custom domain is `domain`. */
export const liveStoreAtDomain = (db: Db, domain: string): Promise<StoreDoc | null> =>
  crossTenantCollection<StoreDoc>(db, 'stores').findOne({ env: 'live', domain, domain_verified: 1, _deleted: { $ne: true } });

export async function insertPage(
  db: Db,
  tenant: Tenant,
  fields: PageFields,
  now: Date,
  describe: (p: PageDoc) => OutboxEvent,
): Promise<PageDoc> {
  const doc = { _id: pageIdOf(tenant, fields.slug), ...fields, created_at: now, updated_at: now };
  try {
    return await pages.coll(db, tenant).insert(doc, describe({ ...doc, account_id: tenant.accountId, env: tenant.env }));
  } catch (err) {
    if (isDuplicateKey(err)) throw new PageSlugTakenError(fields.slug);
    throw err;
  }
}

export const getPageBySlug = (db: Db, tenant: Tenant, slug: string): Promise<PageDoc | null> => pages.get(db, tenant, pageIdOf(tenant, slug));

/** The published pages of a store, newest first (bounded: a storefront lists at most `limit`). */
export const publishedPages = (db: Db, tenant: Tenant, limit: number) =>
  pages.page(db, tenant, { published: true }, { limit, offset: 0 }, { published_at: -1, _id: 1 });

export const listCollections = (db: Db, tenant: Tenant, filter: { published?: boolean }, page: { limit: number; offset: number }) =>
  collections.page(db, tenant, filter, page, { position: 1, _id: 1 });

/** Creates or replaces the collection `fields.slug`. */
export async function putCollection(db: Db, tenant: Tenant, fields: CollectionFields): Promise<{ doc: CollectionDoc; created: boolean }> {
  const coll = collections.coll(db, tenant);
  const id = collectionIdOf(tenant, fields.slug);
  for (;;) {
    const now = new Date();
    const current = await coll.findById(id);
    if (current) {
      const after = await coll.updateRead(current, { $set: { ...fields, updated_at: now } });
      if (after) return { doc: after, created: false };
    }
    try {
      return { doc: await coll.insert({ _id: id, ...fields, created_at: now, updated_at: now }), created: true };
    } catch (err) {
      // Another writer created it between the read and the insert: update theirs.
      if (!isDuplicateKey(err)) throw err;
    }
  }
}

export const deleteCollection = (db: Db, tenant: Tenant, slug: string): Promise<boolean> =>
  collections.coll(db, tenant).deleteById(collectionIdOf(tenant, slug));
