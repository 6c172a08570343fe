/**
 * The Telegram Bot API: `sendMessage` (`chat_id`, `text`) and `sendPhoto`
 * (`chat_id`, `photo`, `caption`) when an image goes along. A text written
 * for Telegram (`telegram_html` templates) goes with `parse_mode: HTML`; any
 * other goes as it is (Telegram's MarkdownV2 escapes differ from Markdown's,
 * so a `markdown` text sent with it would be refused).
 *
 * Telegram's limits are checked before sending: a text over 4096 characters
 * is a permanent error (it would always be refused); a caption over 1024
 * goes as a message with the image as its link preview instead.
 *
 * Telegram cannot deduplicate: the Bot API takes no idempotency key. So
 * exactly-once rests on the workflow alone (one activity per delivery, a
 * delivery marked sent is never sent again); a send whose answer was lost —
 * the worker killed mid-request, a timeout after Telegram accepted it — may
 * reach the chat twice.
 */
import { ChannelConfig, TELEGRAM_API } from '../store';
import { asObject, postJson, retryAfterMs, transientStatus } from './post';
import { Connector, ConnectorError, OutboundMessage } from './types';

export const TELEGRAM_TEXT_LIMIT = 4096;
export const TELEGRAM_CAPTION_LIMIT = 1024;

/** The length Telegram counts: for HTML, the text once tags are removed and entities read. */
function visibleLength(message: OutboundMessage): number {
  if (message.format !== 'telegram_html') return [...message.text].length;
  const text = message.text.replace(/<[^>]*>/g, '').replace(/&(?:#\d+|#x[0-9a-f]+|[a-z]+);/gi, '_');
  return [...text].length;
}

/** The Bot API method and body that send `message`. */
function request(message: OutboundMessage): { method: string; body: Record<string, unknown> } {
  const length = visibleLength(message);
  if (length > TELEGRAM_TEXT_LIMIT) {
    throw new ConnectorError(`the message has ${length} characters; Telegram takes at most ${TELEGRAM_TEXT_LIMIT}`, true);
  }
  const parseMode = message.format === 'telegram_html' ? { parse_mode: 'HTML' } : {};
  if (message.imageUrl && length <= TELEGRAM_CAPTION_LIMIT) {
    return { method: 'sendPhoto', body: { chat_id: message.to, photo: message.imageUrl, caption: message.text, ...parseMode } };
  }
  const preview = message.imageUrl ? { link_preview_options: { url: message.imageUrl, prefer_large_media: true, show_above_text: true } } : {};
  return { method: 'sendMessage', body: { chat_id: message.to, text: message.text, ...parseMode, ...preview } };
}

export function telegramConnector(channel: ChannelConfig, timeoutMs: number): Connector {
  if (!channel.token) throw new ConnectorError('the channel has no bot token', true);
  const base = `${(channel.url ?? TELEGRAM_API).replace(/\/+$/, '')}/bot${channel.token}`;
  return {
    supportsImages: true,
    async send(message) {
      const { method, body } = request(message);
      const { status, json } = await postJson(`${base}/${method}`, method, body, { timeoutMs });
      if (json.ok === true) {
        const id = asObject(json.result).message_id;
        return { providerMessageId: typeof id === 'number' || typeof id === 'string' ? String(id) : null };
      }
      // Telegram's `description` may quote the chat: only the code goes into the message.
      const code = typeof json.error_code === 'number' ? json.error_code : status;
      const transient = transientStatus(code);
      const pause = transient ? retryAfterMs(asObject(json.parameters).retry_after) : undefined;
      const detail = pause !== undefined ? ` (retry after ${pause / 1000} s)` : '';
      throw new ConnectorError(`Telegram refused the message: ${code}${detail}`, !transient, code, pause);
    },
  };
}

/**
 * Points the bot's updates at offerops: the Bot API's `setWebhook` with
 * `url` (the channel's `/inbound/{channel_id}` on the API's public origin)
 * and `secret_token` (the channel's inbound secret, which Telegram sends back
 * in `X-Telegram-Bot-Api-Secret-Token`), for `message` updates only.
 */
export async function setTelegramWebhook(
  apiBase: string | null,
  token: string,
  webhook: { url: string; secretToken: string },
  timeoutMs = 10_000,
): Promise<void> {
  const base = `${(apiBase ?? TELEGRAM_API).replace(/\/+$/, '')}/bot${token}`;
  const { status, json } = await postJson(
    `${base}/setWebhook`,
    'setWebhook',
    { url: webhook.url, secret_token: webhook.secretToken, allowed_updates: ['message'] },
    { timeoutMs },
  );
  if (json.ok === true) return;
  // Telegram's `description` says why (never the token): it is shown to the operator.
  const code = typeof json.error_code === 'number' ? json.error_code : status;
  const why = typeof json.description === 'string' ? `: ${json.description}` : '';
  throw new ConnectorError(`Telegram refused setWebhook (${code})${why}`, true, code);
}
