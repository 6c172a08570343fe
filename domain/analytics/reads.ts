/**
 * How a report reads its window (buckets.ts holds the documents): the days
 * before openFrom are **closed** and come from packed documents (a month's or
 * a day's counters as one JSON string: one value to decode, however many
 * counters it holds), summed once per process and kept
 * (ClosedCache); the days from openFrom on (one or two) are **live** and read
 * as they are on every report.
 *
 * Exact across processes without any wait: every report reads the late-write
 * counts of what it reads closed (the `packs` document per month, a month's
 * day counts per day), and a packed document, or a kept sum, counts only at
 * the counts it was made at. A late write bumps the counts once its documents
 * moved (addToBuckets); a packing reads the counts before the documents it
 * packs; so a packing that misses a write never matches the counts.
 */
import { Db } from 'mongodb';
import { isDuplicateKey, Tenant, tenantCollection, TenantDoc } from '../db';
import {
  addInto,
  BucketDoc,
  bucketId,
  Dimension,
  dayVersionsId,
  lastDayOf,
  monthBucketId,
  packedBucketId,
  packedDayId,
  packVersionsId,
  readBucketDocs,
  StoredDimension,
  weekdayOf,
} from './buckets';

export type Counters = Record<string, unknown>;

/** A closed piece of a window: a packed document (`id`) of the document `source`, added or subtracted. */
export interface Part {
  id: string;
  source: string;
  /** Its count of late writes: the month's (`packs`) for a month part, the day's for a day part. */
  month: string;
  day?: string;
  sign: 1 | -1;
}

/** What a report reads of one stored dimension: its closed parts, and its live documents. */
export interface Plan {
  dimension: StoredDimension;
  parts: Part[];
  live: string[];
}

/** A packed document: the counters of `source` as one JSON string, and the count (`v`) it was packed at. */
interface PackedDoc extends TenantDoc {
  day: string;
  month: string;
  dimension: StoredDimension;
  v: number;
  p: string;
}

/** What entriesOf reads a document's counters as. */
type Shape = Pick<BucketDoc, 'day' | 'month' | 'dimension'>;

const pad = (n: number): string => String(n).padStart(2, '0');

/** Every day of a month. */
function daysOf(month: string): string[] {
  const length = Number(lastDayOf(month).slice(8));
  return Array.from({ length }, (_, i) => `${month}-${pad(i + 1)}`);
}

const monthsOf = (list: string[]): string[] => [...new Set(list.map((day) => day.slice(0, 7)))];

const monthPart = (tenant: Tenant, month: string, dimension: StoredDimension): Part => ({
  id: packedBucketId(tenant, month, dimension),
  source: monthBucketId(tenant, month, dimension),
  month,
  sign: 1,
});

const dayPart = (tenant: Tenant, day: string, dimension: Dimension, sign: 1 | -1 = 1): Part => ({
  id: packedDayId(tenant, day, dimension),
  source: bucketId(tenant, day, dimension),
  month: day.slice(0, 7),
  day,
  sign,
});

/**
 * A keyed dimension (or `hours`) over the window `list`: its live days'
 * documents; for each month of its closed days, the fewer of its closed
 * days packed, or — a month closed whole, from `monthsFrom` on — its packed
 * month less its days outside the window. A year: 11 or 12 months and at
 * most 16 days at its start, the current month's closed days at its end.
 */
export function keyedPlan(tenant: Tenant, dimension: Dimension, list: string[], monthsFrom: string, open: string): Plan {
  const inWindow = new Set(list);
  const closed = list.filter((day) => day < open);
  const parts: Part[] = [];
  for (const month of monthsOf(closed)) {
    const all = daysOf(month);
    const inside = closed.filter((day) => day.startsWith(month));
    const outside = all.filter((day) => !inWindow.has(day));
    if (month >= monthsFrom && all.at(-1)! < open && 1 + outside.length < inside.length)
      parts.push(monthPart(tenant, month, dimension), ...outside.map((day) => dayPart(tenant, day, dimension, -1)));
    else parts.push(...inside.map((day) => dayPart(tenant, day, dimension)));
  }
  return { dimension, parts, live: list.filter((day) => day >= open).map((day) => bucketId(tenant, day, dimension)) };
}

/**
 * The window's totals day by day (the summary and the timeseries): the
 * `daily` document of each month from `monthsFrom` on — packed when the month
 * is closed, else live (a month's days: 31 small entries) —, and the earlier
 * months' `totals` day documents (packed when closed). A year: 13 documents.
 */
export function dailyPlan(tenant: Tenant, list: string[], monthsFrom: string, open: string): Plan {
  const plan: Plan = { dimension: 'daily', parts: [], live: [] };
  for (const month of monthsOf(list)) {
    if (month >= monthsFrom) {
      if (lastDayOf(month) < open) plan.parts.push(monthPart(tenant, month, 'daily'));
      else plan.live.push(monthBucketId(tenant, month, 'daily'));
    } else
      for (const day of list.filter((d) => d.startsWith(month))) {
        if (day < open) plan.parts.push(dayPart(tenant, day, 'totals'));
        else plan.live.push(bucketId(tenant, day, 'totals'));
      }
  }
  return plan;
}

/** The count documents a report reads with `plans`: `packs` for month parts, a month's day counts for its day parts. */
export function versionIds(tenant: Tenant, plans: Plan[]): string[] {
  const parts = plans.flatMap((plan) => plan.parts);
  const months = [...new Set(parts.filter((part) => part.day !== undefined).map((part) => part.month))];
  return [...(parts.some((part) => part.day === undefined) ? [packVersionsId(tenant)] : []), ...months.map((m) => dayVersionsId(tenant, m))];
}

/**
 * A bucket document's counters as entries of one flat key space per stored
 * dimension: a `daily` document's days as `YYYY-MM-DD`, a `totals` day
 * document as its day, a day's `hours` as `<weekday>_<hour>` (a month's
 * already are), other keys as they are.
 */
export function* entriesOf(doc: Shape, c: Counters): Iterable<[string, Counters]> {
  if (doc.dimension === 'daily') for (const [dd, v] of Object.entries(c)) yield [`${doc.month}-${dd}`, v as Counters];
  else if (doc.dimension === 'totals') yield [doc.day, c];
  else if (doc.dimension === 'hours' && doc.month === undefined) {
    const weekday = weekdayOf(doc.day);
    for (const [hour, v] of Object.entries(c)) yield [`${weekday}_${hour}`, v as Counters];
  } else for (const [key, v] of Object.entries(c)) yield [key, v as Counters];
}

/** The entries of `docs` summed per key. */
export function sumEntries(docs: { doc: Shape; c: Counters; sign: number }[]) {
  const sums = new Map<string, Counters>();
  for (const { doc, c, sign } of docs) {
    for (const [key, counters] of entriesOf(doc, c)) {
      let sum = sums.get(key);
      if (!sum) sums.set(key, (sum = {}));
      addInto(sum, counters, sign);
    }
  }
  return sums;
}

/** A plan's closed parts summed per key, with what a report derived from them (orderings), kept per process. */
export interface ClosedSum {
  sums: Map<string, Counters>;
  derived: Map<string, unknown>;
}

/**
 * Closed sums kept in this process, least recently used forgotten first once
 * their estimated size passes CLOSED_CACHE_BYTES. A sum is keyed by its
 * database, its parts and their counts at reading, so it is never used once a
 * late write changed one of them: kept, a sum is only ever exact.
 */
export class ClosedCache {
  private readonly entries = new Map<string, { value: ClosedSum; size: number }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): ClosedSum | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: string, value: ClosedSum, size: number): void {
    const old = this.entries.get(key);
    if (old) this.bytes -= old.size;
    this.entries.delete(key);
    if (size > this.maxBytes) return;
    this.entries.set(key, { value, size });
    this.bytes += size;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.size;
    }
  }

  get size(): number {
    return this.bytes;
  }
}

/** About what a sum's key and counters take in memory, per key (measured on offers' counters: ~10 numbers in 3 levels). */
const BYTES_PER_KEY = 600;
/** The closed sums a process keeps: a year of 25,000 offers is ~15 MB. */
export const CLOSED_CACHE_BYTES = 128 * 1024 * 1024;
const closedSums = new ClosedCache(CLOSED_CACHE_BYTES);
/** The sums being made: reports asking for one at the same moment wait for the same reads. */
const summing = new Map<string, Promise<ClosedSum>>();

/** What a report read: per plan, its closed sum and its live documents. */
export interface PlanRead {
  plan: Plan;
  closed: ClosedSum;
  live: BucketDoc[];
}

/**
 * Reads `plans`: the count documents and the live documents (one round of
 * look-ups by `_id`), then each plan's closed sum from this process's cache,
 * else from its packed documents (a part packed at another count, or not yet
 * packed, from its source document, packed again without waiting).
 */
export async function readPlans(db: Db, tenant: Tenant, plans: Plan[]): Promise<PlanRead[]> {
  const counts = versionIds(tenant, plans);
  const found = await readBucketDocs(db, tenant, [...counts, ...plans.flatMap((plan) => plan.live)]);
  const byId = new Map(found.map((doc) => [doc._id, doc]));
  const monthCounts = byId.get(packVersionsId(tenant))?.c ?? {};
  const countOf = (part: Part): number =>
    ((part.day === undefined ? monthCounts[part.month] : byId.get(dayVersionsId(tenant, part.month))?.c[part.day.slice(8)]) as
      number | undefined) ?? 0;
  return Promise.all(
    plans.map(async (plan) => {
      const key = `${db.databaseName}\n${plan.parts.map((part) => `${part.id}@${countOf(part)}${part.sign < 0 ? '-' : ''}`).join(',')}`;
      let closed = closedSums.get(key);
      if (!closed) {
        let pending = summing.get(key);
        if (!pending) {
          pending = readParts(db, tenant, plan.parts, countOf)
            .then((parts) => {
              const sum = { sums: sumEntries(parts), derived: new Map() };
              closedSums.set(key, sum, sum.sums.size * BYTES_PER_KEY);
              return sum;
            })
            .finally(() => summing.delete(key));
          summing.set(key, pending);
        }
        closed = await pending;
      }
      const live = plan.live.flatMap((id) => byId.get(id) ?? []);
      return { plan, closed, live };
    }),
  );
}

/** The counters of `parts`, each from its packed document when packed at its current count, else from its source. */
async function readParts(db: Db, tenant: Tenant, parts: Part[], countOf: (part: Part) => number) {
  const coll = tenantCollection<PackedDoc>(db, 'analytics_buckets', tenant);
  const packed = new Map((await coll.findByIds(parts.map((part) => part.id))).map((doc) => [doc._id, doc]));
  const stale = parts.filter((part) => packed.get(part.id)?.v !== countOf(part));
  const sources = new Map(
    (
      await readBucketDocs(
        db,
        tenant,
        stale.map((p) => p.source),
      )
    ).map((d) => [d._id, d]),
  );
  return parts.map((part) => {
    const doc = packed.get(part.id);
    if (doc && doc.v === countOf(part)) return { doc: shapeOf(part), c: JSON.parse(doc.p) as Counters, sign: part.sign };
    const source = sources.get(part.source);
    const c = source?.c ?? {};
    // A failed packing leaves the part as it was: the next report that misses the cache reads its source and packs it again.
    pack(db, tenant, part, countOf(part), c).catch(() => undefined);
    return { doc: shapeOf(part), c, sign: part.sign };
  });
}

/** What a part's entries are read as (entriesOf), from its `_id`. */
function shapeOf(part: Part): Shape & { dimension: StoredDimension } {
  const dimension = part.id.slice(part.id.lastIndexOf(':') + 1) as StoredDimension;
  return part.day === undefined ? { day: lastDayOf(part.month), month: part.month, dimension } : { day: part.day, dimension };
}

/** The packings queued in this process: one at a time (background work, never many writes beside requests), each document once. */
let lastPacking: Promise<unknown> = Promise.resolve();
const packing = new Set<string>();

/**
 * Writes a part's packed document from its source's counters `c`, read after
 * the count `v` was (readPlans): a write that `c` missed bumps the count after
 * it, so the packed document never matches it.
 */
function pack(db: Db, tenant: Tenant, part: Part, v: number, c: Counters): Promise<void> {
  if (packing.has(part.id)) return Promise.resolve();
  packing.add(part.id);
  const shape = shapeOf(part);
  const doc: PackedDoc = {
    _id: part.id,
    account_id: tenant.accountId,
    env: tenant.env,
    day: shape.day,
    month: part.month,
    dimension: shape.dimension,
    v,
    p: JSON.stringify(c),
  };
  const run = lastPacking.then(() =>
    db
      .collection<PackedDoc>('analytics_buckets')
      .replaceOne({ _id: part.id }, doc, { upsert: true })
      .then(() => undefined)
      .catch((err: unknown) => {
        // Packed by another process at the same moment: either is a packing at some count, checked by the reader.
        if (!isDuplicateKey(err)) throw err;
      })
      .finally(() => packing.delete(part.id)),
  );
  lastPacking = run.catch(() => undefined);
  return run;
}

/** Waits for the packings this process has queued (tests, and the benchmark's seed). */
export const packingsDone = (): Promise<unknown> => lastPacking;
