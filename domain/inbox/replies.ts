/**
 * Outbound messages of a conversation: a reply of the team (the API's
 * `POST /inbox/conversations/{id}/reply`) or of a journey's "send message"
 * block. `queueReply` records the message `queued` and starts its workflow
 * `reply-<msg>`, which delivers it through the conversation's channel with
 * the pacing and retries of publications and moves it to `sent` or `failed`
 * (`markReplySent`, `markReplyFailed`, called by its activities). Nothing
 * here reads an address: the send activity unseals the thread's address
 * right before the connector's request.
 */
import { Db } from 'mongodb';
import { ChannelDoc, getChannel } from '../channels/store';
import { crossTenantCollection, Tenant } from '../db';
import { changedMeanwhile, conflict, invalid, unknownReference } from '../errors';
import { commitEvents } from '../events/commit';
import { prepareEvent } from '../events/store';
import { derivedId, newId } from '../ids';
import { DomainDeps } from '../resource';
import { startReply } from '../../temporal/start';
import { getOffer } from '../offers/store';
import { MessageOffer, renderTemplate } from '../offers/render';
import { getTemplate, TemplateFormat } from '../templates/store';
import { mustGetConversation, previewOf, toConversation, toMessage } from './service';
import { ConversationDoc, conversations, MessageDoc, messages } from './store';

export interface ReplyInput {
  text?: string;
  template_id?: string;
  /** Fills the template's placeholders (the API's `offer_id`); without it they render as missing. */
  offer_id?: string;
  /** One image link (the contract allows one). */
  media_urls?: string[];
  /** `agent`: a person of the team (the message's author `team`); `journey`: an automation (`automation`). */
  author: 'agent' | 'journey';
  /** The team member's name, shown on the message. */
  agent?: string;
  /**
   * Makes the call idempotent: the message's id is derived from it, and a
   * second call with the same key returns the first message (its workflow
   * started, if the first call died before) instead of queueing another.
   */
  idempotency_key?: string;
}

/** What a reply needs of its channel to be sent now: it exists and, in live, can reach its network. */
function channelProblem(tenant: Tenant, channel: ChannelDoc | null): string | null {
  if (!channel) return "The conversation's channel was deleted; replies cannot be delivered.";
  if (tenant.env === 'test') return null; // test keys send through the sandbox
  if (channel.type === 'http' && !channel.url) return "The conversation's channel has no gateway URL; set one with admin channel update --url.";
  if (channel.type === 'telegram' && !channel.credentials)
    return "The conversation's channel has no bot token; set one with admin channel update --token.";
  if ((channel.type === 'evolution' || channel.type === 'waha') && !channel.credentials)
    return "The conversation's channel has no gateway API key; set one with admin channel update --token.";
  return null;
}

/** The reply's text and the markup it is written in: the text as given, or the template rendered. */
async function replyText(
  db: Db,
  tenant: Tenant,
  input: ReplyInput,
): Promise<{ text: string; format: TemplateFormat; templateId: string | null }> {
  if (input.template_id === undefined) {
    if (input.text === undefined) throw invalid('validation_failed', 'A reply needs a text or a template_id.');
    return { text: input.text, format: 'plain', templateId: null };
  }
  const template = await getTemplate(db, tenant, input.template_id);
  if (!template) throw unknownReference('template_id', 'template', input.template_id);
  const offer = input.offer_id === undefined ? null : await getOffer(db, tenant, input.offer_id);
  if (input.offer_id !== undefined && !offer) throw unknownReference('offer_id', 'offer', input.offer_id);
  const values: MessageOffer = offer ?? { title: '', url: '', currency: '' };
  return { text: renderTemplate(template, values), format: template.format, templateId: template._id };
}

/** Up to this many re-reads when the conversation changed between read and write. */
const ATTEMPTS = 8;

/** Takes the reply into its conversation: latest message, nothing unread, and an open conversation becomes `pending`. */
async function applyReply(deps: DomainDeps, tenant: Tenant, conversation: ConversationDoc, m: MessageDoc): Promise<void> {
  let current: ConversationDoc | null = conversation;
  for (let attempt = 0; attempt < ATTEMPTS && current; attempt++) {
    const set: Partial<ConversationDoc> = { last_message_at: m.created_at, last_message_preview: previewOf(m), unread_count: 0 };
    const changed = ['last_message_at', 'last_message_preview', 'unread_count'];
    if (current.status === 'open') {
      set.status = 'pending';
      changed.push('status');
    }
    const saved = await conversations(deps.db, tenant).updateFrom(current, set, (after) =>
      prepareEvent(tenant, 'conversation.updated', { conversation: toConversation(after), changed }),
    );
    if (saved) return;
    current = await conversations(deps.db, tenant).findById(conversation._id);
  }
  if (current) throw changedMeanwhile('conversation');
}

/**
 * Records an outbound message (`queued`) in conversation `conversationId`
 * and starts its delivery, the workflow `reply-<msg>`; the stored message.
 * A closed conversation is a 409 `conversation_closed`; a channel deleted
 * or unable to send a 409 `channel_unavailable`; an unknown template or
 * offer a 400 `unknown_reference`.
 */
export async function queueReply(deps: DomainDeps, tenant: Tenant, conversationId: string, input: ReplyInput): Promise<MessageDoc> {
  const conversation = await mustGetConversation(deps, tenant, conversationId);
  if (conversation.status === 'closed') {
    throw conflict('conversation_closed', 'The conversation is closed; it reopens with the next inbound message.');
  }
  const id = input.idempotency_key === undefined ? null : derivedId('msg', conversation._id, input.idempotency_key);
  const earlier = id === null ? null : await messages(deps.db, tenant).findById(id);
  if (earlier) {
    await startReply(deps.temporal, earlier);
    return earlier;
  }
  const problem = channelProblem(tenant, await getChannel(deps.db, tenant, conversation.channel_id));
  if (problem) throw conflict('channel_unavailable', problem);
  const { text, format, templateId } = await replyText(deps.db, tenant, input);

  const now = new Date();
  const media = input.media_urls ?? [];
  const doc: MessageDoc = {
    _id: id ?? newId('msg', now.getTime()),
    account_id: tenant.accountId,
    env: tenant.env,
    conversation_id: conversation._id,
    contact_id: conversation.contact_id,
    channel_id: conversation.channel_id,
    direction: 'outbound',
    author: input.author === 'agent' ? 'team' : 'automation',
    agent: input.agent ?? null,
    text,
    format,
    media_type: media.length ? 'image' : null,
    media_urls: media,
    template_id: templateId,
    status: 'queued',
    error: null,
    sent_at: null,
    created_at: now,
    applied_at: now,
  };
  await messages(deps.db, tenant).insert(doc);
  await applyReply(deps, tenant, conversation, doc);
  await commitEvents(deps, 'conversations', conversation._id);
  await startReply(deps.temporal, doc);
  return doc;
}

/** Replies left `queued` before `before`, whatever their tenant (their workflow may never have started). */
export function queuedRepliesBefore(db: Db, before: Date, limit: number): Promise<MessageDoc[]> {
  return crossTenantCollection<MessageDoc>(db, 'messages')
    .find({ status: 'queued', direction: 'outbound', created_at: { $lt: before } }, { sort: { _id: 1 }, limit })
    .toArray();
}

/** Moves a queued outbound message to `sent` (or `failed`) with its event; false when it was not queued any more. */
async function finish(
  deps: DomainDeps,
  tenant: Tenant,
  message: MessageDoc,
  set: Pick<MessageDoc, 'status' | 'error'> & Partial<Pick<MessageDoc, 'sent_at'>>,
): Promise<boolean> {
  if (message.status !== 'queued') return false;
  const after: MessageDoc = { ...message, ...set };
  const kind = set.status === 'sent' ? 'message.sent' : 'message.failed';
  const event = prepareEvent(tenant, kind, { message: toMessage(after), contact_id: message.contact_id });
  const updated = await messages(deps.db, tenant).updateById(message._id, { $set: set }, { status: 'queued' }, event);
  if (updated) await commitEvents(deps, 'messages', message._id);
  return updated !== null;
}

/** The channel accepted the message: `sent`, with `message.sent`. */
export const markReplySent = (deps: DomainDeps, tenant: Tenant, message: MessageDoc, at: Date): Promise<boolean> =>
  finish(deps, tenant, message, { status: 'sent', error: null, sent_at: at });

/** The message could not be delivered: `failed` with the reason (a text fit for the tenant), with `message.failed`. */
export const markReplyFailed = (deps: DomainDeps, tenant: Tenant, message: MessageDoc, error: string): Promise<boolean> =>
  finish(deps, tenant, message, { status: 'failed', error });

/** Records the error of an attempt that will be retried (the message stays `queued`). */
export async function noteReplyError(db: Db, tenant: Tenant, messageId: string, error: string): Promise<void> {
  await messages(db, tenant).updateById(messageId, { $set: { error } }, { status: 'queued' });
}
