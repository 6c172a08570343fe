/**
 * `offerops dev gateway`: a sample chat gateway of our http connector
 * protocol (README "Connecting a chat gateway"), to try publishing on one
 * machine. It answers `POST <any base>/messages` (Bearer token, `{to, text,
 * image_url?, idempotency_key}`) with `{"id": "msg_…"}`, deduplicates on
 * `idempotency_key` as a real gateway must, and prints each new message as
 * one line on stdout (JSON with --json or when stdout is not a terminal). It
 * sends nothing anywhere.
 */
import { once } from 'node:events';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { addressHint } from '../../domain/groups/admin';
import { UsageError } from './errors';

export interface DevServer {
  url: string;
  close(): Promise<void>;
}

/** `--port`: a whole number 0–65535 (0 picks a free port). */
export function portOf(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) throw new UsageError('--port must be a port number (0 picks a free one)');
  return Number(value);
}

const MAX_BODY = 1 << 20;

async function readBody(req: IncomingMessage): Promise<string | null> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function answer(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const sameSecret = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

interface Message {
  to: string;
  text: string;
  image_url?: string;
  idempotency_key: string;
}

/** The message in `text`, or what is wrong with it. */
function messageOf(text: string): Message | string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'the body is not JSON';
  }
  if (typeof body !== 'object' || body === null) return 'the body is not a JSON object';
  const m = body as Record<string, unknown>;
  for (const field of ['to', 'text', 'idempotency_key']) {
    if (typeof m[field] !== 'string' || !m[field]) return `${field} is required (a string)`;
  }
  if (m.image_url !== undefined && typeof m.image_url !== 'string') return 'image_url must be a string';
  return m as unknown as Message;
}

export async function startDevGateway(opts: { port?: string; token?: string; host?: string }, out: { json: boolean }): Promise<DevServer> {
  const port = portOf(opts.port, 9911);
  const host = opts.host ?? '127.0.0.1';
  const sent = new Map<string, string>();
  let count = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://gateway').pathname;
    if (req.method !== 'POST' || !path.endsWith('/messages')) return answer(res, 404, { error: 'POST <base>/messages only' });
    if (opts.token !== undefined && !sameSecret(req.headers.authorization ?? '', `Bearer ${opts.token}`)) {
      return answer(res, 401, { error: 'wrong or missing bearer token' });
    }
    const text = await readBody(req);
    if (text === null) return answer(res, 413, { error: 'body over 1 MiB' });
    const message = messageOf(text);
    if (typeof message === 'string') return answer(res, 400, { error: message });
    const earlier = sent.get(message.idempotency_key);
    if (earlier) return answer(res, 200, { id: earlier, duplicate: true });
    const id = `msg_${++count}`;
    sent.set(message.idempotency_key, id);
    const line = {
      at: new Date().toISOString(),
      id,
      to: addressHint(message.to),
      text: message.text,
      image_url: message.image_url ?? null,
      idempotency_key: message.idempotency_key,
    };
    process.stdout.write(
      out.json
        ? `${JSON.stringify(line)}\n`
        : `${line.at.slice(11, 19)} ${id} to ${line.to} (${line.idempotency_key})${line.image_url ? ` with image ${line.image_url}` : ''}: ${JSON.stringify(line.text)}\n`,
    );
    answer(res, 200, { id });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) answer(res, 500, { error: String(err) });
      else res.end();
    });
  });
  server.listen(port, host);
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([err]) => Promise.reject(err as Error))]);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`;
  process.stderr.write(
    [
      `offerops dev gateway listening on ${url} (Ctrl-C stops it)`,
      opts.token === undefined ? '  token: any bearer token is accepted (--token T to require one)' : '  token: the one given with --token',
      '  connect it to an account:',
      `    npx offerops admin channel connect --account ACC --type http --url ${url} --token ${opts.token === undefined ? 'T' : '<the token>'}`,
      '  each message it receives is printed below, one a line (the address shortened)',
      '',
    ].join('\n'),
  );
  return {
    url,
    close: async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}
