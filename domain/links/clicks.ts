/**
 * Clicks of tracked links. The redirect answers first and hands the click to
 * a ClickBuffer, which gives it its id at once (the id goes into the 302) and
 * keeps it in a **batch**: one document per tenant per flush, holding its
 * clicks, written every CLICK_FLUSH_MS, or at once when CLICK_BATCH clicks
 * of a tenant wait, and on a clean stop (closeApp); then one addToBuckets per
 * batch with its counters. A crash loses at most the clicks of the last
 * CLICK_FLUSH_MS (and those of a failed write waiting for its retry).
 *
 * A click's id names its batch: `clk_<batch id, 24 characters><its index in
 * the batch, 3 base-32 digits>`, the batch document's `_id` being
 * `clk_<batch id>`; so a click is read by `_id` alone (clickById), the
 * cheapest read on every engine. The batch holds its clicks as text columns
 * (ClickLines): a value a line, the user-agent class a letter, each link
 * written once. A database stores a long string for a fraction of what an
 * array of as many values costs it (an engine converts each element), and
 * the driver encodes it as one value. Batches written before hold one array per field (ClickColumns)
 * and are still read. A click keeps its link's id; the link's fields (offer,
 * publication, group, segment, marketplace) are read from the link (links
 * never change).
 *
 * A click holds no IP address: a keyed hash of it at most (HMAC-SHA256 under
 * a key derived from the sealing key, truncated), enough to tell repeats
 * apart, useless to recover the address.
 */
import { createHmac } from 'node:crypto';
import { Db } from 'mongodb';
import { Logger } from 'pino';
import { addToBuckets, BucketFact, BucketIncrement, quarterOf } from '../analytics/buckets';
import { crossTenantCollection, isDuplicateKey, Tenant, tenantCollection, TenantDoc } from '../db';
import { newId } from '../ids';
import { boundedMemo } from '../memo';
import { AgentClass } from './agents';
import { Marketplace } from '../marketplaces';
import { LinkDoc } from './store';

/** What a click takes from its link. */
export interface ClickLink {
  link_id: string;
  marketplace: Marketplace;
  offer_id?: string;
  publication_id?: string;
  group_id?: string;
  segment_id?: string;
}

/** What the redirect learns of a click beyond its link. */
export interface ClickFields {
  page_id?: string;
  element?: string;
  referrer_host?: string;
  ua_class: AgentClass;
  bot: boolean;
  country?: string;
  ip_hash?: string;
  at: Date;
}

/** A click whole: its id, tenant, link fields and its own. */
export interface ClickDoc extends TenantDoc, ClickLink, ClickFields {}

/** A click as its batch keeps it: its own fields and its link's id. */
type StoredClick = ClickFields & { link_id: string };

/** The fields that may be missing; their column is left out when no click of the batch has one. */
const OPTIONAL = ['page_id', 'element', 'referrer_host', 'country', 'ip_hash'] as const;
type Optional = (typeof OPTIONAL)[number];

/** The clicks of a batch stored before text columns, one array per field: click `i`'s values at index `i` (null where it has none). */
export type ClickColumns = { [K in Exclude<keyof StoredClick, Optional>]: StoredClick[K][] } & {
  [K in Optional]?: (string | null)[];
};

/**
 * The clicks of a batch as text, click `i`'s value of each field on line `i` (an empty line where it has none; no
 * value holds a line break or is empty), or its character `i` for the one-letter fields. Links repeat within a
 * batch, so each is written once (`links`) and a click names its line there.
 */
export type ClickLines = { [K in Optional]?: string } & {
  /** The batch's link ids, one a line, in the order of their first click. */
  links: string;
  /** Each click's link: its line in `links`, base 36. */
  link: string;
  /** Each click's user-agent class, one letter (UA_LETTERS). */
  ua: string;
  /** Each click's `bot`, one character (`1` a machine). */
  bot: string;
  /** Each click's time, milliseconds after the batch's `since`. */
  at: string;
};

/** The letter of each user-agent class in ClickLines' `ua`, and back. */
const UA_LETTERS: Record<AgentClass, string> = { mobile: 'm', desktop: 'd', bot: 'b', preview: 'p', prefetch: 'f' };
const UA_OF_LETTER = new Map(Object.entries(UA_LETTERS).map(([ua, letter]) => [letter, ua as AgentClass]));

/** The stored document: a tenant's clicks of one flush, as text columns (`lines`, `since`), or arrays (`clicks`) when written before. */
export interface ClickBatchDoc extends TenantDoc {
  count: number;
  since?: Date;
  lines?: ClickLines;
  clicks?: ClickColumns;
}

export const CLICK_FLUSH_MS = 1_000;
/**
 * A batch's size at most (~400 kB). Counters cost a dozen bucket upserts
 * whatever they add (about 1 ms of the embedded engine's CPU each), so they
 * move once per flush for every batch stored since: at 4,000 clicks a second,
 * counting per 500 clicks cost ~35 µs of the database per click, per 4,000
 * ~5 (measured apart, docs/benchmarks/links.md).
 */
export const CLICK_BATCH = 5_000;
/** Clicks kept for a retry after failed writes, at most (beyond, the oldest are dropped and logged). */
const MAX_BACKLOG = 50_000;

/** The key IP hashes are made with: derived from the sealing key, never stored. */
const ipHashKey = (secretKey: Buffer): Buffer => createHmac('sha256', secretKey).update('offerops click ip v1').digest();

export const hashIp = (ip: string, key: Buffer): string => createHmac('sha256', key).update(ip).digest('base64url').slice(0, 22);

/** hashIp under the key of `secretKey`, the last 10,000 addresses' hashes kept (a visitor clicks again; HMACs cost). */
export const ipHasher = (secretKey: Buffer): ((ip: string) => string) => {
  const key = ipHashKey(secretKey);
  return boundedMemo(10_000, (ip) => hashIp(ip, key));
};

/** What a click's counters depend on. */
type CountedClick = ClickLink & Pick<ClickFields, 'bot' | 'page_id' | 'element'>;

/** The counters `by` such clicks move (one by default): `clicks` for a person, `bot_clicks` for a machine, in each dimension it knows. */
export function clickIncrements(c: CountedClick, by = 1): BucketIncrement[] {
  const counter = c.bot ? 'bot_clicks' : 'clicks';
  const incs: BucketIncrement[] = [
    { dimension: 'totals', counter, by },
    { dimension: 'hours', counter, by },
    { dimension: 'sources', key: c.marketplace, counter, by },
  ];
  const keyed = [
    ['groups', c.group_id],
    ['offers', c.offer_id],
    ['segments', c.segment_id],
    ['pages', c.page_id],
    ['elements', c.element],
  ] as const;
  for (const [dimension, key] of keyed) if (key) incs.push({ dimension, key, counter, by });
  return incs;
}

/** Base-32 digits of a click's index in its batch (CLICK_BATCH ≤ 32³ = 32,768). */
const INDEX_DIGITS = 3;
const CLICK_ID = /^(clk_[0-9a-z]{24})([0-9a-v]{3})$/;

export const clickIdOf = (batchId: string, index: number): string => `${batchId}${index.toString(32).padStart(INDEX_DIGITS, '0')}`;

/** Each user-agent class by its number in a batch's filling columns. */
const UA_CLASSES = Object.keys(UA_LETTERS) as AgentClass[];
const UA_NUMBER = new Map(UA_CLASSES.map((ua, i) => [ua, i]));
/** The character code of each class's letter, by its number; of `bot`'s two characters. */
const UA_CODES = UA_CLASSES.map((ua) => UA_LETTERS[ua].charCodeAt(0));
const [ZERO, ONE] = [48, 49];

/**
 * A batch's clicks as they come, to be packed as ClickLines: numbers in typed arrays (a link's number in order of
 * its first click, the agent class, bot, the time), grown by doubling up to CLICK_BATCH, so those fields add no
 * object for the garbage collector to copy while the batch waits; an optional field's column (its strings as they
 * came) is made, null for the clicks before, when the first click that has it comes.
 */
export class FillingColumns {
  private filled = 0;
  private readonly links = new Map<string, number>();
  /** A link's number: a batch has at most CLICK_BATCH (< 65,536) links. */
  private link = new Uint16Array(64);
  private ua = new Uint8Array(64);
  private bot = new Uint8Array(64);
  private at = new Float64Array(64);
  private readonly optional: { [K in Optional]?: (string | null)[] } = {};

  add(linkId: string, click: ClickFields): void {
    const i = this.filled++;
    if (i === this.at.length) this.grow();
    let n = this.links.get(linkId);
    if (n === undefined) this.links.set(linkId, (n = this.links.size));
    this.link[i] = n;
    this.ua[i] = UA_NUMBER.get(click.ua_class)!;
    this.bot[i] = click.bot ? 1 : 0;
    this.at[i] = click.at.getTime();
    for (const field of OPTIONAL) {
      const value = click[field];
      const column = this.optional[field];
      if (column) column.push(value ?? null);
      else if (value !== undefined) (this.optional[field] = new Array<string | null>(i).fill(null)).push(value);
    }
  }

  /** The columns as they are stored: text, `at` in milliseconds after `since`. */
  pack(since: Date): ClickLines {
    const n = this.filled;
    const t0 = since.getTime();
    const link: string[] = new Array<string>(n);
    const at: string[] = new Array<string>(n);
    const ua = Buffer.allocUnsafe(n);
    const bot = Buffer.allocUnsafe(n);
    for (let i = 0; i < n; i++) {
      link[i] = this.link[i]!.toString(36);
      at[i] = String(this.at[i]! - t0);
      ua[i] = UA_CODES[this.ua[i]!]!;
      bot[i] = this.bot[i] ? ONE : ZERO;
    }
    const lines: ClickLines = {
      links: [...this.links.keys()].join('\n'),
      link: link.join('\n'),
      ua: ua.toString('latin1'),
      bot: bot.toString('latin1'),
      at: at.join('\n'),
    };
    for (const field of OPTIONAL) if (this.optional[field]) lines[field] = this.optional[field].join('\n');
    return lines;
  }

  /** How many clicks the columns hold. */
  get count(): number {
    return this.filled;
  }

  private grow(): void {
    const size = Math.min(this.at.length * 2, CLICK_BATCH);
    const grown = <A extends Uint16Array | Uint8Array | Float64Array>(from: A, to: A): A => (to.set(from), to);
    this.link = grown(this.link, new Uint16Array(size));
    this.ua = grown(this.ua, new Uint8Array(size));
    this.bot = grown(this.bot, new Uint8Array(size));
    this.at = grown(this.at, new Float64Array(size));
  }
}

/** A batch's document, its clicks turned into text columns. */
export function batchDoc(batch: { _id: string; account_id: string; env: TenantDoc['env'] }, clicks: StoredClick[]): ClickBatchDoc {
  const columns = new FillingColumns();
  for (const { link_id, ...click } of clicks) columns.add(link_id, click);
  const since = clicks[0]?.at ?? new Date(0);
  return { _id: batch._id, account_id: batch.account_id, env: batch.env, count: clicks.length, since, lines: columns.pack(since) };
}

/** Line `index` of a text column (undefined past its end). */
function lineAt(text: string, index: number): string | undefined {
  let start = 0;
  for (let i = 0; i < index; i++) {
    start = text.indexOf('\n', start) + 1;
    if (start === 0) return undefined;
  }
  const end = text.indexOf('\n', start);
  return text.slice(start, end === -1 ? undefined : end);
}

/** The `index`th click of a batch, with its link's id (not its link's fields); either way it is stored. */
export function clickAt(batch: ClickBatchDoc, index: number): StoredClick & { _id: string } {
  const _id = clickIdOf(batch._id, index);
  const l = batch.lines;
  if (l) {
    const click: StoredClick & { _id: string } = {
      _id,
      link_id: lineAt(l.links, parseInt(lineAt(l.link, index)!, 36))!,
      ua_class: UA_OF_LETTER.get(l.ua[index]!)!,
      bot: l.bot[index] === '1',
      at: new Date(batch.since!.getTime() + Number(lineAt(l.at, index))),
    };
    for (const field of OPTIONAL) {
      const text = l[field];
      const value = text === undefined ? undefined : lineAt(text, index);
      if (value) click[field] = value;
    }
    return click;
  }
  const c = batch.clicks!;
  const click: StoredClick & { _id: string } = {
    _id,
    link_id: c.link_id[index]!,
    ua_class: c.ua_class[index]!,
    bot: c.bot[index]!,
    at: c.at[index]!,
  };
  for (const field of OPTIONAL) {
    const value = c[field]?.[index];
    if (value !== undefined && value !== null) click[field] = value;
  }
  return click;
}

const linkFieldsOf = (link: LinkDoc): ClickLink => ({
  link_id: link._id,
  marketplace: link.marketplace,
  ...(link.offer_id ? { offer_id: link.offer_id } : {}),
  ...(link.publication_id ? { publication_id: link.publication_id } : {}),
  ...(link.group_id ? { group_id: link.group_id } : {}),
  ...(link.segment_id ? { segment_id: link.segment_id } : {}),
});

/** The tenant's click of this id (the sub-id a network returns), or null (none, or its link is gone): its batch and its link, each read by `_id`. */
export async function clickById(db: Db, tenant: Tenant, id: string): Promise<ClickDoc | null> {
  const m = CLICK_ID.exec(id);
  if (!m) return LEGACY_CLICK_ID.test(id) ? legacyClick(db, tenant, id) : null;
  const batch = await tenantCollection<ClickBatchDoc>(db, 'clicks', tenant).findById(m[1]!);
  const index = parseInt(m[2]!, 32);
  if (!batch || index >= batch.count) return null;
  const click = clickAt(batch, index);
  const link = await tenantCollection<LinkDoc>(db, 'links', tenant).findById(click.link_id);
  return link ? { account_id: batch.account_id, env: batch.env, ...linkFieldsOf(link), ...click } : null;
}

/** The id of a click stored by a build before batches: a document of its own, its link's fields in it. */
const LEGACY_CLICK_ID = /^clk_[0-9a-z]{24}$/;

/** A click stored one document per click (builds before batches; attribution still finds it), never a batch read as a click. */
async function legacyClick(db: Db, tenant: Tenant, id: string): Promise<ClickDoc | null> {
  const doc = await tenantCollection<ClickDoc | ClickBatchDoc>(db, 'clicks', tenant).findById(id);
  return doc && !('count' in doc) ? doc : null;
}

/** Clicks of a batch that move the same counters (same link, quarter hour, person or machine, page and element), and how many. */
interface ClickGroup {
  click: CountedClick;
  at: Date;
  quarter: number;
  n: number;
}

/** A batch being filled or waiting for its write: its document's fields, its clicks as columns (filled as they come), and their counters' groups by link id. */
interface Batch {
  doc: { _id: string; account_id: string; env: TenantDoc['env']; since: Date };
  /** Its clicks so far (their number: `columns.count`). */
  columns: FillingColumns;
  groups: ClickGroups;
}

/** Clicks' counters groups by link id. */
type ClickGroups = Map<string, ClickGroup[]>;

/** The facts groups add to their tenant's buckets: one per group of clicks moving the same counters. */
const groupFacts = (groups: ClickGroups): BucketFact[] =>
  [...groups.values()].flatMap((ofLink) => ofLink.map((g) => ({ at: g.at, incs: clickIncrements(g.click, g.n) })));

/** The group among a link's whose clicks move the same counters as a click at `quarter` with these fields, if any. */
function groupIn(ofLink: ClickGroup[], quarter: number, c: Pick<ClickFields, 'bot' | 'page_id' | 'element'>): ClickGroup | undefined {
  for (const g of ofLink)
    if (g.quarter === quarter && g.click.bot === c.bot && g.click.page_id === c.page_id && g.click.element === c.element) return g;
  return undefined;
}

/** Counts a click in its group (same link, quarter hour, person or machine, page and element): a link's few groups are looked through, no key made per click. */
function countIn(groups: ClickGroups, link: LinkDoc, click: ClickFields): void {
  const quarter = quarterOf(click.at);
  let ofLink = groups.get(link._id);
  if (!ofLink) groups.set(link._id, (ofLink = []));
  const same = groupIn(ofLink, quarter, click);
  if (same) same.n++;
  else
    ofLink.push({
      click: { ...linkFieldsOf(link), bot: click.bot, page_id: click.page_id, element: click.element },
      at: click.at,
      quarter,
      n: 1,
    });
}

/** Adds the groups of a stored batch to those waiting for the counters (the batch's are taken over, not copied). */
function mergeGroups(into: ClickGroups, from: ClickGroups): void {
  for (const [linkId, groups] of from) {
    const ofLink = into.get(linkId);
    if (!ofLink) {
      into.set(linkId, groups);
      continue;
    }
    for (const g of groups) {
      const same = groupIn(ofLink, g.quarter, g.click);
      if (same) same.n += g.n;
      else ofLink.push(g);
    }
  }
}

export class ClickBuffer {
  /** The batch being filled, per tenant. */
  private open = new Map<string, Batch>();
  /** Batches full or flushed, not yet stored (a failed write's batches wait here for the next flush). */
  private closed: Batch[] = [];
  /** Counters of stored batches not yet added, per tenant: added at each flush, however many batches filled since. */
  private uncounted = new Map<string, { tenant: Tenant; groups: ClickGroups }>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly flushMs = CLICK_FLUSH_MS,
  ) {}

  /** Queues a click through `link`; never waits for a write. Its id, for the redirect. */
  add(link: LinkDoc, click: ClickFields): string {
    const key = `${link.account_id}\n${link.env}`;
    let batch = this.open.get(key);
    if (!batch) {
      batch = {
        doc: { _id: newId('clk', click.at.getTime()), account_id: link.account_id, env: link.env, since: click.at },
        columns: new FillingColumns(),
        groups: new Map(),
      };
      this.open.set(key, batch);
    }
    countIn(batch.groups, link, click);
    const id = clickIdOf(batch.doc._id, batch.columns.count);
    batch.columns.add(link._id, click);
    if (batch.columns.count >= CLICK_BATCH) {
      this.open.delete(key);
      this.closed.push(batch);
      void this.write(false);
    } else this.timer ??= setTimeout(() => void this.flush(), this.flushMs);
    return id;
  }

  /** Writes what waits now, counters included (after any write under way); resolves once written or kept for a retry. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const batch of this.open.values()) this.closed.push(batch);
    this.open.clear();
    return this.write(true);
  }

  /** A clean stop: writes every waiting click. */
  async close(): Promise<void> {
    await this.flush();
  }

  /** Stores the closed batches, after the write under way; with `counters`, then adds the counters of every batch stored since the last time. */
  private write(counters: boolean): Promise<void> {
    this.running = this.running.then(async () => {
      await this.store();
      if (counters) await this.addCounters();
      else if (this.uncounted.size) this.timer ??= setTimeout(() => void this.flush(), this.flushMs);
      // Nothing waits (a flush queued behind full batches has written all): no timer keeps the process up.
      if (!this.open.size && !this.closed.length && !this.uncounted.size) {
        clearTimeout(this.timer);
        this.timer = undefined;
      }
    });
    return this.running;
  }

  private async store(): Promise<void> {
    const batches = this.closed;
    this.closed = [];
    const failed: Batch[] = [];
    for (const batch of batches) {
      try {
        await crossTenantCollection<ClickBatchDoc>(this.db, 'clicks').insertOne({
          ...batch.doc,
          count: batch.columns.count,
          lines: batch.columns.pack(batch.doc.since),
        });
      } catch (err) {
        // A duplicate: an earlier try stored the batch but its answer was lost (so its counters were not added).
        if (!isDuplicateKey(err)) {
          this.logger.error({ err, clicks: batch.columns.count }, 'clicks not written; retrying with the next flush');
          failed.push(batch);
          continue;
        }
      }
      this.countLater(batch);
    }
    if (failed.length) this.retryLater(failed);
  }

  /**
   * Keeps a stored batch's counters for the next flush: a bucket upsert costs
   * the same however much it adds, so batches filled within one flush interval
   * move the buckets once together, their groups merged (a link's clicks of
   * one quarter hour in several batches are one fact).
   */
  private countLater(batch: Batch): void {
    const key = `${batch.doc.account_id}\n${batch.doc.env}`;
    const pending = this.uncounted.get(key);
    if (pending) mergeGroups(pending.groups, batch.groups);
    else this.uncounted.set(key, { tenant: { accountId: batch.doc.account_id, env: batch.doc.env }, groups: batch.groups });
  }

  private async addCounters(): Promise<void> {
    const pending = [...this.uncounted.values()];
    this.uncounted.clear();
    for (const { tenant, groups } of pending) {
      const facts = groupFacts(groups);
      // The clicks are stored: a failed bucket write is logged, not retried (it would count them twice).
      await addToBuckets(this.db, tenant, facts).catch((err: unknown) =>
        this.logger.error({ err, account_id: tenant.accountId, facts: facts.length }, 'click counters not written'),
      );
    }
  }

  private retryLater(failed: Batch[]): void {
    this.closed.unshift(...failed);
    let waiting = this.closed.reduce((n, b) => n + b.columns.count, 0);
    while (waiting > MAX_BACKLOG && this.closed.length > 1) {
      const dropped = this.closed.shift()!;
      waiting -= dropped.columns.count;
      this.logger.error({ dropped: dropped.columns.count }, 'click backlog full: oldest clicks dropped');
    }
    this.timer ??= setTimeout(() => void this.flush(), this.flushMs);
  }
}
