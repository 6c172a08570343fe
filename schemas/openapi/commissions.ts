import { arr, dateTime, filter, idOf, int, JsonSchema, nullable, OperationDef, record, ref, singleEnvelope, str } from './common';
import { resource } from './crud';

export const COMMISSION_STATUSES = ['pending', 'approved', 'paid', 'cancelled', 'refunded'] as const;
export const COMMISSION_SOURCES = ['postback', 'import', 'operator'] as const;
export const ATTRIBUTION_METHODS = ['click', 'inferred', 'none'] as const;

const decimal = (description: string): JsonSchema =>
  str({ pattern: '^-?[0-9]{1,15}(\\.[0-9]{1,4})?$', description: `${description}; a decimal string, never a float` });

/**
 * Commissions are read-only here: they arrive from the marketplaces'
 * affiliate networks (postbacks to `/postbacks/{integration_id}`, report
 * imports by an operator) and are reconciled against them.
 */
export const schemas: Record<string, JsonSchema> = {
  CommissionStatus: str({
    enum: [...COMMISSION_STATUSES],
    description:
      'Payment status as the network last reported it (by its own timestamps): `pending` (reported, not yet validated), ' +
      '`approved` (validated, awaiting payout), `paid`, `cancelled` (order cancelled before payout) or `refunded` (returned after approval or payout). ' +
      'A report older than the current state is kept in `history` without changing the status.',
  }),
  CommissionAttribution: record(
    {
      method: str({
        enum: [...ATTRIBUTION_METHODS],
        description:
          '`click`: the network returned our click id (the sub-id on the tracked link); `inferred`: no click, but the product matched an offer ' +
          'published within the attribution window before the sale; `none`: neither',
      }),
      click_id: nullable(str({ description: 'the tracked click that led to the order' })),
      offer_id: nullable(idOf('off', 'the offer the sale is attributed to')),
      publication_id: nullable(idOf('pub', 'the publication the click (or the inferred offer) came from')),
      group_id: nullable(idOf('grp', 'the group the click came from')),
      segment_id: nullable(idOf('seg', 'the segment of that group or storefront')),
    },
    { description: 'Where the sale came from.' },
  ),
  CommissionChange: record(
    {
      status: ref('CommissionStatus'),
      amount_minor: int({ description: 'the commission amount this report gave, in minor units' }),
      at: dateTime("the network's timestamp of this report"),
      received_at: dateTime('when offerops received it'),
      source: str({ enum: [...COMMISSION_SOURCES], description: 'how it arrived' }),
      applied: { type: 'boolean', description: 'false for a report older than the state it arrived after: kept here, not applied' },
    },
    { description: 'One status report of a commission.' },
  ),
  Commission: record(
    {
      id: idOf('com'),
      marketplace: str(),
      transaction_id: str({ description: "the network's transaction id (unique per marketplace)" }),
      order_ref: nullable(str({ description: "the marketplace's order reference (no shopper data)" })),
      amount_minor: int({ description: 'commission amount, in minor units of `currency` (cents)' }),
      amount: decimal('the same amount in `currency`'),
      order_amount_minor: nullable(int({ description: 'value of the order in minor units, when the network reports it' })),
      currency: str({ description: 'ISO 4217 code' }),
      status: ref('CommissionStatus'),
      status_at: dateTime("the network's timestamp of the current status"),
      attribution: ref('CommissionAttribution'),
      history: arr(ref('CommissionChange'), { description: 'every report received, in the order they arrived' }),
      occurred_at: dateTime('when the order was placed'),
      paid_at: nullable(dateTime('when the network reported the commission paid')),
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
      amount_minor: int({ description: 'sum of `amount_minor`' }),
      amount: decimal('the same sum in `currency`'),
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
const FROM_FILTER = filter('from', 'Only orders placed at or after this instant.', str({ format: 'date-time', maxLength: 40 }));
const TO_FILTER = filter('to', 'Only orders placed before this instant.', str({ format: 'date-time', maxLength: 40 }));

const commissions = resource({ tag: 'Commissions', area: 'commissions', path: '/commissions', name: 'commission', schema: 'Commission' });

export const operations: OperationDef[] = [
  commissions.list({
    summary: 'List commissions, newest order first',
    description: '`from` after `to` is an empty window: no commissions.',
    filters: [
      filter('status', 'Only commissions in this payment status.', ref('CommissionStatus')),
      MARKETPLACE_FILTER,
      filter('currency', 'Only commissions in this currency.', str({ minLength: 3, maxLength: 8 })),
      filter('offer_id', 'Only commissions attributed to this offer.', idOf('off')),
      FROM_FILTER,
      TO_FILTER,
    ],
  }),
  {
    operationId: 'commissions_summary',
    method: 'get',
    path: '/commissions/summary',
    scope: 'commissions:read',
    tag: 'Commissions',
    summary: 'Amounts grouped by currency and payment status',
    description:
      'Over the orders placed in [`from`, `to`) when given (all time otherwise); `from` after `to` is a 400 `validation_failed` ' +
      '(its detail on `from`, rule `range`); `from` equal to `to` is an empty window.',
    query: [MARKETPLACE_FILTER, FROM_FILTER, TO_FILTER],
    success: { status: 200, description: 'The totals.', schema: singleEnvelope(ref('CommissionSummary')) },
  },
  commissions.get({ summary: 'Commission with its amounts, attribution and history' }),
];
