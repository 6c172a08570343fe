/** The activity of the `scheduleRun` workflow, over domain/schedules/run.ts. */
import { ApplicationFailure } from '@temporalio/common';
import { runSchedule as run } from '../domain/schedules/run';
import { RUN_REFUSED } from '../domain/schedules/temporal';
import { ScheduleRunInput, ScheduleRunResult } from '../temporal/workflows';
import { ActivityDeps, publishingDeps } from './deps';

export interface RunScheduleInput extends ScheduleRunInput {
  /** The time the run is for (Temporal's `TemporalScheduledStartTime`: the trigger time for run-now). */
  scheduled_at: string;
  /** The sync hash of the Temporal Schedule that started the run (its action memo). */
  sync: string | null;
}

/**
 * Runs a schedule once (see runSchedule). A run that must wait for its
 * record fails to be retried; one publishing refused (recorded as a failed
 * run) fails without retries, the refusal in its details.
 */
export async function runSchedule(deps: ActivityDeps, input: RunScheduleInput): Promise<ScheduleRunResult> {
  const tenant = { accountId: input.account, env: input.environment };
  const done = await run(publishingDeps(deps), tenant, input.schedule_id, new Date(input.scheduled_at), input.sync);
  if (done.outcome === 'not_yet') throw ApplicationFailure.retryable(done.message, done.kind);
  if (done.outcome === 'refused') {
    throw ApplicationFailure.create({ type: RUN_REFUSED, message: done.error.message, nonRetryable: true, details: [done.error] });
  }
  return done.result;
}
