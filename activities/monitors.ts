/**
 * The activities of the `monitorRun` workflow, over domain/monitors/run.ts:
 * the plan at the start, one activity per source (heartbeating its
 * progress), and the run's result recorded at the end.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { Tenant } from '../domain/db';
import { SourceError } from '../domain/webhooks/sources';
import { MonitorRunPlan, planRun, recordRun, runSource, SourceRun } from '../domain/monitors/run';
import { MonitorRunInput, MonitorRunOutcome, SourceResult } from '../temporal/workflows';
import { ActivityDeps, domainDeps, publishingDeps } from './deps';

export type { MonitorRunPlan };

export interface ReadSourceInput extends MonitorRunInput, MonitorRunPlan {
  run_id: string;
  index: number;
}

const tenantOf = (input: MonitorRunInput): Tenant => ({ accountId: input.account, env: input.environment });

/** The rule to run; null when the monitor is gone or paused. */
export async function startMonitorRun(deps: ActivityDeps, input: MonitorRunInput): Promise<MonitorRunPlan | null> {
  return planRun(domainDeps(deps), tenantOf(input), input.monitor_id);
}

/** Reads source `index` of the run (see runSource); heartbeats its counts as it goes. */
export async function readMonitorSource(deps: ActivityDeps, input: ReadSourceInput): Promise<SourceResult> {
  const ctx = Context.current();
  const source = input.sources[input.index]!;
  const run: SourceRun = {
    tenant: tenantOf(input),
    monitor_id: input.monitor_id,
    run_id: input.run_id,
    source,
    criteria: input.criteria,
    automation: input.automation,
  };
  const opts = {
    allow: deps.webhookAllow ?? [],
    ...(deps.webhookCa ? { ca: deps.webhookCa } : {}),
    ...(deps.monitorIdleTimeoutMs ? { idleTimeoutMs: deps.monitorIdleTimeoutMs } : {}),
  };
  try {
    return await runSource(publishingDeps(deps), run, opts, (r) => ctx.heartbeat({ seen: r.seen, matched: r.matched, created: r.created }));
  } catch (err) {
    // Transient failures (network, 5xx, the database) are retried by the workflow's policy.
    if (err instanceof SourceError) throw ApplicationFailure.retryable(err.message, 'MonitorSourceUnavailable');
    throw err;
  }
}

/** Records the run's result on the monitor and `monitor.ran` (once per run: its id derives from the run). */
export async function finishMonitorRun(
  deps: ActivityDeps,
  input: MonitorRunInput & { workflow_id: string; run_id: string; started_at: string; finished_at: string; sources: SourceResult[] },
): Promise<MonitorRunOutcome> {
  const { workflow_id, run_id, started_at, finished_at, sources } = input;
  return recordRun(domainDeps(deps), tenantOf(input), input.monitor_id, { workflow_id, run_id, started_at, finished_at, sources });
}
