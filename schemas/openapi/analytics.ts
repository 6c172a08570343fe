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
  ParameterDef,
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
  query: [...(o.paged ? PAGINATION_PARAMS : []), DAYS_PARAM, ...(o.filters ?? [])],
  success: { status: 200, description: o.success, schema: (o.paged ? listEnvelope : singleEnvelope)(ref(o.schema)) },
});

export const operations: OperationDef[] = [
  report('summary', { summary: 'Offers, publications, clicks, commissions', success: 'The summary.', schema: 'AnalyticsSummary' }),
  report('timeseries', { summary: 'Posts, failures, clicks per day', success: 'One point per day.', schema: 'AnalyticsTimeseries' }),
  report('groups', {
    summary: 'Volume, delivery, errors per group',
    description: 'Groups with publications in the window, most publications first.',
    paged: true,
    success: 'A page of groups.',
    schema: 'AnalyticsGroup',
  }),
  report('offers', {
    summary: 'Offers by publications, clicks, commissions',
    description: 'Offers with activity in the window, ordered by `sort`, descending.',
    filters: [filter('sort', 'Order by this count, descending.', str({ enum: ['publications', 'clicks', 'commissions'], default: 'clicks' }))],
    paged: true,
    success: 'A page of offers.',
    schema: 'AnalyticsOffer',
  }),
  report('sources', {
    summary: 'Catalogue, clicks, revenue per marketplace',
    description: 'Marketplaces, most clicks first.',
    paged: true,
    success: 'A page of marketplaces.',
    schema: 'AnalyticsSource',
  }),
  report('heatmap', {
    summary: 'Clicks by page, element, weekday, hour',
    filters: [filter('page', 'Only this store page (its path).', str({ minLength: 1, maxLength: 200, pattern: '^/' }))],
    success: 'The heatmap.',
    schema: 'AnalyticsHeatmap',
  }),
];
