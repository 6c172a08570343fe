import {
  arr,
  DAYS_PARAM,
  dateTime,
  filter,
  idOf,
  int,
  JsonSchema,
  listEnvelope,
  nullable,
  num,
  OperationDef,
  PAGINATION_PARAMS,
  record,
  ref,
  singleEnvelope,
  str,
} from './common';

const count = (description: string): JsonSchema => int({ minimum: 0, description });
const rate = (description: string): JsonSchema =>
  nullable(num({ minimum: 0, maximum: 1, description: `${description}; null when there is nothing to divide by` }));

/** Every analytics response says which window it covers. */
const WINDOW: Record<string, JsonSchema> = {
  days: int({ minimum: 1, maximum: 365, description: 'the `days` requested' }),
  since: dateTime('start of the window (inclusive), UTC midnight `days` - 1 days ago'),
  until: dateTime('end of the window (exclusive): now'),
};

const WINDOW_NOTE = 'Counts cover the last `days` days, in UTC days, ending now.';

export const schemas: Record<string, JsonSchema> = {
  MoneyTotal: record(
    {
      currency: str({ description: 'ISO 4217 code' }),
      count: count('commissions'),
      amount: num({ description: 'sum, in `currency` (currencies are never added together)' }),
    },
    { description: 'A commission total in one currency.' },
  ),
  AnalyticsSummary: record(
    {
      ...WINDOW,
      offers_created: count('offers created in the window'),
      offers_active: count('offers currently not archived'),
      publications: count('publications queued in the window'),
      publications_sent: count('of those, `sent` or `partial`'),
      publications_failed: count('of those, `failed`'),
      clicks: count('clicks on affiliate links'),
      commissions: arr(ref('MoneyTotal'), { description: 'commissions (not cancelled) that occurred in the window, per currency' }),
    },
    { description: `Headline numbers: offers, publications, clicks, commissions. ${WINDOW_NOTE}` },
  ),
  AnalyticsTimeseries: record(
    {
      ...WINDOW,
      points: arr(
        record(
          {
            date: str({ format: 'date', description: 'the UTC day' }),
            posts: count('publications sent or partial'),
            failures: count('publications failed'),
            clicks: count('clicks'),
          },
          { description: 'One UTC day.' },
        ),
        { description: 'one point per day of the window, oldest first, days without activity included with zeros' },
      ),
    },
    { description: `Posts, failures and clicks per day. ${WINDOW_NOTE}` },
  ),
  AnalyticsGroup: record(
    {
      group_id: idOf('grp'),
      name: str(),
      publications: count('publications queued to the group'),
      sent: count('`sent` or `partial`'),
      failed: count('`failed`'),
      delivery_rate: rate('sent / (sent + failed)'),
      clicks: count('clicks from the group'),
      last_error: nullable(str({ description: 'error of the latest failed publication in the window' })),
    },
    { description: `Volume, delivery and errors of one group. ${WINDOW_NOTE}` },
  ),
  AnalyticsOffer: record(
    {
      offer_id: idOf('off'),
      title: str(),
      marketplace: nullable(str()),
      publications: count('publications of the offer'),
      clicks: count('clicks on its links'),
      commissions: count('commissions attributed to it (not cancelled)'),
      revenue: arr(ref('MoneyTotal'), { description: 'those commissions, per currency' }),
    },
    { description: `Performance of one offer. ${WINDOW_NOTE}` },
  ),
  AnalyticsSource: record(
    {
      marketplace: str(),
      offers: count('offers of the marketplace in the catalogue (not archived)'),
      clicks: count('clicks on its links'),
      commissions: count('commissions (not cancelled)'),
      revenue: arr(ref('MoneyTotal'), { description: 'those commissions, per currency' }),
    },
    { description: `Catalogue, clicks and revenue of one marketplace. ${WINDOW_NOTE}` },
  ),
  AnalyticsHeatmap: record(
    {
      ...WINDOW,
      cells: arr(
        record(
          {
            page: str({ description: 'path of the store page, e.g. `/` or `/p/black-friday`' }),
            element: nullable(str({ description: 'the element clicked (offer card, button…); null when not tracked' })),
            weekday: int({ minimum: 0, maximum: 6, description: '0 = Sunday, UTC' }),
            hour: int({ minimum: 0, maximum: 23, description: 'UTC hour' }),
            clicks: count('clicks'),
          },
          { description: 'Clicks of one page element in one weekday and hour.' },
        ),
        { description: 'only cells with clicks, most clicked first, at most 5000' },
      ),
    },
    { description: `Clicks on the public store by page, element, weekday and hour. ${WINDOW_NOTE}` },
  ),
};

export const operations: OperationDef[] = [
  {
    operationId: 'analytics_summary',
    method: 'get',
    path: '/analytics/summary',
    scope: 'analytics:read',
    tag: 'Analytics',
    summary: 'Offers, publications, clicks, commissions',
    query: [DAYS_PARAM],
    success: { status: 200, description: 'The summary.', schema: singleEnvelope(ref('AnalyticsSummary')) },
  },
  {
    operationId: 'analytics_timeseries',
    method: 'get',
    path: '/analytics/timeseries',
    scope: 'analytics:read',
    tag: 'Analytics',
    summary: 'Posts, failures, clicks per day',
    query: [DAYS_PARAM],
    success: { status: 200, description: 'One point per day.', schema: singleEnvelope(ref('AnalyticsTimeseries')) },
  },
  {
    operationId: 'analytics_groups',
    method: 'get',
    path: '/analytics/groups',
    scope: 'analytics:read',
    tag: 'Analytics',
    summary: 'Volume, delivery, errors per group',
    description: 'Groups with publications in the window, most publications first.',
    query: [...PAGINATION_PARAMS, DAYS_PARAM],
    success: { status: 200, description: 'A page of groups.', schema: listEnvelope(ref('AnalyticsGroup')) },
  },
  {
    operationId: 'analytics_offers',
    method: 'get',
    path: '/analytics/offers',
    scope: 'analytics:read',
    tag: 'Analytics',
    summary: 'Offers by publications, clicks, commissions',
    description: 'Offers with activity in the window, ordered by `sort`, descending.',
    query: [
      ...PAGINATION_PARAMS,
      DAYS_PARAM,
      filter('sort', 'Order by this count, descending.', str({ enum: ['publications', 'clicks', 'commissions'], default: 'clicks' })),
    ],
    success: { status: 200, description: 'A page of offers.', schema: listEnvelope(ref('AnalyticsOffer')) },
  },
  {
    operationId: 'analytics_sources',
    method: 'get',
    path: '/analytics/sources',
    scope: 'analytics:read',
    tag: 'Analytics',
    summary: 'Catalogue, clicks, revenue per marketplace',
    description: 'Marketplaces, most clicks first.',
    query: [...PAGINATION_PARAMS, DAYS_PARAM],
    success: { status: 200, description: 'A page of marketplaces.', schema: listEnvelope(ref('AnalyticsSource')) },
  },
  {
    operationId: 'analytics_heatmap',
    method: 'get',
    path: '/analytics/heatmap',
    scope: 'analytics:read',
    tag: 'Analytics',
    summary: 'Clicks by page, element, weekday, hour',
    query: [DAYS_PARAM, filter('page', 'Only this store page (its path).', str({ minLength: 1, maxLength: 200, pattern: '^/' }))],
    success: { status: 200, description: 'The heatmap.', schema: singleEnvelope(ref('AnalyticsHeatmap')) },
  },
];
