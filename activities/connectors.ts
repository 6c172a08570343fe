/**
 * Channel connectors behind one small interface. Each classifies failures
 * as transient (retry) or permanent (that group fails), and no error message
 * carries a token or a destination address.
 *
 * - `http`: our JSON protocol for chat gateways (WhatsApp and others):
 *   `POST {url}/messages`, `Authorization: Bearer <token>`,
 *   `{to, text, image_url?, idempotency_key}` → 2xx `{id?}`. Gateways must
 *   deduplicate on `idempotency_key`.
 * - `telegram`: the Bot API (`sendMessage`, `sendPhoto`). Telegram cannot
 *   deduplicate, so exactly-once there rests on the workflow alone: a send
 *   whose result was lost (worker killed mid-request) may repeat.
 * - `sandbox`: test environment: records the message once per idempotency
 *   key, sends nothing.
 */
import { Db } from 'mongodb';
import { ChannelConfig } from '../api/store/channels';
import { recordSandboxMessage } from '../api/store/sandbox';

export interface OutboundMessage {
  to: string;
  text: string;
  imageUrl?: string;
}

export interface Connector {
  readonly supportsImages: boolean;
  send(message: OutboundMessage, idempotencyKey: string): Promise<{ providerMessageId: string | null }>;
}

export class ConnectorError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly status?: number,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 10_000;

/** Transient: timeouts, 408, 429 and 5xx; any other 4xx is permanent. */
const transientStatus = (status: number): boolean => status === 408 || status === 429 || status >= 500;

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    throw new ConnectorError(timedOut ? 'the gateway did not answer in time' : 'the gateway could not be reached', false);
  }
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: res.status, json };
}

function httpConnector(channel: ChannelConfig): Connector {
  if (!channel.url) throw new ConnectorError('the channel has no gateway URL', true);
  const base = channel.url.replace(/\/+$/, '');
  return {
    supportsImages: true,
    async send(message, idempotencyKey) {
      const { status, json } = await post(
        `${base}/messages`,
        { to: message.to, text: message.text, ...(message.imageUrl ? { image_url: message.imageUrl } : {}), idempotency_key: idempotencyKey },
        channel.token ? { authorization: `Bearer ${channel.token}` } : {},
      );
      if (status >= 200 && status < 300) return { providerMessageId: typeof json?.id === 'string' ? json.id : null };
      throw new ConnectorError(`the gateway answered ${status}`, !transientStatus(status), status);
    },
  };
}

function telegramConnector(channel: ChannelConfig): Connector {
  if (!channel.token) throw new ConnectorError('the channel has no bot token', true);
  const base = `${(channel.url ?? 'https://api.telegram.org').replace(/\/+$/, '')}/bot${channel.token}`;
  return {
    supportsImages: true,
    async send(message) {
      const { status, json } = message.imageUrl
        ? await post(`${base}/sendPhoto`, { chat_id: message.to, photo: message.imageUrl, caption: message.text })
        : await post(`${base}/sendMessage`, { chat_id: message.to, text: message.text });
      if (json?.ok === true) return { providerMessageId: String(json.result?.message_id ?? '') || null };
      const code = typeof json?.error_code === 'number' ? json.error_code : status;
      const retryAfter = json?.parameters?.retry_after;
      const detail = retryAfter ? ` (retry after ${retryAfter} s)` : '';
      throw new ConnectorError(`Telegram refused the message: ${code}${detail}`, !transientStatus(code), code);
    },
  };
}

function sandboxConnector(db: Db): Connector {
  return {
    supportsImages: true,
    async send(message, idempotencyKey) {
      await recordSandboxMessage(db, idempotencyKey, message);
      return { providerMessageId: idempotencyKey };
    },
  };
}

export function connectorFor(channel: ChannelConfig | null, deps: { db: Db }): Connector {
  if (!channel || channel.type === 'sandbox') return sandboxConnector(deps.db);
  return channel.type === 'http' ? httpConnector(channel) : telegramConnector(channel);
}
