/**
 * The WhatsApp gateways' inbound side: each POSTs its webhook events to the
 * channel's `/inbound/{channel_id}` (set by `admin channel connect
 * --public-url`). A contact's message — Evolution's `messages.upsert`, WAHA's
 * `message` — becomes an inbound message of the same kind a gateway of our
 * protocol posts: the sender's JID is the contact's address, the group's JID
 * the thread's (for group chats), both sealed like any other. The session's
 * state — Evolution's `connection.update`, WAHA's `session.status` — becomes
 * the channel's state. Our own messages echoed back (`fromMe`), status
 * broadcasts, channel (newsletter) posts, messages without text and events of
 * another instance or session are taken and skipped.
 */
import { evolutionState } from '../channels/connectors/evolution';
import { wahaState } from '../channels/connectors/waha';
import type { ChannelState } from '../channels/store';
import type { InboundMessage } from './inbound';

/** What an event is to us: a message to store, a session state, one to skip (200, nothing stored), or a body that is no such event. */
export type GatewayEvent =
  { message: InboundMessage } | { state: ChannelState } | { ignored: string } | { invalid: { field: string; message: string } };

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** Chats that are no conversation: status updates, broadcast lists, channels. */
const notAChat = (jid: string): boolean => jid.endsWith('@broadcast') || jid.endsWith('@newsletter');

/** The inbound message of a WhatsApp chat message, given its parts (the text cut as Telegram's is). */
function inbound(m: { id: string; chat: string; sender: string; name?: string; text: string; at?: number }): GatewayEvent {
  const group = m.chat.endsWith('@g.us');
  return {
    message: {
      id: m.id,
      from: m.sender,
      ...(group ? { group: m.chat } : {}),
      ...(m.name ? { name: m.name.trim().slice(0, 120) } : {}),
      text: m.text.slice(0, 8192),
      ...(m.at !== undefined && Number.isFinite(m.at) && m.at > 0 ? { sent_at: new Date(m.at * 1000).toISOString() } : {}),
    },
  };
}

/** The text of a Baileys message content: a conversation, an extended text, or a media caption. */
function messageText(content: Json): string | undefined {
  const nested = (key: string, field: string) => {
    const part = content[key];
    return isObject(part) ? text(part[field]) : undefined;
  };
  return (
    text(content.conversation) ??
    nested('extendedTextMessage', 'text') ??
    nested('imageMessage', 'caption') ??
    nested('videoMessage', 'caption') ??
    nested('documentMessage', 'caption')
  );
}

/** An Evolution API webhook event for instance `instance`. */
export function evolutionEvent(body: unknown, instance: string | null): GatewayEvent {
  if (!isObject(body) || typeof body.event !== 'string') {
    return { invalid: { field: 'event', message: 'is required: the body must be an Evolution API webhook event' } };
  }
  if (instance !== null && body.instance !== instance) return { ignored: 'an event of another instance' };
  const data = body.data;
  if (body.event === 'connection.update') {
    return isObject(data) ? { state: evolutionState(data.state) } : { invalid: { field: 'data.state', message: 'is required' } };
  }
  if (body.event !== 'messages.upsert') return { ignored: 'only messages.upsert and connection.update are taken' };
  if (!isObject(data) || !isObject(data.key)) return { invalid: { field: 'data.key', message: 'is required' } };
  const { key } = data;
  const chat = text(key.remoteJid);
  const id = text(key.id);
  if (!chat || !id) return { invalid: { field: 'data.key', message: 'needs a remoteJid and an id' } };
  if (key.fromMe === true) return { ignored: 'our own message' };
  if (notAChat(chat)) return { ignored: 'a status update or broadcast' };
  const sender = chat.endsWith('@g.us') ? (text(key.participant) ?? text(data.participant)) : chat;
  if (!sender) return { invalid: { field: 'data.key.participant', message: 'is required for a group message' } };
  const said = isObject(data.message) ? messageText(data.message) : undefined;
  if (!said) return { ignored: 'only text messages (or media with a caption) are taken' };
  return inbound({ id: `${chat}:${id}`, chat, sender, name: text(data.pushName), text: said, at: Number(data.messageTimestamp) });
}

/** A WAHA webhook event for session `session`. */
export function wahaEvent(body: unknown, session: string | null): GatewayEvent {
  if (!isObject(body) || typeof body.event !== 'string') {
    return { invalid: { field: 'event', message: 'is required: the body must be a WAHA webhook event' } };
  }
  if (session !== null && body.session !== session) return { ignored: 'an event of another session' };
  const p = body.payload;
  if (body.event === 'session.status') {
    return isObject(p) ? { state: wahaState(p.status) } : { invalid: { field: 'payload.status', message: 'is required' } };
  }
  if (body.event !== 'message') return { ignored: 'only message and session.status are taken' };
  if (!isObject(p)) return { invalid: { field: 'payload', message: 'is required' } };
  const id = text(p.id);
  const chat = text(p.from);
  if (!id || !chat) return { invalid: { field: 'payload', message: 'needs an id and a from' } };
  if (p.fromMe === true) return { ignored: 'our own message' };
  if (notAChat(chat)) return { ignored: 'a status update or broadcast' };
  const sender = chat.endsWith('@g.us') ? text(p.participant) : chat;
  if (!sender) return { invalid: { field: 'payload.participant', message: 'is required for a group message' } };
  const said = text(p.body);
  if (!said) return { ignored: 'only text messages (or media with a caption) are taken' };
  const raw = isObject(p._data) ? p._data : {};
  return inbound({ id, chat, sender, name: text(raw.notifyName) ?? text(raw.pushName), text: said, at: Number(p.timestamp) });
}
