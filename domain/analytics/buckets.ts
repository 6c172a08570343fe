/**
 * Pre-aggregated analytics: counters kept at write time, so that a query never
 * reads raw events, and a year's report reads about a dozen month documents
 * per dimension plus the days at the window's edges.
 *
 * Three kinds of document per tenant, each `_id` derived, all moved by the
 * same call:
 * - a **day** document per local day, `<account>:<env>:<YYYY-MM-DD>:<dimension>`;
 * - a **month** document per local month and dimension but `totals`,
 *   `<account>:<env>:M<YYYY-MM>:<dimension>`: the sum of the month's day documents;
 * - a month's **daily** document, `<account>:<env>:M<YYYY-MM>:daily`: the
 *   month's `totals` day by day (`{<DD>: {<counter>: n}}`), which the summary
 *   and the timeseries read (a year: 13 small documents).
 * Their counters (`c`) nest:
 * - `totals`: `{<counter>: n}` (e.g. `clicks`, `publications`);
 * - `hours`: `{<hour 0–23>: {<counter>: n}}` in a day document (the weekday is
 *   the day's); `{<weekday 0–6>_<hour>: {<counter>: n}}` in a month document;
 * - keyed dimensions (`groups`, `offers`, `sources`, `elements`, …):
 *   `{<key>: {<counter>: n}}`.
 * A counter may be a path (`commissions.BRL.amount_minor`): money is counted
 * in integer minor units per currency, never mixed. A month document's `day`
 * is the month's last day (what retention compares) and its `month` the month.
 *
 * Days are the account's local days (its `timezone`, UTC by default); a fact
 * falls in the month of its local day, so a month document is always the sum
 * of its days' documents, whatever zone each fact was counted in. Every write
 * is an upsert by `_id` alone with `$inc` (the cheapest write on every
 * engine); the writes of a batch are merged per document first and sent as
 * bulk writes of as many upserts as the engine takes (a publication's count
 * is one round trip), in turn where the engine needs it (engine.ts,
 * `inTurn`). Callers count a fact once: where a retry could repeat the
 * call, they bump only on the write that changed the state.
 *
 * Month documents count a month whole only from the month the deployment
 * started writing them (`monthBucketsFrom`): before that, reports read the
 * month's day documents (see startMonthBuckets).
 */
import { Collection, Db, MongoBulkWriteError, WriteError } from 'mongodb';
import { crossTenantCollection, isDuplicateKey, platformCollection, Tenant, tenantCollection, TenantDoc } from '../db';
import { EngineProfile, engineOf, inTurn } from '../engine';
import { localTime } from '../recurrence';

export type Dimension = 'totals' | 'hours' | 'groups' | 'offers' | 'segments' | 'sources' | 'elements' | 'pages';

/** What a document counts: a dimension, or a month's `totals` per day (`daily`, month documents only). */
export type StoredDimension = Dimension | 'daily';

export interface BucketDoc extends TenantDoc {
  /** The local day; for a month document, the month's last day. */
  day: string;
  /** A month document's month (`YYYY-MM`); absent on day documents. */
  month?: string;
  /** `packs`: the tenant's count of late writes per month (packVersionsId). */
  dimension: StoredDimension | 'packs';
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

/** The quarter hour of `at`: facts of one quarter fall in the same local day and hour, whatever the account's zone (so they may be counted as one). */
export const quarterOf = (at: Date): number => Math.floor(at.getTime() / QUARTER_MS);
const quarters = new Map<string, { quarter: number; day: string; hour: number }>();

/** `2026-11-24` and the hour, as the wall clock in `timeZone` reads `at` (the last quarter hour's answer kept per time zone: a batch of clicks asks the same one). */
export function localDayHour(at: Date, timeZone: string): { day: string; hour: number } {
  const quarter = quarterOf(at);
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

/**
 * A keyed dimension's day or month counters are spread over this many
 * documents by a hash of the key (`<id>~<shard>`), so that a document holds a
 * bounded share of a tenant's keys: the embedded engine re-encodes a whole
 * document on every update at a cost that grows with the square of its
 * fields (10,000 group keys in one: 1–3 s per `$inc`), and MongoDB caps a
 * document at 16 MB. Readers read a document's shards by `_id` and merge
 * them under its id (readBucketDocs).
 */
export const KEY_SHARDS = 16;

const KEYED_DIMENSIONS: ReadonlySet<string> = new Set<StoredDimension>(['groups', 'offers', 'segments', 'sources', 'elements', 'pages']);

/** Whether the bucket document `id` is a keyed dimension's day or month document (not a packed one), and so read from its shards. */
export function isKeyedId(id: string): boolean {
  const [period, dimension] = id.split(':').slice(-2) as [string, string];
  return KEYED_DIMENSIONS.has(dimension) && !period.startsWith('P');
}

/** The shard of `key` (FNV-1a, 32 bits), two digits. */
function shardOf(key: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return String(hash % KEY_SHARDS).padStart(2, '0');
}

/** The document of a keyed dimension's day or month document `id` that holds `key`. */
export const shardId = (id: string, key: string): string => `${id}~${shardOf(key)}`;

/** Every document a keyed dimension's day or month document `id` may be stored as: written whole (before shards), and its shards. */
export const shardIds = (id: string): string[] => [id, ...Array.from({ length: KEY_SHARDS }, (_, i) => `${id}~${String(i).padStart(2, '0')}`)];

/** Adds every number of `from` (times `sign`) into `into`, nested objects key by key. */
export function addInto(into: Record<string, unknown>, from: unknown, sign = 1): Record<string, unknown> {
  if (typeof from !== 'object' || from === null) return into;
  for (const [k, v] of Object.entries(from)) {
    if (typeof v === 'number') into[k] = ((into[k] as number | undefined) ?? 0) + sign * v;
    else if (typeof v === 'object' && v !== null) into[k] = addInto((into[k] as Record<string, unknown> | undefined) ?? {}, v, sign);
  }
  return into;
}

export const monthBucketId = (tenant: Tenant, month: string, dimension: StoredDimension): string =>
  `${tenant.accountId}:${tenant.env}:M${month}:${dimension}`;

/** A closed month's packed document of a dimension: its month document's counters as one JSON string (reads.ts). */
export const packedBucketId = (tenant: Tenant, month: string, dimension: StoredDimension): string =>
  `${tenant.accountId}:${tenant.env}:P${month}:${dimension}`;

/** A closed day's packed document of a dimension: its day document's counters as one JSON string (reads.ts). */
export const packedDayId = (tenant: Tenant, day: string, dimension: Dimension): string =>
  `${tenant.accountId}:${tenant.env}:P${day}:${dimension}`;

/** The tenant's `packs` document: `{<YYYY-MM>: n}`, how many late writes (lateBefore) reached each month. */
export const packVersionsId = (tenant: Tenant): string => `${tenant.accountId}:${tenant.env}:packs`;

/** A month's day counts of late writes: `{<DD>: n}` (swept with the month's documents). */
export const dayVersionsId = (tenant: Tenant, month: string): string => `${tenant.accountId}:${tenant.env}:packs:${month}`;

/** The `packs` document's `day`: retention never removes it (it holds a number per month with late writes, a dozen a year at most). */
const NEVER_SWEPT = '9999-12-31';

const HOUR_MS = 3_600_000;

/**
 * The first local day a report reads live at `now` (or at this process's
 * clock, if earlier): every day before it ended, in every zone (UTC−12 the
 * last, 12 hours after its UTC day), more than an hour ago, so that only a
 * late write (lateBefore) can still change it, and it may be read packed.
 */
export const openFrom = (now: Date): string => new Date(Math.min(now.getTime(), Date.now()) - 13 * HOUR_MS).toISOString().slice(0, 10);

/**
 * A write to a day before this one (at the clock, once the write is done) is
 * late: it bumps the day's and its month's count, so that a packing of them
 * made before it never counts. The hour between lateBefore and openFrom
 * absorbs the clocks of two processes drifting apart.
 */
const lateBefore = (): string => new Date(Date.now() - 12 * HOUR_MS).toISOString().slice(0, 10);

/** The weekday (0 = Sunday) of a calendar date, whatever the zone. */
export const weekdayOf = (day: string): number => new Date(`${day}T00:00:00Z`).getUTCDay();

/** The last day of a month (`2026-02` → `2026-02-28`). */
export function lastDayOf(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** A key or counter part made safe as a field name (no `.`, no leading `$`). */
const safe = (part: string): string => part.replace(/[.$]/g, '_');

interface PendingWrite {
  set: { day: string; month?: string; dimension: StoredDimension };
  inc: Record<string, number>;
}

/**
 * Adds `facts` to the tenant's buckets: one upsert per document touched (per
 * day and dimension, per month and dimension, and the month's `daily`).
 */
export async function addToBuckets(db: Db, tenant: Tenant, facts: BucketFact[]): Promise<void> {
  if (!facts.length) return;
  const tz = await accountTimeZone(db, tenant.accountId);
  const docs = new Map<string, PendingWrite>();
  const bump = (id: string, set: PendingWrite['set'], path: string[], by: number) => {
    let doc = docs.get(id);
    if (!doc) docs.set(id, (doc = { set, inc: {} }));
    const field = ['c', ...path].join('.');
    doc.inc[field] = (doc.inc[field] ?? 0) + by;
  };
  // The facts of one local hour move the same counters (a batch of clicks is mostly one hour): summed first, laid out once each.
  const sums = new Map<string, { day: string; hour: number; inc: BucketIncrement }>();
  for (const fact of facts) {
    const { day, hour } = localDayHour(fact.at, tz);
    for (const inc of fact.incs) {
      const k = `${day}\n${hour}\n${inc.dimension}\n${inc.key ?? ''}\n${inc.counter}`;
      const sum = sums.get(k);
      if (sum) sum.inc.by += inc.by;
      else sums.set(k, { day, hour, inc: { ...inc } });
    }
  }
  for (const { day, hour, inc } of sums.values()) {
    const month = day.slice(0, 7);
    const last = lastDayOf(month);
    const dimension = inc.dimension;
    const counter = inc.counter.split('.').map(safe);
    const key = dimension === 'totals' ? [] : dimension === 'hours' ? [String(hour)] : [safe(inc.key ?? '')];
    if (key[0] === '') throw new Error(`a ${dimension} counter needs a key`);
    const keyed = dimension !== 'totals' && dimension !== 'hours';
    const sharded = (id: string): string => (keyed ? shardId(id, inc.key!) : id);
    bump(sharded(bucketId(tenant, day, dimension)), { day, dimension }, [...key, ...counter], inc.by);
    if (dimension === 'totals')
      bump(monthBucketId(tenant, month, 'daily'), { day: last, month, dimension: 'daily' }, [day.slice(8), ...counter], inc.by);
    else {
      const monthKey = dimension === 'hours' ? [`${weekdayOf(day)}_${hour}`] : key;
      bump(sharded(monthBucketId(tenant, month, dimension)), { day: last, month, dimension }, [...monthKey, ...counter], inc.by);
    }
  }
  const coll = db.collection<BucketDoc>('analytics_buckets');
  const engine = await engineOf(db);
  const writes = [...docs].map(([id, doc]) => ({ id, ...doc }));
  const chunks: BucketWrite[][] = [];
  for (let i = 0; i < writes.length; i += engine.bulkUpserts) chunks.push(writes.slice(i, i + engine.bulkUpserts));
  await Promise.all(chunks.map((chunk) => upsertIncs(engine, coll, tenant, chunk)));
  // A day that may be packed is marked changed, with its month, after its documents moved (see reads.ts).
  const before = lateBefore();
  const late = [...new Set(writes.flatMap((doc) => (doc.set.month === undefined && doc.set.day < before ? [doc.set.day] : [])))];
  if (late.length) {
    const months = [...new Set(late.map((day) => day.slice(0, 7)))];
    await upsertIncs(engine, coll, tenant, [
      { id: packVersionsId(tenant), set: { day: NEVER_SWEPT, dimension: 'packs' }, inc: Object.fromEntries(months.map((m) => [`c.${m}`, 1])) },
      ...months.map((month) => ({
        id: dayVersionsId(tenant, month),
        set: { day: lastDayOf(month), month, dimension: 'packs' as const },
        inc: Object.fromEntries(late.filter((day) => day.startsWith(month)).map((day) => [`c.${day.slice(8)}`, 1])),
      })),
    ]);
  }
}

interface BucketWrite {
  id: string;
  set: Omit<BucketDoc, '_id' | 'account_id' | 'env' | 'c'>;
  inc: Record<string, number>;
}

/**
 * Upserts by `_id` with `$inc` as one ordered bulk write (one round trip),
 * in turn with the other bulk writes of this process where the engine needs it. An ordered bulk
 * write stops at its first error, having applied every statement before it:
 * a duplicate key there (two first writers of a document in two processes
 * both inserted; the loser's update finds the winner's document) sends that
 * statement and the rest again.
 */
function upsertIncs(engine: EngineProfile, coll: Collection<BucketDoc>, tenant: Tenant, writes: BucketWrite[]): Promise<void> {
  const bulk = async (from: number): Promise<void> => {
    const statements = writes.slice(from).map(({ id, set, inc }) => ({
      updateOne: {
        filter: { _id: id },
        update: { $inc: inc, $setOnInsert: { account_id: tenant.accountId, env: tenant.env, ...set } },
        upsert: true,
      },
    }));
    try {
      await coll.bulkWrite(statements, { ordered: true });
    } catch (err) {
      const first = err instanceof MongoBulkWriteError ? ([] as WriteError[]).concat(err.writeErrors)[0] : undefined;
      if (!first || !isDuplicateKey({ code: first.code, message: first.errmsg })) throw err;
      await bulk(from + first.index);
    }
  };
  return inTurn(engine, () => bulk(0));
}

/** The tenant's day documents of `dimension` for `days` (those that exist; days without a document had no activity). */
export function readBuckets(db: Db, tenant: Tenant, dimension: Dimension, days: string[]): Promise<BucketDoc[]> {
  return readBucketDocs(
    db,
    tenant,
    days.map((day) => bucketId(tenant, day, dimension)),
  );
}

/**
 * The tenant's bucket documents among `ids` (those that exist), read by
 * `_id`: a keyed dimension's from its shards (and any document written whole
 * before them), merged under its id.
 */
export async function readBucketDocs(db: Db, tenant: Tenant, ids: string[]): Promise<BucketDoc[]> {
  const stored = await tenantCollection<BucketDoc>(db, 'analytics_buckets', tenant).findByIds(
    ids.flatMap((id) => (isKeyedId(id) ? shardIds(id) : [id])),
  );
  const byId = new Map(stored.map((doc) => [doc._id, doc]));
  return ids.flatMap((id) => {
    if (!isKeyedId(id)) return byId.get(id) ?? [];
    const docs = shardIds(id).flatMap((shard) => byId.get(shard) ?? []);
    if (!docs.length) return [];
    return [{ ...docs[0]!, _id: id, c: docs.reduce((sum, doc) => addInto(sum, doc.c), {} as Record<string, unknown>) }];
  });
}

interface MonthBucketsMarker {
  _id: string;
  /** The first month month documents count whole (`YYYY-MM`). */
  from: string;
  started_at: Date;
}

const MARKER_ID = 'month_buckets';
/** Counts every month: the deployment had no bucket before month documents. */
export const EVERY_MONTH = '0000-01';
/** Counts no month (no marker yet): reports read day documents only. */
const NO_MONTH = '9999-12';

/** The month after `month`. */
function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 7);
}

/**
 * Records, once per deployment, the first month that month documents count
 * whole (every process calls it at start; the first call decides). A
 * deployment without any bucket yet: every month. One that has day documents
 * from before month documents existed: the month after the one in which any
 * local day of `now` falls (a fact counted before now has a local day at most
 * a day after now's UTC day); earlier months are read from their day
 * documents, which hold everything (docs/guides/analytics.md).
 */
export async function startMonthBuckets(db: Db, now: Date = new Date()): Promise<string> {
  const markers = platformCollection<MonthBucketsMarker>(db, 'analytics_state');
  const found = await markers.findOne({ _id: MARKER_ID });
  if (found) return found.from;
  const counted = await db.collection('analytics_buckets').findOne({}, { projection: { _id: 1 } });
  const from = counted ? nextMonth(new Date(now.getTime() + 86_400_000).toISOString().slice(0, 7)) : EVERY_MONTH;
  try {
    await markers.insertOne({ _id: MARKER_ID, from, started_at: now });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  return (await markers.findOne({ _id: MARKER_ID }))?.from ?? from;
}

/** The marker never changes once written: kept per database. */
const monthsFrom = new Map<string, string>();

/** The first month that month documents count whole in this deployment (none before startMonthBuckets ran). */
export async function monthBucketsFrom(db: Db): Promise<string> {
  const hit = monthsFrom.get(db.databaseName);
  if (hit) return hit;
  const marker = await platformCollection<MonthBucketsMarker>(db, 'analytics_state').findOne({ _id: MARKER_ID });
  if (!marker) return NO_MONTH;
  monthsFrom.set(db.databaseName, marker.from);
  return marker.from;
}

/**
 * How long buckets are kept, in days after their local day (a month
 * document's: the month's last day): every dimension alike (the heatmap's
 * `hours` too, which `days=365` reads). The analytics operations read at most
 * 365 local days ending today; an account's today is at most a day before
 * UTC's, so 400 days keep every bucket a report can read, and a month
 * document while any of its days can be read. A report may read a month's
 * document less the days before its window: those are at most 365 + 31 days
 * old, so the retention must not go below 397 days.
 */
export const BUCKET_RETENTION_DAYS = 400;

/**
 * Removes every tenant's buckets of days (month documents: of months whose
 * last day is) more than BUCKET_RETENTION_DAYS before `now`'s UTC day (the
 * retention sweep); how many. Local days compare as text (`YYYY-MM-DD`); a
 * fact counted that long after its day (a late commission report) lands in a
 * bucket the next sweep removes.
 */
export async function sweepOldBuckets(db: Db, now: Date = new Date()): Promise<number> {
  const before = new Date(now.getTime() - BUCKET_RETENTION_DAYS * 86_400_000).toISOString().slice(0, 10);
  return (await crossTenantCollection<BucketDoc>(db, 'analytics_buckets').deleteMany({ day: { $lt: before } })).deletedCount;
}
