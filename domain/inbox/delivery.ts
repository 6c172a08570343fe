/**
 * The steps of a reply's workflow `reply-<msg>` (./replies.ts queues it):
 * the slot on its conversation's channel, the send (the thread's address
 * unsealed by domain/channels/send.ts right before the request), the
 * message's failure, and the restart of replies left queued.
 */
import { ConnectorError } from '../channels/connectors/types';
import { reserveConversationSlot, SendDeps, sendToConversation, SlotWait } from '../channels/send';
import { Tenant } from '../db';
import { PermanentFailure } from '../errors';
import { GroupSendResult } from '../publications/sending';
import { DomainDeps } from '../resource';
import { startReply } from '../../temporal/start';
import { markReplyFailed, markReplySent, queuedRepliesBefore } from './replies';
import { conversations, MessageDoc, messages, sealedAddress } from './store';

export type ReplyDeps = DomainDeps & SendDeps;

/** The message `id`; a PermanentFailure when it is not there. */
async function mustGetMessage(deps: DomainDeps, tenant: Tenant, id: string): Promise<MessageDoc> {
  const message = await messages(deps.db, tenant).findById(id);
  if (!message) throw new PermanentFailure(`no message ${id}`, 'MessageMissing');
  return message;
}

/** The earliest time, at or after `notBefore`, the reply may go on its conversation's channel, reserved; null when it is not paced. */
export async function reserveReplySlot(deps: ReplyDeps, tenant: Tenant, messageId: string, notBefore?: string): Promise<string | null> {
  const message = await mustGetMessage(deps, tenant, messageId);
  return reserveConversationSlot(deps, tenant, { conversationId: message.conversation_id, channelId: message.channel_id }, notBefore);
}

/**
 * One attempt to send the reply (the message id is the idempotency key) in
 * `slot` (null: none reserved, the send takes one itself when the channel is
 * paced); the slot to wait for when that one had passed.
 */
export async function sendReply(deps: ReplyDeps, tenant: Tenant, messageId: string, slot: string | null): Promise<GroupSendResult | SlotWait> {
  const message = await mustGetMessage(deps, tenant, messageId);
  if (message.status !== 'queued') return { outcome: 'sent_before', message_id: null }; // finished by an attempt whose completion was lost
  const conversation = await conversations(deps.db, tenant).findById(message.conversation_id);
  if (!conversation) throw new ConnectorError('the conversation no longer exists', true);
  const target = {
    conversationId: conversation._id,
    channelId: message.channel_id,
    sealedAddress: () => sealedAddress(deps.db, tenant, conversation.address_id),
  };
  const sent = await sendToConversation(deps, tenant, target, {
    text: message.text ?? '',
    ...(message.format ? { format: message.format } : {}),
    imageUrl: message.media_urls[0] ?? null,
    idempotencyKey: message._id,
    ...(slot ? { slot } : {}),
  });
  if (sent.outcome === 'wait') return sent;
  await markReplySent(deps, tenant, message, new Date());
  return { outcome: 'sent', message_id: sent.providerMessageId };
}

/** A reply the channel refused, or whose retries ran out: `failed`, with `message.failed`. */
export async function failReply(deps: DomainDeps, tenant: Tenant, messageId: string, error: string): Promise<void> {
  await markReplyFailed(deps, tenant, await mustGetMessage(deps, tenant, messageId), error);
}

/** Starts the workflow of replies left queued (the API or a journey died between recording and starting); how many. */
export async function resumeQueuedReplies(deps: DomainDeps): Promise<number> {
  const stale = await queuedRepliesBefore(deps.db, new Date(Date.now() - 60_000), 200);
  for (const m of stale) await startReply(deps.temporal, m);
  return stale.length;
}
