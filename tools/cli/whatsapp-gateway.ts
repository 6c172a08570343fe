/**
 * Stand-ins for the two self-hosted WhatsApp gateways offerops connects to,
 * Evolution API (v2) and WAHA, as real HTTP servers built from their
 * documented requests and answers (docs/guides/whatsapp.md): sending text and
 * images, the session's state, the group list and the webhook, which they
 * call with a contact's messages and the session's changes as the real ones
 * do (Evolution with the headers it was configured with, WAHA signing the body
 * with HMAC-SHA512). `offerops dev gateway --flavor evolution|waha` runs one
 * for a walkthrough; the tests drive their failure modes: 401, 429 with and
 * without Retry-After, 5xx, slow answers, a session that is not connected.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export type Flavor = 'evolution' | 'waha';
export const FLAVORS: readonly Flavor[] = ['evolution', 'waha'];

/** A message the gateway sent to WhatsApp. */
export interface SentMessage {
  id: string;
  to: string;
  text: string;
  imageUrl: string | null;
  linkPreview: boolean | null;
  at: number;
}

/** A message a contact writes: to the account (`from` only) or in a group. */
export interface ContactMessage {
  from: string;
  text: string;
  group?: string;
  name?: string;
  /** Sent by the account itself (WhatsApp echoes it): offerops must ignore it. */
  fromMe?: boolean;
  /** A WhatsApp status update rather than a chat message: offerops must ignore it. */
  status?: boolean;
}

export interface WhatsAppGatewayFake {
  flavor: Flavor;
  url: string;
  /** The Evolution instance or WAHA session it serves. */
  session: string;
  /** Messages sent, in order (a failed request sends nothing). */
  sent: SentMessage[];
  /** Every send request that passed authentication, with its arrival time (ms), failed ones included. */
  requests: { to: string; at: number }[];
  /** The webhook offerops configured: its URL and the secret it authenticates with. */
  webhook: { url: string; secret: string } | null;
  /** The groups the account is in. */
  groups: { id: string; subject: string; size: number }[];
  connected: boolean;
  /** When the session's state was asked for (ms), in order. */
  stateChecks: number[];
  /** WAHA: a PUT of the session restarts it, as WAHA does: STARTING for this long (ms), then as it was. */
  restartMs: number;
  /** The next `count` sends fail with `status` (with `Retry-After: retryAfter` when given). */
  failNext(count: number, status: number, retryAfter?: string): void;
  /** Every send to `to` fails with `status`. */
  failTo(to: string, status: number): void;
  /** The next `count` group lists are answered together, once all `count` are asked for (a busy gateway's burst). */
  answerGroupListsTogether(count: number): void;
  /** Each send answers this late (ms). */
  delayMs: number;
  /** Connects or disconnects the session, telling the webhook as the gateway does; what offerops answered. */
  setConnected(connected: boolean): Promise<WebhookAnswer | null>;
  /** A contact writes: the gateway's message event goes to the webhook; what offerops answered. */
  receive(m: ContactMessage): Promise<WebhookAnswer>;
  /** The last event goes to the webhook again, as a gateway retrying a delivery does. */
  redeliver(): Promise<WebhookAnswer | null>;
  close(): Promise<void>;
}

export interface WebhookAnswer {
  status: number;
  body: unknown;
}

const sameSecret = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += chunk;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const object = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});

/** Evolution's error envelope. */
const evolutionError = (status: number, message: unknown) => ({
  status,
  error: status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : status >= 500 ? 'Internal Server Error' : 'Bad Request',
  response: { message },
});

export async function startWhatsAppGateway(opts: {
  flavor: Flavor;
  apiKey: string;
  session?: string;
  port?: number;
  host?: string;
  /** Told of each message sent and each webhook call (the dev command prints them). */
  log?: (line: Record<string, unknown>) => void;
}): Promise<WhatsAppGatewayFake> {
  const { flavor } = opts;
  const session = opts.session ?? (flavor === 'waha' ? 'default' : 'offerops');
  const log = opts.log ?? (() => undefined);
  const failing = new Map<string, number>();
  let failures = { count: 0, status: 503, retryAfter: undefined as string | undefined };
  let wahaConfig: Record<string, unknown> = {};
  let held: { count: number; waiting: (() => void)[] } = { count: 0, waiting: [] };
  /** Resolves when this group list may be answered: at once, or once the held ones are all asked for. */
  const groupListTurn = (): Promise<void> => {
    if (held.count <= 0) return Promise.resolve();
    const turn = new Promise<void>((go) => held.waiting.push(go));
    if (held.waiting.length === held.count) {
      for (const go of held.waiting) go();
      held = { count: 0, waiting: [] };
    }
    return turn;
  };
  let counter = 0;
  const own = '5511900000000';

  /** POSTs an event to the webhook as the gateway does; null when none is configured. */
  let last: Record<string, unknown> | null = null;
  async function callWebhook(event: Record<string, unknown>): Promise<WebhookAnswer | null> {
    if (!fake.webhook) return null;
    last = event;
    const body = JSON.stringify(event);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (flavor === 'evolution') headers.authorization = `Bearer ${fake.webhook.secret}`;
    else {
      headers['x-webhook-request-id'] = randomBytes(8).toString('hex');
      headers['x-webhook-timestamp'] = String(Date.now());
      headers['x-webhook-hmac'] = createHmac('sha512', fake.webhook.secret).update(body).digest('hex');
      headers['x-webhook-hmac-algorithm'] = 'sha512';
    }
    const res = await fetch(fake.webhook.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: kept as text.
    }
    log({ direction: 'webhook', event: event.event, status: res.status });
    return { status: res.status, body: parsed };
  }

  const stateEvent = () =>
    flavor === 'evolution'
      ? {
          event: 'connection.update',
          instance: session,
          data: { instance: session, state: fake.connected ? 'open' : 'close', statusReason: 200 },
        }
      : { event: 'session.status', session, payload: { name: session, status: fake.connected ? 'WORKING' : 'STOPPED' } };

  function messageEvent(m: ContactMessage): Record<string, unknown> {
    const id = randomBytes(10).toString('hex').toUpperCase();
    const chat = m.status ? 'status@broadcast' : (m.group ?? m.from);
    const at = Math.floor(Date.now() / 1000);
    if (flavor === 'evolution') {
      return {
        event: 'messages.upsert',
        instance: session,
        data: {
          key: { remoteJid: chat, fromMe: m.fromMe ?? false, id, ...(m.group || m.status ? { participant: m.from } : {}) },
          pushName: m.name ?? null,
          message: { conversation: m.text },
          messageType: 'conversation',
          messageTimestamp: at,
          source: 'android',
        },
        date_time: new Date().toISOString(),
        sender: `${own}@s.whatsapp.net`,
        apikey: opts.apiKey,
      };
    }
    return {
      id: `evt_${id}`,
      timestamp: Date.now(),
      event: 'message',
      session,
      me: { id: `${own}@c.us` },
      payload: {
        id: `${m.fromMe ? 'true' : 'false'}_${chat}_${id}`,
        timestamp: at,
        from: m.fromMe ? `${own}@c.us` : chat,
        fromMe: m.fromMe ?? false,
        to: m.fromMe ? chat : `${own}@c.us`,
        ...(m.group || m.status ? { participant: m.from } : {}),
        body: m.text,
        hasMedia: false,
        _data: { notifyName: m.name ?? null },
      },
      engine: 'NOWEB',
    };
  }

  let restartedAt = 0;
  /** WAHA's session status: STARTING while a restart lasts, then WORKING or STOPPED. */
  const wahaStatus = () => (Date.now() < restartedAt + fake.restartMs ? 'STARTING' : fake.connected ? 'WORKING' : 'STOPPED');
  /** Whether the session can send now. */
  const live = () => (flavor === 'waha' ? wahaStatus() === 'WORKING' : fake.connected);

  const fake: WhatsAppGatewayFake = {
    flavor,
    url: '',
    session,
    sent: [],
    requests: [],
    webhook: null,
    groups: [],
    connected: true,
    stateChecks: [],
    restartMs: 0,
    delayMs: 0,
    failNext: (count, status, retryAfter) => {
      failures = { count, status, retryAfter };
    },
    failTo: (to, status) => {
      failing.set(to, status);
    },
    answerGroupListsTogether: (count) => {
      held = { count, waiting: [] };
    },
    setConnected: async (connected) => {
      fake.connected = connected;
      log({ direction: 'state', connected });
      return callWebhook(stateEvent());
    },
    receive: async (m) => {
      const answer = await callWebhook(messageEvent(m));
      if (!answer) throw new Error('no webhook is configured: connect the channel with --public-url first');
      return answer;
    },
    redeliver: () => (last ? callWebhook(last) : Promise.resolve(null)),
    close: async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };

  /** A send request: recorded, then failed as the knobs say, refused when disconnected, or sent. */
  async function send(res: ServerResponse, to: string, text: string, imageUrl: string | null, linkPreview: boolean | null) {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    fake.requests.push({ to, at: Date.now() });
    if (fake.delayMs) await new Promise((r) => setTimeout(r, fake.delayMs));
    if (failures.count > 0) {
      failures.count--;
      if (failures.retryAfter !== undefined) res.setHeader('retry-after', failures.retryAfter);
      return reply(
        failures.status,
        flavor === 'evolution' ? evolutionError(failures.status, ['induced failure']) : { statusCode: failures.status },
      );
    }
    if (!live()) {
      return flavor === 'evolution'
        ? reply(400, evolutionError(400, ['Error: Connection Closed']))
        : reply(422, {
            error: 'Session status is not as expected. Try again later or restart the session',
            session,
            status: wahaStatus(),
            expected: ['WORKING'],
          });
    }
    const refused = failing.get(to);
    if (refused) {
      return reply(
        refused,
        flavor === 'evolution' ? evolutionError(refused, [{ jid: to, exists: false, number: to.split('@')[0] }]) : { statusCode: refused },
      );
    }
    const id = `3EB0${(++counter).toString(16).toUpperCase().padStart(16, '0')}`;
    fake.sent.push({ id, to, text, imageUrl, linkPreview, at: Date.now() });
    log({ direction: 'outbound', id, to, text, image_url: imageUrl });
    const at = Math.floor(Date.now() / 1000);
    if (flavor === 'evolution') {
      return reply(201, {
        key: { remoteJid: to, fromMe: true, id },
        status: 'PENDING',
        message: imageUrl ? { imageMessage: { caption: text } } : { conversation: text },
        messageTimestamp: at,
      });
    }
    return reply(201, { id: `true_${to}_${id}`, timestamp: at, from: `${own}@c.us`, fromMe: true, to, body: text });
  }

  async function evolution(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const match =
      /^\/(message\/sendText|message\/sendMedia|instance\/connectionState|group\/fetchAllGroups|webhook\/set|webhook\/find)\/([^/]+)$/.exec(
        path,
      );
    if (!match) return reply(404, evolutionError(404, ['Not Found']));
    if (!sameSecret(String(req.headers.apikey ?? ''), opts.apiKey)) return reply(401, evolutionError(401, 'Unauthorized'));
    if (decodeURIComponent(match[2]!) !== session) return reply(404, evolutionError(404, [`The "${match[2]}" instance does not exist`]));
    const route = match[1]!;
    if (route === 'instance/connectionState') fake.stateChecks.push(Date.now());
    if (route === 'instance/connectionState')
      return reply(200, { instance: { instanceName: session, state: fake.connected ? 'open' : 'close' } });
    if (route === 'group/fetchAllGroups') {
      await groupListTurn();
      return reply(
        200,
        fake.groups.map((g) => ({ id: g.id, subject: g.subject, size: g.size, announce: false })),
      );
    }
    if (route === 'webhook/find') return reply(200, fake.webhook ? { enabled: true, url: fake.webhook.url } : null);
    const body = await readJson(req);
    if (route === 'webhook/set') {
      const hook = object(body.webhook);
      const header = object(hook.headers).authorization;
      const auth = typeof header === 'string' ? /^Bearer (\S+)$/.exec(header)?.[1] : undefined;
      if (typeof hook.url !== 'string' || !auth)
        return reply(400, evolutionError(400, ['webhook.url and an authorization header are required']));
      fake.webhook = { url: hook.url, secret: auth };
      return reply(201, { webhook: { instanceName: session, webhook: { url: hook.url, events: hook.events, enabled: true } } });
    }
    if (typeof body.number !== 'string') return reply(400, evolutionError(400, ['"number" is required']));
    if (route === 'message/sendText') {
      if (typeof body.text !== 'string' || !body.text.trim()) return reply(400, evolutionError(400, ['Text is required']));
      return send(res, body.number, body.text, null, typeof body.linkPreview === 'boolean' ? body.linkPreview : null);
    }
    if (body.mediatype !== 'image' || typeof body.media !== 'string')
      return reply(400, evolutionError(400, ['mediatype and media are required']));
    return send(res, body.number, typeof body.caption === 'string' ? body.caption : '', body.media, null);
  }

  async function waha(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (!sameSecret(String(req.headers['x-api-key'] ?? ''), opts.apiKey)) return reply(401, { message: 'Unauthorized', statusCode: 401 });
    const sessionPath = /^\/api\/sessions\/([^/]+)$/.exec(path);
    const groupsPath = /^\/api\/([^/]+)\/groups$/.exec(path);
    const named = sessionPath?.[1] ?? groupsPath?.[1];
    if (named !== undefined && decodeURIComponent(named) !== session) return reply(404, { message: 'Session not found', statusCode: 404 });
    if (sessionPath && req.method === 'GET') {
      fake.stateChecks.push(Date.now());
      return reply(200, { name: session, status: wahaStatus(), config: wahaConfig, engine: { engine: 'NOWEB' } });
    }
    if (sessionPath && req.method === 'PUT') {
      wahaConfig = object((await readJson(req)).config);
      const hooks = Array.isArray(wahaConfig.webhooks) ? wahaConfig.webhooks.map(object) : [];
      // The one set last (offerops appends its own to the session's list).
      const ours = hooks.filter((h) => typeof h.url === 'string' && typeof object(h.hmac).key === 'string').at(-1);
      fake.webhook = ours ? { url: ours.url as string, secret: object(ours.hmac).key as string } : null;
      restartedAt = Date.now();
      return reply(200, { name: session, status: wahaStatus(), config: wahaConfig });
    }
    if (groupsPath && req.method === 'GET') {
      await groupListTurn();
      // As the NOWEB engine answers: an object keyed by the group's JID.
      return reply(
        200,
        Object.fromEntries(
          fake.groups.map((g) => [
            g.id,
            { id: g.id, subject: g.subject, participants: Array.from({ length: g.size }, (_, i) => ({ id: `${i}@s.whatsapp.net` })) },
          ]),
        ),
      );
    }
    if (req.method !== 'POST' || (path !== '/api/sendText' && path !== '/api/sendImage'))
      return reply(404, { message: 'Not Found', statusCode: 404 });
    const body = await readJson(req);
    if (body.session !== session) return reply(404, { message: 'Session not found', statusCode: 404 });
    if (typeof body.chatId !== 'string') return reply(400, { message: ['chatId must be a string'], statusCode: 400 });
    if (path === '/api/sendText') {
      if (typeof body.text !== 'string') return reply(400, { message: ['text must be a string'], statusCode: 400 });
      return send(res, body.chatId, body.text, null, typeof body.linkPreview === 'boolean' ? body.linkPreview : null);
    }
    const file = object(body.file);
    if (typeof file.url !== 'string' || typeof file.mimetype !== 'string') {
      return reply(400, { message: ['file.url and file.mimetype are required'], statusCode: 400 });
    }
    return send(res, body.chatId, typeof body.caption === 'string' ? body.caption : '', file.url, null);
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://gateway').pathname;
    (flavor === 'evolution' ? evolution(req, res, path) : waha(req, res, path)).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: String(err) }));
    });
  });
  server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1');
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([err]) => Promise.reject(err as Error))]);
  const host = opts.host ?? '127.0.0.1';
  fake.url = `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`;
  return fake;
}
