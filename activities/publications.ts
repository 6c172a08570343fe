/**
 * The activities of the publication workflow, over its steps in
 * domain/publications/sending.ts and completion.ts: each is an attempt
 * (counted by the workflow), heartbeating while it sends.
 */
import { Context } from '@temporalio/activity';
import { Environment, Tenant } from '../domain/db';
import { reserveGroupSlot, reserveGroupSlots, SlotWait } from '../domain/channels/send';
import { ConnectorError } from '../domain/channels/connectors/types';
import { completePublication as complete } from '../domain/publications/completion';
import {
  beginPublication as begin,
  BeginPage,
  BegunGroups,
  failDelivery as fail,
  GroupSendResult,
  recordSentBatch,
  resumeQueuedPublications as resume,
  sendChunk,
  sendDelivery,
} from '../domain/publications/sending';
import { markDeliveriesWaiting, SentRecord, updateDelivery } from '../domain/publications/store';
import { ActivityContext, sendingDeps } from './deps';
import { reportInternalError, safeFailure, withSafeFailures } from './failures';
import { heartbeating } from './heartbeat';

export type { GroupSendResult, SentRecord, SlotWait };

interface Ref {
  publication_id: string;
  account: string;
  environment: Environment;
}
interface GroupRef extends Ref {
  group_id: string;
}

/** One attempt to send to a group (deliverToGroup). */
interface SendRef extends GroupRef {
  /** The slot the workflow reserved and woke the send for; null when it reserved none (the send takes one itself when the group is paced). */
  slot: string | null;
  /** Which attempt of the send this is (the workflow counts them: a wait for a slot is none). */
  attempt: number;
  /**
   * The workflow records the send itself, with others (recordSentDeliveries,
   * completePublication): the send writes nothing on success and reports
   * what to record.
   */
  deferred?: boolean;
  /**
   * The workflow's only send (deferred): once sent, the send completes the
   * publication itself (as completePublication with this send) and reports
   * its final status.
   */
  complete?: boolean;
}

/** One attempt of the sends to a chunk of unpaced groups (deliverToGroups): which one, counted for each group. */
interface ChunkRef extends Ref {
  group_ids: string[];
  attempt: number;
}

/**
 * What a chunk's send did for one group: what to record of it; the slot it
 * waits for, reserved (pacing was set since the publication began); or the
 * (tenant-safe) reason it was not sent, `disconnected` when its channel's
 * session was not connected (no attempt spent: the workflow waits for it).
 */
export type ChunkSendResult =
  | { group_id: string; message_id: string | null; record: SentRecord }
  | { group_id: string; slot: string }
  | { group_id: string; error: string; disconnected?: true };

/** A batch of sends to record, numbered from 0 by the workflow, recorded in order. */
interface SentBatch extends Ref {
  batch: number;
  deliveries: SentRecord[];
}

/**
 * How a publication ends: with `sent`, every send the workflow recorded in
 * batches (recordSentDeliveries), of which the first `recorded` are written;
 * complete writes the rest.
 */
interface Completion extends Ref {
  sent: SentRecord[];
  recorded: number;
}

const tenantOf = (r: Ref): Tenant => ({ accountId: r.account, env: r.environment });

/** Moves the publication to `sending`; a page of the groups still to deliver (a replayed start skips finished ones). */
export async function beginPublication(ctx: ActivityContext, r: Ref & { page?: BeginPage }): Promise<BegunGroups> {
  return begin(sendingDeps(ctx), tenantOf(r), r.publication_id, r.page);
}

/**
 * The earliest time, at or after `not_before`, this group may receive a
 * message (pacing per group and per channel), reserved; null when its sends are not paced.
 */
export async function reserveDeliverySlot(ctx: ActivityContext, r: GroupRef & { not_before?: string }): Promise<string | null> {
  return reserveGroupSlot(ctx, tenantOf(r), r.group_id, r.not_before);
}

/**
 * The first slot of each of the groups `group_ids` (paced when the
 * publication began), reserved in order; null for a group not paced any
 * more. A delivery whose slot is later than now is marked `waiting`.
 */
export async function reserveDeliverySlots(ctx: ActivityContext, r: Ref & { group_ids: string[] }): Promise<(string | null)[]> {
  const tenant = tenantOf(r);
  const activity = Context.current();
  // An attempt given up on (timed out, its workflow gone) stops rather than take slots no send will use.
  const slots = await reserveGroupSlots(ctx, tenant, r.group_ids, () => {
    activity.cancellationSignal.throwIfAborted();
    activity.heartbeat();
  });
  const now = Date.now();
  const later = r.group_ids.filter((_, i) => {
    const slot = slots[i];
    return typeof slot === 'string' && Date.parse(slot) > now;
  });
  await markDeliveriesWaiting(ctx.db, tenant, r.publication_id, later);
  return slots;
}

/**
 * One attempt to send the publication to one group; every attempt is
 * counted on the delivery, and its error recorded there. The tenant reads
 * that error: a channel's own as it is, anything else as the internal-error
 * text, its cause logged (activities/failures.ts). Returns the gateway's
 * message id and the outcome, which the workflow's history shows; or the
 * slot to wait for when the send's own had passed (no attempt: nothing was sent).
 */
export async function deliverToGroup(ctx: ActivityContext, r: SendRef): Promise<GroupSendResult | SlotWait> {
  const tenant = tenantOf(r);
  const attempt = { publicationId: r.publication_id, groupId: r.group_id, slot: r.slot, attempt: r.attempt };
  try {
    return await heartbeating(() =>
      sendDelivery(sendingDeps(ctx), tenant, {
        ...attempt,
        ...(r.deferred ? { deferred: true } : {}),
        ...(r.complete ? { complete: true } : {}),
      }),
    );
  } catch (err) {
    // The workflow tries again while attempts remain, and records this same safe text when they run out.
    const failure = safeFailure('a delivery attempt', err);
    // A send to a session that is down is no attempt: the delivery waits, its attempts as they were.
    const waiting = err instanceof ConnectorError && err.disconnected;
    try {
      await updateDelivery(ctx.db, tenant, r.publication_id, r.group_id, {
        error: failure.message,
        ...(waiting ? { status: 'waiting', attempts: r.attempt - 1 } : r.deferred ? { attempts: r.attempt } : {}),
      });
    } catch (writeErr) {
      reportInternalError('recording a delivery error', writeErr);
    }
    throw failure;
  }
}

/**
 * One attempt of the sends to a chunk of unpaced groups, at once, each as
 * a deferred deliverToGroup would (same idempotency key, nothing written
 * on success: the workflow records the sends). A group whose send fails,
 * or that waits for a slot (pacing set since the publication began), is
 * reported, not tried again here: the workflow sends it on its own, with
 * deliverToGroup's retries and failure record. Another attempt of the
 * whole chunk (a worker lost mid-chunk) sends again under the same keys;
 * a failure of the whole chunk (reading its groups or channels) shows only
 * the internal-error text, its cause logged.
 */
export const deliverToGroups = withSafeFailures('a chunk of sends', async (ctx: ActivityContext, r: ChunkRef): Promise<ChunkSendResult[]> => {
  // Alive while its sends are under way: a chunk lost with its worker is tried again after the heartbeat timeout.
  const sends = await heartbeating(() => sendChunk(sendingDeps(ctx), tenantOf(r), r.publication_id, r.group_ids));
  return sends.map((send, i): ChunkSendResult => {
    const group_id = r.group_ids[i]!;
    if (send.status === 'rejected') {
      const disconnected = send.reason instanceof ConnectorError && send.reason.disconnected;
      return {
        group_id,
        error: safeFailure('a delivery attempt', send.reason).message,
        ...(disconnected ? { disconnected: true as const } : {}),
      };
    }
    const done = send.value;
    if (done.outcome === 'wait') return { group_id, slot: done.slot };
    const record = { group_id, with_image: done.withImage, sent_at: done.at.toISOString(), attempts: r.attempt };
    return { group_id, message_id: done.providerMessageId, record };
  });
});

/** A group the publication could not reach: a permanent error, or its attempts spent (how many, in all). */
export async function failDelivery(ctx: ActivityContext, r: GroupRef & { error: string; attempts: number }): Promise<{ failed: string }> {
  await fail(sendingDeps(ctx), tenantOf(r), r.publication_id, r.group_id, r.error, r.attempts);
  return { failed: r.group_id };
}

/** Records a batch of deferred sends at once (the workflow's, in order), and counts them for analytics on the first recording of the batch. */
export async function recordSentDeliveries(ctx: ActivityContext, r: SentBatch): Promise<{ recorded: number }> {
  await recordSentBatch(sendingDeps(ctx), tenantOf(r), r.publication_id, r.batch, r.deliveries);
  return { recorded: r.deliveries.length };
}

/**
 * sent, partial or failed from the deliveries (the sends the workflow
 * reports, the others read); records the sends not recorded yet and
 * `publication.completed`.
 */
export async function completePublication(ctx: ActivityContext, r: Completion): Promise<string> {
  return complete(sendingDeps(ctx), tenantOf(r), r.publication_id, r.sent, r.recorded);
}

/** Starts the workflow of publications left queued (the API died between recording and starting). */
export async function resumeQueuedPublications(ctx: ActivityContext): Promise<number> {
  return resume(sendingDeps(ctx));
}
