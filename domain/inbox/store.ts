/**
 * The inbox: contacts, conversations, messages, and the sealed addresses
 * apart from them. A contact or conversation never holds an address; the
 * `addresses` collection keeps each one sealed (domain/sealing.ts) under an
 * id that is a keyed hash of (channel, kind, address), so a message finds its
 * contact and conversation without the address ever being stored in clear
 * or derivable from a plain hash.
 */
import { createHmac } from 'node:crypto';
import { Db, Filter } from 'mongodb';
import {
  CHANNEL_TYPES,
  CONTACT_STAGES,
  DU_MODES,
  MEDIA_TYPES,
  MESSAGE_STATUSES,
  CONVERSATION_STATUSES,
  PRIORITIES,
} from '../../schemas/openapi/inbox';
import { isDuplicateKey, OutboxEvent, Page, PageResult, Tenant, tenantCollection, TenantDoc } from '../db';
import { Sealed, seal } from '../sealing';
import { ResourceDoc } from '../resource';
import type { TemplateFormat } from '../templates/store';

export type Network = (typeof CHANNEL_TYPES)[number];
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];
export type Priority = (typeof PRIORITIES)[number];
export type DuMode = (typeof DU_MODES)[number];
export type ContactStage = (typeof CONTACT_STAGES)[number];
export type MediaType = (typeof MEDIA_TYPES)[number];
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export interface ContactDoc extends ResourceDoc {
  display_name: string | null;
  channels: Network[];
  stage: ContactStage;
  interests: string[];
  tags: string[];
  conversation_count: number;
  first_seen_at: Date;
  last_seen_at: Date | null;
}

export interface ConversationDoc extends ResourceDoc {
  channel: Network;
  channel_id: string;
  contact_id: string;
  /** The sealed address replies go to (the group, or the contact): an id in `addresses`. */
  address_id: string;
  status: ConversationStatus;
  assignee: string | null;
  priority: Priority;
  du_mode: DuMode;
  tags: string[];
  unread_count: number;
  last_message_at: Date | null;
  last_message_preview: string | null;
  /** The last inbound message applied to the conversation: a retried message is not counted twice. */
  last_inbound_id: string | null;
  closed_at: Date | null;
}

export interface MessageDoc extends TenantDoc {
  conversation_id: string;
  contact_id: string;
  channel_id: string;
  direction: 'inbound' | 'outbound';
  author: 'contact' | 'team' | 'automation';
  /** The team member who sent an outbound reply, when named (absent from messages stored before replies). */
  agent?: string | null;
  text: string | null;
  /** The markup of an outbound text (its template's format; `plain` for a free text); absent on inbound messages. */
  format?: TemplateFormat;
  media_type: MediaType | null;
  media_urls: string[];
  template_id: string | null;
  status: MessageStatus;
  error: string | null;
  sent_at: Date | null;
  created_at: Date;
  /** When the conversation and contact took this message into account; null until then. */
  applied_at: Date | null;
}

export interface AddressDoc extends TenantDoc {
  channel_id: string;
  kind: 'contact' | 'thread';
  sealed: Sealed;
  /** The contact this address is (kind contact), or the conversation it is the thread of (kind thread). */
  owner_id: string;
}

export const contacts = (db: Db, tenant: Tenant) => tenantCollection<ContactDoc>(db, 'contacts', tenant);
export const conversations = (db: Db, tenant: Tenant) => tenantCollection<ConversationDoc>(db, 'conversations', tenant);
export const messages = (db: Db, tenant: Tenant) => tenantCollection<MessageDoc>(db, 'messages', tenant);
const addresses = (db: Db, tenant: Tenant) => tenantCollection<AddressDoc>(db, 'addresses', tenant);

/** A keyed hash of an address: the same address on the same channel gives the same id; without the key, nothing. */
export function addressId(secretKey: Buffer, channelId: string, kind: AddressDoc['kind'], address: string): string {
  const digest = createHmac('sha256', secretKey).update(`offerops address v1\n${channelId}\n${kind}\n${address}`).digest('hex');
  return `adr_${digest.slice(0, 40)}`;
}

/**
 * The owner of the address (channel, kind, address), made `proposed` when
 * the address is new: its sealed copy is stored under its keyed hash. Safe
 * under races: the first insert wins and the others read its owner.
 */
export async function addressOwner(
  db: Db,
  tenant: Tenant,
  secretKey: Buffer,
  a: { channelId: string; kind: AddressDoc['kind']; address: string },
  proposed: string,
): Promise<{ id: string; ownerId: string; isNew: boolean }> {
  const id = addressId(secretKey, a.channelId, a.kind, a.address);
  const coll = addresses(db, tenant);
  const existing = await coll.findById(id);
  if (existing) return { id, ownerId: existing.owner_id, isNew: false };
  try {
    await coll.insert({ _id: id, channel_id: a.channelId, kind: a.kind, sealed: seal(a.address, secretKey), owner_id: proposed });
    return { id, ownerId: proposed, isNew: true };
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const winner = await coll.findById(id);
    if (!winner) throw err;
    return { id, ownerId: winner.owner_id, isNew: false };
  }
}

/** The sealed address `id` (for the connector path only). */
export const sealedAddress = async (db: Db, tenant: Tenant, id: string): Promise<Sealed | null> =>
  (await addresses(db, tenant).findById(id))?.sealed ?? null;

/** Inserts `doc` with its event unless a document with its id exists; true when this call inserted it. */
export async function insertOnce<T extends TenantDoc>(
  coll: { insert(doc: Omit<T, 'account_id' | 'env'>, event?: OutboxEvent): Promise<T> },
  doc: Omit<T, 'account_id' | 'env'>,
  event?: OutboxEvent,
): Promise<boolean> {
  try {
    await coll.insert(doc, event);
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

export interface ConversationQuery {
  status?: ConversationStatus;
  channel?: Network;
  assignee?: string;
  priority?: Priority;
  contact_id?: string;
}

/** Latest activity first (`last_message_at`, then id, both descending: a stable order). */
export function listConversations(db: Db, tenant: Tenant, q: ConversationQuery, page: Page): Promise<PageResult<ConversationDoc>> {
  const filter: Filter<ConversationDoc> = {};
  if (q.status !== undefined) filter.status = q.status;
  if (q.channel !== undefined) filter.channel = q.channel;
  if (q.assignee !== undefined) filter.assignee = q.assignee;
  if (q.priority !== undefined) filter.priority = q.priority;
  if (q.contact_id !== undefined) filter.contact_id = q.contact_id;
  return conversations(db, tenant).page(filter, page, { last_message_at: -1, _id: -1 });
}

/**
 * The messages of a conversation, newest first: `created_at` then id, both
 * descending. With `before` (a message of the conversation), only those
 * after it in that order: keyset paging, unmoved by new messages.
 */
export async function listMessages(
  db: Db,
  tenant: Tenant,
  conversationId: string,
  page: Page,
  before?: MessageDoc,
): Promise<PageResult<MessageDoc>> {
  const filter: Filter<MessageDoc> = { conversation_id: conversationId };
  if (before) filter.$or = [{ created_at: { $lt: before.created_at } }, { created_at: before.created_at, _id: { $lt: before._id } }];
  return messages(db, tenant).page(filter, page, { created_at: -1, _id: -1 });
}

export interface ContactQuery {
  stage?: ContactStage;
  tag?: string;
  channel?: Network;
  query?: string;
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Latest seen first. */
export function listContacts(db: Db, tenant: Tenant, q: ContactQuery, page: Page): Promise<PageResult<ContactDoc>> {
  const filter: Filter<ContactDoc> = {};
  if (q.stage !== undefined) filter.stage = q.stage;
  if (q.tag !== undefined) filter.tags = q.tag;
  if (q.channel !== undefined) filter.channels = q.channel;
  if (q.query !== undefined) filter.display_name = { $regex: escapeRegex(q.query), $options: 'i' };
  return contacts(db, tenant).page(filter, page, { last_seen_at: -1, _id: -1 });
}
