import {
  FORM_KEYWORD,
  FORMS,
  arr,
  bool,
  dateTime,
  deletionEnvelope,
  filter,
  idOf,
  int,
  JsonSchema,
  MAX_BODY_DEPTH,
  nullable,
  num,
  object,
  OperationDef,
  present,
  record,
  ref,
  singleEnvelope,
  str,
} from './common';
import { EVENT_KIND_NAMES } from '../events/kinds';
import { resource } from './crud';
import { CHANNEL_TYPES, CONTACT_STAGES, TAG } from './inbox';

export const BLOCK_TYPES = ['trigger', 'message', 'wait', 'wait_reply', 'condition', 'tag', 'assign', 'http', 'publish', 'end'] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];
export const EXECUTION_STATUSES = ['running', 'completed', 'failed', 'cancelled', 'terminated', 'timed_out'] as const;
export const CONDITION_OPERATORS = ['eq', 'neq', 'contains', 'exists', 'gt', 'lt'] as const;
/** Blocks that wait on a durable timer: a loop of the graph must pass through one. */
export const WAITING_BLOCKS: readonly BlockType[] = ['wait', 'wait_reply'];

/** The most top-level fields the free JSON body of an `http` block takes. */
const HTTP_BODY_MAX_FIELDS = 100;

const EVENT_KIND = str({ enum: [...EVENT_KIND_NAMES], description: 'an event kind of the catalogue, e.g. `conversation.updated`' });
const BLOCK_ID = str({
  minLength: 1,
  maxLength: 40,
  pattern: '^[a-z0-9_-]+$',
  [FORM_KEYWORD]: 'lowercase letters, digits, _ and -, e.g. ask_name',
  description: 'id of the block, unique in the journey',
});
const tags = (description: string): JsonSchema => arr(TAG, { minItems: 1, maxItems: 20, uniqueItems: true, description });
const FIELD_PATH = '(\\.[A-Za-z0-9_]{1,60}){1,8}';

/** A test on a field: the condition block's config, and each entry of a journey's trigger `filter`. */
const condition = (fieldPattern: string, fieldDescription: string, fieldForm: string): JsonSchema =>
  object(
    {
      field: str({ maxLength: 300, pattern: fieldPattern, [FORM_KEYWORD]: fieldForm, description: fieldDescription }),
      operator: str({
        enum: [...CONDITION_OPERATORS],
        description: '`eq`/`neq` compare as text, `contains` (text or list), `gt`/`lt` as numbers, `exists` (not null)',
      }),
      value: {
        anyOf: [str({ maxLength: 200 }), num(), bool(), { type: 'null' }],
        description: 'the value compared; not used by `exists`',
      },
    },
    ['field', 'operator'],
  );

/** The `config` of each block type (closed objects). */
const CONFIGS: Record<BlockType, { name: string; schema: JsonSchema }> = {
  trigger: {
    name: 'JourneyTriggerConfig',
    schema: object({}, [], {
      description: "Entry of the graph (exactly one). The journey's `trigger` and `filter` say which events start an execution.",
    }),
  },
  message: {
    name: 'JourneyMessageConfig',
    schema: {
      description: 'Send a message in the conversation of the triggering event: a `text`, or a template (`template_id`, which must exist).',
      oneOf: [
        object({ text: str({ minLength: 1, maxLength: 4096 }) }, ['text']),
        object({ template_id: idOf('tpl', 'the template to send') }, ['template_id']),
      ],
    },
  },
  wait: {
    name: 'JourneyWaitConfig',
    schema: {
      description: 'Pause on a durable timer: `minutes`, or `until` the next time of day `HH:MM` in `timezone` (IANA).',
      oneOf: [
        object({ minutes: int({ minimum: 1, maximum: 43200, description: 'wait this long (at most 30 days)' }) }, ['minutes']),
        object(
          {
            until: str({
              maxLength: 5,
              pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
              [FORM_KEYWORD]: FORMS.timeOfDay,
              description: 'wall-clock time of day, `HH:MM`',
            }),
            timezone: str({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. `America/Sao_Paulo`' }),
          },
          ['until', 'timezone'],
        ),
      ],
    },
  },
  wait_reply: {
    name: 'JourneyWaitReplyConfig',
    schema: object(
      { timeout_minutes: int({ minimum: 1, maximum: 43200, description: 'give up after this long (at most 30 days)' }) },
      ['timeout_minutes'],
      { description: 'Wait for the contact to reply: `next[0]` on a reply, `next[1]` on the time-out.' },
    ),
  },
  condition: {
    name: 'JourneyConditionConfig',
    schema: {
      ...condition(
        `^(event|contact|conversation|http\\.[a-z0-9_-]{1,40})${FIELD_PATH}$`,
        'a field of the triggering event (`event.data.…`), of the contact or conversation (`contact.tags`, `conversation.status`), ' +
          'or of the answer of an earlier `http` block (`http.<block id>.status`, `http.<block id>.body.…`)',
        'a dot path starting event., contact., conversation. or http.<block id>., e.g. event.data.offer.price',
      ),
      description: 'Branch: `next[0]` when the test holds, `next[1]` otherwise.',
    },
  },
  tag: {
    name: 'JourneyTagConfig',
    schema: object(
      {
        add: tags('tags to add to the conversation and contact'),
        remove: tags('tags to remove'),
        stage: str({ enum: [...CONTACT_STAGES], description: "set the contact's stage" }),
      },
      [],
      { description: 'Change tags or the stage of the contact.', minProperties: 1 },
    ),
  },
  assign: {
    name: 'JourneyAssignConfig',
    schema: object(
      {
        assignee: nullable(str({ minLength: 1, maxLength: 120, description: 'team member; null unassigns' })),
        priority: ref('Priority'),
        du_mode: ref('DuMode'),
      },
      [],
      { description: 'Assign, prioritise or set the DU mode of the conversation.', minProperties: 1 },
    ),
  },
  http: {
    name: 'JourneyHttpConfig',
    schema: object(
      {
        url: str({
          format: 'uri',
          maxLength: 2000,
          pattern: '^https://',
          [FORM_KEYWORD]: FORMS.https,
          description: 'an HTTPS URL; the destination rules of webhooks apply (no loopback or private address)',
        }),
        method: str({ enum: ['GET', 'POST'], description: '`POST` when omitted' }),
        body: {
          type: 'object',
          maxProperties: HTTP_BODY_MAX_FIELDS,
          description:
            `JSON sent with POST (default: the triggering event); at most ${HTTP_BODY_MAX_FIELDS} fields at its top level, ` +
            `and the request as a whole nests at most ${MAX_BODY_DEPTH} levels deep`,
        },
        timeout_ms: int({ minimum: 1000, maximum: 15000, description: 'give up after this long (10000 when omitted)' }),
      },
      ['url'],
      { description: 'Call an HTTPS URL; its status and JSON body are usable by later conditions (`http.<block id>.…`).' },
    ),
  },
  publish: {
    name: 'JourneyPublishConfig',
    schema: {
      ...object({
        group_id: idOf('grp', 'publish to this group (it must exist)'),
        segment_id: idOf('seg', 'publish to every active group of this segment (it must exist)'),
        event_group: bool({
          const: true,
          description: 'publish to the group the triggering event names (`event.data.group_id` or `event.data.group.id`)',
        }),
        text: str({ minLength: 1, maxLength: 4096, description: 'publish this text; without it, the offer of the triggering event' }),
        template_id: idOf('tpl', "render the event's offer with this template (it must exist); not with `text`"),
        with_image: bool({ description: "send the offer's image where the channel supports it (default true)" }),
      }),
      description:
        "Publish to groups through the publish path (a publication, with the channels' pacing and retries): a `text`, or the " +
        'offer the triggering event names (`event.data.offer.id` or `event.data.offer_id`; an event without one fails the block). ' +
        'Destination: exactly one of `group_id`, `segment_id` and `event_group`. One publication per execution and block, however ' +
        'often the step is retried.',
      allOf: [{ oneOf: [present('group_id'), present('segment_id'), present('event_group')] }, { not: present('text', 'template_id') }],
    },
  },
  end: {
    name: 'JourneyEndConfig',
    schema: object({ close_conversation: bool({ description: 'also close the conversation' }) }, [], { description: 'End the execution.' }),
  },
};

/** How many successors a block may have. */
export const NEXT_MAX: Record<BlockType, number> = {
  trigger: 1,
  message: 1,
  wait: 1,
  wait_reply: 2,
  condition: 2,
  tag: 1,
  assign: 1,
  http: 1,
  publish: 1,
  end: 0,
};

const position = (response: boolean): JsonSchema => (response ? nullable(ref('JourneyBlockPosition')) : ref('JourneyBlockPosition'));

/** One closed variant of a block per type, discriminated by `type`. */
const blockVariant = (type: BlockType, response: boolean): JsonSchema => {
  const properties: Record<string, JsonSchema> = {
    id: BLOCK_ID,
    type: str({ const: type }),
    name: response ? nullable(str()) : str({ minLength: 1, maxLength: 80, description: 'label shown in the editor' }),
    config: ref(CONFIGS[type].name),
    next: arr(BLOCK_ID, {
      maxItems: NEXT_MAX[type],
      description:
        type === 'condition'
          ? '[block when true, block when false]'
          : type === 'wait_reply'
            ? '[block on a reply, block on the time-out]'
            : type === 'end'
              ? 'always empty: `end` closes the path'
              : 'the following block; empty ends the path',
    }),
    position: position(response),
    ...(response ? { metrics: ref('JourneyBlockMetrics') } : {}),
  };
  return response ? record(properties) : object(properties, ['id', 'type', 'config']);
};

const BLOCKS_DESCRIPTION =
  'The graph: exactly one `trigger` block (the entry), ids unique, every `next` naming a block of the journey, no loop without a ' +
  '`wait` or `wait_reply` block, every block reachable from the trigger, every template named existing. A graph that breaks ' +
  'these rules is a 400 `validation_failed` whose `details` name the block (`blocks[<id>]`) and the rule.';

const journeyFields = (create: boolean): Record<string, JsonSchema> => ({
  name: str({ minLength: 1, maxLength: 120 }),
  description: create ? str({ maxLength: 500 }) : nullable(str({ maxLength: 500 })),
  trigger: EVENT_KIND,
  filter: arr(ref('JourneyFilterCondition'), {
    maxItems: 20,
    description: 'tests on fields of the triggering event (`event.data.…`), all of which must hold for an execution to start',
  }),
  channels: arr(ref('ChannelType'), {
    minItems: 1,
    maxItems: CHANNEL_TYPES.length,
    uniqueItems: true,
    description: 'channels the journey runs on' + (create ? '; every channel when omitted' : ''),
  }),
  blocks: arr(ref('JourneyBlockInput'), { minItems: 1, maxItems: 200, description: BLOCKS_DESCRIPTION }),
});

export const schemas: Record<string, JsonSchema> = {
  JourneyFilterCondition: {
    ...condition(
      `^event${FIELD_PATH}$`,
      'a field of the triggering event, e.g. `event.data.offer.price`',
      'a dot path starting event., e.g. event.data.offer.price',
    ),
    description: 'A test on a field of the triggering event.',
  },
  JourneyBlockType: str({ enum: [...BLOCK_TYPES], description: 'Kind of block of a journey graph.' }),
  ...Object.fromEntries(Object.values(CONFIGS).map((c) => [c.name, c.schema])),
  JourneyBlockPosition: record(
    { x: num({ minimum: -100000, maximum: 100000 }), y: num({ minimum: -100000, maximum: 100000 }) },
    { description: 'Where the visual editor draws the block.' },
  ),
  JourneyBlockInput: {
    description: 'A block of the graph; `config` has the shape of its `type` (Journey<Type>Config).',
    oneOf: BLOCK_TYPES.map((t) => blockVariant(t, false)),
  },
  JourneyBlock: {
    description: 'A block of the graph as stored; `config` has the shape of its `type`.',
    oneOf: BLOCK_TYPES.map((t) => blockVariant(t, true)),
  },
  JourneyBlockMetrics: record(
    {
      entered: int({ minimum: 0, description: 'times an execution reached the block' }),
      completed: int({ minimum: 0, description: 'times an execution went past it' }),
      failed: int({ minimum: 0, description: 'times an execution failed in it' }),
    },
    { description: 'What the executions did at one block, since the journey was created (kept by the executions).' },
  ),
  JourneyMetrics: record(
    {
      running: int({ minimum: 0, description: 'executions under way' }),
      completed: int({ minimum: 0 }),
      failed: int({ minimum: 0, description: 'failed, cancelled, terminated or timed out' }),
      completion_rate: nullable(num({ minimum: 0, maximum: 1, description: 'completed / finished executions; null before any finished' })),
      last_execution_at: nullable(dateTime('start of the latest execution')),
    },
    { description: 'Aggregate performance of a journey since its creation.' },
  ),
  JourneyCreate: object(journeyFields(true), ['name', 'trigger', 'blocks'], {
    description: 'A visual automation. It is created as a draft (`active` 0) and runs only after POST /journeys/{id}/activate.',
  }),
  JourneyUpdate: object(journeyFields(false), [], {
    description:
      'Only the fields sent change; `blocks` replaces the whole graph. Executions already running finish on the graph they started with.',
  }),
  Journey: record(
    {
      id: idOf('jrn'),
      name: str(),
      description: nullable(str()),
      trigger: str({ description: 'the event kind that starts an execution' }),
      filter: arr(ref('JourneyFilterCondition')),
      channels: arr(ref('ChannelType')),
      blocks: arr(ref('JourneyBlock')),
      version: int({
        minimum: 1,
        description: 'raised by every change of trigger, filter or blocks; each execution runs the version it started with',
      }),
      active: int({ enum: [0, 1], description: '1 when active, 0 for a draft or a paused journey' }),
      executions: int({ minimum: 0, description: 'executions ever started' }),
      metrics: ref('JourneyMetrics'),
      activated_at: nullable(dateTime('when it was last activated; null while never activated')),
      created_at: dateTime('creation time'),
      updated_at: dateTime('last change'),
    },
    { description: 'A journey (DU automation): a graph of blocks started by an event kind.' },
  ),
  JourneyActivateRequest: object({ active: bool({ description: '`true` activates, `false` pauses', default: true }) }, [], {
    description: 'Activate (the default) or pause.',
  }),
  JourneyExecution: record(
    {
      id: str({ minLength: 1, maxLength: 200, description: 'id of the execution (its durable workflow id)' }),
      journey_id: idOf('jrn'),
      conversation_id: nullable(idOf('cnv', 'the conversation the execution acts on, when any')),
      status: ref('JourneyExecutionStatus'),
      current_step: nullable(str({ description: 'id of the block being executed; null once closed' })),
      event_id: str({ description: 'the event that started it' }),
      event_kind: str({ description: 'its kind' }),
      version: int({ minimum: 1, description: 'the version of the journey it runs' }),
      error: nullable(str({ description: 'why it failed; null otherwise' })),
      started_at: dateTime('start'),
      closed_at: nullable(dateTime('end; null while running')),
    },
    { description: 'One run of a journey.' },
  ),
  JourneyExecutionStatus: str({
    enum: [...EXECUTION_STATUSES],
    description:
      '`running`, or how it closed: `completed`, `failed` (a block failed), `cancelled` (cancelled in Temporal by an operator), `terminated` (stopped by an operator), `timed_out`. Pausing the journey lets running executions finish.',
  }),
  JourneyDeletion: { ...deletionEnvelope('true: the journey was removed'), description: 'Result of DELETE /journeys/{id}.' },
};

const journeys = resource({ tag: 'Journeys', area: 'journeys', path: '/journeys', name: 'journey', schema: 'Journey' });

export const operations: OperationDef[] = [
  journeys.list({
    summary: 'List flows with aggregate performance',
    filters: [
      filter('active', 'Only active (true) or inactive (false) journeys.', bool()),
      filter('trigger', 'Only journeys started by this event kind.', EVENT_KIND),
    ],
  }),
  journeys.create({ summary: 'Create a safe visual automation (as a draft)', success: 'The new journey, `active` 0.' }),
  journeys.get({ summary: 'Blocks, channels, metrics' }),
  journeys.update({ summary: 'Update graph and rules' }),
  journeys.delete({
    summary: 'Delete a journey that never executed',
    description: 'A journey with executions (`executions` > 0) is refused with 409 `resource_in_use`; pause it instead.',
  }),
  {
    operationId: 'journey_activate',
    method: 'post',
    path: '/journeys/{id}/activate',
    scope: 'journeys:write',
    tag: 'Journeys',
    summary: 'Activate or pause',
    description:
      'Body `{"active": true}` (or no body) activates, `{"active": false}` pauses. Only an active journey starts executions; ' +
      'pausing starts no new one, and executions already running finish on the graph they started with. Setting the state it ' +
      'already has changes nothing.',
    body: { schema: ref('JourneyActivateRequest'), required: false },
    success: { status: 200, description: 'The journey in its new state.', schema: singleEnvelope(ref('Journey')) },
  },
  journeys.nested({ name: 'execution', schema: 'JourneyExecution' }).list({
    summary: 'List executions: status, step, times',
    description:
      'Served from Temporal visibility (the executions are workflows `journey-<jrn>-<evt>`): running ones first, then closed ones, ' +
      'the most recently closed first. Visibility trails a change by about a second.',
    idSchema: { type: 'string', minLength: 2, maxLength: 100 },
    filters: [filter('status', 'Only executions in this status.', ref('JourneyExecutionStatus'))],
  }),
];
