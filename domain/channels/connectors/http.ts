/**
 * Our JSON protocol for chat gateways (WhatsApp and others), documented in
 * docs/guides/publishing.md: `POST {url}/messages`, `Authorization: Bearer <token>`,
 * `{to, text, image_url?, idempotency_key}` → 2xx `{id?}`. Gateways must
 * deduplicate on `idempotency_key`: a send whose answer was lost is repeated
 * with the same key.
 */
import { ChannelConfig } from '../store';
import { postJson, retryAfterMs, transientStatus } from './post';
import { Connector, ConnectorError } from './types';

export function httpConnector(channel: ChannelConfig, timeoutMs: number): Connector {
  if (!channel.url) throw new ConnectorError('the channel has no gateway URL', true);
  const endpoint = `${channel.url.replace(/\/+$/, '')}/messages`;
  return {
    supportsImages: true,
    async send(message, idempotencyKey) {
      const { status, headers, json } = await postJson(
        endpoint,
        'messages',
        { to: message.to, text: message.text, ...(message.imageUrl ? { image_url: message.imageUrl } : {}), idempotency_key: idempotencyKey },
        { headers: channel.token ? { authorization: `Bearer ${channel.token}` } : {}, timeoutMs },
      );
      if (status >= 200 && status < 300) return { providerMessageId: typeof json.id === 'string' ? json.id : null };
      const transient = transientStatus(status);
      throw new ConnectorError(
        `the gateway answered ${status}`,
        !transient,
        status,
        transient ? retryAfterMs(headers.get('retry-after') ?? undefined) : undefined,
      );
    },
  };
}
