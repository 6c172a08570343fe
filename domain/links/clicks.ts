/**
 * Clicks of tracked links. The redirect answers first and hands the click to
 * a ClickBuffer; the buffer writes its clicks in batches — one insertMany per
 * tenant, then one addToBuckets per tenant with the counters of the batch —
 * every CLICK_FLUSH_MS, or at once when CLICK_BATCH clicks wait, and on a
 * clean stop (closeApp). A crash loses at most the clicks of the last
 * CLICK_FLUSH_MS (and those of a failed write waiting for its retry).
 *
 * A click holds no IP address: a keyed hash of it at most (HMAC-SHA256 under
 * a key derived from the sealing key, truncated), enough to tell repeats
 * apart, useless to recover the address.
 */
import { createHmac } from 'node:crypto';
import { Db, MongoBulkWriteError } from 'mongodb';
import { Logger } from 'pino';
import { addToBuckets, BucketFact, BucketIncrement } from '../analytics/buckets';
import { crossTenantCollection, TenantDoc } from '../db';
import { boundedMemo } from '../memo';
import { AgentClass } from './agents';
import { Marketplace } from './marketplaces';

export interface ClickDoc extends TenantDoc {
  link_id: string;
  offer_id?: string;
  publication_id?: string;
  group_id?: string;
  segment_id?: string;
  page_id?: string;
  element?: string;
  marketplace: Marketplace;
  referrer_host?: string;
  ua_class: AgentClass;
  bot: boolean;
  country?: string;
  ip_hash?: string;
  at: Date;
}

export const CLICK_FLUSH_MS = 1_000;
export const CLICK_BATCH = 500;
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

/** The counters one click moves: `clicks` for a person, `bot_clicks` for a machine, in each dimension it knows. */
export function clickIncrements(c: ClickDoc): BucketIncrement[] {
  const counter = c.bot ? 'bot_clicks' : 'clicks';
  const incs: BucketIncrement[] = [
    { dimension: 'totals', counter, by: 1 },
    { dimension: 'hours', counter, by: 1 },
    { dimension: 'sources', key: c.marketplace, counter, by: 1 },
  ];
  const keyed = [
    ['groups', c.group_id],
    ['offers', c.offer_id],
    ['segments', c.segment_id],
    ['pages', c.page_id],
    ['elements', c.element],
  ] as const;
  for (const [dimension, key] of keyed) if (key) incs.push({ dimension, key, counter, by: 1 });
  return incs;
}

/** The documents of `docs` the insert wrote (a retried batch meets the ones a failed try wrote as duplicates). */
async function insertNew(db: Db, docs: ClickDoc[]): Promise<ClickDoc[]> {
  try {
    await crossTenantCollection<ClickDoc>(db, 'clicks').insertMany(docs, { ordered: false });
    return docs;
  } catch (err) {
    if (!(err instanceof MongoBulkWriteError)) throw err;
    const raw: unknown = err.writeErrors;
    const errors = (Array.isArray(raw) ? raw : [raw]) as { code: number; index: number }[];
    if (errors.some((e) => e.code !== 11000)) throw err;
    const duplicate = new Set(errors.map((e) => e.index));
    return docs.filter((_, i) => !duplicate.has(i));
  }
}

export class ClickBuffer {
  private pending: ClickDoc[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly flushMs = CLICK_FLUSH_MS,
  ) {}

  /** Queues a click; never waits for a write. */
  add(click: ClickDoc): void {
    this.pending.push(click);
    if (this.pending.length >= CLICK_BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.flushMs);
  }

  /** Writes what waits now (after any flush under way); resolves once written or given back for a retry. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    this.running = this.running.then(() => this.write(batch));
    return this.running;
  }

  /** A clean stop: writes every waiting click. */
  async close(): Promise<void> {
    await this.flush();
  }

  private async write(batch: ClickDoc[]): Promise<void> {
    if (!batch.length) return;
    const byTenant = new Map<string, ClickDoc[]>();
    for (const c of batch) {
      const key = `${c.account_id}\n${c.env}`;
      const list = byTenant.get(key);
      if (list) list.push(c);
      else byTenant.set(key, [c]);
    }
    for (const docs of byTenant.values()) {
      const tenant = { accountId: docs[0]!.account_id, env: docs[0]!.env };
      let written: ClickDoc[];
      try {
        written = await insertNew(this.db, docs);
      } catch (err) {
        this.retryLater(docs, err);
        continue;
      }
      const facts: BucketFact[] = written.map((c) => ({ at: c.at, incs: clickIncrements(c) }));
      // The clicks are stored: a failed bucket write is logged, not retried (it would count them twice).
      await addToBuckets(this.db, tenant, facts).catch((err: unknown) =>
        this.logger.error({ err, account_id: tenant.accountId, clicks: facts.length }, 'click counters not written'),
      );
    }
  }

  private retryLater(docs: ClickDoc[], err: unknown): void {
    this.logger.error({ err, clicks: docs.length }, 'clicks not written; retrying with the next flush');
    this.pending.unshift(...docs);
    const over = this.pending.length - MAX_BACKLOG;
    if (over > 0) {
      this.pending.splice(0, over);
      this.logger.error({ dropped: over }, 'click backlog full: oldest clicks dropped');
    }
    this.timer ??= setTimeout(() => void this.flush(), this.flushMs);
  }
}
