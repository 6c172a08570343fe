/**
 * The store: its public configuration (identity, theme, networks, hours,
 * contact link, address), its Markdown pages and its editorial collections.
 * A tenant without a stored store has a default one (inactive, at
 * `acc-<account>`); the first PATCH writes it. Every change records its event.
 */
import { randomBytes } from 'node:crypto';
import { RESERVED_SUBDOMAINS, STORE_NETWORKS } from '../../schemas/openapi/store';
import { Schema } from '../../schemas/types';
import { Tenant } from '../db';
import { conflict, ErrorDetail, invalid } from '../errors';
import { commitEvents } from '../events/commit';
import { prepareEvent } from '../events/store';
import { changedFields, DomainDeps, iso, written } from '../resource';
import { isTimeZone } from '../recurrence';
import { slugify } from '../segments/service';
import {
  CollectionDoc,
  ColorRole,
  getStoredStore,
  insertPage,
  insertStore,
  liveStoreAtDomain,
  PageDoc,
  PageFields,
  PageSlugTakenError,
  pageIdOf,
  saveStore,
  StoreDoc,
  StoreFields,
  storeIdOf,
  StoreTheme,
  SubdomainTakenError,
} from './store';

/** The colours of each theme (docs/guides/storefront.md); a store's `colors` override them one by one. */
export const THEME_COLORS: Record<StoreTheme, Record<ColorRole, string>> = {
  classic: { primary: '#c0392b', secondary: '#2c3e50', background: '#ffffff', text: '#222222' },
  minimal: { primary: '#111111', secondary: '#666666', background: '#ffffff', text: '#111111' },
  magazine: { primary: '#1a5276', secondary: '#d35400', background: '#fdfefe', text: '#1c2833' },
  dark: { primary: '#f1c40f', secondary: '#e67e22', background: '#121212', text: '#eeeeee' },
};

export const DEFAULT_TIMEZONE = 'America/Sao_Paulo';
export const DEFAULT_PUBLIC_URL = 'http://127.0.0.1:8080';

/** Where the public store is served: OFFEROPS_PUBLIC_URL (no trailing slash). */
export interface StoreSite {
  publicUrl?: string;
}

const base = (site: StoreSite): string => (site.publicUrl ?? DEFAULT_PUBLIC_URL).replace(/\/+$/, '');
export const storeUrl = (site: StoreSite, subdomain: string): string => `${base(site)}/s/${subdomain}/`;

/** The public address of a store: its custom domain once verified (served over HTTPS by whatever terminates TLS in front), else its subdomain. */
export const storeAddress = (site: StoreSite, s: Pick<StoreDoc, 'subdomain' | 'domain' | 'domain_verified'>): string =>
  s.domain && s.domain_verified === 1 ? `https://${s.domain}/` : storeUrl(site, s.subdomain);

const FIELDS = [
  'subdomain',
  'name',
  'tagline',
  'description',
  'theme',
  'colors',
  'logo',
  'networks',
  'hours',
  'timezone',
  'contact',
  'seo_title',
  'seo_description',
  'domain',
  'active',
] as const satisfies readonly (keyof StoreFields)[];

/** The store a tenant has before its first PATCH: inactive, named after the account, at `acc-<account id>`. */
export function defaultStore(tenant: Tenant, accountName: string, at: Date): StoreDoc {
  return {
    _id: storeIdOf(tenant),
    account_id: tenant.accountId,
    env: tenant.env,
    subdomain: `acc-${tenant.accountId.replace(/^acc_/, '').toLowerCase()}`.slice(0, 63),
    name: accountName.slice(0, 80),
    tagline: null,
    description: null,
    theme: 'classic',
    colors: {},
    logo: null,
    networks: {},
    hours: [],
    timezone: DEFAULT_TIMEZONE,
    contact: null,
    seo_title: null,
    seo_description: null,
    domain: null,
    domain_verified: 0,
    active: 0,
    created_at: at,
    updated_at: at,
  };
}

export function toStore(s: StoreDoc, site: StoreSite): Schema<'Store'> {
  return {
    id: s._id,
    subdomain: s.subdomain,
    name: s.name,
    tagline: s.tagline,
    description: s.description,
    theme: s.theme,
    colors: { ...THEME_COLORS[s.theme], ...s.colors },
    logo: s.logo,
    networks: Object.fromEntries(STORE_NETWORKS.map((n) => [n, s.networks[n] ?? null])) as Schema<'StoreNetworks'>,
    hours: s.hours,
    timezone: s.timezone,
    contact: s.contact,
    seo_title: s.seo_title,
    seo_description: s.seo_description,
    domain: s.domain,
    domain_verified: s.domain_verified,
    dns_target: s.domain ? new URL(base(site)).hostname : null,
    active: s.active,
    url: storeAddress(site, s),
    created_at: s.created_at.toISOString(),
    updated_at: s.updated_at.toISOString(),
  };
}

/** The tenant's store: the stored one, else its default. */
export async function getStore(deps: DomainDeps, tenant: Tenant, account: { name: string; created_at: Date }): Promise<StoreDoc> {
  return (await getStoredStore(deps.db, tenant)) ?? defaultStore(tenant, account.name, account.created_at);
}

const detail = (field: string, rule: string, message: string): ErrorDetail => ({ location: 'body', field, rule, message });

/** Digits that may be a phone number (8 or more, spaces, dots and dashes allowed between them), or an e-mail address. */
const PRIVATE_CONTACT = /(?:\d[\s.()-]*){8,}|[^\s/@:]+@[^\s/@]+\.[a-z]{2,}/i;

const decoded = (url: string): string => {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
};

/** The rules the contract cannot say: reserved subdomains, hours that make sense, a time zone, a contact link without a number. */
function checkStoreInput(input: Schema<'StoreUpdate'>): void {
  const details: ErrorDetail[] = [];
  const sub = input.subdomain;
  if (sub !== undefined) {
    if ((RESERVED_SUBDOMAINS as readonly string[]).includes(sub))
      details.push(detail('subdomain', 'reserved', `${JSON.stringify(sub)} is reserved`));
    else if (sub.startsWith('acc-'))
      details.push(detail('subdomain', 'reserved', 'names starting `acc-` are the default addresses of accounts'));
  }
  const perDay = new Map<string, number>();
  for (const [i, h] of (input.hours ?? []).entries()) {
    if (h.closes <= h.opens) details.push(detail(`hours.${i}.closes`, 'after_opens', 'must be later than opens'));
    perDay.set(h.day, (perDay.get(h.day) ?? 0) + 1);
    if (perDay.get(h.day) === 3) details.push(detail(`hours.${i}`, 'max_per_day', `at most two periods per day (${h.day})`));
  }
  if (input.timezone !== undefined && !isTimeZone(input.timezone)) details.push(detail('timezone', 'timezone', 'is not an IANA time zone'));
  if (input.contact && PRIVATE_CONTACT.test(decoded(input.contact.url))) {
    details.push(
      detail('contact.url', 'no_private_contact', 'must not reveal a phone number or an e-mail address; link a group, channel or page'),
    );
  }
  for (const [network, url] of Object.entries(input.networks ?? {})) {
    if (PRIVATE_CONTACT.test(decoded(url)))
      details.push(detail(`networks.${network}`, 'no_private_contact', 'must not reveal a phone number or an e-mail address'));
  }
  if (details.length) throw invalid('validation_failed', 'The store update is not acceptable; see details.', details);
}

const subdomainTaken = (sub: string) => conflict('slug_taken', `The subdomain ${JSON.stringify(sub)} is taken by another store.`);

/** Changes the fields sent (the first change writes the store); the store after. */
export async function updateStore(
  deps: DomainDeps,
  tenant: Tenant,
  account: { name: string; created_at: Date },
  site: StoreSite,
  input: Schema<'StoreUpdate'> | undefined,
): Promise<StoreDoc> {
  const body = input ?? {};
  checkStoreInput(body);
  const stored = await getStoredStore(deps.db, tenant);
  const current = stored ?? defaultStore(tenant, account.name, account.created_at);
  const sent: Partial<StoreFields> = {
    ...(body as Omit<Schema<'StoreUpdate'>, 'active'>),
    ...(body.active === undefined ? {} : { active: body.active ? 1 : 0 }),
  };
  const set = changedFields<StoreFields, (typeof FIELDS)[number]>(current, sent, FIELDS) as Partial<StoreFields>;
  if ('domain' in set) set.domain_verified = 0;
  const changed = Object.keys(set);
  // Nothing differs: no write, no event (a tenant without a stored store keeps its default).
  if (!changed.length) return current;
  const describe = (after: StoreDoc) => prepareEvent(tenant, 'store.updated', { store: toStore(after, site), changed });
  let saved: StoreDoc | null;
  try {
    if (stored) saved = await saveStore(deps.db, tenant, stored, set, describe);
    else {
      const merged: StoreDoc = { ...current, ...set };
      const fields = Object.fromEntries([...FIELDS, 'domain_verified' as const].map((k) => [k, merged[k]])) as unknown as StoreFields;
      const now = new Date();
      saved = await insertStore(deps.db, tenant, { ...fields, created_at: now, updated_at: now }, describe);
    }
  } catch (err) {
    if (err instanceof SubdomainTakenError) {
      // The unique index refused: another store has the subdomain, or a concurrent first write of this one won.
      if (!stored && (await getStoredStore(deps.db, tenant)))
        throw conflict('conflict', 'The store changed while this request ran; read it again and retry.');
      throw subdomainTaken(set.subdomain ?? current.subdomain);
    }
    throw err;
  }
  const result = written(saved, 'store');
  await commitEvents(deps, 'stores', result._id);
  return result;
}

export function toPage(p: PageDoc, storeAddress: string): Schema<'StorePage'> {
  return {
    id: p._id,
    title: p.title,
    slug: p.slug,
    summary: p.summary,
    body: p.body,
    cover: p.cover,
    seo_title: p.seo_title,
    seo_description: p.seo_description,
    published: p.published,
    path: `/${p.slug}`,
    url: `${storeAddress}${p.slug}`,
    published_at: iso(p.published_at),
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  };
}

const pageSlugTaken = (tenant: Tenant, slug: string) =>
  conflict('slug_taken', `Page ${pageIdOf(tenant, slug)} of this store already uses the slug ${JSON.stringify(slug)}; choose another slug.`);

/** Creates a page; its slug is the one given (409 when taken) or made from the title (made unique). */
export async function createPage(
  deps: DomainDeps,
  tenant: Tenant,
  account: { name: string; created_at: Date },
  site: StoreSite,
  input: Schema<'StorePageCreate'>,
): Promise<{ page: PageDoc; url: string }> {
  const store = await getStore(deps, tenant, account);
  const address = storeAddress(site, store);
  const now = new Date();
  const given = input.slug;
  const derived = slugify(input.title).slice(0, 73).replace(/-+$/, '') || 'page';
  const fields: PageFields = {
    title: input.title,
    slug: given ?? derived,
    summary: input.summary ?? null,
    body: input.body ?? '',
    cover: input.cover ?? null,
    seo_title: input.seo_title ?? null,
    seo_description: input.seo_description ?? null,
    published: input.published ?? false,
    published_at: input.published ? now : null,
  };
  const describe = (p: PageDoc) => prepareEvent(tenant, 'store.page_created', { page: toPage(p, address) });
  let page: PageDoc;
  try {
    page = await insertPage(deps.db, tenant, fields, now, describe);
  } catch (err) {
    if (!(err instanceof PageSlugTakenError)) throw err;
    if (given) throw pageSlugTaken(tenant, given);
    // A slug made from the title collided: keep it recognisable, make it unique (≤ 80 characters).
    try {
      page = await insertPage(deps.db, tenant, { ...fields, slug: `${derived}-${randomBytes(3).toString('hex')}` }, now, describe);
    } catch (again) {
      if (again instanceof PageSlugTakenError) throw pageSlugTaken(tenant, derived);
      throw again;
    }
  }
  await commitEvents(deps, 'store_pages', page._id);
  return { page, url: address };
}

export function toCollection(c: CollectionDoc): Schema<'StoreCollection'> {
  return {
    id: c._id,
    title: c.title,
    slug: c.slug,
    description: c.description,
    position: c.position,
    published: c.published,
    offer_count: c.offer_ids.length,
    offer_ids: c.offer_ids,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}

/**
 * The operator's confirmation that the store's `domain` points here (`offerops admin store verify-domain`):
 * `domain_verified` becomes 1, the storefront answers on that Host, and `url` becomes the domain.
 */
export async function verifyStoreDomain(deps: Pick<DomainDeps, 'db'>, tenant: Tenant, site: StoreSite): Promise<StoreDoc> {
  const stored = await getStoredStore(deps.db, tenant);
  if (!stored?.domain) throw conflict('conflict', 'The store has no domain; set one with PATCH /store first.');
  if (stored.domain_verified === 1) return stored;
  const holder = await liveStoreAtDomain(deps.db, stored.domain);
  if (holder && holder._id !== stored._id) throw conflict('conflict', `The domain ${stored.domain} is already verified for another store.`);
  const saved = await saveStore(deps.db, tenant, stored, { domain_verified: 1 }, (after) =>
    prepareEvent(tenant, 'store.updated', { store: toStore(after, site), changed: ['domain_verified'] }),
  );
  return written(saved, 'store');
}
