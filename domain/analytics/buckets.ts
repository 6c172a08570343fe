/**
 * Pre-aggregated analytics: counters kept at write time, so that a query over
 * `days` days reads at most `days` documents per dimension, never raw events.
 *
 * One document per tenant, local day and dimension, `_id`
 * `<account>:<env>:<day>:<dimension>`, holding nested counters:
 * - `totals`: `{<counter>: n}` (e.g. `clicks`, `publications`);
 * - `hours`: `{<hour 0–23>: {<counter>: n}}` (heat maps; the weekday is the day's);
 * - keyed dimensions (`groups`, `offers`, `sources`, `elements`, …):
 *   `{<key>: {<counter>: n}}`.
 * A counter may be a path (`commissions.BRL.amount_minor`): money is counted
 * in integer minor units per currency, never mixed.
 *
 * Days are the account's local days (its `timezone`, UTC by default). Every
 * write is an upsert by `_id` alone with `$inc`, which the embedded FerretDB
 * serves from SQL and MongoDB from its `_id` index; the writes of a batch are
 * merged per document first, and the writes to one document queue in the
 * process (oneAtATime). Callers count a fact once: where a retry could
 * repeat the call, they bump only on the write that changed the state.
 */
import { Db } from 'mongodb';
import { crossTenantCollection, isDuplicateKey, platformCollection, Tenant, tenantCollection, TenantDoc } from '../db';
import { localTime } from '../schedules/recurrence';

export type Dimension = 'totals' | 'hours' | 'groups' | 'offers' | 'segments' | 'sources' | 'elements' | 'pages';

export interface BucketDoc extends TenantDoc {
  day: string;
  dimension: Dimension;
  /** The counters (see the module's comment for their shape per dimension). */
  c: Record<string, unknown>;
}

/** One counter to move: `key` is required for keyed dimensions, ignored for `totals` and taken from the time for `hours`. */
export interface BucketIncrement {
  dimension: Dimension;
  key?: string;
  counter: string;
  by: number;
}

/** Something that happened at `at`, and the counters it moves. */
export interface BucketFact {
  at: Date;
  incs: BucketIncrement[];
}

const DEFAULT_TIME_ZONE = 'UTC';
/** How long a process trusts the time zone it read for an account. */
const TIME_ZONE_CACHE_MS = 60_000;
const timeZones = new Map<string, { tz: string; until: number }>();

/** The account's time zone for analytics days (`timezone` on the account; UTC when unset). Cached for a minute per process. */
export async function accountTimeZone(db: Db, accountId: string): Promise<string> {
  const hit = timeZones.get(accountId);
  if (hit && hit.until > Date.now()) return hit.tz;
  const account = await platformCollection<{ _id: string; timezone?: string }>(db, 'accounts').findOne(
    { _id: accountId },
    { projection: { timezone: 1 } },
  );
  const tz = account?.timezone ?? DEFAULT_TIME_ZONE;
  timeZones.set(accountId, { tz, until: Date.now() + TIME_ZONE_CACHE_MS });
  return tz;
}

/** Forgets the cached time zone of an account (after an operator changed it, in this process). */
export const forgetTimeZone = (accountId: string): boolean => timeZones.delete(accountId);

const pad = (n: number): string => String(n).padStart(2, '0');

/** Every time zone's offset is a multiple of 15 minutes: within one such quarter the local day and hour are the same. */
const QUARTER_MS = 15 * 60_000;
const quarters = new Map<string, { quarter: number; day: string; hour: number }>();

/** `2026-11-24` and the hour, as the wall clock in `timeZone` reads `at` (the last quarter hour's answer kept per time zone: a batch of clicks asks the same one). */
export function localDayHour(at: Date, timeZone: string): { day: string; hour: number } {
  const quarter = Math.floor(at.getTime() / QUARTER_MS);
  const hit = quarters.get(timeZone);
  if (hit?.quarter === quarter) return { day: hit.day, hour: hit.hour };
  const t = localTime(at, timeZone);
  const answer = { quarter, day: `${t.year}-${pad(t.month)}-${pad(t.day)}`, hour: t.hour };
  quarters.set(timeZone, answer);
  return { day: answer.day, hour: answer.hour };
}

/** The `days` local days ending with today's (oldest first). */
export function windowDays(now: Date, days: number, timeZone: string): string[] {
  const today = localDayHour(now, timeZone).day;
  const base = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) => new Date(base - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

export const bucketId = (tenant: Tenant, day: string, dimension: Dimension): string => `${tenant.accountId}:${tenant.env}:${day}:${dimension}`;

/** A key or counter part made safe as a field name (no `.`, no leading `$`). */
const safe = (part: string): string => part.replace(/[.$]/g, '_');

/** Adds `facts` to the tenant's buckets: one upsert per (day, dimension) touched. */
export async function addToBuckets(db: Db, tenant: Tenant, facts: BucketFact[]): Promise<void> {
  if (!facts.length) return;
  const tz = await accountTimeZone(db, tenant.accountId);
  const docs = new Map<string, { day: string; dimension: Dimension; inc: Record<string, number> }>();
  for (const fact of facts) {
    const { day, hour } = localDayHour(fact.at, tz);
    for (const inc of fact.incs) {
      const id = bucketId(tenant, day, inc.dimension);
      let doc = docs.get(id);
      if (!doc) docs.set(id, (doc = { day, dimension: inc.dimension, inc: {} }));
      const key = inc.dimension === 'totals' ? null : inc.dimension === 'hours' ? String(hour) : safe(inc.key ?? '');
      if (key === '') throw new Error(`a ${inc.dimension} counter needs a key`);
      const path = ['c', ...(key === null ? [] : [key]), ...inc.counter.split('.').map(safe)].join('.');
      doc.inc[path] = (doc.inc[path] ?? 0) + inc.by;
    }
  }
  const coll = db.collection<BucketDoc>('analytics_buckets');
  await Promise.all(
    [...docs].map(([id, doc]) => {
      const upsert = () =>
        coll.updateOne(
          { _id: id },
          { $inc: doc.inc, $setOnInsert: { account_id: tenant.accountId, env: tenant.env, day: doc.day, dimension: doc.dimension } },
          { upsert: true },
        );
      // Two first writers of a document (in two processes) both insert: the loser's update finds the winner's document.
      return oneAtATime(id, () =>
        upsert().catch((err: unknown) => {
          if (!isDuplicateKey(err)) throw err;
          return upsert();
        }),
      );
    }),
  );
}

/** The write to each bucket document waiting or under way in this process (the last one queued). */
const writing = new Map<string, Promise<unknown>>();

/**
 * Runs the writes to one bucket document one after another in this process.
 * The embedded FerretDB applies `$inc` as a read then a write in two steps, so
 * concurrent increments of one document lose some of them (MongoDB's are
 * atomic); a publication's deliveries end together in one worker, a click
 * batch and a commission in one API process. Writers in different processes
 * can still meet on one document on FerretDB (see README "Analytics").
 */
function oneAtATime<T>(id: string, write: () => Promise<T>): Promise<T> {
  const result = (writing.get(id) ?? Promise.resolve()).then(write);
  const settled = result.catch(() => undefined);
  writing.set(id, settled);
  void settled.then(() => {
    if (writing.get(id) === settled) writing.delete(id);
  });
  return result;
}

/** The tenant's buckets of `dimension` for `days` (those that exist; days without a document had no activity). */
export function readBuckets(db: Db, tenant: Tenant, dimension: Dimension, days: string[]): Promise<BucketDoc[]> {
  return tenantCollection<BucketDoc>(db, 'analytics_buckets', tenant).findByIds(days.map((day) => bucketId(tenant, day, dimension)));
}

/**
 * How long buckets are kept, in days after their local day: every dimension
 * alike (the heatmap's `hours` too, which `days=365` reads). The analytics
 * operations read at most 365 local days ending today; an account's today is
 * at most a day before UTC's, so 400 days keep every bucket a report can read
 * with a month to spare.
 */
export const BUCKET_RETENTION_DAYS = 400;

/**
 * Removes every tenant's buckets of days more than BUCKET_RETENTION_DAYS
 * before `now`'s UTC day (the retention sweep); how many. Local days compare
 * as text (`YYYY-MM-DD`); a fact counted that long after its day (a late
 * commission report) lands in a bucket the next sweep removes.
 */
export async function sweepOldBuckets(db: Db, now: Date = new Date()): Promise<number> {
  const before = new Date(now.getTime() - BUCKET_RETENTION_DAYS * 86_400_000).toISOString().slice(0, 10);
  return (await crossTenantCollection<BucketDoc>(db, 'analytics_buckets').deleteMany({ day: { $lt: before } })).deletedCount;
}
