/**
 * Inbound messages (the inbound half of the `http` gateway protocol): a
 * gateway POSTs each message it receives to `/inbound/{channel_id}` with the
 * channel's inbound secret. The message creates or updates its contact and
 * conversation; the addresses it carries are sealed into `addresses` and
 * appear nowhere else. Idempotent by the channel's message id: the message's
 * id is derived from it, so a repeat finds the first and stores nothing new.
 * Every write is awaited before the answer, so a 2xx means it is durable.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Db } from 'mongodb';
import { ChannelDoc, channelById, INBOUND_TYPES, inboundSecretHash, SIGNING_TYPES } from '../channels/store';
import { unseal } from '../sealing';
import { Tenant } from '../db';
import { changedMeanwhile } from '../errors';
import { commitEvents } from '../events/commit';
import { prepareEvent } from '../events/store';
import { derivedId, newId } from '../ids';
import { DomainDeps } from '../resource';
import { toContact, toConversation, toMessage, previewOf } from './service';
import {
  addressOwner,
  ContactDoc,
  contacts,
  ConversationDoc,
  conversations,
  insertOnce,
  MediaType,
  MessageDoc,
  messages,
  Network,
} from './store';

/** The body of an inbound POST, as the contract's INBOUND_MESSAGE validated it. */
export interface InboundMessage {
  id: string;
  from: string;
  group?: string;
  name?: string;
  text?: string;
  media_urls?: string[];
  media_type?: MediaType;
  network?: Exclude<Network, 'telegram'>;
  sent_at?: string;
}

/** The channel `channelId` when `secret` is its inbound secret; null otherwise (unknown channel, no inbound, wrong secret alike). */
export async function inboundChannel(db: Db, channelId: string, secret: string): Promise<ChannelDoc | null> {
  const channel = await channelById(db, channelId);
  if (!channel?.inbound_secret_hash || !INBOUND_TYPES.includes(channel.type)) return null;
  const given = Buffer.from(inboundSecretHash(secret), 'hex');
  const stored = Buffer.from(channel.inbound_secret_hash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored) ? channel : null;
}

/**
 * The channel `channelId` when `signature` is the hex HMAC-SHA512 of `body`
 * under its inbound secret (WAHA's `X-Webhook-Hmac`); null otherwise
 * (unknown channel, one that does not sign, wrong signature alike).
 */
export async function signedInboundChannel(
  db: Db,
  channelId: string,
  body: Buffer,
  signature: string,
  secretKey: Buffer,
): Promise<ChannelDoc | null> {
  const channel = await channelById(db, channelId);
  if (!channel?.inbound_key || !SIGNING_TYPES.includes(channel.type)) return null;
  const expected = createHmac('sha512', unseal(channel.inbound_key, secretKey)).update(body).digest();
  const given = /^[0-9a-f]+$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected) ? channel : null;
}

/** Up to this many re-reads when another message changed the conversation between read and write. */
const ATTEMPTS = 8;

/** Takes message `m` into its conversation (once: `last_inbound_id` guards a retried message); reopens a pending or closed one. */
async function applyToConversation(deps: DomainDeps, tenant: Tenant, conversationId: string, m: MessageDoc): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await conversations(deps.db, tenant).findById(conversationId);
    if (!current || current.last_inbound_id === m._id) return;
    const set: Partial<ConversationDoc> = {
      last_message_at: m.created_at,
      last_message_preview: previewOf(m),
      unread_count: current.unread_count + 1,
      last_inbound_id: m._id,
    };
    const changed = ['last_message_at', 'last_message_preview', 'unread_count'];
    if (current.status !== 'open') {
      set.status = 'open';
      set.closed_at = null;
      changed.push('status');
    }
    const saved = await conversations(deps.db, tenant).updateFrom(current, set, (after) =>
      prepareEvent(tenant, 'conversation.updated', { conversation: toConversation(after), changed }),
    );
    if (saved) return;
  }
  throw changedMeanwhile('conversation');
}

/** One inbound message being stored: its channel and tenant, its network, the time it arrived. */
interface Arrival {
  deps: DomainDeps & { secretKey: Buffer };
  tenant: Tenant;
  channel: ChannelDoc;
  input: InboundMessage;
  network: Network;
  now: Date;
}

/** The sender's contact, made with its event on first contact; its id. */
async function contactOf({ deps, tenant, channel, input, network, now }: Arrival): Promise<string> {
  const address = { channelId: channel._id, kind: 'contact' as const, address: input.from };
  const contact = await addressOwner(deps.db, tenant, deps.secretKey, address, newId('ctc'));
  const contactDoc: ContactDoc = {
    _id: contact.ownerId,
    account_id: tenant.accountId,
    env: tenant.env,
    display_name: input.name ?? null,
    channels: [network],
    stage: 'new' as const,
    interests: [],
    tags: [],
    conversation_count: 0,
    first_seen_at: now,
    last_seen_at: null,
    created_at: now,
    updated_at: now,
  };
  await insertOnce(contacts(deps.db, tenant), contactDoc, prepareEvent(tenant, 'contact.created', { contact: toContact(contactDoc) }));
  return contact.ownerId;
}

/** The conversation of the message's thread (its group, else its sender), made with its event on first contact; its id, and whether it is new. */
async function conversationOf(
  { deps, tenant, channel, input, network, now }: Arrival,
  contactId: string,
): Promise<{ id: string; created: boolean }> {
  const address = { channelId: channel._id, kind: 'thread' as const, address: input.group ?? input.from };
  const thread = await addressOwner(deps.db, tenant, deps.secretKey, address, newId('cnv'));
  const conversationDoc: ConversationDoc = {
    _id: thread.ownerId,
    account_id: tenant.accountId,
    env: tenant.env,
    channel: network,
    channel_id: channel._id,
    contact_id: contactId,
    address_id: thread.id,
    status: 'open',
    assignee: null,
    priority: 'medium',
    du_mode: 'auto',
    tags: [],
    unread_count: 0,
    last_message_at: null,
    last_message_preview: null,
    last_inbound_id: null,
    closed_at: null,
    created_at: now,
    updated_at: now,
  };
  const created = await insertOnce(
    conversations(deps.db, tenant),
    conversationDoc,
    prepareEvent(tenant, 'conversation.created', { conversation: toConversation(conversationDoc) }),
  );
  return { id: thread.ownerId, created };
}

/** The message stored with its event, once; `created` is false when it was stored before (the stored one is returned). */
async function storeMessage(
  { deps, tenant, channel, input, now }: Arrival,
  messageId: string,
  conversationId: string,
  contactId: string,
): Promise<{ created: boolean; message: MessageDoc }> {
  const messageDoc: MessageDoc = {
    _id: messageId,
    account_id: tenant.accountId,
    env: tenant.env,
    conversation_id: conversationId,
    contact_id: contactId,
    channel_id: channel._id,
    direction: 'inbound',
    author: 'contact',
    text: input.text ?? null,
    media_type: input.media_type ?? (input.media_urls?.length ? 'image' : null),
    media_urls: input.media_urls ?? [],
    template_id: null,
    status: 'received',
    error: null,
    sent_at: input.sent_at ? new Date(input.sent_at) : now,
    created_at: now,
    applied_at: null,
  };
  const event = prepareEvent(tenant, 'message.received', { message: toMessage(messageDoc), contact_id: contactId });
  const created = await insertOnce(messages(deps.db, tenant), messageDoc, event);
  const message = created ? messageDoc : ((await messages(deps.db, tenant).findById(messageId)) ?? messageDoc);
  return { created, message };
}

/** Applies a stored message: its conversation and contact updated, the message marked applied, then their events committed. */
async function applyMessage(a: Arrival, message: MessageDoc, contactId: string, conversation: { id: string; created: boolean }): Promise<void> {
  const { deps, tenant, input, network, now } = a;
  await applyToConversation(deps, tenant, conversation.id, message);
  await contacts(deps.db, tenant).updateById(contactId, {
    $set: { last_seen_at: now, updated_at: now, ...(input.name ? { display_name: input.name } : {}) },
    $addToSet: { channels: network },
    ...(conversation.created ? { $inc: { conversation_count: 1 } } : {}),
  });
  await messages(deps.db, tenant).updateRead(message, { $set: { applied_at: now } });
  for (const [collection, id] of [
    ['contacts', contactId],
    ['conversations', conversation.id],
    ['messages', message._id],
  ] as const) {
    await commitEvents(deps, collection, id);
  }
}

/**
 * Stores inbound message `input` of `channel`: its contact and conversation
 * (made on first contact), the message, and their events. `created` is false
 * for a message stored before.
 */
export async function receiveInbound(
  deps: DomainDeps & { secretKey: Buffer },
  channel: ChannelDoc,
  input: InboundMessage,
): Promise<{ created: boolean; message: MessageDoc }> {
  const tenant: Tenant = { accountId: channel.account_id, env: channel.env };
  const messageId = derivedId('msg', channel._id, input.id);
  const earlier = await messages(deps.db, tenant).findById(messageId);
  if (earlier?.applied_at) return { created: false, message: earlier };

  const now = new Date();
  const network: Network = channel.type === 'telegram' ? 'telegram' : (input.network ?? 'whatsapp');
  const arrival: Arrival = { deps, tenant, channel, input, network, now };
  const contactId = await contactOf(arrival);
  const conversation = await conversationOf(arrival, contactId);
  const { created, message } = await storeMessage(arrival, messageId, conversation.id, contactId);
  await applyMessage(arrival, message, contactId, conversation);
  return { created, message };
}
