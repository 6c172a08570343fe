import { ActivityFailure, proxyActivities, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities/index';
import { OfferopsState } from '../temporal/names';
import { emptyResult, MonitorRunInput, MonitorRunOutcome, MonitorRunState, SourceResult } from '../temporal/workflows';

const { startMonitorRun, finishMonitorRun } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/**
 * A source is read in one activity that heartbeats as it goes: a worker lost
 * mid-feed is noticed within the heartbeat timeout and the source read again
 * (idempotently: see domain/monitors/run.ts). A source that cannot be read
 * for good ends in its result without failing; one whose failure may pass is
 * tried three times.
 */
const { readMonitorSource } = proxyActivities<Activities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

const why = (err: unknown): string => {
  if (err instanceof ActivityFailure && err.cause) return err.cause.message;
  return err instanceof Error ? err.message : String(err);
};

/**
 * One run of a monitor, started by its Temporal Schedule `monitor-<id>` as
 * `monitor-run-<id>-<time>`: every source is read in its own activity, side
 * by side (a failing source never stops the others), then the run's result
 * becomes the monitor's `last_result` and a `monitor.ran` event.
 * `OfferopsState` says how it went: `succeeded`, `partial` (some sources
 * failed), `failed` (all did), or `skipped` (the monitor paused or gone).
 */
export async function monitorRun(input: MonitorRunInput): Promise<MonitorRunOutcome> {
  const { workflowId, runId } = workflowInfo();
  const ended = (state: MonitorRunState) => upsertSearchAttributes([{ key: OfferopsState, value: state }]);
  const plan = await startMonitorRun(input);
  if (!plan) {
    ended('skipped');
    return { event_id: null, seen: 0, matched: 0, created: 0, published: 0, errors: 0 };
  }
  const startedAt = new Date().toISOString();
  const sources: SourceResult[] = await Promise.all(
    plan.sources.map((source, index) =>
      readMonitorSource
        .executeWithOptions({ summary: `read ${source.type} source ${source.name}` }, [{ ...input, ...plan, run_id: runId, index }])
        .catch((err: unknown): SourceResult => emptyResult(source, why(err))),
    ),
  );
  const outcome = await finishMonitorRun({
    ...input,
    workflow_id: workflowId,
    run_id: runId,
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    sources,
  });
  const failed = sources.filter((s) => s.error !== null).length;
  ended(failed === 0 ? 'succeeded' : failed < sources.length ? 'partial' : 'failed');
  return outcome;
}
