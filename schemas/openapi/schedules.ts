import {
  arr,
  bool,
  dateTime,
  deletionEnvelope,
  eventEnvelope,
  exactlyOne,
  filter,
  DATE_TIME_MAX_LENGTH,
  FORM_KEYWORD,
  idOf,
  int,
  JsonSchema,
  nullable,
  object,
  OperationDef,
  present,
  record,
  ref,
  str,
} from './common';
import { resource } from './crud';
import { CRON, IANA_TIMEZONE, RRULE } from './recurrence';

export const SCHEDULE_STATUSES = ['active', 'paused', 'completed'] as const;
/** How far ahead `run_at` may be (domain/schedules/service.ts checks it; the rule `horizon`). */
export const SCHEDULE_HORIZON_YEARS = 10;

/** An RFC 3339 date-time with an offset: without one it names no instant. */
const offsetDateTime = (description: string): JsonSchema =>
  str({
    format: 'date-time',
    maxLength: DATE_TIME_MAX_LENGTH,
    pattern: '^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,9})?(?:[Zz]|[+-]\\d{2}:\\d{2})$',
    [FORM_KEYWORD]: 'an RFC 3339 date-time with a UTC offset, e.g. 2030-01-01T09:00:00-03:00 or 2030-01-01T12:00:00Z',
    description:
      `${description}. An RFC 3339 date-time WITH an offset (\`2030-01-01T09:00:00-03:00\` or \`…Z\`); a time without ` +
      'an offset names no instant and is a 400 `validation_failed`. Kept to the second.',
  });

const ENDS_AT = offsetDateTime('no run after this instant, which must be after `run_at`; omitted for no end');

const scheduleFields = (create: boolean): Record<string, JsonSchema> => ({
  name: create ? str({ minLength: 1, maxLength: 120, description: 'label shown to the team' }) : nullable(str({ minLength: 1, maxLength: 120 })),
  offer_id: idOf('off', 'content: publish this offer (pending or approved: 409 `offer_not_publishable` otherwise, as for publish)'),
  text: str({ minLength: 1, maxLength: 4096, description: 'content: publish this free text' }),
  group_id: idOf('grp', 'destination: this one group'),
  segment_id: idOf('seg', 'destination: every active group of this segment, by its distribution'),
  run_at: offsetDateTime(
    'when: the only run of a one-off schedule; for a recurring one, when the recurrence starts (its first run is the first ' +
      `occurrence at or after this instant). Must be in the future and at most ${SCHEDULE_HORIZON_YEARS} years ahead ` +
      '(later: a 400 `validation_failed` with the rule `horizon`, naming the last instant accepted)' +
      (create ? '' : '; a completed schedule becomes active again with a new one'),
  ),
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
      'that ran, or a recurrence past its end. Moves by PATCH: active ↔ paused; completed → active only with a new future `run_at` (or a new recurrence with runs ahead).',
  }),
  ScheduleRecurrenceInput: {
    description:
      'Repeat the schedule: exactly one of `rrule` or `cron`, read as wall-clock time in `timezone` (`UTC` when omitted), so ' +
      '09:00 stays 09:00 local across daylight-saving changes. A time that does not exist on the day the clocks go forward ' +
      'is skipped that day; a time that occurs twice on the day they go back runs once. Runs at most every 15 minutes: the ' +
      'times of day a rule gives must be at least 15 minutes apart, also across midnight (a denser rule is a 400 ' +
      '`validation_failed`). Replaced as a whole on update; `null` makes the schedule a one-off at `run_at`.',
    oneOf: [
      object({ rrule: RRULE, timezone: IANA_TIMEZONE, ends_at: ENDS_AT }, ['rrule'], { description: 'An RFC 5545 recurrence rule.' }),
      object({ cron: CRON, timezone: IANA_TIMEZONE, ends_at: ENDS_AT }, ['cron'], { description: 'A cron expression.' }),
    ],
  },
  ScheduleRecurrence: record(
    {
      rrule: nullable(str()),
      cron: nullable(str()),
      timezone: str({ description: 'IANA time zone the rule is read in' }),
      ends_at: nullable(dateTime('no run after this instant')),
    },
    { description: 'The recurrence of a schedule: one of `rrule`, `cron` is set.' },
  ),
  ScheduleCreate: object(scheduleFields(true), ['run_at'], {
    description:
      'What to publish — exactly one of `offer_id`, `text` — where — exactly one of `group_id`, `segment_id` — and when: ' +
      '`run_at`, optionally repeated by `recurrence`. Breaking an exactly-one rule is a 400 `validation_failed` naming the ' +
      'fields; referenced ids this account does not have are a 400 `unknown_reference`.',
    allOf: [exactlyOne('offer_id', 'text'), exactlyOne('group_id', 'segment_id')],
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
      allOf: [{ not: present('offer_id', 'text') }, { not: present('group_id', 'segment_id') }],
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
      run_at: dateTime('the only run of a one-off schedule; when a recurring one starts'),
      recurrence: nullable(ref('ScheduleRecurrence')),
      status: ref('ScheduleStatus'),
      next_run_at: nullable(dateTime('the next run, as the scheduler (Temporal) computes it; null when paused or completed')),
      last_run_at: nullable(dateTime('when the last run started, by the scheduler or run-now')),
      run_count: int({ minimum: 0, description: 'runs started so far, by the scheduler or run-now' }),
      created_at: dateTime('creation time'),
      updated_at: dateTime('last change'),
    },
    {
      description:
        'A future or recurring publication. Backed by a Temporal Schedule `schedule-<id>`; each run is a workflow ' +
        '`scheduleRun` (`schedule-run-<id>-<time>`) that queues one normal publication with `schedule_id` set.',
    },
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

const schedules = resource({ tag: 'Schedules', area: 'schedules', path: '/schedules', name: 'schedule', schema: 'Schedule' });

export const operations: OperationDef[] = [
  schedules.list({
    summary: 'List future and recurring publications, soonest first',
    description:
      'Ordered by `next_run_at` (schedules without one last) and filtered by `status` as recorded at the last change, ' +
      "run or read of each schedule; each item shows the scheduler's current view (and a read that finds it changed " +
      'records it).',
    filters: [
      filter('status', 'Only schedules in this state.', ref('ScheduleStatus')),
      filter('group_id', 'Only schedules to this group.', idOf('grp')),
      filter('segment_id', 'Only schedules to this segment.', idOf('seg')),
      filter('offer_id', 'Only schedules of this offer.', idOf('off')),
    ],
  }),
  schedules.create({ summary: 'Schedule an offer or a text for an ISO date-time', success: 'The new schedule, `active`.' }),
  schedules.get({ summary: 'Destination, content, recurrence' }),
  schedules.update({ summary: 'Change time, destination, recurrence, status' }),
  schedules.delete({
    summary: 'Cancel and remove a future schedule',
    description:
      'Only a schedule that still has runs ahead (`active` or `paused`) can be deleted; a `completed` one is history and ' +
      'is refused with 409 `conflict`. Publications it already queued are kept.',
  }),
  {
    operationId: 'schedule_run',
    method: 'post',
    path: '/schedules/{id}/run',
    scope: 'publications:write',
    tag: 'Schedules',
    summary: 'Run the schedule now',
    description:
      'Queues the publication exactly as the scheduler would, now: it triggers the schedule, so the run is the same ' +
      '`scheduleRun` workflow the scheduler starts. Does not move `next_run_at` and works on a `paused` schedule too; a ' +
      '`completed` one is refused with 409 `conflict`. Answers once the run has queued its publication, with the ' +
      '`event_id` of the run (`schedule.ran`). A run the destination or content refuses answers with that error (e.g. 409 ' +
      '`destination_unavailable`) and is recorded as a failed run. When the run has not queued within the wait (no worker ' +
      'takes it), 503 `service_unavailable`: the run stays under way, and repeating the request waits for that same run ' +
      'instead of starting another (so does a request made while a scheduled run of this schedule is under way).',
    success: { status: 200, description: 'The schedule and the publications it queued.', schema: eventEnvelope(ref('ScheduleRunResult')) },
  },
];
