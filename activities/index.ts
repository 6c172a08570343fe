/**
 * Side effects of the workflows. `createActivities(deps)` closes over the
 * connections the worker made (./deps.ts); workflows import only the
 * `Activities` type. The activities of publications and replies are one
 * exported function each, taking the worker's context first: bound here,
 * the domain's refusals turned into the failures workflows read.
 */
import { dispatch } from '../domain/events/commit';
import { markDispatched, relayAllOutboxes, undispatchedEvents } from '../domain/events/store';
import { sweepSendSlots } from '../domain/channels/pacing';
import { sweepWindows } from '../domain/accounts/rate-limits';
import { REQUEST_LOG_RETENTION_MS, sweepRequestLogs } from '../domain/developer/request-logs';
import { sweepIdempotencyKeys } from '../domain/developer/idempotency';
import { EXPIRED_TOKEN_KEPT_MS, sweepExpiredTokens } from '../domain/developer/tokens';
import { sweepOldBuckets } from '../domain/analytics/buckets';
import { resumeQueuedReplies } from '../domain/inbox/delivery';
import { PublicationContents, resumeQueuedPublications } from '../domain/publications/sending';
import { ActivityContext, ActivityDeps, domainDeps, sendingDeps } from './deps';
import { withActivityFailures } from './failures';
import { createJourneyActivities } from './journeys';
import { createMonitorActivities } from './monitors';
import * as publications from './publications';
import * as replies from './replies';
import { createScheduleActivities } from './schedules';
import { createWebhookActivities } from './webhooks';

type Activity = (ctx: ActivityContext, ...args: never[]) => Promise<unknown>;
type Bound<F> = F extends (ctx: ActivityContext, ...args: infer A) => Promise<infer R> ? (...args: A) => Promise<R> : never;

/** The activities of `module`, `ctx` bound as their first argument. */
function bind<M extends Record<string, Activity>>(ctx: ActivityContext, module: M): { [K in keyof M]: Bound<M[K]> } {
  const bound = Object.entries(module).map(([name, activity]) => [name, withActivityFailures((...args: never[]) => activity(ctx, ...args))]);
  return Object.fromEntries(bound) as { [K in keyof M]: Bound<M[K]> };
}

export function createActivities(deps: ActivityDeps) {
  const ctx: ActivityContext = { ...deps, contents: new PublicationContents() };
  return {
    ...bind(ctx, publications),
    ...bind(ctx, replies),
    ...createWebhookActivities(deps),
    ...createScheduleActivities(deps),
    ...createJourneyActivities(deps),
    ...createMonitorActivities(deps),
    /** Deletes expired platform records; how many of each kind. */
    async sweepExpiredRecords(): Promise<Record<string, number>> {
      const before = new Date(Date.now() - (deps.windowGraceMs ?? 60_000));
      return {
        rate_limit_windows: await sweepWindows(deps.db, before),
        send_slots: await sweepSendSlots(deps.db, new Date(Date.now() - 3_600_000)),
        request_logs: await sweepRequestLogs(deps.db, new Date(Date.now() - REQUEST_LOG_RETENTION_MS)),
        idempotency_keys: await sweepIdempotencyKeys(deps.db),
        oauth_tokens: await sweepExpiredTokens(deps.db, new Date(Date.now() - EXPIRED_TOKEN_KEPT_MS)),
        analytics_buckets: await sweepOldBuckets(deps.db),
      };
    },

    /**
     * Finishes what a crashed API process left: relays outboxes left in
     * documents, dispatches events nobody dispatched, starts the workflows of
     * publications and replies left queued.
     */
    async relayPendingEvents(): Promise<{ relayed: number; dispatched: number; resumed: number }> {
      const relayed = await relayAllOutboxes(deps.db);
      const stale = await undispatchedEvents(deps.db, new Date(Date.now() - (deps.dispatchGraceMs ?? 30_000)), 500);
      const byId = new Map([...relayed, ...stale].map((e) => [e.id, e]));
      for (const event of byId.values()) await dispatch({ db: deps.db, temporal: { client: deps.temporal, taskQueue: deps.taskQueue } }, event);
      const resumed = (await resumeQueuedPublications(sendingDeps(ctx))) + (await resumeQueuedReplies(domainDeps(deps)));
      return { relayed: relayed.length, dispatched: byId.size, resumed };
    },

    async markEventDispatched(eventId: string): Promise<void> {
      await markDispatched(deps.db, eventId);
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
