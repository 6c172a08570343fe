/**
 * A chat gateway speaking our http connector protocol, as a real HTTP server
 * on 127.0.0.1: checks the bearer token, deduplicates on `idempotency_key`
 * (as the protocol requires of gateways) and records what each destination
 * received. Knobs make it fail or slow down.
 */
import { once } from 'node:events';
import { createServer, IncomingMessage } from 'node:http';
import { AddressInfo } from 'node:net';
import { listener } from './listener';

export interface GatewayMessage {
  to: string;
  text: string;
  image_url?: string;
  idempotency_key: string;
}

export interface FakeGateway {
  url: string;
  /** Messages delivered (after deduplication), all or to one destination. */
  messages(to?: string): GatewayMessage[];
  /** Every valid request received (with its arrival time, ms), duplicates and failures included. */
  requests: (GatewayMessage & { at: number })[];
  /**
   * The next `count` requests fail with `status`, with `Retry-After:
   * retryAfter` (a 429 says 1 s unless told otherwise; null: no header).
   */
  failNext(count: number, status: number, retryAfter?: string | null): void;
  /** Every request to `to` fails with `status` (e.g. 400: a permanent refusal). */
  failTo(to: string, status: number): void;
  /** Each response waits this long (ms). */
  delayMs: number;
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

export async function startFakeGateway(opts: { token: string }): Promise<FakeGateway> {
  const delivered = new Map<string, GatewayMessage>();
  const failing = new Map<string, number>();
  let failures: { count: number; status: number; retryAfter: string | null } = { count: 0, status: 503, retryAfter: null };
  const gateway: FakeGateway = {
    url: '',
    requests: [],
    delayMs: 0,
    messages: (to) => [...delivered.values()].filter((m) => to === undefined || m.to === to),
    failNext: (count, status, retryAfter) => {
      // A real gateway that throttles says for how long.
      failures = { count, status, retryAfter: retryAfter === undefined ? (status === 429 ? '1' : null) : retryAfter };
    },
    failTo: (to, status) => {
      failing.set(to, status);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = createServer(
    listener(async (req, res) => {
      // When the request arrived, before its body is read (the test process may be busy meanwhile).
      const at = Date.now();
      const reply = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.method !== 'POST' || req.url !== '/messages') return reply(404, { error: 'not found' });
      if (req.headers.authorization !== `Bearer ${opts.token}`) return reply(401, { error: 'bad token' });
      let message: GatewayMessage;
      try {
        message = JSON.parse(await body(req)) as GatewayMessage;
      } catch {
        return reply(400, { error: 'not JSON' });
      }
      const valid =
        typeof message?.to === 'string' &&
        typeof message.text === 'string' &&
        typeof message.idempotency_key === 'string' &&
        (message.image_url === undefined || typeof message.image_url === 'string');
      if (!valid) return reply(400, { error: 'to, text and idempotency_key are required' });
      gateway.requests.push({ ...message, at });
      if (gateway.delayMs) await new Promise((r) => setTimeout(r, gateway.delayMs));
      if (failures.count > 0) {
        failures.count--;
        if (failures.retryAfter !== null) res.setHeader('retry-after', failures.retryAfter);
        return reply(failures.status, { error: 'induced failure' });
      }
      const permanent = failing.get(message.to);
      if (permanent) return reply(permanent, { error: 'destination refused' });
      if (!delivered.has(message.idempotency_key)) delivered.set(message.idempotency_key, message);
      reply(200, { id: `msg-${message.idempotency_key}` });
    }),
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  gateway.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return gateway;
}
