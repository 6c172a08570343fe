/**
 * Telegram's inbound side: the Bot API POSTs each `Update` to the channel's
 * `/inbound/{channel_id}` (set by `setWebhook`, with the channel's inbound
 * secret as `secret_token`). A message update becomes an inbound message of
 * the same kind a gateway posts: the sender's user id is the contact's
 * address, the chat id the group's (for group chats), both sealed like any
 * other; its id is `<chat id>:<message id>` (Telegram numbers messages per
 * chat), so a redelivered update stores nothing new.
 */
import type { InboundMessage } from './inbound';

/** What an update is to us: a message to store, one to skip (200, nothing stored), or a body that is not an Update. */
export type TelegramInbound = { message: InboundMessage } | { ignored: string } | { invalid: { field: string; message: string } };

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is number | string => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && v.length > 0);

/** The display name of a Telegram user or chat: first and last name, else the title, else the username. */
function nameOf(who: Json | undefined): string | undefined {
  if (!who) return undefined;
  const parts = [who.first_name, who.last_name].filter((p): p is string => typeof p === 'string' && p.trim() !== '');
  const name = parts.join(' ') || (typeof who.title === 'string' ? who.title : '') || (typeof who.username === 'string' ? who.username : '');
  return name.trim() ? name.trim().slice(0, 120) : undefined;
}

export function telegramInbound(update: unknown): TelegramInbound {
  if (!isObject(update) || typeof update.update_id !== 'number') {
    return { invalid: { field: 'update_id', message: 'is required: the body must be a Telegram Update' } };
  }
  const m = update.message;
  if (m === undefined) return { ignored: 'only message updates are taken' };
  if (!isObject(m) || !isId(m.message_id)) return { invalid: { field: 'message.message_id', message: 'is required' } };
  const chat = m.chat;
  if (!isObject(chat) || !isId(chat.id) || typeof chat.type !== 'string') {
    return { invalid: { field: 'message.chat', message: 'needs an id and a type' } };
  }
  const text = typeof m.text === 'string' ? m.text : typeof m.caption === 'string' ? m.caption : undefined;
  if (!text) return { ignored: 'only text messages (or media with a caption) are taken' };
  // A group's anonymous admin or a channel post has no `from`: the sending chat stands for the sender.
  const sender = isObject(m.from) && isId(m.from.id) ? m.from : isObject(m.sender_chat) && isId(m.sender_chat.id) ? m.sender_chat : chat;
  const name = nameOf(sender);
  return {
    message: {
      id: `${String(chat.id)}:${String(m.message_id)}`,
      from: String(sender.id),
      ...(chat.type === 'private' ? {} : { group: String(chat.id) }),
      ...(name ? { name } : {}),
      text: text.slice(0, 8192),
      ...(typeof m.date === 'number' ? { sent_at: new Date(m.date * 1000).toISOString() } : {}),
    },
  };
}
