/**
 * Tracked links: `_id` is `lnk_<code>`, so the public redirect (`/l/{code}`)
 * reads a link by `_id` alone, knowing no tenant. Codes are 12 characters of
 * a 32-letter alphabet (60 random bits): short, and not guessable. A link
 * never changes once written, so the redirect keeps the links it read, for
 * LINK_CACHE_MS (a link can be removed: linkReader).
 */
import { randomBytes } from 'node:crypto';
import { Db } from 'mongodb';
import { crossTenantCollection, Tenant, tenantCollection, TenantDoc, OutboxEvent } from '../db';
import { Marketplace } from '../marketplaces';

/** A link as written (the tenant's fields are added by the store). */
export interface LinkFields {
  _id: string;
  code: string;
  marketplace: Marketplace;
  integration_id: string;
  original_url: string;
  affiliate_url: string;
  /** Where a click goes: the affiliate URL with CLICK_PLACEHOLDER where the click id goes. */
  target: string;
  sub_id: string | null;
  offer_id: string | null;
  publication_id: string | null;
  group_id: string | null;
  segment_id: string | null;
  created_at: Date;
}

export interface LinkDoc extends TenantDoc, LinkFields {
  _id: string;
}

const CODE_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
export const CODE_LENGTH = 12;
export const CODE_PATTERN = /^[a-z2-9]{12}$/;

export function newCode(): string {
  let out = '';
  for (const b of randomBytes(CODE_LENGTH)) out += CODE_ALPHABET[b & 31];
  return out;
}

export const linkIdOf = (code: string): string => `lnk_${code}`;

export async function insertLink(db: Db, tenant: Tenant, link: LinkFields, event: OutboxEvent): Promise<LinkDoc> {
  return tenantCollection<LinkDoc>(db, 'links', tenant).insert(link, event);
}

/** The links of a fan-out, in one write (no events: their publication's events describe them). */
export async function insertLinks(db: Db, tenant: Tenant, links: LinkFields[]): Promise<void> {
  await tenantCollection<LinkDoc>(db, 'links', tenant).insertMany(links);
}

/** How many links an app keeps in memory for the redirect. */
const CACHE_SIZE = 20_000;
/**
 * How long an app trusts a link it read (default). A link never changes, but
 * it can go (the sandbox reset removes the test environment's links, maybe in
 * another process): a removed link stops redirecting within this time and one
 * read.
 */
export const LINK_CACHE_MS = 10_000;

/**
 * The link of a code, whoever's (the redirect is public): kept in memory
 * after each read by `_id` alone (the last CACHE_SIZE codes met). A link in
 * memory is answered at once (no promise: the redirect's hot path); once its
 * `ttlMs` is over it is still answered while one read in the background
 * renews or drops it, so no click waits for the database to learn what it
 * knew. Any other code is read by a promise, one read at a time per code
 * however many clicks wait for it.
 */
export function linkReader(db: Db, ttlMs = LINK_CACHE_MS): (code: string) => LinkDoc | Promise<LinkDoc | null> {
  const cache = new Map<string, { link: LinkDoc; until: number }>();
  const reading = new Map<string, Promise<LinkDoc | null>>();
  const read = (code: string): Promise<LinkDoc | null> => {
    let pending = reading.get(code);
    if (!pending) {
      pending = crossTenantCollection<LinkDoc>(db, 'links')
        .findOne({ _id: linkIdOf(code) })
        .then((doc) => {
          cache.delete(code);
          if (!doc || doc._deleted) return null;
          if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
          cache.set(code, { link: doc, until: Date.now() + ttlMs });
          return doc;
        })
        .finally(() => reading.delete(code));
      reading.set(code, pending);
    }
    return pending;
  };
  return (code) => {
    const hit = cache.get(code);
    if (!hit) return read(code);
    // A failed renewal keeps the link as it was; the next click tries again.
    if (hit.until <= Date.now()) read(code).catch(() => undefined);
    return hit.link;
  };
}
