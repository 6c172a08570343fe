import {
  arr,
  bool,
  dateTime,
  deletionEnvelope,
  filter,
  idOf,
  int,
  JsonSchema,
  nullable,
  num,
  object,
  OperationDef,
  record,
  ref,
  str,
} from './common';
import { resource } from './crud';

const names = (what: string): JsonSchema =>
  arr(str({ minLength: 1, maxLength: 120 }), { maxItems: 50, uniqueItems: true, description: `only offers of these ${what}` });

const monitorFields = (create: boolean): Record<string, JsonSchema> => ({
  name: str({ minLength: 1, maxLength: 120, description: 'name shown to the team' }),
  marketplace: str({ minLength: 1, maxLength: 40, description: "the marketplace to search, through this account's own integration" }),
  query: str({ minLength: 1, maxLength: 200, description: "search keywords, as typed in the marketplace's search" }),
  criteria: ref('MonitorCriteriaInput'),
  frequency_minutes: int({
    minimum: 15,
    maximum: 1440,
    description: 'minutes between searches, 15 to 1440 (one day)',
    ...(create ? { default: 60 } : {}),
  }),
  automation: ref('MonitorAutomationInput'),
  active: bool({ description: 'inactive monitors do not search', ...(create ? { default: true } : {}) }),
});

export const schemas: Record<string, JsonSchema> = {
  MonitorCriteriaInput: object(
    {
      min_discount_pct: int({ minimum: 0, maximum: 100, description: 'only offers at least this many percent off' }),
      min_price: num({ minimum: 0, description: 'only offers at this price or above' }),
      max_price: num({ minimum: 0, description: 'only offers at this price or below (not below `min_price`)' }),
      categories: names('categories'),
      stores: names('stores'),
      with_coupon: bool({ description: 'only offers that come with a coupon' }),
    },
    [],
    { description: 'Commercial criteria a found offer must meet; an omitted criterion does not filter. Replaced as a whole on update.' },
  ),
  MonitorCriteria: record(
    {
      min_discount_pct: nullable(int({ minimum: 0, maximum: 100 })),
      min_price: nullable(num()),
      max_price: nullable(num()),
      categories: arr(str()),
      stores: arr(str()),
      with_coupon: bool(),
    },
    { description: 'The criteria of a monitor; null or empty means no filter.' },
  ),
  MonitorAutomationInput: object(
    {
      auto_approve: bool({ description: 'create found offers as `approved` instead of `pending`' }),
      auto_publish_segment_id: nullable(
        idOf('seg', 'publish each newly approved find to this segment; requires `auto_approve`; null for no publishing'),
      ),
      with_image: bool({ description: 'send the image with automatic publications' }),
    },
    [],
    {
      description:
        'What happens to new finds. Omitted fields are off: finds become `pending` offers and nothing is published. ' +
        '`auto_publish_segment_id` without `auto_approve: true` is a 400 `validation_failed`. Replaced as a whole on update.',
    },
  ),
  MonitorAutomation: record(
    {
      auto_approve: bool(),
      auto_publish_segment_id: nullable(idOf('seg')),
      with_image: bool(),
    },
    { description: 'What the monitor does with new finds.' },
  ),
  MonitorResult: record(
    {
      started_at: dateTime('when the search started'),
      finished_at: dateTime('when it ended'),
      found: int({ minimum: 0, description: 'offers matching query and criteria' }),
      new_offers: int({ minimum: 0, description: 'of those, offers not in the catalogue before (created as offers)' }),
      offer_ids: arr(idOf('off'), { maxItems: 50, description: 'the new offers, up to 50' }),
      error: nullable(str({ description: 'why the search failed (e.g. the integration rejected it); null on success' })),
    },
    { description: 'Outcome of one search of a monitor.' },
  ),
  MonitorCreate: object(monitorFields(true), ['name', 'marketplace', 'query'], {
    description: 'A recurring search. A marketplace this account has no integration for is a 400 `unknown_reference`.',
  }),
  MonitorUpdate: object(monitorFields(false), [], {
    description: 'Only the fields sent change; `criteria` and `automation` are replaced as a whole.',
  }),
  Monitor: record(
    {
      id: idOf('mon'),
      name: str(),
      marketplace: str(),
      query: str(),
      criteria: ref('MonitorCriteria'),
      frequency_minutes: int({ minimum: 15, maximum: 1440 }),
      automation: ref('MonitorAutomation'),
      active: bool(),
      next_run_at: nullable(dateTime('next search; null when inactive')),
      last_run_at: nullable(dateTime('last search')),
      last_result: nullable(ref('MonitorResult')),
      created_at: dateTime('creation time'),
      updated_at: dateTime('last change'),
    },
    { description: 'A discovery rule: a recurring marketplace search with commercial criteria.' },
  ),
  MonitorDeletion: {
    ...deletionEnvelope('true: the monitor was removed (offers it found are kept)'),
    description: 'Result of DELETE /monitors/{id}.',
  },
};

const monitors = resource({ tag: 'Monitors', area: 'monitors', path: '/monitors', name: 'monitor', schema: 'Monitor' });

export const operations: OperationDef[] = [
  monitors.list({
    summary: 'List discovery rules',
    filters: [
      filter('active', 'Only active (true) or inactive (false) monitors.', bool()),
      filter('marketplace', 'Only monitors of this marketplace.', str({ minLength: 1, maxLength: 40 })),
    ],
  }),
  monitors.create({
    summary: 'Create a recurring search with commercial criteria',
    description: 'When `active`, the first search runs shortly after creation, then every `frequency_minutes`.',
  }),
  monitors.get({ summary: 'Criteria and last result' }),
  monitors.update({ summary: 'Update criteria, frequency, automation' }),
  monitors.delete({
    summary: 'Remove the rule',
    description: 'Stops future searches; offers the monitor already created stay in the catalogue.',
  }),
];
