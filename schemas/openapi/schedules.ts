import {
  arr,
  bool,
  creationEnvelope,
  dateTime,
  deletionEnvelope,
  eventEnvelope,
  filter,
  idOf,
  int,
  JsonSchema,
  listEnvelope,
  nullable,
  object,
  OperationDef,
  PAGINATION_PARAMS,
  record,
  ref,
  singleEnvelope,
  str,
} from './common';

export const SCHEDULE_STATUSES = ['active', 'paused', 'completed'] as const;

const IANA_TIMEZONE = str({
  minLength: 1,
  maxLength: 64,
  pattern: '^(?:UTC|[A-Za-z]+(?:/[A-Za-z0-9_+-]+)+)$',
  description: 'IANA time zone name, e.g. `America/Sao_Paulo`, or `UTC`; unknown names are a 400 `validation_failed`',
});

const RRULE = str({
  minLength: 6,
  maxLength: 500,
  pattern: '^FREQ=(?:HOURLY|DAILY|WEEKLY|MONTHLY|YEARLY)(?:;[A-Z]+=[A-Za-z0-9,+:-]+)*$',
  description: 'RFC 5545 RRULE without the `RRULE:` prefix, e.g. `FREQ=DAILY;BYHOUR=9;BYMINUTE=0` or `FREQ=WEEKLY;BYDAY=MO,WE,FR`',
});
const CRON = str({
  minLength: 9,
  maxLength: 120,
  pattern: '^\\S+(?: \\S+){4}$',
  description: 'five-field cron expression (minute hour day-of-month month day-of-week), e.g. `0 9 * * 1-5`',
});
const ENDS_AT = dateTime('no run after this instant; omitted for no end');

const scheduleFields = (create: boolean): Record<string, JsonSchema> => ({
  name: create ? str({ minLength: 1, maxLength: 120, description: 'label shown to the team' }) : nullable(str({ minLength: 1, maxLength: 120 })),
  offer_id: idOf('off', 'content: publish this offer (it must not be archived)'),
  text: str({ minLength: 1, maxLength: 4096, description: 'content: publish this free text' }),
  group_id: idOf('grp', 'destination: this one group'),
  segment_id: idOf('seg', 'destination: every active group of this segment, by its distribution'),
  run_at: str({
    format: 'date-time',
    description:
      'first (or only) run, an RFC 3339 date-time with an offset (`2030-01-01T09:00:00-03:00` or `…Z`); ' +
      (create ? 'must be in the future' : 'must be in the future; moves `next_run_at`'),
  }),
  recurrence: create ? ref('ScheduleRecurrenceInput') : nullable(ref('ScheduleRecurrenceInput')),
  template_id: create
    ? idOf('tpl', 'render an offer with this template; the default template when omitted')
    : nullable(idOf('tpl', 'render an offer with this template; null for the default template')),
  with_image: bool({ description: 'send the offer image with the text (ignored for `text`)', ...(create ? { default: true } : {}) }),
});

export const schemas: Record<string, JsonSchema> = {
  ScheduleStatus: str({
    enum: [...SCHEDULE_STATUSES],
    description:
      '`active`: runs at `next_run_at`; `paused`: kept but does not run (PATCH `status`); `completed`: a one-off schedule ' +
      'that ran, or a recurrence past its end. Moves by PATCH: active ↔ paused; completed → active only with a new future `run_at`.',
  }),
  ScheduleRecurrenceInput: {
    description:
      'Repeat the schedule: exactly one of `rrule` or `cron`, read in `timezone` (`UTC` when omitted). Runs at most every ' +
      '15 minutes (a denser rule is a 400 `validation_failed`). Replaced as a whole on update.',
    oneOf: [
      object({ rrule: RRULE, timezone: IANA_TIMEZONE, ends_at: ENDS_AT }, ['rrule'], { description: 'An RFC 5545 recurrence rule.' }),
      object({ cron: CRON, timezone: IANA_TIMEZONE, ends_at: ENDS_AT }, ['cron'], { description: 'A cron expression.' }),
    ],
  },
  ScheduleRecurrence: record(
    {
      rrule: nullable(str()),
      cron: nullable(str()),
      timezone: str(),
      ends_at: nullable(dateTime('no run after this instant')),
    },
    { description: 'The recurrence of a schedule: one of `rrule`, `cron` is set.' },
  ),
  ScheduleCreate: object(scheduleFields(true), ['run_at'], {
    description:
      'What to publish — exactly one of `offer_id`, `text` — where — exactly one of `group_id`, `segment_id` — and when: ' +
      '`run_at`, optionally repeated by `recurrence`. Breaking an exactly-one rule is a 400 `validation_failed` naming the ' +
      'fields; referenced ids this account does not have are a 400 `unknown_reference`.',
  }),
  ScheduleUpdate: object(
    {
      ...scheduleFields(false),
      status: str({ enum: ['active', 'paused'], description: 'pause or resume the schedule' }),
    },
    [],
    {
      description:
        'Only the fields sent change; `null` clears an optional value. Sending `offer_id` or `text` replaces the content ' +
        '(never both: 400 `validation_failed`); sending `group_id` or `segment_id` replaces the destination (never both). ' +
        '`recurrence` is replaced as a whole.',
    },
  ),
  Schedule: record(
    {
      id: idOf('sch'),
      name: nullable(str()),
      offer_id: nullable(idOf('off', 'content: the offer; null for a text schedule')),
      text: nullable(str({ description: 'content: the text; null for an offer schedule' })),
      group_id: nullable(idOf('grp', 'destination group; null when the destination is a segment')),
      segment_id: nullable(idOf('seg', 'destination segment; null when the destination is a group')),
      template_id: nullable(idOf('tpl')),
      with_image: bool(),
      run_at: dateTime('first (or only) run'),
      recurrence: nullable(ref('ScheduleRecurrence')),
      status: ref('ScheduleStatus'),
      next_run_at: nullable(dateTime('the next run; null when paused or completed')),
      last_run_at: nullable(dateTime('the last run, by the scheduler or run-now')),
      run_count: int({ minimum: 0, description: 'runs so far' }),
      created_at: dateTime('creation time'),
      updated_at: dateTime('last change'),
    },
    { description: 'A future or recurring publication.' },
  ),
  ScheduleRunResult: record(
    {
      schedule: ref('Schedule'),
      publications: arr(ref('Publication'), { description: 'the publication this run queued' }),
    },
    { description: 'The schedule after a run-now and what it queued.' },
  ),
  ScheduleDeletion: { ...deletionEnvelope('true: the schedule was cancelled and removed'), description: 'Result of DELETE /schedules/{id}.' },
};

export const operations: OperationDef[] = [
  {
    operationId: 'schedules_list',
    method: 'get',
    path: '/schedules',
    scope: 'schedules:read',
    tag: 'Schedules',
    summary: 'List future and recurring publications, soonest first',
    description: 'Ordered by `next_run_at` (schedules without one last).',
    query: [
      ...PAGINATION_PARAMS,
      filter('status', 'Only schedules in this state.', ref('ScheduleStatus')),
      filter('group_id', 'Only schedules to this group.', idOf('grp')),
      filter('segment_id', 'Only schedules to this segment.', idOf('seg')),
      filter('offer_id', 'Only schedules of this offer.', idOf('off')),
    ],
    success: { status: 200, description: 'A page of schedules.', schema: listEnvelope(ref('Schedule')) },
  },
  {
    operationId: 'schedule_create',
    method: 'post',
    path: '/schedules',
    scope: 'schedules:write',
    tag: 'Schedules',
    summary: 'Schedule an offer or a text for an ISO date-time',
    body: { schema: ref('ScheduleCreate'), required: true },
    success: { status: 201, description: 'The new schedule, `active`.', schema: creationEnvelope(ref('Schedule')) },
  },
  {
    operationId: 'schedule_get',
    method: 'get',
    path: '/schedules/{id}',
    scope: 'schedules:read',
    tag: 'Schedules',
    summary: 'Destination, content, recurrence',
    success: { status: 200, description: 'The schedule.', schema: singleEnvelope(ref('Schedule')) },
  },
  {
    operationId: 'schedule_update',
    method: 'patch',
    path: '/schedules/{id}',
    scope: 'schedules:write',
    tag: 'Schedules',
    summary: 'Change time, destination, recurrence, status',
    body: { schema: ref('ScheduleUpdate'), required: false },
    success: { status: 200, description: 'The schedule after the change.', schema: singleEnvelope(ref('Schedule')) },
  },
  {
    operationId: 'schedule_delete',
    method: 'delete',
    path: '/schedules/{id}',
    scope: 'schedules:write',
    tag: 'Schedules',
    summary: 'Cancel and remove a future schedule',
    description:
      'Only a schedule that still has runs ahead (`active` or `paused`) can be deleted; a `completed` one is history and ' +
      'is refused with 409 `conflict`. Publications it already queued are kept.',
    success: { status: 200, description: 'The deletion envelope.', schema: ref('ScheduleDeletion') },
  },
  {
    operationId: 'schedule_run',
    method: 'post',
    path: '/schedules/{id}/run',
    scope: 'publications:write',
    tag: 'Schedules',
    summary: 'Run the schedule now',
    description:
      'Queues the publications exactly as the scheduler would, now. Does not move `next_run_at` and works on a `paused` ' +
      'schedule too; a `completed` one is refused with 409 `conflict`. Returns the `event_id` of the run.',
    success: { status: 200, description: 'The schedule and the publications it queued.', schema: eventEnvelope(ref('ScheduleRunResult')) },
  },
];
