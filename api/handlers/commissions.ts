import { commissionSummary, listCommissions, mustGetCommission, toCommission } from '../../domain/commissions/service';
import { Handler, listReply, pageOf } from './types';

/** `from`/`to` as dates. The list reads `from` after `to` as an empty window; the summary refuses it (commissionSummary). */
const range = (q: { from?: string; to?: string }): { from?: Date; to?: Date } => ({
  from: q.from ? new Date(q.from) : undefined,
  to: q.to ? new Date(q.to) : undefined,
});

export const commissionsList: Handler<'commissions_list'> = async (req, deps) => {
  const page = pageOf(req.query);
  const { status, marketplace, currency, offer_id } = req.query;
  const { items, total } = await listCommissions(deps.db, req.tenant, { status, marketplace, currency, offer_id, ...range(req.query) }, page);
  return listReply(items.map(toCommission), total, page);
};

export const commissionsSummary: Handler<'commissions_summary'> = async (req, deps) => ({
  body: { data: await commissionSummary(deps, req.tenant, { marketplace: req.query.marketplace, ...range(req.query) }) },
});

export const commissionGet: Handler<'commission_get'> = async (req, deps) => ({
  body: { data: toCommission(await mustGetCommission(deps, req.tenant, req.params.id)) },
});
