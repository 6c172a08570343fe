/**
 * The activities of the reply workflow: pacing on the conversation's
 * channel, the send (the thread's address unsealed in domain/channels/send.ts
 * right before the request), and the message's final state with its event.
 */
import { ApplicationFailure } from '@temporalio/common';
import { Environment, Tenant } from '../domain/db';
import { markReplyFailed, markReplySent, noteReplyError, queuedRepliesBefore } from '../domain/inbox/replies';
import { conversations, MessageDoc, messages } from '../domain/inbox/store';
import { startReply } from '../temporal/start';
import type { ActivityDeps } from './deps';
import { ConnectorError } from '../domain/channels/connectors/types';
import { reserveConversationSlot, sendToConversation, SlotWait } from '../domain/channels/send';
import { heartbeating } from './heartbeat';
import { reportInternalError, safeFailure, withSafeFailures } from './internal-errors';
import type { GroupSendResult } from './publications';

interface ReplyRef {
  message_id: string;
  account: string;
  environment: Environment;
}

const tenantOf = (r: ReplyRef): Tenant => ({ accountId: r.account, env: r.environment });

export function createReplyActivities(deps: ActivityDeps) {
  const domainDeps = { db: deps.db, temporal: { client: deps.temporal, taskQueue: deps.taskQueue } };

  async function mustGetMessage(r: ReplyRef): Promise<MessageDoc> {
    const message = await messages(deps.db, tenantOf(r)).findById(r.message_id);
    if (!message) throw ApplicationFailure.nonRetryable(`no message ${r.message_id}`, 'MessageMissing');
    return message;
  }

  return {
    /** The earliest time, at or after `not_before`, the reply may go on its conversation's channel, reserved; null when it is not paced. */
    reserveReplySlot: withSafeFailures('reserving a reply slot', async (r: ReplyRef & { not_before?: string }): Promise<string | null> => {
      const message = await mustGetMessage(r);
      return reserveConversationSlot(
        deps,
        tenantOf(r),
        { conversationId: message.conversation_id, channelId: message.channel_id },
        r.not_before,
      );
    }),

    /**
     * One attempt to send the reply (the message id is the idempotency key)
     * in `slot` (null: none reserved, the send takes one itself when the
     * channel is paced); the slot to wait for when that one had passed. The
     * error of an attempt that fails is noted on the message, which stays
     * `queued` while attempts remain. Tenants read only texts made safe
     * (activities/internal-errors.ts).
     */
    async deliverReply(r: ReplyRef & { slot: string | null; attempt: number }): Promise<GroupSendResult | SlotWait> {
      const tenant = tenantOf(r);
      try {
        return await heartbeating(async () => {
          const message = await mustGetMessage(r);
          if (message.status !== 'queued') return { outcome: 'sent_before', message_id: null }; // finished by an attempt whose completion was lost
          const conversation = await conversations(deps.db, tenant).findById(message.conversation_id);
          if (!conversation) throw new ConnectorError('the conversation no longer exists', true);
          const target = { conversationId: conversation._id, channelId: message.channel_id, addressId: conversation.address_id };
          const sent = await sendToConversation(deps, tenant, target, {
            text: message.text ?? '',
            ...(message.format ? { format: message.format } : {}),
            imageUrl: message.media_urls[0] ?? null,
            idempotencyKey: message._id,
            ...(r.slot ? { slot: r.slot } : {}),
          });
          if (sent.outcome === 'wait') return sent;
          await markReplySent(domainDeps, tenant, message, new Date());
          return { outcome: 'sent', message_id: sent.providerMessageId };
        });
      } catch (err) {
        const failure = safeFailure('a reply attempt', err);
        try {
          await noteReplyError(deps.db, tenant, r.message_id, failure.message);
        } catch (writeErr) {
          reportInternalError('recording a reply error', writeErr);
        }
        throw failure;
      }
    },

    /** A reply the channel refused, or whose retries ran out: `failed`, with `message.failed`. */
    failReply: withSafeFailures('recording a failed reply', async (r: ReplyRef & { error: string }): Promise<void> => {
      await markReplyFailed(domainDeps, tenantOf(r), await mustGetMessage(r), r.error);
    }),

    /** Starts the workflow of replies left queued (the API or a journey died between recording and starting). */
    async resumeQueuedReplies(): Promise<number> {
      const stale = await queuedRepliesBefore(deps.db, new Date(Date.now() - 60_000), 200);
      for (const m of stale) await startReply(domainDeps.temporal, m);
      return stale.length;
    },
  };
}
