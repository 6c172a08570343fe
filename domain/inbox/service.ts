/**
 * The inbox as the API and events show it: contacts, conversations and
 * messages without any address (phone number, e-mail, JID, chat id).
 */
import { LAST_MESSAGES } from '../../schemas/openapi/inbox';
import { Tenant } from '../db';
import { Schema } from '../../schemas/types';
import { conflict, invalid } from '../errors';
import { commitEvents } from '../events/commit';
import { prepareEvent } from '../events/store';
import { changedFields, DomainDeps, found, iso, written } from '../resource';
import { ContactDoc, contacts, ConversationDoc, conversations, listMessages, MessageDoc, messages } from './store';

export { listContacts, listConversations, listMessages } from './store';

/** The contract's `last_message_preview` length. */
const PREVIEW = 140;

export const previewOf = (m: Pick<MessageDoc, 'text' | 'media_type'>): string | null =>
  m.text !== null ? m.text.slice(0, PREVIEW) : m.media_type ? `[${m.media_type}]` : null;

export function toContact(c: ContactDoc): Schema<'Contact'> {
  return {
    id: c._id,
    display_name: c.display_name,
    channels: c.channels,
    stage: c.stage,
    interests: c.interests,
    tags: c.tags,
    conversation_count: c.conversation_count,
    first_seen_at: c.first_seen_at.toISOString(),
    last_seen_at: iso(c.last_seen_at),
  };
}

export function toConversation(c: ConversationDoc): Schema<'Conversation'> {
  return {
    id: c._id,
    channel: c.channel,
    channel_id: c.channel_id,
    status: c.status,
    assignee: c.assignee,
    priority: c.priority,
    du_mode: c.du_mode,
    contact_id: c.contact_id,
    tags: c.tags,
    unread_count: c.unread_count,
    last_message_at: iso(c.last_message_at),
    last_message_preview: c.last_message_preview,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
    closed_at: iso(c.closed_at),
  };
}

export function toMessage(m: MessageDoc): Schema<'Message'> {
  return {
    id: m._id,
    conversation_id: m.conversation_id,
    direction: m.direction,
    author: m.author,
    agent: m.agent ?? null,
    text: m.text,
    media_type: m.media_type,
    media_urls: m.media_urls,
    template_id: m.template_id,
    status: m.status,
    error: m.error,
    sent_at: iso(m.sent_at),
    created_at: m.created_at.toISOString(),
  };
}

export const mustGetConversation = async (deps: DomainDeps, tenant: Tenant, id: string): Promise<ConversationDoc> =>
  found(await conversations(deps.db, tenant).findById(id), 'conversation', id);

/** A conversation with its contact profile and latest messages (never an address). */
export async function conversationContext(deps: DomainDeps, tenant: Tenant, id: string): Promise<Schema<'ConversationContext'>> {
  const conversation = await mustGetConversation(deps, tenant, id);
  const [contact, latest] = await Promise.all([
    contacts(deps.db, tenant).findById(conversation.contact_id),
    listMessages(deps.db, tenant, conversation._id, { limit: LAST_MESSAGES, offset: 0 }),
  ]);
  // A conversation is made after its contact (inbound.ts), and contacts are never deleted.
  if (!contact) throw new Error(`conversation ${conversation._id} has no contact ${conversation.contact_id}`);
  return { ...toConversation(conversation), contact: toContact(contact), last_messages: latest.items.map(toMessage) };
}

/** The message `id` of conversation `conversationId`, named by the query parameter `before` (400 `unknown_reference` otherwise). */
export async function referencedMessage(deps: DomainDeps, tenant: Tenant, conversationId: string, id: string): Promise<MessageDoc> {
  const message = await messages(deps.db, tenant).findOne({ _id: id, conversation_id: conversationId });
  if (message) return message;
  throw invalid('unknown_reference', `No message ${JSON.stringify(id)} in this conversation.`, [
    { location: 'query', field: 'before', rule: 'exists', message: 'does not name a message of this conversation' },
  ]);
}

const UPDATABLE = ['assignee', 'priority', 'du_mode', 'tags', 'status'] as const satisfies readonly (keyof ConversationDoc)[];

/** Assigns, prioritises, tags, moves between open and pending, or changes the DU mode: the fields sent that differ. */
export async function updateConversation(
  deps: DomainDeps,
  tenant: Tenant,
  id: string,
  input: Schema<'ConversationUpdate'> | undefined,
): Promise<ConversationDoc> {
  const conversation = await mustGetConversation(deps, tenant, id);
  const set = changedFields<ConversationDoc, (typeof UPDATABLE)[number]>(conversation, input ?? {}, UPDATABLE);
  const changed = Object.keys(set);
  if (!changed.length) return conversation;
  // A status sent to a closed conversation reopens it.
  const reopening = set.status !== undefined && conversation.status === 'closed' ? { closed_at: null } : {};
  const updated = written(
    await conversations(deps.db, tenant).updateFrom(conversation, { ...set, ...reopening }, (after) =>
      prepareEvent(tenant, 'conversation.updated', { conversation: toConversation(after), changed }),
    ),
    'conversation',
  );
  await commitEvents(deps, 'conversations', conversation._id);
  return updated;
}

/** Ends the conversation and records `conversation.closed`; one already closed is a 409. */
export async function closeConversation(
  deps: DomainDeps,
  tenant: Tenant,
  id: string,
  reason: string | null,
): Promise<{ conversation: ConversationDoc; eventId: string }> {
  const conversation = await mustGetConversation(deps, tenant, id);
  if (conversation.status === 'closed') throw conflict('conflict', 'The conversation is closed already; a new inbound message reopens it.');
  let eventId = '';
  const closed = written(
    await conversations(deps.db, tenant).updateFrom(conversation, { status: 'closed', closed_at: new Date() }, (after) => {
      const event = prepareEvent(tenant, 'conversation.closed', { conversation: toConversation(after), reason });
      eventId = event.id;
      return event;
    }),
    'conversation',
  );
  await commitEvents(deps, 'conversations', conversation._id);
  return { conversation: closed, eventId };
}
