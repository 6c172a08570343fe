/**
 * WAHA (WhatsApp HTTP API), a self-hosted WhatsApp gateway: `POST
 * /api/sendText` (`session`, `chatId`, `text`, `linkPreview` when the text
 * holds a link) and, with an image, `POST /api/sendImage` (`file: {url,
 * mimetype}`, `caption` = the message), the API key in `X-Api-Key`. It
 * answers with the message sent, whose id holds WhatsApp's message id (a
 * string, or `{_serialized}` on the WEBJS engine).
 *
 * Failures: 429 and 5xx are transient (Retry-After honoured); 422 with a
 * session `status` other than WORKING means the session is not connected:
 * transient, and the session marked disconnected; 401 (API key), 404 (no
 * such session) and any other 4xx are permanent.
 *
 * WAHA takes no idempotency key: as for Telegram and Evolution, a send whose
 * answer was lost may reach the group twice (docs/guides/whatsapp.md).
 */
import { ChannelConfig, ChannelState } from '../store';
import { asObject, JsonAnswer, requestJson, retryAfterMs, transientStatus } from './post';
import { Connector, ConnectorError } from './types';
import { GatewayGroup, gatewayParts, hasLink, imageMimeType, memberCount, settledState, WhatsAppGateway } from './whatsapp';

/** The failure a WAHA answer is. */
function failure(answer: JsonAnswer, what: string): ConnectorError {
  const { status, headers, json } = answer;
  if (transientStatus(status))
    return new ConnectorError(`WAHA answered ${status}`, false, status, retryAfterMs(headers.get('retry-after') ?? undefined));
  const session = typeof json.status === 'string' ? json.status : null;
  if (status === 422 && session && session !== 'WORKING') {
    return new ConnectorError(`the WAHA session is not connected (${session})`, false, status, undefined, true);
  }
  if (status === 401 || status === 403) return new ConnectorError(`WAHA refused the API key (${status})`, true, status);
  if (status === 404) return new ConnectorError('WAHA has no such session (404)', true, status);
  return new ConnectorError(`WAHA refused ${what}: ${status}`, true, status);
}

/**
 * WhatsApp's message id in a WAHA answer: `id` (a string or `{_serialized}`),
 * or `key.id` (NOWEB). WAHA serializes it as `{fromMe}_{chatId}_{id}`
 * (`_{participant}` after it in groups), which names the chat: only the id
 * itself is kept, since it goes where no address may (Temporal's history).
 */
function messageId(json: Record<string, unknown>): string | null {
  const id = typeof json.id === 'string' ? json.id : asObject(json.id)._serialized;
  const found = id ?? asObject(json.key).id;
  if (typeof found !== 'string' || !found) return null;
  const [fromMe, , own] = found.split('_');
  return (fromMe === 'true' || fromMe === 'false') && own ? own : found;
}

export function wahaConnector(channel: ChannelConfig, timeoutMs: number): Connector {
  const { base, session, key } = gatewayParts(channel, 'WAHA', 'session');
  const headers = { 'x-api-key': key };
  return {
    supportsImages: true,
    async send(message) {
      const [path, body] = message.imageUrl
        ? [
            'sendImage',
            { session, chatId: message.to, file: { url: message.imageUrl, mimetype: imageMimeType(message.imageUrl) }, caption: message.text },
          ]
        : ['sendText', { session, chatId: message.to, text: message.text, linkPreview: hasLink(message.text) }];
      const answer = await requestJson('POST', `${base}/api/${path}`, path, body, { headers, timeoutMs });
      if (answer.status < 200 || answer.status >= 300) throw failure(answer, 'the message');
      return { providerMessageId: messageId(answer.json) };
    },
  };
}

/** A WAHA session status (`GET /api/sessions/{session}`, webhook `session.status`): WORKING is connected, the others are not. */
export function wahaState(status: unknown): ChannelState {
  if (status === 'WORKING') return 'connected';
  return typeof status === 'string' && ['STOPPED', 'STARTING', 'SCAN_QR_CODE', 'FAILED'].includes(status) ? 'disconnected' : 'unknown';
}

/** The events offerops takes from WAHA. */
const EVENTS = ['message', 'session.status'];

export function wahaGateway(channel: ChannelConfig, timeoutMs: number): WhatsAppGateway {
  const { base, session, key } = gatewayParts(channel, 'WAHA', 'session');
  const name = encodeURIComponent(session);
  const call = async (method: 'GET' | 'PUT', path: string, what: string, body?: unknown) => {
    const answer = await requestJson(method, `${base}${path}`, what, body, { headers: { 'x-api-key': key }, timeoutMs });
    if (answer.status < 200 || answer.status >= 300) throw failure(answer, what);
    return answer;
  };
  return {
    async setWebhook(url, secret) {
      // PUT replaces the session's whole configuration (and restarts it): the rest of it, other webhooks included, is kept.
      const config = asObject((await call('GET', `/api/sessions/${name}`, 'the session request')).json.config);
      const others = (Array.isArray(config.webhooks) ? (config.webhooks as unknown[]) : []).filter((w) => asObject(w).url !== url);
      const webhooks = [...others, { url, events: EVENTS, hmac: { key: secret } }];
      await call('PUT', `/api/sessions/${name}`, 'the webhook', { config: { ...config, webhooks } });
    },
    async sessionState(settleWithinMs = 0) {
      return settledState(async () => {
        const status = (await call('GET', `/api/sessions/${name}`, 'the session request')).json.status;
        return { state: wahaState(status), settling: status === 'STARTING' };
      }, settleWithinMs);
    },
    async groups() {
      const answer = await call('GET', `/api/${name}/groups`, 'the group list');
      // The shape depends on WAHA's engine: a list, or an object keyed by JID; a subject or a name.
      const list = Array.isArray(answer.value) ? answer.value : Object.values(answer.json);
      return list.flatMap((item): GatewayGroup[] => {
        const g = asObject(item);
        const meta = asObject(g.groupMetadata);
        const id = typeof g.id === 'string' ? g.id : asObject(g.id)._serialized;
        if (typeof id !== 'string' || !id) return [];
        const subject = [g.subject, g.name, meta.subject].find((s): s is string => typeof s === 'string') ?? '';
        return [{ address: id, name: subject, size: memberCount(g.size ?? meta.size, g.participants ?? meta.participants) }];
      });
    },
  };
}
