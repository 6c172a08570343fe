/**
 * The activity of the `scheduleRun` workflow: one run of a schedule queues one
 * normal publication through `queuePublication`, exactly as publish does.
 */
import { ApplicationFailure } from '@temporalio/common';
import { ERROR_STATUS } from '../schemas/openapi/common';
import { DomainError } from '../domain/errors';
import { derivedId } from '../domain/ids';
import { commitEvents } from '../domain/events/commit';
import { queuePublication } from '../domain/publications/queue';
import { wallTime } from '../domain/schedules/recurrence';
import {
  changedRecently,
  deleteTemporalSchedule,
  describeOrNull,
  observedOf,
  RUN_REFUSED,
  RunError,
  syncHash,
  syncTemporalSchedule,
} from '../domain/schedules/temporal';
import { temporalScheduleId } from '../temporal/names';
import { ScheduleRunInput, ScheduleRunResult } from '../temporal/workflows';
import { Tenant } from '../domain/db';
import { prepareEvent } from '../domain/events/store';
import { getSchedule, observedFields, recordScheduleRun } from '../domain/schedules/store';
import { ActivityDeps, publishingDeps } from './deps';

export interface RunScheduleInput extends ScheduleRunInput {
  /** The time the run is for (Temporal's `TemporalScheduledStartTime`: the trigger time for run-now). */
  scheduled_at: string;
  /** The sync hash of the Temporal Schedule that started the run (its action memo). */
  sync: string | null;
}

/** The event id of a run, the same for every attempt of it, so a retried activity records the event once. */
const runEventId = (tenant: Tenant, key: string): string => derivedId('evt', 'schedule.ran', tenant.accountId, tenant.env, key);

const NOTHING: ScheduleRunResult = { publication_id: null, event_id: null };

export function createScheduleActivities(deps: ActivityDeps) {
  const temporal = { client: deps.temporal, taskQueue: deps.taskQueue };
  const withTemporal = publishingDeps(deps);

  return {
    /**
     * Runs a schedule once: queues its publication under the idempotency key
     * `<schedule>:<wall-clock time of the run in the schedule's time zone>`,
     * so a retried attempt finds the same publication, and so does the second
     * 01:30 of a night the clocks go back. Records the run and `schedule.ran`.
     * A refusal of the destination or content (a 4xx of publishing) is
     * recorded as a failed run and fails the activity without retries.
     */
    async runSchedule(input: RunScheduleInput): Promise<ScheduleRunResult> {
      const tenant: Tenant = { accountId: input.account, env: input.environment };
      const handle = deps.temporal.schedule.getHandle(temporalScheduleId(input.schedule_id));
      const doc = await getSchedule(deps.db, tenant, input.schedule_id);
      if (!doc) {
        // A Temporal Schedule without its record: being created right now
        // (wait for the record), or left by a create or delete that died
        // half-way (remove it; nothing is published without a record).
        const desc = await describeOrNull(handle);
        if (desc && changedRecently(desc)) throw ApplicationFailure.retryable('the schedule record is not saved yet', 'ScheduleNotSaved');
        await deleteTemporalSchedule(temporal, input.schedule_id);
        return NOTHING;
      }
      if (input.sync !== syncHash(doc)) {
        // Started by a Temporal Schedule that differs from the record: a change
        // being saved (wait for it), or one that died half-way, or a run that
        // waited for a worker while the schedule was re-timed. The record wins.
        const desc = await describeOrNull(handle);
        if (desc && changedRecently(desc)) throw ApplicationFailure.retryable('a change of the schedule is being saved', 'ScheduleChanging');
        await syncTemporalSchedule(temporal, doc, desc);
        return NOTHING;
      }

      const scheduledAt = new Date(input.scheduled_at);
      const key = `${doc._id}:${wallTime(scheduledAt, doc.recurrence?.timezone ?? 'UTC')}`;
      let publicationId: string | null = null;
      let error: RunError | null = null;
      try {
        const { publication } = await queuePublication(withTemporal, tenant, {
          offer_id: doc.offer_id,
          text: doc.text,
          template_id: doc.template_id,
          group_id: doc.group_id,
          segment_id: doc.segment_id,
          with_image: doc.with_image,
          schedule_id: doc._id,
          idempotency_key: key,
        });
        publicationId = publication._id;
      } catch (err) {
        if (!(err instanceof DomainError)) throw err; // the database or Temporal: retried
        error = { status: ERROR_STATUS[err.code], code: err.code, message: err.message };
      }

      const eventId = runEventId(tenant, key);
      const desc = await describeOrNull(handle);
      const event = prepareEvent(
        tenant,
        'schedule.ran',
        {
          schedule_id: doc._id,
          scheduled_at: scheduledAt.toISOString(),
          outcome: error ? 'failed' : 'queued',
          publication_id: publicationId,
          error,
        },
        new Date(),
        eventId,
      );
      const run = { key, scheduled_at: scheduledAt, publication_id: publicationId, error, event_id: eventId, at: new Date() };
      const observed = desc ? observedOf(desc) : observedFields('completed', null);
      if (await recordScheduleRun(deps.db, tenant, doc._id, run, observed, event)) await commitEvents(withTemporal, 'schedules', doc._id);
      if (error) throw ApplicationFailure.create({ type: RUN_REFUSED, message: error.message, nonRetryable: true, details: [error] });
      return { publication_id: publicationId, event_id: eventId };
    },
  };
}
