import { ApplicationFailure, defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities/index';
import type { ScheduleRunInput, ScheduleRunResult } from '../temporal/workflows';

/** Set by Temporal on every workflow a Schedule starts: the time the action was for (the trigger time for a trigger). */
const TemporalScheduledStartTime = defineSearchAttributeKey('TemporalScheduledStartTime', SearchAttributeType.DATETIME);

/** Infrastructure errors retry with backoff; a refused run fails at once (the activity marks it non-retryable). */
const { runSchedule } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/**
 * One run of a schedule, started by its Temporal Schedule `schedule-<id>` —
 * at a scheduled time, or by a trigger (run-now) — as
 * `schedule-run-<id>-<time>`. It queues one normal publication (its own
 * `publication-<id>` workflow) and returns its id; a run the destination or
 * content refuses fails, recorded as a failed run (`schedule.ran`).
 */
export async function scheduleRun(input: ScheduleRunInput): Promise<ScheduleRunResult> {
  const info = workflowInfo();
  const scheduledAt = info.typedSearchAttributes.get(TemporalScheduledStartTime);
  if (!scheduledAt) {
    throw ApplicationFailure.nonRetryable('scheduleRun is started by the Temporal Schedule of a schedule only', 'NotScheduled');
  }
  const sync = typeof info.memo?.sync === 'string' ? info.memo.sync : null;
  return runSchedule.executeWithOptions({ summary: `queue the publication of schedule ${input.schedule_id} for ${scheduledAt.toISOString()}` }, [
    { ...input, scheduled_at: scheduledAt.toISOString(), sync },
  ]);
}
