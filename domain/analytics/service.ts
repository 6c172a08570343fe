/**
 * The six analytics reports, read from the buckets (buckets.ts) alone — never
 * the raw publications, deliveries, clicks or commissions: per dimension it
 * shows, a report reads the month documents of the months wholly or mostly
 * inside its window (less the day documents of their days outside it) and the
 * day documents of its other days (the summary and the timeseries: the
 * `daily` document of each month it touches), plus, for a page of groups or
 * offers, their names by `_id`. reportBucketIds says which; the benchmark's
 * bare read reads the same.
 *
 * Counters, as the writers keep them: publications (publications.ts), clicks
 * (`clicks` for people, `bot_clicks` for bots and link prefetchers) and
 * commissions (`commissions.<CUR>.count`, `commissions.<CUR>.amount_minor`,
 * integer minor units per currency, never mixed).
 */
import { Db } from 'mongodb';
import { Page, Tenant } from '../db';
import { getGroups } from '../groups/store';
import { Marketplace } from '../links/marketplaces';
import { getOffers } from '../offers/store';
import { cachedNames } from './names';
import {
  accountTimeZone,
  BucketDoc,
  isPackedId,
  monthBucketsFrom,
  packableBefore,
  packVersionsId,
  readIds,
  readReportDocs,
  seriesRead,
  weekdayOf,
  windowDays,
  windowRead,
} from './buckets';

/** What every report is asked: its window, and whether bots' clicks count. */
export interface ReportQuery {
  days: number;
  include_bots: boolean;
}

type Counters = Record<string, unknown>;

interface Window {
  days: number;
  time_zone: string;
  first_day: string;
  last_day: string;
}

interface Scope {
  window: Window;
  list: string[];
  includeBots: boolean;
  /** The bucket documents the report read. */
  docs: BucketDoc[];
  /** The days whose day documents it subtracts (from their month's document). */
  minus: Set<string>;
}

export type ReportName = 'summary' | 'timeseries' | 'groups' | 'offers' | 'sources' | 'heatmap';

/**
 * The `_id`s of the bucket documents `report` reads over the window `list`
 * (local days, oldest first): for the months before `packBefore`
 * (packableBefore), their packed documents and the tenant's `packs` document.
 */
export function reportBucketIds(tenant: Tenant, report: ReportName, list: string[], monthsFrom: string, packBefore?: string): string[] {
  const ids = ((): string[] => {
    switch (report) {
      case 'summary':
      case 'timeseries':
        return readIds(tenant, seriesRead(list, monthsFrom), 'totals', 'daily', packBefore);
      case 'groups':
      case 'offers':
      case 'sources':
        return readIds(tenant, windowRead(list, monthsFrom), report, report, packBefore);
      case 'heatmap': {
        const read = windowRead(list, monthsFrom);
        return (['hours', 'elements', 'pages'] as const).flatMap((dimension) => readIds(tenant, read, dimension, dimension, packBefore));
      }
    }
  })();
  return ids.some(isPackedId) ? [...ids, packVersionsId(tenant)] : ids;
}

/** The report's window, and the bucket documents it reads. */
async function scopeOf(db: Db, tenant: Tenant, report: ReportName, q: ReportQuery, now: Date): Promise<Scope> {
  const [timeZone, monthsFrom] = await Promise.all([accountTimeZone(db, tenant.accountId), monthBucketsFrom(db)]);
  const list = windowDays(now, q.days, timeZone);
  return {
    window: { days: q.days, time_zone: timeZone, first_day: list[0]!, last_day: list.at(-1)! },
    list,
    includeBots: q.include_bots,
    docs: await readReportDocs(db, tenant, reportBucketIds(tenant, report, list, monthsFrom, packableBefore(now))),
    minus: new Set(report === 'summary' || report === 'timeseries' ? [] : windowRead(list, monthsFrom).minus),
  };
}

/** -1 for a day document the report subtracts, else 1. */
const signOf = (s: Scope, doc: BucketDoc): number => (doc.month === undefined && s.minus.has(doc.day) ? -1 : 1);

/** Adds every number of `from` (times `sign`) into `into`, nested objects key by key. */
function addInto(into: Counters, from: unknown, sign = 1): Counters {
  if (typeof from !== 'object' || from === null) return into;
  for (const [k, v] of Object.entries(from)) {
    if (typeof v === 'number') into[k] = ((into[k] as number | undefined) ?? 0) + sign * v;
    else if (typeof v === 'object' && v !== null) into[k] = addInto((into[k] as Counters | undefined) ?? {}, v, sign);
  }
  return into;
}

const num = (c: Counters, name: string): number => {
  const v = c[name];
  return typeof v === 'number' ? v : 0;
};

const clicksOf = (c: Counters, includeBots: boolean): number => num(c, 'clicks') + (includeBots ? num(c, 'bot_clicks') : 0);

const rate = (sent: number, failed: number): number | null => (sent + failed > 0 ? sent / (sent + failed) : null);

/** Digits after the decimal point of a currency (2 for BRL, 0 for JPY; 2 for a code the runtime does not know). */
const exponents = new Map<string, number>();
function exponentOf(currency: string): number {
  let e = exponents.get(currency);
  if (e === undefined) {
    try {
      e = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      e = 2;
    }
    exponents.set(currency, e);
  }
  return e;
}

/** `123456` minor units of a 2-digit currency → `"1234.56"` (exact: integers only). */
export function decimalOf(minor: number, currency: string): string {
  const e = exponentOf(currency);
  const digits = String(Math.abs(minor)).padStart(e + 1, '0');
  return `${minor < 0 ? '-' : ''}${e ? `${digits.slice(0, -e)}.${digits.slice(-e)}` : digits}`;
}

interface MoneyTotal {
  currency: string;
  count: number;
  amount_minor: number;
  amount: string;
}

/** The commissions of `c`, one entry per currency with any, by currency code. */
function moneyOf(c: Counters): MoneyTotal[] {
  const byCurrency = (c.commissions ?? {}) as Record<string, Counters>;
  return Object.keys(byCurrency)
    .sort()
    .map((currency) => {
      const amount_minor = num(byCurrency[currency]!, 'amount_minor');
      return { currency, count: num(byCurrency[currency]!, 'count'), amount_minor, amount: decimalOf(amount_minor, currency) };
    })
    .filter((m) => m.count !== 0 || m.amount_minor !== 0);
}

const commissionCount = (c: Counters): number => moneyOf(c).reduce((n, m) => n + m.count, 0);

/** The `totals` of each day, from its day document or its entry in its month's `daily` document. */
function dailyOf(docs: BucketDoc[]): Map<string, Counters> {
  const byDay = new Map<string, Counters>();
  for (const doc of docs) {
    if (doc.month === undefined) byDay.set(doc.day, doc.c);
    else for (const [dd, c] of Object.entries(doc.c)) byDay.set(`${doc.month}-${dd}`, c as Counters);
  }
  return byDay;
}

/** The counters of every key of a keyed dimension, summed over `docs` (less those the report subtracts). */
function keyedOf(s: Scope, docs: BucketDoc[] = s.docs): Map<string, Counters> {
  const sums = new Map<string, Counters>();
  for (const doc of docs) {
    const sign = signOf(s, doc);
    for (const [key, counters] of Object.entries(doc.c)) {
      let sum = sums.get(key);
      if (!sum) sums.set(key, (sum = {}));
      addInto(sum, counters, sign);
    }
  }
  return sums;
}

export async function summaryReport(db: Db, tenant: Tenant, q: ReportQuery, now = new Date()) {
  const s = await scopeOf(db, tenant, 'summary', q, now);
  const byDay = dailyOf(s.docs);
  const t: Counters = {};
  for (const day of s.list) addInto(t, byDay.get(day));
  return {
    ...s.window,
    publications: num(t, 'publications'),
    publications_sent: num(t, 'publications_sent'),
    publications_failed: num(t, 'publications_failed'),
    deliveries: num(t, 'deliveries'),
    deliveries_sent: num(t, 'deliveries_sent'),
    deliveries_failed: num(t, 'deliveries_failed'),
    delivery_rate: rate(num(t, 'deliveries_sent'), num(t, 'deliveries_failed')),
    clicks: clicksOf(t, s.includeBots),
    bot_clicks: num(t, 'bot_clicks'),
    commissions: moneyOf(t),
  };
}

export async function timeseriesReport(db: Db, tenant: Tenant, q: ReportQuery, now = new Date()) {
  const s = await scopeOf(db, tenant, 'timeseries', q, now);
  const byDay = dailyOf(s.docs);
  return {
    ...s.window,
    points: s.list.map((date) => {
      const c = byDay.get(date) ?? {};
      return {
        date,
        publications: num(c, 'publications'),
        posts: num(c, 'publications_sent'),
        failures: num(c, 'publications_failed'),
        deliveries_sent: num(c, 'deliveries_sent'),
        deliveries_failed: num(c, 'deliveries_failed'),
        clicks: clicksOf(c, s.includeBots),
        commissions: moneyOf(c),
      };
    }),
  };
}

/** Rows with anything to show, ordered by `rank`, and one page of them. */
function paged<R>(rows: R[], shown: (r: R) => boolean, rank: (a: R, b: R) => number, page: Page): { items: R[]; total: number } {
  const kept = rows.filter(shown).sort(rank);
  return { items: kept.slice(page.offset, page.offset + page.limit), total: kept.length };
}

const groupNames = cachedNames(async (db, tenant, ids) => new Map([...(await getGroups(db, tenant, ids))].map(([id, g]) => [id, g.name])));
const offerNames = cachedNames(
  async (db, tenant, ids) =>
    new Map([...(await getOffers(db, tenant, ids))].map(([id, o]) => [id, { title: o.title, marketplace: o.marketplace }])),
);

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export async function groupsReport(db: Db, tenant: Tenant, q: ReportQuery, page: Page, now = new Date()) {
  const s = await scopeOf(db, tenant, 'groups', q, now);
  const rows = [...keyedOf(s)].map(([group_id, c]) => ({
    group_id,
    publications: num(c, 'deliveries'),
    sent: num(c, 'deliveries_sent'),
    failed: num(c, 'deliveries_failed'),
    delivery_rate: rate(num(c, 'deliveries_sent'), num(c, 'deliveries_failed')),
    clicks: clicksOf(c, s.includeBots),
    commissions: moneyOf(c),
  }));
  const { items, total } = paged(
    rows,
    (r) => r.publications + r.sent + r.failed + r.clicks > 0 || r.commissions.length > 0,
    (a, b) => b.publications - a.publications || b.clicks - a.clicks || byId(a.group_id, b.group_id),
    page,
  );
  const names = await groupNames(
    db,
    tenant,
    items.map((r) => r.group_id),
  );
  return { items: items.map((r) => ({ ...r, name: names.get(r.group_id) ?? null })), total };
}

export const OFFER_SORTS = ['publications', 'clicks', 'commissions'] as const;

export async function offersReport(
  db: Db,
  tenant: Tenant,
  q: ReportQuery & { sort: (typeof OFFER_SORTS)[number] },
  page: Page,
  now = new Date(),
) {
  const s = await scopeOf(db, tenant, 'offers', q, now);
  const rows = [...keyedOf(s)].map(([offer_id, c]) => ({
    offer_id,
    publications: num(c, 'publications'),
    posts: num(c, 'publications_sent'),
    clicks: clicksOf(c, s.includeBots),
    commissions: commissionCount(c),
    revenue: moneyOf(c),
  }));
  const { items, total } = paged(
    rows,
    (r) => r.publications + r.posts + r.clicks > 0 || r.revenue.length > 0,
    (a, b) => b[q.sort] - a[q.sort] || byId(a.offer_id, b.offer_id),
    page,
  );
  const offers = await offerNames(
    db,
    tenant,
    items.map((r) => r.offer_id),
  );
  return {
    items: items.map((r) => {
      const offer = offers.get(r.offer_id);
      return { ...r, title: offer?.title ?? null, marketplace: offer?.marketplace ?? null };
    }),
    total,
  };
}

export async function sourcesReport(db: Db, tenant: Tenant, q: ReportQuery, page: Page, now = new Date()) {
  const s = await scopeOf(db, tenant, 'sources', q, now);
  // The sources scope is keyed by the marketplace analytics gave each offer (./sources.ts).
  const rows = [...keyedOf(s)].map(([marketplace, c]) => ({
    marketplace: marketplace as Marketplace,
    publications: num(c, 'publications'),
    clicks: clicksOf(c, s.includeBots),
    commissions: commissionCount(c),
    revenue: moneyOf(c),
  }));
  return paged(
    rows,
    (r) => r.publications + r.clicks > 0 || r.revenue.length > 0,
    (a, b) => b.clicks - a.clicks || b.publications - a.publications || byId(a.marketplace, b.marketplace),
    page,
  );
}

/** Most clicked first (then by key), at most `max`, without the keys that had none. */
function ranked<K extends string>(sums: Map<string, Counters>, name: K, includeBots: boolean, max: number) {
  return [...sums]
    .map(([key, c]) => ({ [name]: key, clicks: clicksOf(c, includeBots) }) as Record<K, string> & { clicks: number })
    .filter((r) => r.clicks > 0)
    .sort((a, b) => b.clicks - a.clicks || byId(a[name], b[name]))
    .slice(0, max);
}

/** How many elements and pages the heatmap lists. */
const HEATMAP_KEYS = 500;

export async function heatmapReport(db: Db, tenant: Tenant, q: ReportQuery, now = new Date()) {
  const s = await scopeOf(db, tenant, 'heatmap', q, now);
  const of = (dimension: BucketDoc['dimension']) => s.docs.filter((doc) => doc.dimension === dimension);
  const [elements, pages] = [keyedOf(s, of('elements')), keyedOf(s, of('pages'))];
  const cells = Array.from({ length: 7 * 24 }, (_, i) => ({ weekday: Math.floor(i / 24), hour: i % 24, clicks: 0 }));
  let clicks = 0;
  for (const doc of of('hours')) {
    // A day document's hours fall on its day's weekday (a calendar date, whatever the zone); a month's are `<weekday>_<hour>`.
    const dayWeekday = doc.month === undefined ? weekdayOf(doc.day) : 0;
    const sign = signOf(s, doc);
    for (const [key, c] of Object.entries(doc.c)) {
      const [weekday, hour] = doc.month === undefined ? [dayWeekday, Number(key)] : key.split('_').map(Number);
      const n = sign * clicksOf(c as Counters, s.includeBots);
      cells[weekday! * 24 + hour!]!.clicks += n;
      clicks += n;
    }
  }
  return {
    ...s.window,
    clicks,
    hours: cells,
    elements: ranked(elements, 'element', s.includeBots, HEATMAP_KEYS),
    pages: ranked(pages, 'page_id', s.includeBots, HEATMAP_KEYS),
  };
}
