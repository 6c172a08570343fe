import { commissionSummary, listCommissions, mustGetCommission, toCommission } from '../../domain/commissions/service';
import { invalid } from '../../domain/errors';
import { Handler, listReply, pageOf } from './types';

/** `from`/`to` as dates; `from` after `to` is a 400. */
function range(q: { from?: string; to?: string }): { from?: Date; to?: Date } {
  const from = q.from ? new Date(q.from) : undefined;
  const to = q.to ? new Date(q.to) : undefined;
  if (from && to && from > to) {
    throw invalid('validation_failed', 'Invalid query parameter from: must not be after to.', [
      { location: 'query', field: 'from', rule: 'before_to', message: 'must not be after to' },
    ]);
  }
  return { from, to };
}

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
