/**
 * The activities of the reply workflow, over its steps in
 * domain/inbox/delivery.ts. Tenants read only texts made safe (activities/failures.ts).
 */
import { Environment, Tenant } from '../domain/db';
import { SlotWait } from '../domain/channels/send';
import { failReply as fail, reserveReplySlot as reserve, resumeQueuedReplies as resume, sendReply } from '../domain/inbox/delivery';
import { noteReplyError } from '../domain/inbox/replies';
import { GroupSendResult } from '../domain/publications/sending';
import { ActivityDeps, domainDeps } from './deps';
import { reportInternalError, safeFailure, withSafeFailures } from './failures';
import { heartbeating } from './heartbeat';

interface ReplyRef {
  message_id: string;
  account: string;
  environment: Environment;
}

const tenantOf = (r: ReplyRef): Tenant => ({ accountId: r.account, env: r.environment });

const replyDeps = (deps: ActivityDeps) => ({ ...domainDeps(deps), secretKey: deps.secretKey });

/** The earliest time, at or after `not_before`, the reply may go on its conversation's channel, reserved; null when it is not paced. */
export const reserveReplySlot = withSafeFailures(
  'reserving a reply slot',
  (deps: ActivityDeps, r: ReplyRef & { not_before?: string }): Promise<string | null> =>
    reserve(replyDeps(deps), tenantOf(r), r.message_id, r.not_before),
);

/**
 * One attempt to send the reply, in `slot`; the slot to wait for when that
 * one had passed. The error of an attempt that fails is noted on the
 * message, which stays `queued` while attempts remain.
 */
export async function deliverReply(
  deps: ActivityDeps,
  r: ReplyRef & { slot: string | null; attempt: number },
): Promise<GroupSendResult | SlotWait> {
  const tenant = tenantOf(r);
  try {
    return await heartbeating(() => sendReply(replyDeps(deps), tenant, r.message_id, r.slot));
  } catch (err) {
    const failure = safeFailure('a reply attempt', err);
    try {
      await noteReplyError(deps.db, tenant, r.message_id, failure.message);
    } catch (writeErr) {
      reportInternalError('recording a reply error', writeErr);
    }
    throw failure;
  }
}

/** A reply the channel refused, or whose retries ran out: `failed`, with `message.failed`. */
export const failReply = withSafeFailures(
  'recording a failed reply',
  async (deps: ActivityDeps, r: ReplyRef & { error: string }): Promise<{ failed: string }> => {
    await fail(domainDeps(deps), tenantOf(r), r.message_id, r.error);
    return { failed: r.message_id };
  },
);

/** Starts the workflow of replies left queued (the API or a journey died between recording and starting). */
export async function resumeQueuedReplies(deps: ActivityDeps): Promise<number> {
  return resume(domainDeps(deps));
}
