/**
 * The names a page of the groups and offers reports shows, kept in the process
 * for NAMES_MS after they are read, so that a report repeated (a dashboard
 * refreshing) waits for its buckets alone: a rename shows in the reports within
 * NAMES_MS. At most NAMES_MAX entries, the oldest forgotten first.
 */
import { Db } from 'mongodb';
import { Tenant } from '../db';

export const NAMES_MS = 5_000;
const NAMES_MAX = 20_000;

/** A reader of the `T`s of `ids`, by id, that reads only those it has not read in the last NAMES_MS. */
export function cachedNames<T>(read: (db: Db, tenant: Tenant, ids: string[]) => Promise<Map<string, T>>, clock: () => number = Date.now) {
  const kept = new Map<string, { value: T; until: number }>();
  return async (db: Db, tenant: Tenant, ids: string[]): Promise<Map<string, T>> => {
    const now = clock();
    const prefix = `${tenant.accountId}:${tenant.env}:`;
    const found = new Map<string, T>();
    const missing: string[] = [];
    for (const id of ids) {
      const entry = kept.get(prefix + id);
      if (entry && entry.until > now) found.set(id, entry.value);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    for (const [id, value] of await read(db, tenant, missing)) {
      found.set(id, value);
      kept.delete(prefix + id);
      if (kept.size >= NAMES_MAX) kept.delete(kept.keys().next().value!);
      kept.set(prefix + id, { value, until: now + NAMES_MS });
    }
    return found;
  };
}
