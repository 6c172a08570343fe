/**
 * `offerops dev gateway`: a sample chat gateway of our http connector
 * protocol (docs/guides/publishing.md), to try publishing on one
 * machine. It answers `POST <any base>/messages` (Bearer token, `{to, text,
 * image_url?, idempotency_key}`) with `{"id": "msg_…"}`, deduplicates on
 * `idempotency_key` as a real gateway must, and prints each new message as
 * one line on stdout (JSON with --json or when stdout is not a terminal).
 *
 * The inbound half: with `--inbound-url` (the API's `/inbound/{channel_id}`)
 * and `--inbound-secret` (the channel's `oo_in_…`), it plays a contact
 * writing to the account. `POST <base>/incoming` with `{from, text, name?,
 * group?, media_urls?}`, or a line `FROM TEXT…` on stdin, makes it POST that
 * message to offerops as a real gateway would (a new message id each time)
 * and print what it sent and what offerops answered. It sends nothing else.
 *
 * With `--flavor evolution|waha` it plays a WhatsApp gateway instead
 * (./whatsapp-gateway.ts): Evolution API's or WAHA's endpoints, its API key
 * (`--token`), and the webhook offerops sets on it (`admin channel connect
 * --public-url`), to which a line `FROM TEXT…` (or `GROUP FROM TEXT…`) on
 * stdin goes as a contact's message, and `/disconnect` or `/connect` as the
 * session's state.
 */
import { once } from 'node:events';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { createInterface } from 'node:readline';
import { addressHint } from '../../domain/operator/groups';
import { UsageError } from './errors';
import { Flavor, FLAVORS, startWhatsAppGateway } from './whatsapp-gateway';

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

/** A message a contact writes, to be sent to offerops' inbound endpoint. */
interface Incoming {
  from: string;
  text?: string;
  name?: string;
  group?: string;
  media_urls?: string[];
}

const INCOMING_FIELDS = new Set(['from', 'text', 'name', 'group', 'media_urls']);

/** The incoming message in `text`, or what is wrong with it. */
function incomingOf(text: string): Incoming | string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'the body is not JSON';
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body is not a JSON object';
  const m = body as Record<string, unknown>;
  const unknown = Object.keys(m).find((k) => !INCOMING_FIELDS.has(k));
  if (unknown) return `unknown field ${unknown} (from, text, name, group, media_urls)`;
  if (typeof m.from !== 'string' || !m.from) return 'from is required (the sender address, e.g. 5511987654321@s.whatsapp.net)';
  for (const field of ['text', 'name', 'group']) if (m[field] !== undefined && typeof m[field] !== 'string') return `${field} must be a string`;
  if (m.media_urls !== undefined && (!Array.isArray(m.media_urls) || !m.media_urls.every((u) => typeof u === 'string'))) {
    return 'media_urls must be a list of URLs';
  }
  if (m.text === undefined && m.media_urls === undefined) return 'text (or media_urls) is required';
  return m as unknown as Incoming;
}

/** A stdin line `FROM TEXT…` as an incoming message. */
function incomingLine(line: string): Incoming | string {
  const match = /^\s*(\S+)\s+(.+?)\s*$/.exec(line);
  return match ? { from: match[1]!, text: match[2]! } : 'type a line FROM TEXT, e.g. 5511987654321@s.whatsapp.net Oi, tudo bem?';
}

/** `--inbound-url`: an http(s) URL (the API's /inbound/{channel_id}). */
function inboundUrlOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError('--inbound-url must be a URL, e.g. http://127.0.0.1:8080/inbound/chn_…');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('--inbound-url must be an http(s) URL');
  return url.toString();
}

/** A stdin line for the WhatsApp flavors: `/connect`, `/disconnect`, or a message `[GROUP@g.us] FROM TEXT…`. */
function whatsappLine(line: string): { connected: boolean } | { group?: string; from: string; text: string } | string {
  const command = line.trim();
  if (command === '/connect' || command === '/disconnect') return { connected: command === '/connect' };
  const match = /^\s*(?:(\S+@g\.us)\s+)?(\S+)\s+(.+?)\s*$/.exec(line);
  if (!match) return 'type FROM TEXT (or GROUP@g.us FROM TEXT), /disconnect or /connect';
  return { ...(match[1] ? { group: match[1] } : {}), from: match[2]!, text: match[3]! };
}

/** The groups the stand-in's WhatsApp account is in. */
const SAMPLE_GROUPS = [
  { id: '120363000000000001@g.us', subject: 'Ofertas Cozinha', size: 250 },
  { id: '120363000000000002@g.us', subject: 'Ofertas Casa', size: 180 },
  { id: '120363000000000003@g.us', subject: 'Ofertas Tech', size: 95 },
];

/** `--flavor evolution|waha`: a WhatsApp gateway stand-in, printing what it sends and what offerops answers. */
async function startDevWhatsApp(
  flavor: Flavor,
  opts: { port?: string; token?: string; host?: string; instance?: string },
  out: { json: boolean; input?: NodeJS.ReadableStream },
): Promise<DevServer> {
  const apiKey = opts.token ?? 'dev-api-key';
  const print = (line: Record<string, unknown>) => {
    const shown = { at: new Date().toISOString(), ...line, ...(typeof line.to === 'string' ? { to: addressHint(line.to) } : {}) };
    process.stdout.write(
      out.json
        ? `${JSON.stringify(shown)}\n`
        : `${shown.at.slice(11, 19)} ${Object.entries(line)
            .filter(([k]) => k !== 'to')
            .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
            .join(' ')}${shown.to ? ` to=${String(shown.to)}` : ''}\n`,
    );
  };
  const gateway = await startWhatsAppGateway({
    flavor,
    apiKey,
    ...(opts.instance ? { session: opts.instance } : {}),
    port: portOf(opts.port, 9911),
    host: opts.host ?? '127.0.0.1',
    log: print,
  });
  // The WhatsApp account it plays is in a few groups, for `admin channel groups` to discover and import.
  gateway.groups.push(...SAMPLE_GROUPS);
  const product = flavor === 'evolution' ? 'an Evolution API' : 'a WAHA';
  process.stderr.write(
    [
      `offerops dev gateway: ${product} stand-in listening on ${gateway.url} (${flavor === 'evolution' ? 'instance' : 'session'} ${gateway.session}; Ctrl-C stops it)`,
      `  its WhatsApp account is in ${SAMPLE_GROUPS.length} groups: ${SAMPLE_GROUPS.map((g) => g.subject).join(', ')}`,
      `  API key: ${opts.token === undefined ? `${apiKey} (--token K for another)` : 'the one given with --token'}`,
      '  connect it to an account, its webhook pointed at the API:',
      `    npx offerops admin channel connect --account ACC --type ${flavor} --url ${gateway.url} --token ${opts.token === undefined ? apiKey : '<the key>'} --instance ${gateway.session} --public-url http://127.0.0.1:8080`,
      '  each message it sends is printed below, one a line (the address shortened)',
      '  a contact writing: type FROM TEXT (or GROUP@g.us FROM TEXT) here; /disconnect and /connect change the session state',
      '',
    ].join('\n'),
  );
  const lines = out.input ? createInterface({ input: out.input }) : null;
  lines?.on('line', (line) => {
    if (!line.trim()) return;
    const m = whatsappLine(line);
    if (typeof m === 'string') {
      process.stderr.write(`${m}\n`);
      return;
    }
    const sent = 'connected' in m ? gateway.setConnected(m.connected) : gateway.receive(m);
    sent.then(
      (answer) => print({ direction: 'webhook answer', status: answer?.status ?? null, body: answer?.body ?? 'no webhook set yet' }),
      (err: unknown) => process.stderr.write(`${(err as Error).message}\n`),
    );
  });
  return {
    url: gateway.url,
    close: async () => {
      lines?.close();
      await gateway.close();
    },
  };
}

export async function startDevGateway(
  opts: { port?: string; token?: string; host?: string; flavor?: string; instance?: string; 'inbound-url'?: string; 'inbound-secret'?: string },
  out: { json: boolean; input?: NodeJS.ReadableStream },
): Promise<DevServer> {
  if (opts.flavor !== undefined && opts.flavor !== 'http') {
    if (!(FLAVORS as readonly string[]).includes(opts.flavor)) throw new UsageError('--flavor must be http, evolution or waha');
    if (opts['inbound-url'] !== undefined)
      throw new UsageError('--inbound-url is for the http flavor: a WhatsApp gateway uses the webhook offerops sets');
    return startDevWhatsApp(opts.flavor as Flavor, opts, out);
  }
  if (opts.instance !== undefined) throw new UsageError('--instance is for --flavor evolution or waha');
  const port = portOf(opts.port, 9911);
  const host = opts.host ?? '127.0.0.1';
  const inboundUrl = inboundUrlOf(opts['inbound-url']);
  if ((inboundUrl === undefined) !== (opts['inbound-secret'] === undefined)) {
    throw new UsageError('--inbound-url and --inbound-secret go together (both from admin channel connect)');
  }
  const sent = new Map<string, string>();
  let count = 0;
  let incoming = 0;

  /** POSTs `m` to offerops as the gateway's inbound half, prints it and the answer; the answer. */
  async function forward(m: Incoming): Promise<{ status: number; body: unknown }> {
    const id = `dev.${Date.now()}.${++incoming}`;
    let status = 0;
    let body: unknown;
    try {
      const res = await fetch(inboundUrl!, {
        method: 'POST',
        headers: { authorization: `Bearer ${opts['inbound-secret']!}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id, ...m }),
        signal: AbortSignal.timeout(10_000),
      });
      status = res.status;
      const text = await res.text();
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    } catch (err) {
      body = { error: `offerops could not be reached: ${(err as Error).message}` };
    }
    const data = (body as { data?: { message_id?: string; conversation_id?: string } } | undefined)?.data;
    const line = {
      at: new Date().toISOString(),
      direction: 'inbound',
      id,
      from: addressHint(m.from),
      ...(m.group ? { group: addressHint(m.group) } : {}),
      text: m.text ?? null,
      status,
      message_id: data?.message_id ?? null,
      conversation_id: data?.conversation_id ?? null,
    };
    const outcome = data ? `${data.message_id} in ${data.conversation_id}` : JSON.stringify(body);
    process.stdout.write(
      out.json
        ? `${JSON.stringify(line)}\n`
        : `${line.at.slice(11, 19)} sent to offerops ${id} from ${line.from}${line.group ? ` in ${line.group}` : ''}: ${JSON.stringify(line.text)} → ${status || 'no answer'} ${outcome}\n`,
    );
    return { status, body };
  }

  const authorized = (req: IncomingMessage) => opts.token === undefined || sameSecret(req.headers.authorization ?? '', `Bearer ${opts.token}`);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://gateway').pathname;
    const isIncoming = path.endsWith('/incoming');
    if (req.method !== 'POST' || !(path.endsWith('/messages') || isIncoming)) {
      return answer(res, 404, { error: 'POST <base>/messages (a message to send) or <base>/incoming (a message a contact sends) only' });
    }
    if (!authorized(req)) return answer(res, 401, { error: 'wrong or missing bearer token' });
    const text = await readBody(req);
    if (text === null) return answer(res, 413, { error: 'body over 1 MiB' });
    if (isIncoming) {
      if (!inboundUrl)
        return answer(res, 409, { error: 'start the gateway with --inbound-url and --inbound-secret to send messages to offerops' });
      const m = incomingOf(text);
      if (typeof m === 'string') return answer(res, 400, { error: m });
      const { status, body } = await forward(m);
      return answer(res, status === 0 ? 502 : 200, { offerops_status: status, offerops_answer: body });
    }
    const message = messageOf(text);
    if (typeof message === 'string') return answer(res, 400, { error: message });
    const earlier = sent.get(message.idempotency_key);
    if (earlier) return answer(res, 200, { id: earlier, duplicate: true });
    const id = `msg_${++count}`;
    sent.set(message.idempotency_key, id);
    const line = {
      at: new Date().toISOString(),
      direction: 'outbound',
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
      ...(inboundUrl
        ? [
            `  a contact writing to offerops: type a line FROM TEXT here, or`,
            `    curl -s ${url}/incoming${opts.token === undefined ? '' : ` -H 'Authorization: Bearer ${opts.token}'`} -d '{"from": "5511987654321@s.whatsapp.net", "name": "Ana", "text": "Oi!"}'`,
            `  it goes to ${inboundUrl}`,
          ]
        : ['  (--inbound-url and --inbound-secret let it send offerops messages as if a contact wrote them)']),
      '',
    ].join('\n'),
  );
  const lines = inboundUrl && out.input ? createInterface({ input: out.input }) : null;
  lines?.on('line', (line) => {
    if (!line.trim()) return;
    const m = incomingLine(line);
    if (typeof m === 'string') process.stderr.write(`${m}\n`);
    else void forward(m);
  });
  return {
    url,
    close: async () => {
      lines?.close();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}
