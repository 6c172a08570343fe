/**
 * Commissions. One document per (tenant, marketplace, network transaction
 * id), its `_id` derived from them: a repeated postback or import row finds
 * what the first made by a read by `_id` alone, and two racing inserts of one
 * transaction collide on the `_id` (one wins, the other re-reads and applies
 * its report as an update).
 */
import { Db, Filter } from 'mongodb';
import { ATTRIBUTION_METHODS, COMMISSION_SOURCES, COMMISSION_STATUSES } from '../../schemas/openapi/commissions';
import { derivedId } from '../ids';
import { Page, PageResult, Tenant } from '../db';
import { ResourceDoc, resourceStore } from '../resource';

export type CommissionStatus = (typeof COMMISSION_STATUSES)[number];
export type CommissionSource = (typeof COMMISSION_SOURCES)[number];

export interface Attribution {
  method: (typeof ATTRIBUTION_METHODS)[number];
  click_id: string | null;
  offer_id: string | null;
  publication_id: string | null;
  group_id: string | null;
  segment_id: string | null;
}

export interface CommissionChange {
  status: CommissionStatus;
  amount_minor: number;
  at: Date;
  received_at: Date;
  source: CommissionSource;
  applied: boolean;
}

export interface CommissionDoc extends ResourceDoc {
  marketplace: string;
  transaction_id: string;
  order_ref: string | null;
  amount_minor: number;
  order_amount_minor: number | null;
  currency: string;
  status: CommissionStatus;
  status_at: Date;
  attribution: Attribution;
  history: CommissionChange[];
  occurred_at: Date;
  paid_at: Date | null;
}

const store = resourceStore<CommissionDoc>('commissions');
export const commissions = store.coll;

export const commissionId = (tenant: Tenant, marketplace: string, transactionId: string): string =>
  derivedId('com', tenant.accountId, tenant.env, marketplace, transactionId);

export const getCommission = store.get;

export interface CommissionQuery {
  status?: CommissionStatus;
  marketplace?: string;
  currency?: string;
  offer_id?: string;
  from?: Date;
  to?: Date;
}

function filterOf(q: CommissionQuery): Filter<CommissionDoc> {
  const filter: Filter<CommissionDoc> = {};
  if (q.status !== undefined) filter.status = q.status;
  if (q.marketplace !== undefined) filter.marketplace = q.marketplace;
  if (q.currency !== undefined) filter.currency = q.currency.toUpperCase();
  if (q.offer_id !== undefined) filter['attribution.offer_id'] = q.offer_id;
  if (q.from || q.to) filter.occurred_at = { ...(q.from ? { $gte: q.from } : {}), ...(q.to ? { $lt: q.to } : {}) };
  return filter;
}

export const listCommissions = (db: Db, tenant: Tenant, q: CommissionQuery, page: Page): Promise<PageResult<CommissionDoc>> =>
  commissions(db, tenant).page(filterOf(q), page, { occurred_at: -1, _id: -1 });

/** Count and sum of minor units per (currency, status), ordered by currency then status. */
export async function commissionTotals(
  db: Db,
  tenant: Tenant,
  q: Pick<CommissionQuery, 'marketplace' | 'from' | 'to'>,
): Promise<{ currency: string; status: CommissionStatus; count: number; amount_minor: number }[]> {
  const totals = new Map<string, { currency: string; status: CommissionStatus; count: number; amount_minor: number }>();
  // Read in batches and summed here: integer sums in JavaScript are exact, and the portable subset keeps aggregation simple.
  for await (const batch of commissions(db, tenant).inBatches(filterOf(q), 1000)) {
    for (const c of batch) {
      const key = `${c.currency}\n${c.status}`;
      const t = totals.get(key) ?? { currency: c.currency, status: c.status, count: 0, amount_minor: 0 };
      t.count++;
      t.amount_minor += c.amount_minor;
      totals.set(key, t);
    }
  }
  const order = (s: CommissionStatus) => COMMISSION_STATUSES.indexOf(s);
  return [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency) || order(a.status) - order(b.status));
}

/** Inserts a commission with the events in its `_outbox` (a duplicate `_id` throws). */
export const insertCommission = (db: Db, tenant: Tenant, doc: Omit<CommissionDoc, 'account_id' | 'env'>) => commissions(db, tenant).insert(doc);
