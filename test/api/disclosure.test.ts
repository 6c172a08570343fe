/**
 * Issue 10, disclosure: phone numbers, e-mails and channel addresses of
 * people never leave the connector path. A whole run — inbound messages (a
 * direct one, one from a group, one from an e-mail address, Telegram updates
 * from a user and a group chat, WhatsApp messages through Evolution API and
 * WAHA from a person and in a group), the inbox read
 * side, PATCH and close, replies delivered or refused by the gateway, a
 * journey (welcome message, tag, assign, an http call carrying its event) run
 * on each new conversation — with a webhook subscribed to every event kind (a
 * real HTTPS receiver); then every
 * API response, every stored document (the sealed `addresses` apart), every
 * webhook request received, the API's and the worker's log output and the
 * Temporal histories of the run's workflows are searched for the address
 * strings. The gateways and the Bot API, which must receive them, are the positive control.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { WorkflowNotFoundError } from '@temporalio/client';
import { closeApp, createApp, flushRequestLog } from '../../api/app';
import { connectChannel } from '../../domain/channels/service';
import { secretKeyFromEnv } from '../../domain/sealing';
import { deliveryWorkflowId, dispatchWorkflowId, replyWorkflowId } from '../../temporal/names';
import { ApiClient, CallOptions, Reply } from '../helpers/client';
import { FakeGateway, startFakeGateway } from '../helpers/fake-gateway';
import { FakeTelegram, startFakeTelegram } from '../helpers/fake-telegram';
import { connectTo, startTestGateway, TestGateway } from '../helpers/gateways';
import { HttpsReceiver, startHttpsReceiver } from '../helpers/https-receiver';
import { setAccountRateLimit } from '../../domain/accounts/store';
import { seedTenant, startTestApp, TestApp } from '../helpers/stack';
import { startTestWorker, workerLog } from '../helpers/worker';
import { waitFor } from '../helpers/wait';
import { deliveriesState, messagesState, recordOf } from '../helpers/states';

const PHONE = '5511987654321@s.whatsapp.net';
const GROUP = '120363099887766554@g.us';
const EMAIL = 'ana.souza@example.com';
/** A Telegram user and group chat (their ids are their addresses). */
const TG_USER = 7771234569;
const TG_GROUP = -1009876543210;
/** People and groups as each WhatsApp gateway names them (Evolution API `…@s.whatsapp.net`, WAHA `…@c.us`). */
const WHATSAPP = {
  evolution: { person: '5521976543210@s.whatsapp.net', group: '120363055544433322@g.us' },
  waha: { person: '5531965432109@c.us', group: '120363066677788899@g.us' },
} as const;
/** What must appear nowhere: each address, and the digits or local part that identify it alone. */
const NEEDLES = [
  PHONE,
  '5511987654321',
  '987654321',
  GROUP,
  '120363099887766554',
  EMAIL,
  'ana.souza',
  String(TG_USER),
  '9876543210',
  ...Object.values(WHATSAPP).flatMap(({ person, group }) => [person, person.split('@')[0]!, person.slice(4, 13), group, group.split('@')[0]!]),
];

const taskQueue = `test-disclosure-${randomBytes(4).toString('hex')}`;
let base: TestApp;
let app: ReturnType<typeof createApp>;
let server: Server;
let origin: string;
let worker: { stop(): Promise<void> };
let gateway: FakeGateway;
let receiver: HttpsReceiver;
let telegram: FakeTelegram;
let whatsapp: TestGateway[];
const apiLog: string[] = [];
/** Every API answer of the run: status line, headers and body. */
const answers: string[] = [];

before(async () => {
  base = await startTestApp({ taskQueue, webhookAllow: ['127.0.0.1'] });
  // The app under test logs everything it logs, at every level, into `apiLog`.
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      apiLog.push(chunk.toString());
      done();
    },
  });
  app = createApp({
    db: base.db,
    secretKey: secretKeyFromEnv(),
    temporal: { ...base.temporal, taskQueue },
    logger: pino({ level: 'trace' }, sink),
    webhookAllow: ['127.0.0.1'],
  });
  const handle = app.callback();
  server = createServer((req, res) => void handle(req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver = await startHttpsReceiver();
  gateway = await startFakeGateway({ token: 'gw' });
  telegram = await startFakeTelegram();
  whatsapp = await Promise.all((['evolution', 'waha'] as const).map((type) => startTestGateway(type)));
  worker = await startTestWorker(base, taskQueue, { webhookAllow: ['127.0.0.1'], webhookCa: receiver.ca, logLevel: 'TRACE' });
});
after(async () => {
  await worker.stop();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await closeApp(app);
  await gateway.close();
  await telegram.close();
  await Promise.all(whatsapp.map((w) => w.close()));
  await receiver.close();
  await base.close();
});

/** An API client that keeps every answer it gets. */
class RecordingClient extends ApiClient {
  override async call<T = any>(method: string, path: string, opts?: CallOptions): Promise<Reply<T>> {
    const reply = await super.call<T>(method, path, opts);
    answers.push(`${reply.status} ${JSON.stringify([...reply.headers.entries()])} ${reply.text}`);
    return reply;
  }
}

async function inbound(channelId: string, secret: string, body: Record<string, unknown>, as: 'gateway' | 'telegram' = 'gateway'): Promise<any> {
  const res = await fetch(`${origin}/inbound/${channelId}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(as === 'gateway' ? { authorization: `Bearer ${secret}` } : { 'x-telegram-bot-api-secret-token': secret }),
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  answers.push(`${res.status} ${JSON.stringify([...res.headers.entries()])} ${text}`);
  return JSON.parse(text);
}

/** Every string in `value`, bytes (Temporal payloads) decoded as UTF-8. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value instanceof Uint8Array) out.push(Buffer.from(value).toString('utf8'));
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value instanceof Date) out.push(value.toISOString());
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      strings(v, out);
    }
  }
  return out;
}

/** The needles found in `texts`, with where. */
function disclosed(where: string, texts: string[]): string[] {
  const found: string[] = [];
  texts.forEach((text, i) => {
    for (const needle of NEEDLES) if (text.includes(needle)) found.push(`${where}[${i}] holds ${needle}: ${text.slice(0, 300)}`);
  });
  return found;
}

test('no address of a person appears in any response, stored record, webhook body, log line or workflow history of a run', async () => {
  const tenant = await seedTenant(base.db);
  // The waits below poll the API: on a busy machine they can pass 120 requests a minute, which is not what this test is about.
  await setAccountRateLimit(base.db, tenant.accountId, 10_000);
  const api = new RecordingClient(`${origin}/api/v1`, tenant.apiKey);
  const tenantKey = { accountId: tenant.accountId, env: tenant.env };
  const webhook = (await api.post('/webhooks', { url: `${receiver.url}/hooks`, events: ['*'] })).body.data;
  const { channel, inboundSecret } = await connectChannel(
    base.db,
    tenantKey,
    { type: 'http', url: gateway.url, token: 'gw', name: 'Gateway', minIntervalMs: 0 },
    secretKeyFromEnv,
  );

  // A journey on every new conversation: a welcome through the reply path, a tag, an assignment, an http call with the event.
  gateway.failTo(EMAIL, 400);
  const journey = (
    await api.post('/journeys', {
      name: 'Boas-vindas',
      trigger: 'conversation.created',
      blocks: [
        { id: 'start', type: 'trigger', config: {}, next: ['hello'] },
        { id: 'hello', type: 'message', config: { text: 'Bem-vindo!' }, next: ['mark'] },
        { id: 'mark', type: 'tag', config: { add: ['novo'], stage: 'engaged' }, next: ['human'] },
        { id: 'human', type: 'assign', config: { du_mode: 'assisted' }, next: ['call'] },
        { id: 'call', type: 'http', config: { url: `${receiver.url}/journey` }, next: ['done'] },
        { id: 'done', type: 'end', config: {} },
      ],
    })
  ).body.data;
  assert.equal((await api.post(`/journeys/${journey.id}/activate`)).status, 200);

  // Inbound: a direct message, one in a group, one from an e-mail address (a web chat), a repeat, and refused bodies.
  const direct = await inbound(channel._id, inboundSecret!, { id: 'm1', from: PHONE, name: 'Ana', text: 'Oi, tem a cafeteira?' });
  await inbound(channel._id, inboundSecret!, { id: 'm1', from: PHONE, name: 'Ana', text: 'Oi, tem a cafeteira?' });
  const inGroup = await inbound(channel._id, inboundSecret!, { id: 'm2', from: PHONE, group: GROUP, text: 'No grupo' });
  const byEmail = await inbound(channel._id, inboundSecret!, { id: 'm3', from: EMAIL, network: 'webchat', name: 'Ana S.', text: 'Pelo site' });
  await inbound(channel._id, inboundSecret!, { id: 'm4', from: PHONE, text: 'x', phone: PHONE });
  await inbound(channel._id, inboundSecret!, { id: 'm5', from: PHONE, network: EMAIL, text: 'x' });
  await inbound(channel._id, inboundSecret!, { id: 'm6', from: 5511987654321, text: 'x' });
  // A Telegram bot: a private message and one in a group.
  const bot = await connectChannel(
    base.db,
    tenantKey,
    { type: 'telegram', url: telegram.url, token: '42:BOT', name: 'Bot', minIntervalMs: 0 },
    secretKeyFromEnv,
  );
  const from = { id: TG_USER, is_bot: false, first_name: 'Ana' };
  const tgPrivate = await inbound(
    bot.channel._id,
    bot.inboundSecret!,
    { update_id: 1, message: { message_id: 1, from, chat: { id: TG_USER, type: 'private' }, date: 1_790_000_000, text: 'Oi bot' } },
    'telegram',
  );
  const tgGroup = await inbound(
    bot.channel._id,
    bot.inboundSecret!,
    {
      update_id: 2,
      message: { message_id: 1, from, chat: { id: TG_GROUP, type: 'group', title: 'Ofertas' }, date: 1_790_000_001, text: 'No grupo' },
    },
    'telegram',
  );
  const conversations = [direct, inGroup, byEmail, tgPrivate, tgGroup].map((r) => r.data.conversation_id as string);
  // Through each WhatsApp gateway's webhook (set as `admin channel connect` sets it): a person writes, then in a group.
  for (const gateway of whatsapp) {
    const { person, group } = WHATSAPP[gateway.type as keyof typeof WHATSAPP];
    const channel = await connectTo(gateway, { db: base.db, origin, secretKey: secretKeyFromEnv() }, tenantKey, {
      name: `WhatsApp ${gateway.type}`,
    });
    for (const m of [
      { from: person, name: 'Bia', text: 'Oi pelo WhatsApp' },
      { from: person, group, text: 'No grupo do WhatsApp' },
    ]) {
      const answer = await channel.receive(m);
      answers.push(`${answer.status} ${JSON.stringify(answer.body)}`);
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      conversations.push(answer.body.data.conversation_id as string);
    }
  }

  // The read side, PATCH and close.
  await api.get('/inbox/conversations');
  await api.get('/inbox/contacts');
  await api.get(`/inbox/contacts?query=${encodeURIComponent('ana')}`);
  for (const id of conversations) {
    await api.get(`/inbox/conversations/${id}`);
    await api.get(`/inbox/conversations/${id}/messages`);
  }
  await api.patch(`/inbox/conversations/${conversations[1]}`, { assignee: 'Carla', priority: 'high', du_mode: 'assisted', tags: ['vip'] });

  // The journey ran once per conversation (its welcome to the e-mail thread refused by the gateway, like the reply below).
  // Five executions, each listed once visibility has caught up: slow when other test files share the machine.
  await waitFor(
    'the journey to run for each conversation',
    async () => {
      const done = await api.get(`/journeys/${journey.id}/executions?status=completed`);
      return done.body.pagination.total === conversations.length ? true : undefined;
    },
    90_000,
    () => recordOf(api, `/journeys/${journey.id}/executions`, (list: any[]) => list?.map((x) => [x.id, x.status, x.current_step, x.error])),
  );
  assert.equal(receiver.on('/journey').length, conversations.length);

  // Replies: delivered to the direct and group threads, refused by the gateway for the e-mail one; one to a closed conversation.
  const replies: string[] = [];
  for (const id of conversations) replies.push((await api.post(`/inbox/conversations/${id}/reply`, { text: `Resposta ${id}` })).body.data.id);
  const settled = await waitFor(
    'every reply to leave queued',
    async () => {
      const all = [];
      for (const id of conversations) all.push(...(await api.get(`/inbox/conversations/${id}/messages`)).body.data);
      const mine = all.filter((m) => replies.includes(m.id));
      return mine.every((m) => m.status !== 'queued') ? mine : undefined;
    },
    30_000,
    async () => (await Promise.all(conversations.map((id) => messagesState(api, id)))).join('\n'),
  );
  assert.deepEqual(settled.map((m) => m.status).sort(), ['failed', ...conversations.slice(1).map(() => 'sent')]);
  await api.post(`/inbox/conversations/${conversations[0]}/close`, { reason: 'resolvido' });
  assert.equal((await api.post(`/inbox/conversations/${conversations[0]}/reply`, { text: 'tarde demais' })).status, 409);
  await api.get(`/inbox/conversations/${conversations[0]}`);

  // Positive control: the addresses are real strings of this run, and the search finds them where they belong.
  assert.ok(
    disclosed(
      'gateway',
      gateway.requests.map((r) => JSON.stringify(r)),
    ).length >= 3,
  );
  assert.deepEqual([...new Set(gateway.messages().map((m) => m.to))].sort(), [GROUP, PHONE]);
  assert.equal(gateway.messages().filter((m) => m.text === 'Bem-vindo!').length, 2, 'the journey welcomed the direct and group threads');
  for (const w of whatsapp) {
    const { person, group } = WHATSAPP[w.type as keyof typeof WHATSAPP];
    for (const to of [person, group])
      assert.deepEqual(
        w
          .delivered(to)
          .map((m) => m.text)
          .filter((t) => t === 'Bem-vindo!'),
        ['Bem-vindo!'],
        `${w.type} ${to}`,
      );
  }

  // Every event of the run reaches the webhook (under its event id).
  const events = () => base.db.collection('events').find({ account_id: tenant.accountId }).toArray();
  const delivered = await waitFor(
    'the webhook to receive every event of the run',
    async () => {
      const expected = (await events()).filter((e) => e.kind !== 'webhook.created').map((e) => String(e._id));
      const received = new Set(receiver.on('/hooks').map((r) => r.headers['webhook-id']));
      return expected.every((id) => received.has(id)) ? expected : undefined;
    },
    30_000,
    async () => {
      const received = new Set(receiver.on('/hooks').map((r) => r.headers['webhook-id']));
      const missing = (await events()).filter((e) => e.kind !== 'webhook.created' && !received.has(String(e._id)));
      return `not received yet: ${missing.map((e) => `${e.kind} ${String(e._id)}`).join(', ')}\n${await deliveriesState(api, webhook.id, '?limit=100')}`;
    },
  );
  assert.ok(
    [
      'contact.created',
      'conversation.created',
      'conversation.updated',
      'conversation.closed',
      'message.received',
      'message.sent',
      'message.failed',
    ].every((kind) => receiver.on('/hooks').some((r) => r.body.includes(`"kind":"${kind}"`))),
  );

  // The workflows of the run: replies, event dispatches, webhook deliveries — and whatever else visibility lists for the account.
  const ids = new Set<string>([
    ...replies.map(replyWorkflowId),
    ...delivered.map(dispatchWorkflowId),
    ...delivered.map((evt) => deliveryWorkflowId(webhook.id, evt)),
  ]);
  for await (const w of base.temporal.client.workflow.list({ query: `OfferopsAccountId = '${tenant.accountId}'` })) ids.add(w.workflowId);
  const histories: string[] = [];
  for (const id of ids) {
    try {
      histories.push(strings(await base.temporal.client.workflow.getHandle(id).fetchHistory()).join('\n'));
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      assert.fail(`workflow ${id} of the run has no history`);
    }
  }
  assert.ok(histories.length >= replies.length + 2 * delivered.length);

  // Every stored document of the account but the sealed addresses.
  const stored: string[] = [];
  for (const { name } of await base.db.listCollections().toArray()) {
    if (name === 'addresses') continue;
    for (const doc of await base.db.collection(name).find({}).toArray()) stored.push(`${name}: ${strings(doc).join('\n')}`);
  }
  const sealed = await base.db.collection('addresses').find({ account_id: tenant.accountId }).toArray();
  assert.equal(sealed.length, 14, 'five contacts (phone, e-mail, Telegram user, two WhatsApp people) and nine threads, sealed');

  await flushRequestLog(app);
  const found = [
    ...disclosed('response', answers),
    ...disclosed('stored', stored),
    ...disclosed(
      'sealed',
      sealed.map((d) => JSON.stringify(d)),
    ),
    ...disclosed(
      'webhook',
      receiver.requests.map((r) => `${JSON.stringify(r.headers)} ${r.body}`),
    ),
    ...disclosed('api log', apiLog),
    ...disclosed(
      'worker log',
      workerLog.map((e) => `${e.message} ${JSON.stringify(e.meta ?? {})}`),
    ),
    ...disclosed('history', histories),
  ];
  assert.deepEqual(found, []);
  assert.ok(answers.length > 20 && stored.length > 0 && receiver.requests.length > 0 && apiLog.length > 0 && workerLog.length > 0);
});
