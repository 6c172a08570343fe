/**
 * The six analytics reports, read from the buckets (buckets.ts) alone — never
 * the raw publications, deliveries, clicks or commissions: per dimension it
 * shows, a report reads its window's closed days as sums kept in the process
 * (made from packed month and day documents, checked against their counts of
 * late writes on every request) and its live days' documents (reads.ts), plus,
 * for a page of groups or offers, their names by `_id`. reportBucketIds says
 * which; the benchmark's bare read reads the same.
 *
 * Counters, as the writers keep them: publications (publications.ts), clicks
 * (`clicks` for people, `bot_clicks` for bots and link prefetchers) and
 * commissions (`commissions.<CUR>.count`, `commissions.<CUR>.amount_minor`,
 * integer minor units per currency, never mixed).
 */
import { Db } from 'mongodb';
import { Page, Tenant } from '../db';
import { getGroups } from '../groups/store';
import { Marketplace } from '../marketplaces';
import { getOffers } from '../offers/store';
import { cachedNames } from './names';
import { accountTimeZone, addInto, monthBucketsFrom, openFrom, windowDays } from './buckets';
import { Counters, dailyPlan, keyedPlan, Plan, PlanRead, readPlans, sumEntries, versionIds } from './reads';

/** What every report is asked: its window, and whether bots' clicks count. */
export interface ReportQuery {
  days: number;
  include_bots: boolean;
}

interface Window {
  days: number;
  time_zone: string;
  first_day: string;
  last_day: string;
}

/** A plan read, its live documents summed per key. */
interface Read extends PlanRead {
  liveSums: Map<string, Counters>;
}

interface Scope {
  window: Window;
  list: string[];
  includeBots: boolean;
  reads: Read[];
}

export type ReportName = 'summary' | 'timeseries' | 'groups' | 'offers' | 'sources' | 'heatmap';

/** What `report` reads over the window `list` (local days, oldest first), days from `open` on live (reads.ts). */
export function reportPlans(tenant: Tenant, report: ReportName, list: string[], monthsFrom: string, open: string): Plan[] {
  switch (report) {
    case 'summary':
    case 'timeseries':
      return [dailyPlan(tenant, list, monthsFrom, open)];
    case 'groups':
    case 'offers':
    case 'sources':
      return [keyedPlan(tenant, report, list, monthsFrom, open)];
    case 'heatmap':
      return (['hours', 'elements', 'pages'] as const).map((dimension) => keyedPlan(tenant, dimension, list, monthsFrom, open));
  }
}

/**
 * The `_id`s a report reads: on every request (`every`: its count documents
 * and live documents), and the packed documents of its closed parts, which a
 * process reads only when it has not summed them at their counts yet.
 */
export function reportBucketIds(tenant: Tenant, plans: Plan[]): { every: string[]; closed: string[] } {
  return {
    every: [...versionIds(tenant, plans), ...plans.flatMap((plan) => plan.live)],
    closed: plans.flatMap((plan) => plan.parts.map((part) => part.id)),
  };
}

/** The report's window, and what it read. */
async function scopeOf(db: Db, tenant: Tenant, report: ReportName, q: ReportQuery, now: Date): Promise<Scope> {
  const [timeZone, monthsFrom] = await Promise.all([accountTimeZone(db, tenant.accountId), monthBucketsFrom(db)]);
  const list = windowDays(now, q.days, timeZone);
  const reads = await readPlans(db, tenant, reportPlans(tenant, report, list, monthsFrom, openFrom(now)));
  return {
    window: { days: q.days, time_zone: timeZone, first_day: list[0]!, last_day: list.at(-1)! },
    list,
    includeBots: q.include_bots,
    reads: reads.map((read) => ({ ...read, liveSums: sumEntries(read.live.map((doc) => ({ doc, c: doc.c, sign: 1 }))) })),
  };
}

/** A key's counters: its closed sum and its live documents' together (a new object only when both have some). */
function countersOf(read: Read, key: string): Counters | undefined {
  const [closed, live] = [read.closed.sums.get(key), read.liveSums.get(key)];
  if (!live) return closed;
  if (!closed) return live;
  return addInto(addInto({}, closed), live);
}

/** How a keyed report ranks its keys: a row per key, which rows it shows, in which order (`id` names the three). */
interface Ranking<R> {
  id: string;
  row: (c: Counters) => R;
  shown: (row: R) => boolean;
  order: (a: Ranked<R>, b: Ranked<R>) => number;
}

interface Ranked<R> {
  key: string;
  row: R;
}

/**
 * One page of a keyed report's shown rows in `ranking`'s order, and how many
 * there are: the closed sum's rows are ranked once per process (kept with the
 * sum), the live documents' keys ranked apart and merged in, so a request
 * ranks only what changed today.
 */
function rankedPage<R>(read: Read, ranking: Ranking<R>, page: Page): { items: (Ranked<R> & { c: Counters })[]; total: number } {
  let base = read.closed.derived.get(ranking.id) as Ranked<R>[] | undefined;
  if (!base) {
    base = [...read.closed.sums]
      .map(([key, c]) => ({ key, row: ranking.row(c) }))
      .filter((r) => ranking.shown(r.row))
      .sort(ranking.order);
    read.closed.derived.set(ranking.id, base);
  }
  const changed = [...read.liveSums.keys()]
    .map((key) => {
      const c = countersOf(read, key)!;
      return { key, c, row: ranking.row(c) };
    })
    .filter((r) => ranking.shown(r.row))
    .sort(ranking.order);
  let replaced = 0;
  for (const key of read.liveSums.keys()) {
    const c = read.closed.sums.get(key);
    if (c && ranking.shown(ranking.row(c))) replaced++;
  }
  const items: (Ranked<R> & { c: Counters })[] = [];
  const end = page.offset + page.limit;
  let [i, j] = [0, 0];
  while (items.length < end) {
    while (i < base.length && read.liveSums.has(base[i]!.key)) i++;
    const [a, b] = [base[i], changed[j]];
    if (!a && !b) break;
    if (a && (!b || ranking.order(a, b) <= 0)) {
      items.push({ ...a, c: read.closed.sums.get(a.key)! });
      i++;
    } else {
      items.push(b!);
      j++;
    }
  }
  return { items: items.slice(page.offset), total: base.length - replaced + changed.length };
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

/** The `totals` of a day of the window. */
const dayOf = (s: Scope, day: string): Counters | undefined => countersOf(s.reads[0]!, day);

export async function summaryReport(db: Db, tenant: Tenant, q: ReportQuery, now = new Date()) {
  const s = await scopeOf(db, tenant, 'summary', q, now);
  const t: Counters = {};
  for (const day of s.list) addInto(t, dayOf(s, day));
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
  return {
    ...s.window,
    points: s.list.map((date) => {
      const c = dayOf(s, date) ?? {};
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

/** Whether `c` has commissions in any currency (a count or an amount not zero). */
const hasMoney = (c: Counters): boolean =>
  Object.values((c.commissions ?? {}) as Record<string, Counters>).some((m) => num(m, 'count') !== 0 || num(m, 'amount_minor') !== 0);

const groupNames = cachedNames(async (db, tenant, ids) => new Map([...(await getGroups(db, tenant, ids))].map(([id, g]) => [id, g.name])));
const offerNames = cachedNames(
  async (db, tenant, ids) =>
    new Map([...(await getOffers(db, tenant, ids))].map(([id, o]) => [id, { title: o.title, marketplace: o.marketplace }])),
);

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export async function groupsReport(db: Db, tenant: Tenant, q: ReportQuery, page: Page, now = new Date()) {
  const s = await scopeOf(db, tenant, 'groups', q, now);
  const ranking: Ranking<{ publications: number; clicks: number; shown: boolean }> = {
    id: `groups:${s.includeBots}`,
    row: (c) => {
      const [publications, clicks] = [num(c, 'deliveries'), clicksOf(c, s.includeBots)];
      return { publications, clicks, shown: publications + num(c, 'deliveries_sent') + num(c, 'deliveries_failed') + clicks > 0 || hasMoney(c) };
    },
    shown: (r) => r.shown,
    order: (a, b) => b.row.publications - a.row.publications || b.row.clicks - a.row.clicks || byId(a.key, b.key),
  };
  const { items, total } = rankedPage(s.reads[0]!, ranking, page);
  const names = await groupNames(
    db,
    tenant,
    items.map((r) => r.key),
  );
  return {
    items: items.map(({ key: group_id, c }) => ({
      group_id,
      publications: num(c, 'deliveries'),
      sent: num(c, 'deliveries_sent'),
      failed: num(c, 'deliveries_failed'),
      delivery_rate: rate(num(c, 'deliveries_sent'), num(c, 'deliveries_failed')),
      clicks: clicksOf(c, s.includeBots),
      commissions: moneyOf(c),
      name: names.get(group_id) ?? null,
    })),
    total,
    window: s.window,
  };
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
  const ranking: Ranking<{ rank: number; shown: boolean }> = {
    id: `offers:${q.sort}:${s.includeBots}`,
    row: (c) => {
      const [publications, clicks] = [num(c, 'publications'), clicksOf(c, s.includeBots)];
      const rank = q.sort === 'publications' ? publications : q.sort === 'clicks' ? clicks : commissionCount(c);
      return { rank, shown: publications + num(c, 'publications_sent') + clicks > 0 || hasMoney(c) };
    },
    shown: (r) => r.shown,
    order: (a, b) => b.row.rank - a.row.rank || byId(a.key, b.key),
  };
  const { items, total } = rankedPage(s.reads[0]!, ranking, page);
  const offers = await offerNames(
    db,
    tenant,
    items.map((r) => r.key),
  );
  return {
    items: items.map(({ key: offer_id, c }) => {
      const offer = offers.get(offer_id);
      return {
        offer_id,
        publications: num(c, 'publications'),
        posts: num(c, 'publications_sent'),
        clicks: clicksOf(c, s.includeBots),
        commissions: commissionCount(c),
        revenue: moneyOf(c),
        title: offer?.title ?? null,
        marketplace: offer?.marketplace ?? null,
      };
    }),
    total,
    window: s.window,
  };
}

export async function sourcesReport(db: Db, tenant: Tenant, q: ReportQuery, page: Page, now = new Date()) {
  const s = await scopeOf(db, tenant, 'sources', q, now);
  // The sources scope is keyed by the marketplace analytics gave each offer (./sources.ts).
  const ranking: Ranking<{ publications: number; clicks: number; shown: boolean }> = {
    id: `sources:${s.includeBots}`,
    row: (c) => {
      const [publications, clicks] = [num(c, 'publications'), clicksOf(c, s.includeBots)];
      return { publications, clicks, shown: publications + clicks > 0 || hasMoney(c) };
    },
    shown: (r) => r.shown,
    order: (a, b) => b.row.clicks - a.row.clicks || b.row.publications - a.row.publications || byId(a.key, b.key),
  };
  const { items, total } = rankedPage(s.reads[0]!, ranking, page);
  return {
    items: items.map(({ key, c }) => ({
      marketplace: key as Marketplace,
      publications: num(c, 'publications'),
      clicks: clicksOf(c, s.includeBots),
      commissions: commissionCount(c),
      revenue: moneyOf(c),
    })),
    total,
    window: s.window,
  };
}

/** How many elements and pages the heatmap lists. */
const HEATMAP_KEYS = 500;

/** Most clicked first (then by key), at most HEATMAP_KEYS, without the keys that had none. */
function mostClicked<K extends string>(read: Read, name: K, includeBots: boolean) {
  const ranking: Ranking<number> = {
    id: `clicks:${includeBots}`,
    row: (c) => clicksOf(c, includeBots),
    shown: (clicks) => clicks > 0,
    order: (a, b) => b.row - a.row || byId(a.key, b.key),
  };
  return rankedPage(read, ranking, { limit: HEATMAP_KEYS, offset: 0 }).items.map(
    ({ key, row }) => ({ [name]: key, clicks: row }) as Record<K, string> & { clicks: number },
  );
}

export async function heatmapReport(db: Db, tenant: Tenant, q: ReportQuery, now = new Date()) {
  const s = await scopeOf(db, tenant, 'heatmap', q, now);
  const [hours, elements, pages] = s.reads as [Read, Read, Read];
  const cells = Array.from({ length: 7 * 24 }, (_, i) => ({ weekday: Math.floor(i / 24), hour: i % 24, clicks: 0 }));
  let clicks = 0;
  // Keys `<weekday>_<hour>` (reads.ts entriesOf): a day's hours fall on its day's weekday, a calendar date whatever the zone.
  for (const key of new Set([...hours.closed.sums.keys(), ...hours.liveSums.keys()])) {
    const [weekday, hour] = key.split('_').map(Number);
    const n = clicksOf(countersOf(hours, key)!, s.includeBots);
    cells[weekday! * 24 + hour!]!.clicks += n;
    clicks += n;
  }
  return {
    ...s.window,
    clicks,
    hours: cells,
    elements: mostClicked(elements, 'element', s.includeBots),
    pages: mostClicked(pages, 'page_id', s.includeBots),
  };
}
