import {
  FORM_KEYWORD,
  FORMS,
  arr,
  bool,
  dateTime,
  deletionEnvelope,
  exactlyOne,
  filter,
  idOf,
  int,
  JsonSchema,
  nullable,
  num,
  object,
  OperationDef,
  present,
  record,
  ref,
  str,
} from './common';
import { resource } from './crud';
import { CRON, IANA_TIMEZONE, RRULE } from './recurrence';

export const MONITOR_SOURCE_TYPES = ['merchant_xml', 'csv', 'json', 'search'] as const;
export const MONITOR_STATES = ['active', 'paused'] as const;
export const MONITOR_AUTOMATION_MODES = ['none', 'create', 'publish'] as const;

/** Largest feed read (bytes on the wire) and largest search answer (read whole); also in docs/guides/monitors.md. */
export const MONITOR_FEED_MAX_BYTES = 512 * 1024 * 1024;
export const MONITOR_SEARCH_MAX_BYTES = 10 * 1024 * 1024;

const words = (what: string): JsonSchema => arr(str({ minLength: 1, maxLength: 60 }), { maxItems: 20, uniqueItems: true, description: what });
const storeNames = (what: string): JsonSchema =>
  arr(str({ minLength: 1, maxLength: 120 }), { maxItems: 100, uniqueItems: true, description: what });
const PATH = str({
  minLength: 1,
  maxLength: 120,
  pattern: '^[^.\\s][^\\s]*$',
  [FORM_KEYWORD]: 'a field name or a dot path without spaces, e.g. price.value',
  description: 'a field name, or a dot path (`price.value`)',
});

const mappingFields: Record<string, JsonSchema> = {
  items: { ...PATH, description: '`search` only (required there): the path of the array of items in the answer, e.g. `data.results`' },
  title: { ...PATH, description: 'the title (default `title`)' },
  url: { ...PATH, description: 'the product URL (default `url`, then `link`)' },
  price: { ...PATH, description: 'the current price (default `sale_price`, then `price`)' },
  original_price: { ...PATH, description: 'the price before discount (default `original_price`, then `price` when `sale_price` is present)' },
  image: { ...PATH, description: 'the image URL (default `image`, then `image_link`)' },
  store: { ...PATH, description: 'the seller or brand (default `store`, then `brand`)' },
  category: { ...PATH, description: 'the category (default `category`, then `product_type`)' },
  commission_pct: { ...PATH, description: 'the commission in percent, when the network gives it (default `commission_pct`)' },
  currency: { ...PATH, description: 'the currency code (default `currency`; else the one written after the price, else BRL)' },
};

export const schemas: Record<string, JsonSchema> = {
  MonitorSourceMapping: object(mappingFields, [], {
    description:
      'Where the fields of an item are, for `csv` (column names), `json` and `search` (field names or dot paths inside each ' +
      'item). Omitted fields take the defaults named. Prices may be numbers or text such as `"1.299,90 BRL"` or `"12.99 USD"`.',
  }),
  MonitorSource: object(
    {
      type: str({
        enum: [...MONITOR_SOURCE_TYPES],
        description:
          '`merchant_xml`: a Google Merchant feed, RSS 2.0 or Atom (`g:` fields); `csv`: a CSV file with a header row; `json`: ' +
          'JSON lines or one JSON array of items; `search`: an HTTP JSON API answering one document whose items are at `mapping.items`.',
      }),
      url: str({
        format: 'uri',
        minLength: 8,
        maxLength: 2000,
        pattern: '^https?://',
        [FORM_KEYWORD]: FORMS.http,
        description:
          'where to fetch it (GET). HTTPS; plain http only to a host on the allow-list (`OFFEROPS_WEBHOOK_ALLOW`). Fetched as ' +
          'webhooks are sent: every address the host resolves to must be public unless allow-listed, no redirects.',
      }),
      name: str({ minLength: 1, maxLength: 80, description: 'a label for results (the host of `url` when omitted)' }),
      marketplace: str({ minLength: 1, maxLength: 40, description: 'the marketplace of its items, when the feed does not say' }),
      mapping: ref('MonitorSourceMapping'),
    },
    ['type', 'url'],
    {
      description: 'One place offers are found. A `search` source says where its items are (`mapping.items`); no other type has it.',
      if: { properties: { type: { const: 'search' } } },
      then: { required: ['mapping'], properties: { mapping: { type: 'object', ...present('items') } } },
      else: { properties: { mapping: { type: 'object', not: present('items') } } },
    },
  ),
  MonitorCriteria: object(
    {
      keywords_include: words('every one of these words must be in the title (case and accents ignored)'),
      keywords_exclude: words('none of these words may be in the title'),
      category: str({ minLength: 1, maxLength: 120, description: "the item's category must contain this text (case ignored)" }),
      marketplace: str({ minLength: 1, maxLength: 40, description: "only items of this marketplace (the item's, else its source's)" }),
      stores_allow: storeNames('only items of these stores (case ignored)'),
      stores_deny: storeNames('never items of these stores (case ignored)'),
      min_discount_pct: int({
        minimum: 0,
        maximum: 100,
        description: 'at least this many percent off (an item without an original price has 0)',
      }),
      min_price: num({ minimum: 0, description: 'at this price or above (an item without a price does not match a price bound)' }),
      max_price: num({ minimum: 0, description: 'at this price or below; not below `min_price`' }),
      min_commission_pct: num({
        minimum: 0,
        maximum: 100,
        description: 'at least this commission, in percent, where the source gives one (items without it are not filtered)',
      }),
    },
    [],
    { description: 'What a found item must meet; an omitted criterion does not filter. Replaced as a whole on update.' },
  ),
  MonitorFrequency: {
    description:
      'When the monitor runs: exactly one of `every_minutes` (15 to 10080), `cron` or `rrule` (read in `timezone`, as for ' +
      'schedules: five-field cron, the RRULE subset of schedules, at least 15 minutes apart). Replaced as a whole on update.',
    oneOf: [
      object({ every_minutes: int({ minimum: 15, maximum: 10080 }) }, ['every_minutes'], { description: 'Every N minutes.' }),
      object({ cron: CRON, timezone: IANA_TIMEZONE }, ['cron'], { description: 'A cron expression, as for schedules.' }),
      object({ rrule: RRULE, timezone: IANA_TIMEZONE }, ['rrule'], {
        description: 'An RFC 5545 rule, as for schedules; a part left out is taken from when the frequency was set (instead of `run_at`).',
      }),
    ],
  },
  MonitorFrequencyRecord: record(
    {
      every_minutes: nullable(int({ minimum: 15 })),
      cron: nullable(str()),
      rrule: nullable(str()),
      timezone: str(),
    },
    { description: 'When the monitor runs: one of `every_minutes`, `cron`, `rrule` is set.' },
  ),
  MonitorAutomation: object(
    {
      mode: str({
        enum: [...MONITOR_AUTOMATION_MODES],
        description:
          '`none`: only count matches; `create`: create the matches not in the catalogue as `pending` offers; `publish`: create ' +
          'them and publish each new one through the normal publish path to `segment_id` or `group_id` (exactly one).',
      }),
      segment_id: idOf('seg', '`publish` only: to this segment'),
      group_id: idOf('grp', '`publish` only: to this group'),
      with_image: bool({ description: '`publish`: send the image with the text (default true)' }),
    },
    ['mode'],
    {
      description:
        'What a run does with what it finds: mode `publish` takes exactly one of `segment_id`, `group_id`; the other modes ' +
        'neither. Replaced as a whole on update.',
      if: { properties: { mode: { const: 'publish' } } },
      then: exactlyOne('segment_id', 'group_id'),
      else: { allOf: [{ not: present('segment_id') }, { not: present('group_id') }] },
    },
  ),
  MonitorAutomationRecord: record(
    {
      mode: str({ enum: [...MONITOR_AUTOMATION_MODES] }),
      segment_id: nullable(idOf('seg')),
      group_id: nullable(idOf('grp')),
      with_image: bool(),
    },
    { description: 'What a run does with what it finds.' },
  ),
  MonitorSourceResult: record(
    {
      name: str(),
      type: str({ enum: [...MONITOR_SOURCE_TYPES] }),
      seen: int({ minimum: 0, description: 'items read' }),
      matched: int({ minimum: 0, description: 'items meeting the criteria' }),
      created: int({ minimum: 0, description: 'offers created' }),
      published: int({ minimum: 0, description: 'offers published' }),
      error: nullable(str({ description: 'why the source failed or stopped (the counts say how far it got); null when it was read whole' })),
    },
    { description: 'What one source gave in one run.' },
  ),
  MonitorResult: record(
    {
      workflow_id: str({ description: 'the workflow id of the run in Temporal (`monitor-run-<id>-<time>`)' }),
      run_id: str({ description: 'the run id of that workflow execution in Temporal (two runs within one second share a workflow id)' }),
      started_at: dateTime('when the run started'),
      finished_at: dateTime('when it ended'),
      duration_ms: int({ minimum: 0 }),
      seen: int({ minimum: 0, description: 'items read, all sources' }),
      matched: int({ minimum: 0, description: 'items meeting the criteria' }),
      created: int({ minimum: 0, description: 'offers created (URLs not in the catalogue before)' }),
      published: int({ minimum: 0, description: 'offers published' }),
      errors: int({ minimum: 0, description: 'sources that failed' }),
      sources: arr(ref('MonitorSourceResult'), { description: 'per source, in the order of `sources`' }),
    },
    { description: 'The outcome of one run.' },
  ),
  MonitorCreate: object(
    {
      name: str({ minLength: 1, maxLength: 120, description: 'name shown to the team' }),
      sources: arr(ref('MonitorSource'), { minItems: 1, maxItems: 10, description: 'where offers are found, each read on its own' }),
      criteria: ref('MonitorCriteria'),
      frequency: ref('MonitorFrequency'),
      automation: ref('MonitorAutomation'),
      state: str({ enum: [...MONITOR_STATES], default: 'active', description: 'a paused monitor does not run' }),
    },
    ['name', 'sources', 'frequency'],
    {
      description:
        'A recurring discovery. Without `criteria` every item matches; without `automation`, `mode` is `none`. A `segment_id` ' +
        'or `group_id` this account does not have is a 400 `unknown_reference`.',
    },
  ),
  MonitorUpdate: object(
    {
      name: str({ minLength: 1, maxLength: 120 }),
      sources: arr(ref('MonitorSource'), { minItems: 1, maxItems: 10, description: 'where offers are found; replaces the sources as a whole' }),
      criteria: ref('MonitorCriteria'),
      frequency: ref('MonitorFrequency'),
      automation: ref('MonitorAutomation'),
      state: str({ enum: [...MONITOR_STATES], description: 'pause or resume' }),
    },
    [],
    { description: 'Only the fields sent change; `sources`, `criteria`, `frequency` and `automation` are replaced as a whole.' },
  ),
  Monitor: record(
    {
      id: idOf('mon'),
      name: str(),
      sources: arr(ref('MonitorSource')),
      criteria: ref('MonitorCriteria'),
      frequency: ref('MonitorFrequencyRecord'),
      automation: ref('MonitorAutomationRecord'),
      state: str({ enum: [...MONITOR_STATES] }),
      next_run_at: nullable(dateTime('the next run, as the scheduler (Temporal) computes it; null when paused')),
      last_run_at: nullable(dateTime('when the last run started')),
      last_result: nullable(ref('MonitorResult')),
      created_at: dateTime('creation time'),
      updated_at: dateTime('last change'),
    },
    {
      description:
        'A discovery rule. Backed by a Temporal Schedule `monitor-<id>`; each run is a workflow `monitorRun` ' +
        '(`monitor-run-<id>-<time>`) that reads every source in an activity of its own.',
    },
  ),
  MonitorDeletion: {
    ...deletionEnvelope('true: the monitor and its schedule were removed (offers it created are kept)'),
    description: 'Result of DELETE /monitors/{id}.',
  },
};

const monitors = resource({ tag: 'Monitors', area: 'monitors', path: '/monitors', name: 'monitor', schema: 'Monitor' });

export const operations: OperationDef[] = [
  monitors.list({
    summary: 'List discovery rules',
    filters: [
      filter('state', 'Only active or paused monitors.', str({ enum: [...MONITOR_STATES] })),
      filter('marketplace', 'Only monitors whose criteria name this marketplace.', str({ minLength: 1, maxLength: 40 })),
    ],
  }),
  monitors.create({
    summary: 'Create a recurring search with commercial criteria',
    description: 'Creates the rule and its Temporal Schedule; an `active` monitor runs at its first time by `frequency`.',
  }),
  monitors.get({ summary: 'Criteria and last result' }),
  monitors.update({ summary: 'Update criteria, frequency, automation', description: 'The Temporal Schedule follows the change.' }),
  monitors.delete({
    summary: 'Remove the rule',
    description: 'Removes the rule and its Temporal Schedule; offers the monitor already created stay in the catalogue.',
  }),
];
