/**
 * Evolution API (v2), a self-hosted WhatsApp gateway: `POST
 * /message/sendText/{instance}` (`number`, `text`, `linkPreview` when the
 * text holds a link) and, with an image, `POST /message/sendMedia/{instance}`
 * (`mediatype: image`, `media` = its URL, `caption` = the message), the
 * instance's API key in the `apikey` header. It answers 201 with the message,
 * whose `key.id` is WhatsApp's message id.
 *
 * Failures: 429 and 5xx are transient (Retry-After honoured); Evolution wraps
 * whatever went wrong while sending in a 400, so a 400 that says the
 * connection is closed or timed out is transient too, and marks the session
 * disconnected; a 400 saying the number is not on WhatsApp, 401/403 (API
 * key) and 404 (no such instance) are permanent.
 *
 * Evolution takes no idempotency key (its message id is made by the
 * gateway), so exactly-once rests on the workflow alone, as for Telegram: a
 * send whose answer was lost (a timeout after the gateway sent it, the worker
 * killed mid-request) may reach the group twice.
 */
import { ChannelConfig, ChannelState } from '../store';
import { asObject, JsonAnswer, JsonObject, requestJson, retryAfterMs, transientStatus } from './post';
import { Connector, ConnectorError } from './types';
import { GatewayGroup, gatewayParts, hasLink, memberCount, settledState, WhatsAppGateway } from './whatsapp';

/** What Evolution says went wrong, as text to classify (never shown: it may quote the number). */
function said(json: JsonObject): string {
  return JSON.stringify(asObject(json.response).message ?? json.message ?? json.error ?? '');
}

const CONNECTION_TROUBLE = /connection closed|not connected|timed out|connection failure|disconnected/i;

/** The failure an Evolution answer is. */
function failure(answer: JsonAnswer, what: string): ConnectorError {
  const { status, headers, json } = answer;
  const text = said(json);
  if (transientStatus(status) || (status === 400 && CONNECTION_TROUBLE.test(text))) {
    const disconnected = CONNECTION_TROUBLE.test(text);
    const why = disconnected ? 'the instance is not connected to WhatsApp' : `Evolution API answered ${status}`;
    return new ConnectorError(why, false, status, retryAfterMs(headers.get('retry-after') ?? undefined), disconnected);
  }
  if (status === 400 && /"exists":false/.test(text))
    return new ConnectorError('the destination is not on WhatsApp (Evolution API 400)', true, status);
  if (status === 401 || status === 403) return new ConnectorError(`Evolution API refused the API key (${status})`, true, status);
  if (status === 404) return new ConnectorError('Evolution API has no such instance (404)', true, status);
  return new ConnectorError(`Evolution API refused ${what}: ${status}`, true, status);
}

export function evolutionConnector(channel: ChannelConfig, timeoutMs: number): Connector {
  const { base, session, key } = gatewayParts(channel, 'Evolution API', 'instance');
  const instance = encodeURIComponent(session);
  const headers = { apikey: key };
  return {
    supportsImages: true,
    async send(message) {
      const [path, body] = message.imageUrl
        ? ['sendMedia', { number: message.to, mediatype: 'image', media: message.imageUrl, caption: message.text }]
        : ['sendText', { number: message.to, text: message.text, linkPreview: hasLink(message.text) }];
      const answer = await requestJson('POST', `${base}/message/${path}/${instance}`, path, body, { headers, timeoutMs });
      if (answer.status < 200 || answer.status >= 300) throw failure(answer, 'the message');
      const id = asObject(answer.json.key).id;
      return { providerMessageId: typeof id === 'string' && id ? id : null };
    },
  };
}

/** An Evolution connection state (`connectionState`, webhook `connection.update`): `open` is connected; `close` and `connecting` are not. */
export function evolutionState(state: unknown): ChannelState {
  if (state === 'open') return 'connected';
  return state === 'close' || state === 'connecting' ? 'disconnected' : 'unknown';
}

export function evolutionGateway(channel: ChannelConfig, timeoutMs: number): WhatsAppGateway {
  const { base, session, key } = gatewayParts(channel, 'Evolution API', 'instance');
  const instance = encodeURIComponent(session);
  const call = async (method: 'GET' | 'POST', path: string, what: string, body?: unknown) => {
    const answer = await requestJson(method, `${base}${path.replace('{instance}', instance)}`, what, body, {
      headers: { apikey: key },
      timeoutMs,
    });
    if (answer.status < 200 || answer.status >= 300) throw failure(answer, what);
    return answer;
  };
  return {
    async setWebhook(url, secret) {
      // One webhook per instance: this replaces any other. Evolution sends our header with every event.
      await call('POST', '/webhook/set/{instance}', 'the webhook', {
        webhook: {
          enabled: true,
          url,
          headers: { authorization: `Bearer ${secret}` },
          byEvents: false,
          base64: false,
          events: ['MESSAGES_UPSERT', 'CONNECTION_UPDATE'],
        },
      });
    },
    async sessionState(settleWithinMs = 0) {
      return settledState(async () => {
        const state = asObject((await call('GET', '/instance/connectionState/{instance}', 'the state request')).json.instance).state;
        return { state: evolutionState(state), settling: state === 'connecting' };
      }, settleWithinMs);
    },
    async groups() {
      const answer = await call('GET', '/group/fetchAllGroups/{instance}?getParticipants=false', 'the group list');
      const list = Array.isArray(answer.value) ? answer.value : [];
      return list.flatMap((item): GatewayGroup[] => {
        const g = asObject(item);
        if (typeof g.id !== 'string' || !g.id) return [];
        return [{ address: g.id, name: typeof g.subject === 'string' ? g.subject : '', size: memberCount(g.size, g.participants) }];
      });
    },
  };
}
