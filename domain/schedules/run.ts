/**
 * One run of a schedule (its `scheduleRun` workflow's step): queues one
 * normal publication through `queuePublication`, exactly as publish does,
 * and records the run with `schedule.ran`.
 */
import { ScheduleHandle } from '@temporalio/client';
import { ERROR_STATUS } from '../../schemas/openapi/common';
import { temporalScheduleId } from '../../temporal/names';
import { ScheduleRunResult } from '../../temporal/workflows';
import { Tenant } from '../db';
import { DomainError } from '../errors';
import { commitEvents } from '../events/commit';
import { prepareEvent } from '../events/store';
import { derivedId } from '../ids';
import { PublishingDeps, queuePublication } from '../publications/queue';
import { wallTime } from '../recurrence';
import { getSchedule, observedFields, recordScheduleRun, ScheduleDoc } from './store';
import { deleteTemporalSchedule } from '../schedule-handle';
import { changedRecently, describeOrNull, observedOf, RunError, syncHash, syncTemporalSchedule } from './temporal';

/**
 * How a run went: it queued its publication (or nothing, its Temporal
 * Schedule being out of date or orphaned: nulls); it must wait for the
 * record being saved (`not_yet`, retried); or publishing refused it.
 */
export type RunOutcome =
  | { outcome: 'done'; result: ScheduleRunResult }
  | { outcome: 'not_yet'; kind: 'ScheduleNotSaved' | 'ScheduleChanging'; message: string }
  | { outcome: 'refused'; error: RunError };

/** The event id of a run, the same for every attempt of it, so a retried activity records the event once. */
const runEventId = (tenant: Tenant, key: string): string => derivedId('evt', 'schedule.ran', tenant.accountId, tenant.env, key);

const NOTHING: RunOutcome = { outcome: 'done', result: { publication_id: null, event_id: null } };

/**
 * A run whose Temporal Schedule has no record, or differs from it: it waits
 * for the record being saved, or does nothing once the Temporal Schedule is
 * removed or brought in line with the record.
 */
async function outOfStep(deps: PublishingDeps, handle: ScheduleHandle, scheduleId: string, doc: ScheduleDoc | null): Promise<RunOutcome> {
  if (!doc) {
    // A Temporal Schedule without its record: being created right now
    // (wait for the record), or left by a create or delete that died
    // half-way (remove it; nothing is published without a record).
    const desc = await describeOrNull(handle);
    if (desc && changedRecently(desc)) return { outcome: 'not_yet', kind: 'ScheduleNotSaved', message: 'the schedule record is not saved yet' };
    await deleteTemporalSchedule(deps.temporal, scheduleId);
    return NOTHING;
  }
  // Started by a Temporal Schedule that differs from the record: a change
  // being saved (wait for it), or one that died half-way, or a run that
  // waited for a worker while the schedule was re-timed. The record wins.
  const desc = await describeOrNull(handle);
  if (desc && changedRecently(desc)) return { outcome: 'not_yet', kind: 'ScheduleChanging', message: 'a change of the schedule is being saved' };
  await syncTemporalSchedule(deps.temporal, doc, desc);
  return NOTHING;
}

/** Queues the schedule's publication under `key`; a refusal of publishing is the run's error. */
async function publishRun(
  deps: PublishingDeps,
  tenant: Tenant,
  doc: ScheduleDoc,
  key: string,
): Promise<{ publicationId: string | null; error: RunError | null }> {
  try {
    const { publication } = await queuePublication(deps, tenant, {
      offer_id: doc.offer_id,
      text: doc.text,
      template_id: doc.template_id,
      group_id: doc.group_id,
      segment_id: doc.segment_id,
      with_image: doc.with_image,
      schedule_id: doc._id,
      idempotency_key: key,
    });
    return { publicationId: publication._id, error: null };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err; // the database or Temporal: retried
    return { publicationId: null, error: { status: ERROR_STATUS[err.code], code: err.code, message: err.message } };
  }
}

/**
 * Runs schedule `scheduleId` once, for `scheduledAt`, started by the Temporal
 * Schedule whose sync hash is `sync`: queues its publication under the
 * idempotency key `<schedule>:<wall-clock time of the run in the schedule's
 * time zone>`, so a retried attempt finds the same publication, and so does
 * the second 01:30 of a night the clocks go back. Records the run and
 * `schedule.ran`; a refusal of the destination or content (a 4xx of
 * publishing) is recorded as a failed run.
 */
export async function runSchedule(
  deps: PublishingDeps,
  tenant: Tenant,
  scheduleId: string,
  scheduledAt: Date,
  sync: string | null,
): Promise<RunOutcome> {
  const handle = deps.temporal.client.schedule.getHandle(temporalScheduleId(scheduleId));
  const doc = await getSchedule(deps.db, tenant, scheduleId);
  if (!doc || sync !== syncHash(doc)) return outOfStep(deps, handle, scheduleId, doc);

  const key = `${doc._id}:${wallTime(scheduledAt, doc.recurrence?.timezone ?? 'UTC')}`;
  const { publicationId, error } = await publishRun(deps, tenant, doc, key);

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
  if (await recordScheduleRun(deps.db, tenant, doc._id, run, observed, event)) await commitEvents(deps, 'schedules', doc._id);
  if (error) return { outcome: 'refused', error };
  return { outcome: 'done', result: { publication_id: publicationId, event_id: eventId } };
}
