/**
 * The Temporal Schedule `schedule-<id>` of a schedule record, by id: its
 * handle and its removal. Shared by schedules/ (which keeps it in step with the
 * record), the `schedule.deleted` follow-up of events/ and the sandbox reset.
 */
import { ScheduleHandle, ScheduleNotFoundError } from '@temporalio/client';
import { temporalScheduleId } from '../temporal/names';
import { TemporalDeps } from '../temporal/start';

/** The handle of the Temporal Schedule of record `id`. */
export const scheduleHandle = (t: TemporalDeps, id: string): ScheduleHandle => t.client.schedule.getHandle(temporalScheduleId(id));

/** Removes the Temporal Schedule of a record (gone already is fine). */
export async function deleteTemporalSchedule(t: TemporalDeps, id: string): Promise<void> {
  try {
    await scheduleHandle(t, id).delete();
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
}
