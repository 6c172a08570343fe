/**
 * The Telegram Bot API: `sendMessage` (`chat_id`, `text`; no `parse_mode`,
 * the text is sent as rendered) and `sendPhoto` (`chat_id`, `photo`,
 * `caption`) when an image goes along.
 *
 * Telegram cannot deduplicate: the Bot API takes no idempotency key. So
 * exactly-once rests on the workflow alone (one activity per delivery, a
 * delivery marked sent is never sent again); a send whose answer was lost —
 * the worker killed mid-request, a timeout after Telegram accepted it — may
 * reach the chat twice.
 */
import { ChannelConfig, TELEGRAM_API } from '../../api/store/channels';
import { postJson, retryAfterMs, transientStatus } from './post';
import { Connector, ConnectorError } from './types';

export function telegramConnector(channel: ChannelConfig, timeoutMs: number): Connector {
  if (!channel.token) throw new ConnectorError('the channel has no bot token', true);
  const base = `${(channel.url ?? TELEGRAM_API).replace(/\/+$/, '')}/bot${channel.token}`;
  return {
    supportsImages: true,
    async send(message) {
      const { status, json } = message.imageUrl
        ? await postJson(`${base}/sendPhoto`, { chat_id: message.to, photo: message.imageUrl, caption: message.text }, { timeoutMs })
        : await postJson(`${base}/sendMessage`, { chat_id: message.to, text: message.text }, { timeoutMs });
      if (json?.ok === true) return { providerMessageId: json.result?.message_id != null ? String(json.result.message_id) : null };
      // Telegram's `description` may quote the chat: only the code goes into the message.
      const code = typeof json?.error_code === 'number' ? json.error_code : status;
      const transient = transientStatus(code);
      const pause = transient ? retryAfterMs(json?.parameters?.retry_after) : undefined;
      const detail = pause !== undefined ? ` (retry after ${pause / 1000} s)` : '';
      throw new ConnectorError(`Telegram refused the message: ${code}${detail}`, !transient, code, pause);
    },
  };
}
