/**
 * The activities of the `monitorRun` workflow: read the rule at the start,
 * one activity per source (./../domain/monitors/run.ts, heartbeating its
 * progress), and the run's result recorded at the end (`last_result`,
 * `monitor.ran`).
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { Tenant } from '../domain/db';
import { commitEvents } from '../domain/events/commit';
import { prepareEvent } from '../domain/events/store';
import { derivedId } from '../domain/ids';
import { runSource, SourceRun } from '../domain/monitors/run';
import {
  getMonitor,
  MonitorAutomation,
  MonitorCriteria,
  MonitorResult,
  MonitorSource,
  recordMonitorRun,
  SourceResult,
} from '../domain/monitors/store';
import { deleteMonitorSchedule, describeMonitorSchedule, nextRunOf } from '../domain/monitors/temporal';
import { SourceError } from '../domain/monitors/feeds';
import { MonitorRunInput } from '../temporal/workflows';
import { ActivityDeps, publishingDeps } from './deps';

export type { SourceResult };

/** What a run reads, as the rule stood when it started. */
export interface MonitorRunPlan {
  sources: (MonitorSource & { name: string })[];
  criteria: MonitorCriteria;
  automation: MonitorAutomation;
}

export interface ReadSourceInput extends MonitorRunInput, MonitorRunPlan {
  run_id: string;
  index: number;
}

const tenantOf = (input: MonitorRunInput): Tenant => ({ accountId: input.account, env: input.environment });

/** A source's label: its name, else the host of its URL. */
const labelOf = (s: MonitorSource): string => s.name ?? new URL(s.url).host;

export function createMonitorActivities(deps: ActivityDeps) {
  const temporal = { client: deps.temporal, taskQueue: deps.taskQueue };
  const domain = publishingDeps(deps);

  return {
    /**
     * The rule to run; null when there is none: the monitor is gone (its Temporal Schedule, left behind, is removed),
     * or paused (its schedule is paused too, but a trigger from Temporal UI or the CLI starts a run all the same).
     */
    async startMonitorRun(input: MonitorRunInput): Promise<MonitorRunPlan | null> {
      const doc = await getMonitor(deps.db, tenantOf(input), input.monitor_id);
      if (!doc) {
        await deleteMonitorSchedule(temporal, input.monitor_id);
        return null;
      }
      if (doc.state !== 'active') return null;
      return { sources: doc.sources.map((s) => ({ ...s, name: labelOf(s) })), criteria: doc.criteria, automation: doc.automation };
    },

    /** Reads source `index` of the run (see runSource); heartbeats its counts as it goes. */
    async readMonitorSource(input: ReadSourceInput): Promise<SourceResult> {
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
        return await runSource(domain, run, opts, (r) => ctx.heartbeat({ seen: r.seen, matched: r.matched, created: r.created }));
      } catch (err) {
        // Transient failures (network, 5xx, the database) are retried by the workflow's policy.
        if (err instanceof SourceError) throw ApplicationFailure.retryable(err.message, 'MonitorSourceUnavailable');
        throw err;
      }
    },

    /** Records the run's result on the monitor and `monitor.ran` (once per run: its id derives from the run). */
    async finishMonitorRun(
      input: MonitorRunInput & { workflow_id: string; run_id: string; started_at: string; finished_at: string; sources: SourceResult[] },
    ) {
      const tenant = tenantOf(input);
      const sum = (k: 'seen' | 'matched' | 'created' | 'published') => input.sources.reduce((n, s) => n + s[k], 0);
      const result: MonitorResult = {
        workflow_id: input.workflow_id,
        run_id: input.run_id,
        started_at: input.started_at,
        finished_at: input.finished_at,
        duration_ms: Math.max(0, Date.parse(input.finished_at) - Date.parse(input.started_at)),
        seen: sum('seen'),
        matched: sum('matched'),
        created: sum('created'),
        published: sum('published'),
        errors: input.sources.filter((s) => s.error !== null).length,
        sources: input.sources,
      };
      const eventId = derivedId('evt', 'monitor.ran', tenant.accountId, tenant.env, input.run_id);
      const event = prepareEvent(tenant, 'monitor.ran', { monitor_id: input.monitor_id, result }, new Date(), eventId);
      const next = nextRunOf(await describeMonitorSchedule(temporal, input.monitor_id));
      if (await recordMonitorRun(deps.db, tenant, input.monitor_id, result, next, event))
        await commitEvents(domain, 'monitors', input.monitor_id);
      return {
        event_id: eventId,
        seen: result.seen,
        matched: result.matched,
        created: result.created,
        published: result.published,
        errors: result.errors,
      };
    },
  };
}
