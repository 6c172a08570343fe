/**
 * The resource kit: what every tenant-scoped area does the same way, written
 * once — its collection seen through one tenant, fetch-or-404, the fields a
 * PATCH changes, the optimistic write that lost, and references to other
 * resources. An area's store.ts and service.ts are mostly declarations on top.
 */
import { Db, Filter, FindOptions } from 'mongodb';
import { OutboxEvent, Page, PageResult, Tenant, TenantCollectionName, tenantCollection, TenantDoc } from './db';
import { changedMeanwhile, conflict, notFound, unknownReference } from './errors';
import { TemporalDeps } from '../temporal/start';

/** What the business operations need: the database and Temporal (to start workflows and hand events to delivery). */
export interface DomainDeps {
  db: Db;
  temporal: TemporalDeps;
}

/** A stored resource with the times every resource keeps. */
export interface ResourceDoc extends TenantDoc {
  created_at: Date;
  updated_at: Date;
}

/** The store functions every resource has, over its tenant-scoped collection. */
export function resourceStore<T extends ResourceDoc>(name: TenantCollectionName) {
  const coll = (db: Db, tenant: Tenant) => tenantCollection<T>(db, name, tenant);
  return {
    coll,
    get: (db: Db, tenant: Tenant, id: string): Promise<T | null> => coll(db, tenant).findById(id),
    page: (db: Db, tenant: Tenant, filter: Filter<T>, page: Page, sort?: FindOptions['sort']): Promise<PageResult<T>> =>
      coll(db, tenant).page(filter, page, sort),
    /** Applies `set` unless the document changed since `current` was read (then null), with the event `describe` makes. */
    update: (db: Db, tenant: Tenant, current: T, set: Partial<T>, describe: (after: T) => OutboxEvent): Promise<T | null> =>
      coll(db, tenant).updateFrom(current, set, describe),
    /** Removes the document with its event in the same write; false when it was gone already. */
    remove: (db: Db, tenant: Tenant, id: string, event: OutboxEvent): Promise<boolean> => coll(db, tenant).deleteById(id, {}, event),
  };
}

/** `doc`, or a 404 `not_found` naming what was looked for. */
export function found<T>(doc: T | null, what: string, id: string): T {
  if (!doc) throw notFound(what, id);
  return doc;
}

/** The result of an optimistic write, or a 409 `conflict` when the resource changed since it was read. */
export function written<T>(doc: T | null, what: string): T {
  if (!doc) throw changedMeanwhile(what);
  return doc;
}

/** The resource a body field names: it must be this tenant's (else a 400 `unknown_reference` on `field`). */
export async function referenced<T>(field: string, what: string, id: string, get: (id: string) => Promise<T | null>): Promise<T> {
  const doc = await get(id);
  if (!doc) throw unknownReference(field, what, id);
  return doc;
}

const same = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * What a PATCH changes: the fields among `fields` that `input` sends with a
 * value other than `current`'s. Fields not sent, or sent unchanged, are left out.
 */
export function changedFields<F, K extends keyof F & string>(current: F, input: object, fields: readonly K[]): Partial<Pick<F, K>> {
  const sent = input as Partial<Record<K, unknown>>;
  const out: Partial<Pick<F, K>> = {};
  for (const field of fields) {
    if (field in sent && !same(sent[field], current[field])) out[field] = sent[field] as F[K];
  }
  return out;
}

/** A date as the API writes it (RFC 3339, UTC), or null. */
export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** English count: `1 group`, `2 groups`. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** How many ids a message names before `and N more`. */
export const HOLDERS_NAMED = 5;

/** What holds on to a resource: the first few ids and how many in all (store look-ups give HOLDERS_NAMED ids). */
export interface Found {
  ids: string[];
  total: number;
}

/** `2 groups (grp_a, grp_b)`, or `9 groups (grp_a, …, grp_e and 4 more)`: what holds on to a resource, by name. */
function holdersText(holders: Found, one: string, many = `${one}s`): string {
  const named = holders.ids.slice(0, HOLDERS_NAMED);
  const more = holders.total - named.length;
  return `${plural(holders.total, one, many)} (${named.join(', ')}${more > 0 ? ` and ${more} more` : ''})`;
}

/** Holders of a resource and the words for one and for several of them. */
export interface Holders {
  found: Found;
  one: string;
  many?: string;
}

/** Schedules that may still run, among the holders of a resource. */
export const schedulesThatMayRun = (found: Found): Holders => ({
  found,
  one: 'schedule that may still run',
  many: 'schedules that may still run',
});

/**
 * The delete guard of a resource others hold on to: a 409 `resource_in_use`
 * when any of `holders` has one, `message` given the holders by name
 * (`2 groups (grp_a, grp_b) and 1 schedule that may still run (sch_a)`).
 */
export function refuseWhileHeld(holders: Holders[], message: (held: string) => string): void {
  const held = holders.filter((h) => h.found.total > 0).map((h) => holdersText(h.found, h.one, h.many));
  if (held.length) throw conflict('resource_in_use', message(held.join(' and ')));
}
