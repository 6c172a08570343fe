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
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
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

interface GatewayOptions {
  flavor: Flavor;
  apiKey: string;
  session?: string;
  port?: number;
  host?: string;
  /** Told of each message sent and each webhook call (the dev command prints them). */
  log?: (line: Record<string, unknown>) => void;
}

/** The account's own WhatsApp number. */
const OWN = '5511900000000';

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** One fake gateway: what a test sees and steers (`fake`), what it keeps to itself, and its two flavors' routes. */
class Gateway {
  readonly flavor: Flavor;
  readonly session: string;
  readonly log: (line: Record<string, unknown>) => void;
  readonly fake: WhatsAppGatewayFake;
  readonly server: Server;
  /** Every send to one of these addresses fails with its status. */
  private readonly failing = new Map<string, number>();
  /** The next `count` sends fail. */
  private failures = { count: 0, status: 503, retryAfter: undefined as string | undefined };
  /** WAHA: the session's config as last PUT. */
  private wahaConfig: Record<string, unknown> = {};
  /** Group lists held until `count` of them are asked for. */
  private held: { count: number; waiting: (() => void)[] } = { count: 0, waiting: [] };
  /** Numbers the messages sent. */
  private counter = 0;
  /** The last event sent to the webhook, for `redeliver`. */
  private last: Record<string, unknown> | null = null;
  /** WAHA: when the session was last restarted (ms). */
  private restartedAt = 0;

  constructor(private readonly opts: GatewayOptions) {
    this.flavor = opts.flavor;
    this.session = opts.session ?? (opts.flavor === 'waha' ? 'default' : 'offerops');
    this.log = opts.log ?? (() => undefined);
    this.fake = this.fakeOf();
    this.server = createServer((req, res) => this.handle(req, res));
  }

  private fakeOf(): WhatsAppGatewayFake {
    return {
      flavor: this.flavor,
      url: '',
      session: this.session,
      sent: [],
      requests: [],
      webhook: null,
      groups: [],
      connected: true,
      stateChecks: [],
      restartMs: 0,
      delayMs: 0,
      failNext: (count, status, retryAfter) => {
        this.failures = { count, status, retryAfter };
      },
      failTo: (to, status) => {
        this.failing.set(to, status);
      },
      answerGroupListsTogether: (count) => {
        this.held = { count, waiting: [] };
      },
      setConnected: async (connected) => {
        this.fake.connected = connected;
        this.log({ direction: 'state', connected });
        return this.callWebhook(this.stateEvent());
      },
      receive: async (m) => {
        const answer = await this.callWebhook(this.messageEvent(m));
        if (!answer) throw new Error('no webhook is configured: connect the channel with --public-url first');
        return answer;
      },
      redeliver: () => (this.last ? this.callWebhook(this.last) : Promise.resolve(null)),
      close: async () => {
        this.server.closeAllConnections();
        await new Promise((done) => this.server.close(done));
      },
    };
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = new URL(req.url ?? '/', 'http://gateway').pathname;
    (this.flavor === 'evolution' ? this.evolution(req, res, path) : this.waha(req, res, path)).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: String(err) }));
    });
  }

  /** Resolves when this group list may be answered: at once, or once the held ones are all asked for. */
  private groupListTurn(): Promise<void> {
    if (this.held.count <= 0) return Promise.resolve();
    const turn = new Promise<void>((go) => this.held.waiting.push(go));
    if (this.held.waiting.length === this.held.count) {
      for (const go of this.held.waiting) go();
      this.held = { count: 0, waiting: [] };
    }
    return turn;
  }

  /** How the gateway authenticates a webhook call: Evolution with the configured header, WAHA signing the body. */
  private webhookHeaders(secret: string, body: string): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.flavor === 'evolution') headers.authorization = `Bearer ${secret}`;
    else {
      headers['x-webhook-request-id'] = randomBytes(8).toString('hex');
      headers['x-webhook-timestamp'] = String(Date.now());
      headers['x-webhook-hmac'] = createHmac('sha512', secret).update(body).digest('hex');
      headers['x-webhook-hmac-algorithm'] = 'sha512';
    }
    return headers;
  }

  /** POSTs an event to the webhook as the gateway does; null when none is configured. */
  private async callWebhook(event: Record<string, unknown>): Promise<WebhookAnswer | null> {
    const { webhook } = this.fake;
    if (!webhook) return null;
    this.last = event;
    const body = JSON.stringify(event);
    const headers = this.webhookHeaders(webhook.secret, body);
    const res = await fetch(webhook.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: kept as text.
    }
    this.log({ direction: 'webhook', event: event.event, status: res.status });
    return { status: res.status, body: parsed };
  }

  /** The session's state as the gateway tells its webhook. */
  private stateEvent(): Record<string, unknown> {
    const { session } = this;
    return this.flavor === 'evolution'
      ? {
          event: 'connection.update',
          instance: session,
          data: { instance: session, state: this.fake.connected ? 'open' : 'close', statusReason: 200 },
        }
      : { event: 'session.status', session, payload: { name: session, status: this.fake.connected ? 'WORKING' : 'STOPPED' } };
  }

  /** A contact's message as the gateway tells its webhook. */
  private messageEvent(m: ContactMessage): Record<string, unknown> {
    const id = randomBytes(10).toString('hex').toUpperCase();
    const chat = m.status ? 'status@broadcast' : (m.group ?? m.from);
    const at = Math.floor(Date.now() / 1000);
    return this.flavor === 'evolution' ? this.evolutionMessage(m, id, chat, at) : this.wahaMessage(m, id, chat, at);
  }

  private evolutionMessage(m: ContactMessage, id: string, chat: string, at: number): Record<string, unknown> {
    return {
      event: 'messages.upsert',
      instance: this.session,
      data: {
        key: { remoteJid: chat, fromMe: m.fromMe ?? false, id, ...(m.group || m.status ? { participant: m.from } : {}) },
        pushName: m.name ?? null,
        message: { conversation: m.text },
        messageType: 'conversation',
        messageTimestamp: at,
        source: 'android',
      },
      date_time: new Date().toISOString(),
      sender: `${OWN}@s.whatsapp.net`,
      apikey: this.opts.apiKey,
    };
  }

  private wahaMessage(m: ContactMessage, id: string, chat: string, at: number): Record<string, unknown> {
    return {
      id: `evt_${id}`,
      timestamp: Date.now(),
      event: 'message',
      session: this.session,
      me: { id: `${OWN}@c.us` },
      payload: {
        id: `${m.fromMe ? 'true' : 'false'}_${chat}_${id}`,
        timestamp: at,
        from: m.fromMe ? `${OWN}@c.us` : chat,
        fromMe: m.fromMe ?? false,
        to: m.fromMe ? chat : `${OWN}@c.us`,
        ...(m.group || m.status ? { participant: m.from } : {}),
        body: m.text,
        hasMedia: false,
        _data: { notifyName: m.name ?? null },
      },
      engine: 'NOWEB',
    };
  }

  /** WAHA's session status: STARTING while a restart lasts, then WORKING or STOPPED. */
  private wahaStatus(): string {
    return Date.now() < this.restartedAt + this.fake.restartMs ? 'STARTING' : this.fake.connected ? 'WORKING' : 'STOPPED';
  }

  /** Whether the session can send now. */
  private live(): boolean {
    return this.flavor === 'waha' ? this.wahaStatus() === 'WORKING' : this.fake.connected;
  }

  /** Answers a send that fails as the knobs say, that a session not connected refuses, or that `to` refuses; false when it goes. */
  private refused(res: ServerResponse, to: string): boolean {
    const evolution = this.flavor === 'evolution';
    const { failures } = this;
    if (failures.count > 0) {
      failures.count--;
      if (failures.retryAfter !== undefined) res.setHeader('retry-after', failures.retryAfter);
      reply(res, failures.status, evolution ? evolutionError(failures.status, ['induced failure']) : { statusCode: failures.status });
      return true;
    }
    if (!this.live()) {
      if (evolution) reply(res, 400, evolutionError(400, ['Error: Connection Closed']));
      else {
        const error = 'Session status is not as expected. Try again later or restart the session';
        reply(res, 422, { error, session: this.session, status: this.wahaStatus(), expected: ['WORKING'] });
      }
      return true;
    }
    const status = this.failing.get(to);
    if (!status) return false;
    reply(res, status, evolution ? evolutionError(status, [{ jid: to, exists: false, number: to.split('@')[0] }]) : { statusCode: status });
    return true;
  }

  /** A send request: recorded, then failed as the knobs say, refused when disconnected, or sent. */
  private async send(res: ServerResponse, to: string, text: string, imageUrl: string | null, linkPreview: boolean | null): Promise<void> {
    this.fake.requests.push({ to, at: Date.now() });
    if (this.fake.delayMs) await new Promise((r) => setTimeout(r, this.fake.delayMs));
    if (this.refused(res, to)) return;
    const id = `3EB0${(++this.counter).toString(16).toUpperCase().padStart(16, '0')}`;
    this.fake.sent.push({ id, to, text, imageUrl, linkPreview, at: Date.now() });
    this.log({ direction: 'outbound', id, to, text, image_url: imageUrl });
    const at = Math.floor(Date.now() / 1000);
    if (this.flavor === 'evolution') {
      return reply(res, 201, {
        key: { remoteJid: to, fromMe: true, id },
        status: 'PENDING',
        message: imageUrl ? { imageMessage: { caption: text } } : { conversation: text },
        messageTimestamp: at,
      });
    }
    return reply(res, 201, { id: `true_${to}_${id}`, timestamp: at, from: `${OWN}@c.us`, fromMe: true, to, body: text });
  }

  private async evolution(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const match =
      /^\/(message\/sendText|message\/sendMedia|instance\/connectionState|group\/fetchAllGroups|webhook\/set|webhook\/find)\/([^/]+)$/.exec(
        path,
      );
    if (!match) return reply(res, 404, evolutionError(404, ['Not Found']));
    if (!sameSecret(String(req.headers.apikey ?? ''), this.opts.apiKey)) return reply(res, 401, evolutionError(401, 'Unauthorized'));
    if (decodeURIComponent(match[2]!) !== this.session)
      return reply(res, 404, evolutionError(404, [`The "${match[2]}" instance does not exist`]));
    const route = match[1]!;
    if (route === 'instance/connectionState') {
      this.fake.stateChecks.push(Date.now());
      return reply(res, 200, { instance: { instanceName: this.session, state: this.fake.connected ? 'open' : 'close' } });
    }
    if (route === 'group/fetchAllGroups') {
      await this.groupListTurn();
      return reply(
        res,
        200,
        this.fake.groups.map((g) => ({ id: g.id, subject: g.subject, size: g.size, announce: false })),
      );
    }
    if (route === 'webhook/find') return reply(res, 200, this.fake.webhook ? { enabled: true, url: this.fake.webhook.url } : null);
    const body = await readJson(req);
    if (route === 'webhook/set') return this.evolutionWebhook(res, body);
    return this.evolutionSend(res, route, body);
  }

  /** Evolution's `webhook/set`: the URL, and the bearer token of its authorization header as the secret. */
  private evolutionWebhook(res: ServerResponse, body: Record<string, unknown>): void {
    const hook = object(body.webhook);
    const header = object(hook.headers).authorization;
    const auth = typeof header === 'string' ? /^Bearer (\S+)$/.exec(header)?.[1] : undefined;
    if (typeof hook.url !== 'string' || !auth)
      return reply(res, 400, evolutionError(400, ['webhook.url and an authorization header are required']));
    this.fake.webhook = { url: hook.url, secret: auth };
    reply(res, 201, { webhook: { instanceName: this.session, webhook: { url: hook.url, events: hook.events, enabled: true } } });
  }

  /** Evolution's `message/sendText` and `message/sendMedia` (an image). */
  private async evolutionSend(res: ServerResponse, route: string, body: Record<string, unknown>): Promise<void> {
    if (typeof body.number !== 'string') return reply(res, 400, evolutionError(400, ['"number" is required']));
    if (route === 'message/sendText') {
      if (typeof body.text !== 'string' || !body.text.trim()) return reply(res, 400, evolutionError(400, ['Text is required']));
      return this.send(res, body.number, body.text, null, typeof body.linkPreview === 'boolean' ? body.linkPreview : null);
    }
    if (body.mediatype !== 'image' || typeof body.media !== 'string')
      return reply(res, 400, evolutionError(400, ['mediatype and media are required']));
    return this.send(res, body.number, typeof body.caption === 'string' ? body.caption : '', body.media, null);
  }

  private async waha(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (!sameSecret(String(req.headers['x-api-key'] ?? ''), this.opts.apiKey))
      return reply(res, 401, { message: 'Unauthorized', statusCode: 401 });
    const sessionPath = /^\/api\/sessions\/([^/]+)$/.exec(path);
    const groupsPath = /^\/api\/([^/]+)\/groups$/.exec(path);
    const named = sessionPath?.[1] ?? groupsPath?.[1];
    if (named !== undefined && decodeURIComponent(named) !== this.session)
      return reply(res, 404, { message: 'Session not found', statusCode: 404 });
    if (sessionPath && req.method === 'GET') {
      this.fake.stateChecks.push(Date.now());
      return reply(res, 200, { name: this.session, status: this.wahaStatus(), config: this.wahaConfig, engine: { engine: 'NOWEB' } });
    }
    if (sessionPath && req.method === 'PUT') return this.wahaRestart(res, await readJson(req));
    if (groupsPath && req.method === 'GET') return this.wahaGroups(res);
    if (req.method !== 'POST' || (path !== '/api/sendText' && path !== '/api/sendImage'))
      return reply(res, 404, { message: 'Not Found', statusCode: 404 });
    return this.wahaSend(res, path, await readJson(req));
  }

  /** WAHA's PUT of the session: its config (and so our webhook) replaced, and the session restarted. */
  private wahaRestart(res: ServerResponse, body: Record<string, unknown>): void {
    this.wahaConfig = object(body.config);
    const hooks = Array.isArray(this.wahaConfig.webhooks) ? this.wahaConfig.webhooks.map(object) : [];
    // The one set last (offerops appends its own to the session's list).
    const ours = hooks.filter((h) => typeof h.url === 'string' && typeof object(h.hmac).key === 'string').at(-1);
    this.fake.webhook = ours ? { url: ours.url as string, secret: object(ours.hmac).key as string } : null;
    this.restartedAt = Date.now();
    reply(res, 200, { name: this.session, status: this.wahaStatus(), config: this.wahaConfig });
  }

  /** WAHA's group list, as the NOWEB engine answers: an object keyed by the group's JID. */
  private async wahaGroups(res: ServerResponse): Promise<void> {
    await this.groupListTurn();
    const participants = (size: number) => Array.from({ length: size }, (_, i) => ({ id: `${i}@s.whatsapp.net` }));
    reply(
      res,
      200,
      Object.fromEntries(this.fake.groups.map((g) => [g.id, { id: g.id, subject: g.subject, participants: participants(g.size) }])),
    );
  }

  /** WAHA's `sendText` and `sendImage`. */
  private async wahaSend(res: ServerResponse, path: string, body: Record<string, unknown>): Promise<void> {
    if (body.session !== this.session) return reply(res, 404, { message: 'Session not found', statusCode: 404 });
    if (typeof body.chatId !== 'string') return reply(res, 400, { message: ['chatId must be a string'], statusCode: 400 });
    if (path === '/api/sendText') {
      if (typeof body.text !== 'string') return reply(res, 400, { message: ['text must be a string'], statusCode: 400 });
      return this.send(res, body.chatId, body.text, null, typeof body.linkPreview === 'boolean' ? body.linkPreview : null);
    }
    const file = object(body.file);
    if (typeof file.url !== 'string' || typeof file.mimetype !== 'string') {
      return reply(res, 400, { message: ['file.url and file.mimetype are required'], statusCode: 400 });
    }
    return this.send(res, body.chatId, typeof body.caption === 'string' ? body.caption : '', file.url, null);
  }
}

export async function startWhatsAppGateway(opts: GatewayOptions): Promise<WhatsAppGatewayFake> {
  const { server, fake } = new Gateway(opts);
  const host = opts.host ?? '127.0.0.1';
  server.listen(opts.port ?? 0, host);
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([err]) => Promise.reject(err as Error))]);
  fake.url = `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`;
  return fake;
}
