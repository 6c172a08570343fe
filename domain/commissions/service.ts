/**
 * Commission reports — from a postback or an import row — applied to the
 * commission of their transaction: created on the first report, then moved
 * in the order of the network's own timestamps. A report older than the
 * current state (it arrived late) is kept in the history, marked not
 * applied, and changes nothing else; the same report twice (same status and
 * timestamp) is a replay and changes nothing at all. Each state-changing
 * write records its events and moves the analytics counters once.
 */
import { Db } from 'mongodb';
import { Schema } from '../../schemas/types';
import { addToBuckets, BucketFact, BucketIncrement } from '../analytics/buckets';
import { isDuplicateKey, OutboxEvent, Tenant } from '../db';
import { prepareEvent } from '../events/store';
import { invalid } from '../errors';
import { DomainDeps, found, iso } from '../resource';
import { attribute } from './attribution';
import { fromMinor } from './money';
import {
  Attribution,
  CommissionDoc,
  CommissionQuery,
  CommissionSource,
  CommissionStatus,
  commissionId,
  commissions,
  commissionTotals,
  getCommission,
  insertCommission,
  listCommissions,
} from './store';

export { listCommissions, CommissionQuery };

/** One status report of one transaction, as a postback or an import row gives it (amounts already in minor units). */
export interface CommissionReport {
  marketplace: string;
  transaction_id: string;
  status: CommissionStatus;
  amount_minor: number;
  currency: string;
  order_amount_minor: number | null;
  order_ref: string | null;
  occurred_at: Date;
  /** The network's timestamp of this status (defaults to `occurred_at`). */
  at: Date;
  sub_id: string | null;
  product_url: string | null;
  source: CommissionSource;
}

/** `late`: older than the commission's state, kept in its history only (`applied: false`). */
export type ReportOutcome = 'created' | 'updated' | 'late' | 'unchanged';

/** A report that cannot apply to the commission of its transaction (400 for a postback, a row error for an import). */
export class ReportError extends Error {}

export function toCommission(c: CommissionDoc): Schema<'Commission'> {
  return {
    id: c._id,
    marketplace: c.marketplace,
    transaction_id: c.transaction_id,
    order_ref: c.order_ref,
    amount_minor: c.amount_minor,
    amount: fromMinor(c.amount_minor, c.currency),
    order_amount_minor: c.order_amount_minor,
    currency: c.currency,
    status: c.status,
    status_at: c.status_at.toISOString(),
    attribution: c.attribution,
    history: c.history.map((h) => ({ ...h, at: h.at.toISOString(), received_at: h.received_at.toISOString() })),
    occurred_at: c.occurred_at.toISOString(),
    paid_at: iso(c.paid_at),
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}

export const mustGetCommission = async (deps: DomainDeps, tenant: Tenant, id: string): Promise<CommissionDoc> =>
  found(await getCommission(deps.db, tenant, id), 'commission', id);

/** Statuses whose commission counts in analytics (a cancelled or refunded one is taken back out). */
const counted = (s: CommissionStatus): boolean => s === 'pending' || s === 'approved' || s === 'paid';

/** The counters a commission moves, `sign` times (+1 to count it, -1 to take it back out), with `amount` minor units. */
function bucketIncs(c: CommissionDoc, count: number, amount: number): BucketIncrement[] {
  const cur = c.currency.replace(/[^A-Z0-9]/g, '');
  const moves = [
    ...(count ? [{ counter: `commissions.${cur}.count`, by: count }] : []),
    ...(amount ? [{ counter: `commissions.${cur}.amount_minor`, by: amount }] : []),
  ];
  const a = c.attribution;
  const where: { dimension: BucketIncrement['dimension']; key?: string }[] = [
    { dimension: 'totals' },
    { dimension: 'sources', key: c.marketplace },
    ...(a.group_id ? [{ dimension: 'groups' as const, key: a.group_id }] : []),
    ...(a.offer_id ? [{ dimension: 'offers' as const, key: a.offer_id }] : []),
    ...(a.segment_id ? [{ dimension: 'segments' as const, key: a.segment_id }] : []),
  ];
  return where.flatMap((w) => moves.map((m) => ({ ...w, ...m })));
}

/** What moves the analytics counters from `before` (null: not there) to `after`, on the sale's time; null when nothing does. */
export function commissionChange(before: CommissionDoc | null, after: CommissionDoc): BucketFact | null {
  const was = before !== null && counted(before.status);
  const is = counted(after.status);
  const count = Number(is) - Number(was);
  const amount = (is ? after.amount_minor : 0) - (was ? before.amount_minor : 0);
  return count || amount ? { at: after.occurred_at, incs: bucketIncs(after, count, amount) } : null;
}

/** Moves the analytics counters from `before` (null: not there) to `after`. */
async function countChange(db: Db, tenant: Tenant, before: CommissionDoc | null, after: CommissionDoc): Promise<void> {
  const fact = commissionChange(before, after);
  if (fact) await addToBuckets(db, tenant, [fact]);
}

function approvedEvent(tenant: Tenant, c: CommissionDoc, at: Date): OutboxEvent {
  return prepareEvent(
    tenant,
    'commission.approved',
    {
      commission_id: c._id,
      amount_minor: c.amount_minor,
      currency: c.currency,
      marketplace: c.marketplace,
      offer_id: c.attribution.offer_id,
      group_id: c.attribution.group_id,
      publication_id: c.attribution.publication_id,
    },
    at,
  );
}

async function create(deps: { db: Db }, tenant: Tenant, r: CommissionReport, id: string, now: Date): Promise<CommissionDoc | null> {
  const attribution: Attribution = await attribute(deps.db, tenant, r);
  const doc: CommissionDoc = {
    _id: id,
    account_id: tenant.accountId,
    env: tenant.env,
    marketplace: r.marketplace,
    transaction_id: r.transaction_id,
    order_ref: r.order_ref,
    amount_minor: r.amount_minor,
    order_amount_minor: r.order_amount_minor,
    currency: r.currency,
    status: r.status,
    status_at: r.at,
    attribution,
    history: [{ status: r.status, amount_minor: r.amount_minor, at: r.at, received_at: now, source: r.source, applied: true }],
    occurred_at: r.occurred_at,
    paid_at: r.status === 'paid' ? r.at : null,
    created_at: now,
    updated_at: now,
  };
  const events = [prepareEvent(tenant, 'commission.created', { commission: toCommission(doc) }, now)];
  if (r.status === 'approved') events.push(approvedEvent(tenant, doc, now));
  try {
    // Every event rides in the same write as the commission (events/store.ts).
    await insertCommission(deps.db, tenant, { ...doc, _outbox: events });
  } catch (err) {
    if (isDuplicateKey(err)) return null; // another report of the transaction inserted it first
    throw err;
  }
  return doc;
}

/**
 * Applies a report. Its events wait in the commission's outbox: the API
 * relays them at once (`commitEvents`), an operator command leaves them to
 * the worker's outbox sweep (the CLI reaches MongoDB only).
 */
export async function applyReport(db: Db, tenant: Tenant, r: CommissionReport): Promise<{ outcome: ReportOutcome; commission: CommissionDoc }> {
  const deps = { db };
  const id = commissionId(tenant, r.marketplace, r.transaction_id);
  for (let attempt = 0; attempt < 5; attempt++) {
    const now = new Date();
    const current = await getCommission(deps.db, tenant, id);
    if (!current) {
      const created = await create(deps, tenant, r, id, now);
      if (!created) continue;
      await countChange(deps.db, tenant, null, created);
      return { outcome: 'created', commission: created };
    }
    if (current.currency !== r.currency) {
      throw new ReportError(`transaction ${r.transaction_id} is in ${current.currency}; a report in ${r.currency} cannot change it`);
    }
    if (current.history.some((h) => h.status === r.status && h.at.getTime() === r.at.getTime() && h.amount_minor === r.amount_minor)) {
      return { outcome: 'unchanged', commission: current };
    }
    const newer = r.at > current.status_at;
    const change = { status: r.status, amount_minor: r.amount_minor, at: r.at, received_at: now, source: r.source, applied: newer };
    const set: Partial<CommissionDoc> = { history: [...current.history, change] };
    if (newer) {
      set.status = r.status;
      set.status_at = r.at;
      set.amount_minor = r.amount_minor;
      if (r.order_amount_minor !== null) set.order_amount_minor = r.order_amount_minor;
      if (r.status === 'paid') set.paid_at = r.at;
    }
    const moved = newer && r.status !== current.status;
    const preview = { ...current, ...set, updated_at: now };
    const events = moved
      ? [
          prepareEvent(
            tenant,
            'commission.status_changed',
            { commission: toCommission(preview), from: current.status, to: r.status, source: r.source },
            now,
          ),
          ...(r.status === 'approved' ? [approvedEvent(tenant, preview, now)] : []),
        ]
      : [];
    // The events ride in the same (optimistic) write as the change; outbox events not relayed yet stay (a relay is idempotent).
    if (events.length) set._outbox = [...(current._outbox ?? []), ...events];
    const after = await commissions(deps.db, tenant).updateFrom(current, set);
    if (!after) continue; // another report changed it meanwhile: read again
    if (newer) await countChange(deps.db, tenant, current, after);
    return { outcome: newer ? 'updated' : 'late', commission: after };
  }
  throw new ReportError(`transaction ${r.transaction_id} kept changing while this report was applied; send it again`);
}

/** Totals over [`from`, `to`); a window that runs backwards (`from` after `to`) is a 400, as the contract says. */
export async function commissionSummary(deps: DomainDeps, tenant: Tenant, q: Pick<CommissionQuery, 'marketplace' | 'from' | 'to'>) {
  if (q.from && q.to && q.from > q.to) {
    throw invalid('validation_failed', 'Invalid query field from: it is after to; the window runs from `from` up to `to`.', [
      { location: 'query', field: 'from', rule: 'range', message: 'must not be after to' },
    ]);
  }
  const totals = await commissionTotals(deps.db, tenant, q);
  return { totals: totals.map((t) => ({ ...t, amount: fromMinor(t.amount_minor, t.currency) })) };
}
