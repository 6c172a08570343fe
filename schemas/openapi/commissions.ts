import { arr, dateTime, filter, idOf, int, JsonSchema, nullable, num, OperationDef, record, ref, singleEnvelope, str } from './common';
import { resource } from './crud';

export const COMMISSION_STATUSES = ['pending', 'approved', 'paid', 'cancelled'] as const;
export const RECONCILIATION_SOURCES = ['marketplace_report', 'postback', 'manual'] as const;

/**
 * Commissions are read-only here: they arrive from the marketplaces'
 * affiliate programmes (reports, postbacks) and are reconciled against them.
 */
export const schemas: Record<string, JsonSchema> = {
  CommissionStatus: str({
    enum: [...COMMISSION_STATUSES],
    description:
      'Payment status: `pending` (reported, not yet validated by the marketplace), `approved` (validated, awaiting payout), ' +
      '`paid`, or `cancelled` (order cancelled or returned). Moves: pending → approved | cancelled; approved → paid | cancelled.',
  }),
  CommissionAttribution: record(
    {
      click_id: nullable(str({ description: 'the tracked click that led to the order' })),
      publication_id: nullable(idOf('pub', 'the publication the click came from')),
      group_id: nullable(idOf('grp', 'the group the click came from')),
      segment_id: nullable(idOf('seg', 'the segment of that group or storefront')),
      link: nullable(str({ description: 'the affiliate link that was clicked' })),
    },
    { description: 'Where the sale came from; every field is null when the marketplace reported it without a tracked click.' },
  ),
  CommissionReconciliation: record(
    {
      reported_amount: nullable(num({ description: 'amount the marketplace last reported, in `currency`; null until reported' })),
      difference: nullable(num({ description: '`reported_amount` minus `amount`; null until reported' })),
      reconciled_at: nullable(dateTime('when the amount was last checked against the marketplace')),
      source: nullable(str({ enum: [...RECONCILIATION_SOURCES], description: 'what the last check was based on' })),
    },
    { description: 'How the commission was checked against what the marketplace reports.' },
  ),
  Commission: record(
    {
      id: idOf('com'),
      offer_id: nullable(idOf('off', 'the offer the sale is attributed to, when known')),
      marketplace: str(),
      order_ref: str({ description: "the marketplace's order reference (no shopper data)" }),
      amount: num({ description: 'commission amount, in `currency`' }),
      order_amount: nullable(num({ description: 'value of the order, when the marketplace reports it' })),
      currency: str({ description: 'ISO 4217 code' }),
      status: ref('CommissionStatus'),
      attribution: ref('CommissionAttribution'),
      reconciliation: ref('CommissionReconciliation'),
      occurred_at: dateTime('when the order was placed'),
      paid_at: nullable(dateTime('when the commission was paid out')),
      created_at: dateTime('when offerops recorded it'),
      updated_at: dateTime('last change'),
    },
    { description: 'One commission earned on one marketplace order.' },
  ),
  CommissionTotal: record(
    {
      currency: str({ description: 'ISO 4217 code' }),
      status: ref('CommissionStatus'),
      count: int({ minimum: 0 }),
      amount: num({ description: 'sum of `amount`, in `currency`' }),
    },
    { description: 'Commissions of one currency and payment status.' },
  ),
  CommissionSummary: record(
    {
      totals: arr(ref('CommissionTotal'), {
        description: 'one entry per currency and status that has commissions, ordered by currency then status',
      }),
    },
    { description: 'Commission amounts grouped by currency and payment status (amounts of different currencies are never added).' },
  ),
};

const MARKETPLACE_FILTER = filter('marketplace', 'Only commissions of this marketplace.', str({ minLength: 1, maxLength: 40 }));

const commissions = resource({ tag: 'Commissions', area: 'commissions', path: '/commissions', name: 'commission', schema: 'Commission' });

export const operations: OperationDef[] = [
  commissions.list({
    summary: 'List commissions, newest order first',
    filters: [
      filter('status', 'Only commissions in this payment status.', ref('CommissionStatus')),
      MARKETPLACE_FILTER,
      filter('currency', 'Only commissions in this currency.', str({ minLength: 3, maxLength: 8 })),
      filter('offer_id', 'Only commissions attributed to this offer.', idOf('off')),
    ],
  }),
  {
    operationId: 'commissions_summary',
    method: 'get',
    path: '/commissions/summary',
    scope: 'commissions:read',
    tag: 'Commissions',
    summary: 'Amounts grouped by currency and payment status',
    query: [MARKETPLACE_FILTER],
    success: { status: 200, description: 'The totals.', schema: singleEnvelope(ref('CommissionSummary')) },
  },
  commissions.get({ summary: 'Commission with its attribution and reconciliation' }),
];
