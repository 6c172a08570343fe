/**
 * The Temporal side of monitors: each monitor record has a Temporal Schedule
 * `monitor-<mon_id>` whose spec comes from its frequency (every N minutes, or
 * a cron or RRULE read in a time zone, through the schedules' recurrence
 * code) and whose state follows `state`. Its action starts `monitorRun`
 * (`monitor-run-<mon_id>-<time>`); sources, criteria and automation are not
 * copied into Temporal: a run reads them from the record.
 */
import { ScheduleDescription, ScheduleHandle, ScheduleNotFoundError, ScheduleOverlapPolicy, ScheduleSpec } from '@temporalio/client';
import { scheduleSpec } from '../recurrence';
import { describeOrNull, triggerAndFind } from '../schedules/temporal';
import { monitorScheduleId, offeropsSearchAttributes } from '../../temporal/names';
import { monitorRunAction, TemporalDeps } from '../../temporal/start';
import { MonitorDoc, MonitorFrequency } from './store';

/** The Temporal ScheduleSpec of a frequency. */
export function frequencySpec(f: MonitorFrequency): ScheduleSpec {
  if (f.every_minutes !== null) return { intervals: [{ every: `${f.every_minutes} minutes` }] };
  return scheduleSpec({
    run_at: f.starts_at,
    recurrence: { rrule: f.rrule, cron: f.cron, timezone: f.timezone, ends_at: null },
  });
}

const handleOf = (t: TemporalDeps, id: string): ScheduleHandle => t.client.schedule.getHandle(monitorScheduleId(id));

/**
 * Overlap SKIP: a run still reading its feeds when the next time comes makes
 * that next run unnecessary (it would read the same feeds again).
 */
export async function createMonitorSchedule(t: TemporalDeps, doc: MonitorDoc): Promise<ScheduleDescription> {
  const handle = await t.client.schedule.create({
    scheduleId: monitorScheduleId(doc._id),
    spec: frequencySpec(doc.frequency),
    action: monitorRunAction(t, doc),
    policies: { overlap: ScheduleOverlapPolicy.SKIP },
    state: { paused: doc.state === 'paused' },
    typedSearchAttributes: offeropsSearchAttributes(doc.account_id, doc.env, doc._id, 'monitor'),
  });
  return handle.describe();
}

/** The description of the monitor's Temporal Schedule, or null when it is gone. */
export const describeMonitorSchedule = (t: TemporalDeps, id: string): Promise<ScheduleDescription | null> => describeOrNull(handleOf(t, id));

/** Makes the Temporal Schedule what `doc` says (spec, action, paused), creating it when missing; its description after. */
export async function syncMonitorSchedule(t: TemporalDeps, doc: MonitorDoc): Promise<ScheduleDescription> {
  const handle = handleOf(t, doc._id);
  const desc = await describeOrNull(handle);
  if (!desc) return createMonitorSchedule(t, doc);
  await handle.update((previous) => ({
    ...previous,
    spec: frequencySpec(doc.frequency),
    action: monitorRunAction(t, doc),
    state: { ...previous.state, paused: doc.state === 'paused' },
  }));
  // Temporal applies an update to its scheduler asynchronously: wait (bounded) until the description shows it.
  const deadline = Date.now() + 5_000;
  for (let pause = 25; ; pause = Math.min(pause * 2, 400)) {
    const after = await handle.describe();
    if (after.state.paused === (doc.state === 'paused') || Date.now() >= deadline) return after;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** Removes the monitor's Temporal Schedule (gone already is fine). */
export async function deleteMonitorSchedule(t: TemporalDeps, id: string): Promise<void> {
  try {
    await handleOf(t, id).delete();
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
}

/** The next run the scheduler will start; null when paused (or none is ahead). */
export const nextRunOf = (desc: ScheduleDescription | null): Date | null =>
  desc && !desc.state.paused ? (desc.info.nextActionTimes[0] ?? null) : null;

/**
 * Runs the monitor now through its Temporal Schedule (created when missing), under the schedule's
 * overlap policy: the id of the run it started, or null when none started within `waitMs` (a run
 * still under way makes the schedule skip the trigger).
 */
export async function triggerMonitorRun(t: TemporalDeps, doc: MonitorDoc, waitMs = 10_000): Promise<string | null> {
  const handle = handleOf(t, doc._id);
  const desc = (await describeOrNull(handle)) ?? (await createMonitorSchedule(t, doc));
  return (await triggerAndFind(handle, desc, Date.now() + waitMs))?.workflowId ?? null;
}
