/**
 * Side effects of the workflows. `createActivities(deps)` closes over the
 * connections the worker made (./deps.ts); workflows import only the `Activities` type.
 */
import { dispatch } from '../domain/events/commit';
import { markDispatched, relayAllOutboxes, undispatchedEvents } from '../domain/events/store';
import { sweepSendSlots } from '../domain/channels/pacing';
import { sweepWindows } from '../domain/accounts/rate-limits';
import { REQUEST_LOG_RETENTION_MS, sweepRequestLogs } from '../domain/developer/request-logs';
import { sweepIdempotencyKeys } from '../domain/developer/idempotency';
import { EXPIRED_TOKEN_KEPT_MS, sweepExpiredTokens } from '../domain/developer/tokens';
import { sweepOldBuckets } from '../domain/analytics/buckets';
import { ActivityDeps } from './deps';
import { createJourneyActivities } from './journeys';
import { createMonitorActivities } from './monitors';
import { createPublicationActivities } from './publications';
import { createReplyActivities } from './replies';
import { createScheduleActivities } from './schedules';
import { createWebhookActivities } from './webhooks';

export function createActivities(deps: ActivityDeps) {
  const publications = createPublicationActivities(deps);
  const replies = createReplyActivities(deps);
  return {
    ...publications,
    ...replies,
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
      const resumed = (await publications.resumeQueuedPublications()) + (await replies.resumeQueuedReplies());
      return { relayed: relayed.length, dispatched: byId.size, resumed };
    },

    async markEventDispatched(eventId: string): Promise<void> {
      await markDispatched(deps.db, eventId);
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
