/** The activities of the outbox sweep and the retention sweep: what crashed processes left, and records whose time is up. */
import { sweepWindows } from '../domain/accounts/rate-limits';
import { sweepOldBuckets } from '../domain/analytics/buckets';
import { sweepSendSlots } from '../domain/channels/pacing';
import { sweepIdempotencyKeys } from '../domain/developer/idempotency';
import { sweepRequestLogs } from '../domain/developer/request-logs';
import { sweepExpiredTokens } from '../domain/developer/tokens';
import { dispatchLeftovers } from '../domain/events/commit';
import { markDispatched } from '../domain/events/store';
import { resumeQueuedReplies } from '../domain/inbox/delivery';
import { resumeQueuedPublications } from '../domain/publications/sending';
import { RETENTION_MS } from '../domain/retention';
import { ActivityContext, domainDeps, sendingDeps } from './deps';

/** Deletes expired platform records; how many of each kind. */
export async function sweepExpiredRecords(ctx: ActivityContext): Promise<Record<string, number>> {
  const before = new Date(Date.now() - (ctx.windowGraceMs ?? RETENTION_MS.rateLimitWindow));
  return {
    rate_limit_windows: await sweepWindows(ctx.db, before),
    send_slots: await sweepSendSlots(ctx.db, new Date(Date.now() - RETENTION_MS.sendSlot)),
    request_logs: await sweepRequestLogs(ctx.db, new Date(Date.now() - RETENTION_MS.requestLog)),
    idempotency_keys: await sweepIdempotencyKeys(ctx.db),
    oauth_tokens: await sweepExpiredTokens(ctx.db, new Date(Date.now() - RETENTION_MS.expiredToken)),
    analytics_buckets: await sweepOldBuckets(ctx.db),
  };
}

/**
 * Finishes what a crashed API process left: relays outboxes left in
 * documents, dispatches events nobody dispatched, starts the workflows of
 * publications and replies left queued.
 */
export async function relayPendingEvents(ctx: ActivityContext): Promise<{ relayed: number; dispatched: number; resumed: number }> {
  const { relayed, dispatched } = await dispatchLeftovers(domainDeps(ctx), ctx.dispatchGraceMs ?? 30_000);
  const resumed = (await resumeQueuedPublications(sendingDeps(ctx))) + (await resumeQueuedReplies(domainDeps(ctx)));
  return { relayed, dispatched, resumed };
}

export async function markEventDispatched(ctx: ActivityContext, eventId: string): Promise<{ dispatched: string }> {
  await markDispatched(ctx.db, eventId);
  return { dispatched: eventId };
}
