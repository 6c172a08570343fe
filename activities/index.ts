/**
 * Side effects of the workflows. `createActivities(deps)` closes over the
 * connections the worker made; workflows import only the `Activities` type.
 */
import { Client } from '@temporalio/client';
import { Db } from 'mongodb';
import { AfterAnswer } from '../domain/after-answer';
import { dispatch } from '../domain/events/commit';
import { markDispatched, relayAllOutboxes, undispatchedEvents } from '../domain/events/store';
import { sweepSendSlots } from '../domain/channels/pacing';
import { sweepWindows } from '../domain/accounts/rate-limits';
import { REQUEST_LOG_RETENTION_MS, sweepRequestLogs } from '../domain/developer/request-logs';
import { sweepIdempotencyKeys } from '../domain/developer/idempotency';
import { EXPIRED_TOKEN_KEPT_MS, sweepExpiredTokens } from '../domain/developer/tokens';
import { sweepOldBuckets } from '../domain/analytics/buckets';
import { createJourneyActivities } from './journeys';
import { createMonitorActivities } from './monitors';
import { createPublicationActivities } from './publications';
import { createReplyActivities } from './replies';
import { createScheduleActivities } from './schedules';
import { createWebhookActivities } from './webhooks';

export interface ActivityDeps {
  db: Db;
  temporal: Client;
  /** The queue workflows started by activities go to (default TASK_QUEUE). */
  taskQueue?: string;
  /** Unseals stored secrets (api/crypto.ts). */
  secretKey: Buffer;
  /** Hosts or addresses webhooks may reach although private or loopback (OFFEROPS_WEBHOOK_ALLOW). */
  webhookAllow?: readonly string[];
  /** Where tracked links are served (OFFEROPS_PUBLIC_URL; default DEFAULT_PUBLIC_URL, like the API's). */
  publicUrl?: string;
  /** Hosts treated as short links besides the marketplaces' own (OFFEROPS_SHORTLINK_HOSTS): not converted on the publish path. */
  shortLinkHosts?: readonly string[];
  /** Extra CA certificate (PEM) trusted for webhook destinations (tests' self-signed receiver). */
  webhookCa?: string;
  /** How long a webhook attempt may take in all (default ATTEMPT_TIMEOUT_MS, 15 s). */
  webhookTimeoutMs?: number;
  /** How long a monitor source may send nothing before it is given up (default 30 s). */
  monitorIdleTimeoutMs?: number;
  /** How long finished rate-limit windows are kept (ms). */
  windowGraceMs?: number;
  /** How old an undispatched event must be before the sweep dispatches it (ms): younger ones are the API's. */
  dispatchGraceMs?: number;
  /**
   * Where a publication's bookkeeping goes once a step has written its state
   * (the counts, the relay of `publication.completed`, forgetting it in
   * flight): run after the activity's result, not while the workflow waits
   * for it. The worker's own, closed when the worker stops. Without it, awaited.
   */
  afterAnswer?: AfterAnswer;
}

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
