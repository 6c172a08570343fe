import {
  arr,
  bool,
  DAYS_PARAM,
  filter,
  idOf,
  int,
  JsonSchema,
  nullable,
  num,
  OperationDef,
  PAGINATION_PARAMS,
  ParameterDef,
  record,
  ref,
  singleEnvelope,
  str,
} from './common';
import { LINK_MARKETPLACES } from './links';

const count = (description: string): JsonSchema => int({ minimum: 0, description });
const rate = (description: string): JsonSchema =>
  nullable(num({ minimum: 0, maximum: 1, description: `${description}; null when there is nothing to divide by` }));
const money = (description: string): JsonSchema =>
  arr(ref('MoneyTotal'), { description: `${description}, one entry per currency (never added together), by currency code` });

/** Every analytics response says which window it covers (a page beside its pagination). */
const WINDOW: Record<string, JsonSchema> = {
  days: int({ minimum: 1, maximum: 365, description: 'the `days` requested' }),
  time_zone: str({ description: "the account's time zone (IANA name) whose days these are; `UTC` unless an operator set another" }),
  first_day: str({ format: 'date', description: 'the first local day of the window (`days` - 1 days before today)' }),
  last_day: str({ format: 'date', description: 'the last local day of the window: today, in `time_zone`' }),
};

const WINDOW_NOTE =
  "Counts cover the last `days` local days of the account's time zone, today included. A publication and its deliveries count on the day the publication was queued; a click on its day; a commission on the day of the sale. Clicks exclude bots and link prefetchers unless `include_bots` is true.";

const INCLUDE_BOTS: ParameterDef = filter(
  'include_bots',
  'Count the clicks of bots and link prefetchers too (recorded apart; excluded by default).',
  bool({ default: false }),
);

export const schemas: Record<string, JsonSchema> = {
  MoneyTotal: record(
    {
      currency: str({ description: 'ISO 4217 code' }),
      count: int({ description: 'commissions (cancelled or refunded ones no longer count)' }),
      amount_minor: int({ description: 'their sum in the minor unit of `currency` (cents for BRL), an integer' }),
      amount: str({ pattern: '^-?\\d+(\\.\\d+)?$', description: 'the same sum as a decimal string in `currency` (`"1234.50"`), never a float' }),
    },
    { description: 'Commissions in one currency.' },
  ),
  AnalyticsSummary: record(
    {
      ...WINDOW,
      publications: count('publications queued'),
      publications_sent: count('of those, completed `sent` or `partial`'),
      publications_failed: count('of those, completed `failed`'),
      deliveries: count('deliveries queued (one per publication and group)'),
      deliveries_sent: count('of those, sent'),
      deliveries_failed: count('of those, failed for good'),
      delivery_rate: rate('deliveries_sent / (deliveries_sent + deliveries_failed)'),
      clicks: count('clicks on tracked links'),
      bot_clicks: count('clicks of bots and link prefetchers (always apart, whatever `include_bots`)'),
      commissions: money('commissions of sales in the window'),
    },
    { description: `Headline numbers: publications, deliveries, failures, clicks, commissions. ${WINDOW_NOTE}` },
  ),
  AnalyticsTimeseries: record(
    {
      ...WINDOW,
      points: arr(
        record(
          {
            date: str({ format: 'date', description: "the local day, in the account's time zone" }),
            publications: count('publications queued'),
            posts: count('of those, `sent` or `partial`'),
            failures: count('of those, `failed`'),
            deliveries_sent: count('deliveries sent'),
            deliveries_failed: count('deliveries failed'),
            clicks: count('clicks'),
            commissions: money('commissions of sales that day'),
          },
          { description: 'One local day.' },
        ),
        { description: 'one point per day of the window, oldest first, days without activity included with zeros' },
      ),
    },
    { description: `Publications, posts, failures, clicks and commissions per day. ${WINDOW_NOTE}` },
  ),
  AnalyticsGroup: record(
    {
      group_id: idOf('grp'),
      name: nullable(str({ description: "the group's name; null when the group was deleted since" })),
      publications: count('publications queued to the group (its deliveries)'),
      sent: count('deliveries sent'),
      failed: count('deliveries failed for good (its errors)'),
      delivery_rate: rate('sent / (sent + failed)'),
      clicks: count('clicks from the group'),
      commissions: money('commissions attributed to the group'),
    },
    { description: `Volume, delivery, errors and clicks of one group. ${WINDOW_NOTE}` },
  ),
  AnalyticsOffer: record(
    {
      offer_id: idOf('off'),
      title: nullable(str({ description: "the offer's title; null when the offer no longer exists" })),
      marketplace: nullable(str()),
      publications: count('publications of the offer queued'),
      posts: count('of those, `sent` or `partial`'),
      clicks: count('clicks on its links'),
      commissions: count('commissions attributed to it, every currency'),
      revenue: money('those commissions'),
    },
    { description: `Publications, clicks and commissions of one offer. ${WINDOW_NOTE}` },
  ),
  AnalyticsSource: record(
    {
      marketplace: str({
        enum: [...LINK_MARKETPLACES],
        description: "the marketplace (an offer's from its `marketplace` field, else its URL's host)",
      }),
      publications: count('publications of its offers queued'),
      clicks: count('clicks on its links'),
      commissions: count('commissions, every currency'),
      revenue: money('those commissions'),
    },
    { description: `Publications, clicks and revenue of one marketplace. ${WINDOW_NOTE}` },
  ),
  AnalyticsHeatmap: record(
    {
      ...WINDOW,
      clicks: count('clicks in the window'),
      hours: arr(
        record(
          {
            weekday: int({ minimum: 0, maximum: 6, description: '0 = Sunday, of the local day' }),
            hour: int({ minimum: 0, maximum: 23, description: "the local hour, in the account's time zone" }),
            clicks: count('clicks'),
          },
          { description: 'Clicks in one weekday and hour.' },
        ),
        { minItems: 168, maxItems: 168, description: 'every weekday × hour (168 cells, zeros included), Sunday 0:00 first' },
      ),
      elements: arr(record({ element: str({ description: 'the storefront element clicked (offer card, button…)' }), clicks: count('clicks') }), {
        maxItems: 500,
        description: 'clicks per storefront page element, most clicked first, at most 500',
      }),
      pages: arr(record({ page_id: str({ description: 'the storefront page' }), clicks: count('clicks') }), {
        maxItems: 500,
        description: 'clicks per storefront page, most clicked first, at most 500',
      }),
    },
    { description: `Clicks by weekday × hour, and storefront clicks by page element and page. ${WINDOW_NOTE}` },
  ),
};

/** A page of report rows: the list envelope with the window it covers. */
const pageEnvelope = (item: JsonSchema): JsonSchema =>
  record({
    data: arr(item),
    pagination: ref('Pagination'),
    window: record(WINDOW, { description: 'the window the rows cover' }),
    request_id: ref('RequestId'),
  });

/** A report over the `days` window: one object, or (`paged`) a page of rows. */
const report = (
  name: string,
  o: { summary: string; description?: string; filters?: ParameterDef[]; paged?: boolean; success: string; schema: string },
): OperationDef => ({
  operationId: `analytics_${name}`,
  method: 'get',
  path: `/analytics/${name}`,
  scope: 'analytics:read',
  tag: 'Analytics',
  summary: o.summary,
  description: o.description,
  query: [...(o.paged ? PAGINATION_PARAMS : []), DAYS_PARAM, INCLUDE_BOTS, ...(o.filters ?? [])],
  success: { status: 200, description: o.success, schema: o.paged ? pageEnvelope(ref(o.schema)) : singleEnvelope(ref(o.schema)) },
});

export const operations: OperationDef[] = [
  report('summary', { summary: 'Publications, deliveries, failures, clicks, commissions', success: 'The summary.', schema: 'AnalyticsSummary' }),
  report('timeseries', { summary: 'Posts, failures, clicks per day', success: 'One point per day.', schema: 'AnalyticsTimeseries' }),
  report('groups', {
    summary: 'Volume, delivery, errors per group',
    description: 'Groups with publications, clicks or commissions in the window, most publications first (then most clicks, then id).',
    paged: true,
    success: 'A page of groups.',
    schema: 'AnalyticsGroup',
  }),
  report('offers', {
    summary: 'Offers by publications, clicks, commissions',
    description: 'Offers with activity in the window, ordered by `sort`, descending (then id).',
    filters: [filter('sort', 'Order by this count, descending.', str({ enum: ['publications', 'clicks', 'commissions'], default: 'clicks' }))],
    paged: true,
    success: 'A page of offers.',
    schema: 'AnalyticsOffer',
  }),
  report('sources', {
    summary: 'Publications, clicks, revenue per marketplace',
    description: 'Marketplaces with activity in the window, most clicks first (then most publications, then name).',
    paged: true,
    success: 'A page of marketplaces.',
    schema: 'AnalyticsSource',
  }),
  report('heatmap', {
    summary: 'Clicks by weekday, hour, page element',
    success: 'The heatmap.',
    schema: 'AnalyticsHeatmap',
  }),
];
