/**
 * `offerops dev gateway` and `offerops dev receiver` as child processes: the
 * gateway receives a publication sent by the real stack (API, Temporal, a
 * worker with the real activities); the receiver verifies a signed delivery
 * from the real stack, and refuses forged or stale ones.
 */
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { ApiClient } from '../helpers/client';
import { cliEnv, ok, runCli } from '../helpers/cli';
import { seedTenant, stackEnv, startTestApp, TestApp } from '../helpers/stack';
import { startTestWorker } from '../helpers/worker';
import { waitFor } from '../helpers/wait';
import { deliveriesState, messagesState, publicationState, receivedState } from '../helpers/states';

const CLI = resolve(__dirname, '../../tools/cli/offerops.js');
const taskQueue = `test-cli-dev-${randomBytes(4).toString('hex')}`;
let app: TestApp;
let tmp: string;
const children: ChildProcess[] = [];

before(async () => {
  app = await startTestApp({ taskQueue, webhookAllow: ['127.0.0.1'] });
  tmp = mkdtempSync(join(tmpdir(), 'offerops-cli-dev-'));
});
after(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
  await app.close();
});

const cli = (...args: string[]) => runCli(args, cliEnv({ MONGODB_URI: stackEnv().mongodbUri, MONGODB_DB: app.dbName }), tmp);

interface Running {
  child: ChildProcess;
  /** What it printed so far. */
  out: () => string;
  err: () => string;
  /** Its stdout lines, as JSON (stdout is not a terminal). */
  lines: () => any[];
  /** SIGTERM, then its exit code. */
  stop: () => Promise<number | null>;
}

/** Starts `offerops …args` and waits until its banner on stderr names where it listens. */
async function start(...args: string[]): Promise<Running & { url: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: tmp, env: cliEnv({}), stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const url = await waitFor(
    `offerops ${args.join(' ')} to listen`,
    () => {
      assert.equal(child.exitCode, null, `it exited: ${err}`);
      return Promise.resolve(/listening on (\S+)/.exec(err)?.[1]);
    },
    30_000,
    () => `it wrote on stderr:\n${err.slice(-2000)}`,
  );
  return {
    child,
    url,
    out: () => out,
    err: () => err,
    lines: () =>
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as unknown),
    stop: async () => {
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    },
  };
}

describe('offerops dev gateway --flavor evolution|waha', () => {
  for (const flavor of ['evolution', 'waha']) {
    test(`${flavor}: the stand-in's groups are discovered and imported as the WhatsApp guide shows`, async () => {
      const gateway = await start('dev', 'gateway', '--flavor', flavor, '--port', '0');
      assert.match(gateway.err(), /in 3 groups: Ofertas Cozinha, Ofertas Casa, Ofertas Tech/);
      const tenant = await seedTenant(app.db);
      const session = flavor === 'evolution' ? 'offerops' : 'default';
      const connect = ['admin', 'channel', 'connect', '--account', tenant.accountId, '--type', flavor, '--url', gateway.url];
      const channel = ok(await cli(...connect, '--token', 'dev-api-key', '--instance', session)).channel_id as string;
      const listed = ok(await cli('admin', 'channel', 'groups', channel, '--account', tenant.accountId));
      assert.deepEqual(
        listed.groups.map((g: { name: string; group_id: unknown }) => [g.name, g.group_id]),
        [
          ['Ofertas Casa', null],
          ['Ofertas Cozinha', null],
          ['Ofertas Tech', null],
        ],
      );
      assert.ok(!JSON.stringify(listed).includes('120363000000000001'), 'no whole JID in the listing');
      const imported = ok(await cli('admin', 'channel', 'groups', channel, '--account', tenant.accountId, '--import', 'Ofertas Cozinha'));
      assert.deepEqual(
        imported.imported.map((g: { name: string }) => g.name),
        ['Ofertas Cozinha'],
      );
      assert.match(imported.imported[0].group_id, /^grp_/);
      assert.equal(await gateway.stop(), 0);
    });
  }
});

describe('offerops dev gateway', () => {
  let worker: { stop(): Promise<void> };
  before(async () => {
    worker = await startTestWorker(app, taskQueue);
  });
  after(() => worker.stop());

  test('receives a publication from the stack, once per group, printing one line each; checks the token; deduplicates', async () => {
    const gateway = await start('dev', 'gateway', '--port', '0', '--token', 'T0k3n');
    assert.match(gateway.err(), /admin channel connect --account ACC --type http --url http:\/\/127\.0\.0\.1:\d+/);
    const tenant = await seedTenant(app.db);
    const api = new ApiClient(app.baseUrl, tenant.apiKey);
    const channel = ok(
      await cli(
        'admin',
        'channel',
        'connect',
        '--account',
        tenant.accountId,
        '--type',
        'http',
        '--url',
        gateway.url,
        '--token',
        'T0k3n',
        '--min-interval-ms',
        '0',
      ),
    ).channel_id;
    const seg = (await api.post('/segments', { name: 'Cozinha', slug: 'cozinha' })).body.data.id;
    const groups: string[] = [];
    for (const i of [1, 2]) {
      groups.push(
        ok(
          await cli(
            'admin',
            'group',
            'create',
            '--account',
            tenant.accountId,
            '--name',
            `Grupo ${i}`,
            '--segment',
            seg,
            '--channel',
            channel,
            '--address',
            `55119990000${i}@g.us`,
            '--min-interval-ms',
            '0',
          ),
        ).group_id,
      );
    }
    const offer = (await api.post('/offers', { url: 'https://shop.example/p/dev', title: 'Cafeteira Dev', price: 149.9 })).body.data;
    const pub = (await api.post(`/offers/${offer.id}/publish`, { segment_id: seg })).body.data.publications[0].id as string;
    const done = await waitFor(
      'the publication to finish',
      async () => {
        const p = (await api.get(`/publications/${pub}`)).body.data;
        return p.completed_at && p.status !== 'sending' ? p : undefined;
      },
      30_000,
      () => publicationState(api, pub, app.temporal.client),
    );
    assert.equal(done.status, 'sent');
    const lines = gateway.lines();
    assert.deepEqual(lines.map((l) => l.idempotency_key).sort(), groups.map((g) => `${pub}:${g}`).sort());
    for (const line of lines) {
      assert.match(line.text, /Cafeteira Dev/);
      assert.match(line.id, /^msg_\d+$/);
      assert.match(line.to, /^…000[12]@g\.us$/, 'the address shortened');
    }
    assert.ok(!gateway.out().includes('5511999000'), 'no whole address printed');

    // The protocol by hand: a repeat is answered with the first id and not printed again; a wrong token is a 401.
    const send = (token: string, body: object) =>
      fetch(`${gateway.url}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const message = { to: 'x@g.us', text: 'oi', idempotency_key: 'by-hand-1' };
    const first = await send('T0k3n', message);
    assert.equal(first.status, 200);
    const { id } = (await first.json()) as { id: string };
    const again = await send('T0k3n', message);
    assert.equal(((await again.json()) as { id: string }).id, id);
    assert.equal((await send('wrong', { ...message, idempotency_key: 'by-hand-2' })).status, 401);
    assert.equal((await send('T0k3n', { to: 'x@g.us' })).status, 400);
    assert.equal(gateway.lines().length, lines.length + 1);
    assert.equal(await gateway.stop(), 0);
  });

  test("the inbound half: a contact's message (POST /incoming or a stdin line) reaches offerops; an agent reply comes back", async () => {
    const phone = '5511987650042@s.whatsapp.net';
    // The channel needs the gateway's URL and the gateway the channel's inbound URL: start it, connect, restart it on its port.
    const first = await start('dev', 'gateway', '--port', '0', '--token', 'T');
    assert.match(first.err(), /--inbound-url and --inbound-secret let it send/);
    assert.equal(await first.stop(), 0);
    const tenant = await seedTenant(app.db);
    const api = new ApiClient(app.baseUrl, tenant.apiKey);
    const connected = ok(
      await cli(
        'admin',
        'channel',
        'connect',
        '--account',
        tenant.accountId,
        '--type',
        'http',
        '--url',
        first.url,
        '--token',
        'T',
        '--min-interval-ms',
        '0',
      ),
    );
    const gateway = await start(
      'dev',
      'gateway',
      '--port',
      new URL(first.url).port,
      '--token',
      'T',
      '--inbound-url',
      `${app.origin}${connected.inbound_url_path}`,
      '--inbound-secret',
      connected.inbound_secret,
    );
    assert.match(gateway.err(), /curl -s http:\/\/127\.0\.0\.1:\d+\/incoming -H 'Authorization: Bearer T'/);

    const incoming = (body: object, token = 'T') =>
      fetch(`${gateway.url}/incoming`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const res = await incoming({ from: phone, name: 'Ana', text: 'Oi, tem cafeteira?' });
    assert.equal(res.status, 200);
    const answered = (await res.json()) as { offerops_status: number; offerops_answer: { data: { conversation_id: string } } };
    assert.equal(answered.offerops_status, 201);
    const conversationId = answered.offerops_answer.data.conversation_id;
    const [sent] = gateway.lines();
    assert.equal(sent.direction, 'inbound');
    assert.equal(sent.from, '…0042@s.whatsapp.net');
    assert.equal(sent.conversation_id, conversationId);
    assert.equal((await incoming({ from: phone, text: 'x' }, 'wrong')).status, 401);
    assert.equal((await incoming({ text: 'no sender' })).status, 400);

    // A line on its stdin: FROM TEXT.
    gateway.child.stdin!.write(`${phone} Ainda está aí?\n`);
    const second = await waitFor(
      'the stdin message to reach offerops',
      () => Promise.resolve(gateway.lines().find((l) => l.direction === 'inbound' && l.text === 'Ainda está aí?')),
      30_000,
      () => receivedState('the lines the gateway printed', gateway.lines()),
    );
    assert.equal(second.status, 201);
    assert.equal(second.conversation_id, conversationId);
    const messages = (await api.get(`/inbox/conversations/${conversationId}/messages`)).body.data;
    assert.deepEqual(
      messages.map((m: { text: string }) => m.text),
      ['Ainda está aí?', 'Oi, tem cafeteira?'],
    );

    // The agent's reply goes back through the channel to the gateway, which prints it.
    const reply = (await api.post(`/inbox/conversations/${conversationId}/reply`, { text: 'Tem sim!' })).body.data;
    const back = await waitFor(
      'the reply to reach the gateway',
      () => Promise.resolve(gateway.lines().find((l) => l.direction === 'outbound' && l.idempotency_key === reply.id)),
      30_000,
      async () => `${receivedState('the lines the gateway printed', gateway.lines())}\n${await messagesState(api, conversationId)}`,
    );
    assert.equal(back.text, 'Tem sim!');
    assert.equal(back.to, '…0042@s.whatsapp.net');
    assert.ok(!gateway.out().includes('5511987650042'), 'no whole address printed');
    assert.equal(await gateway.stop(), 0);
  });

  test('a port in use: exit 1 saying so', async () => {
    const first = await start('dev', 'gateway', '--port', '0');
    const port = new URL(first.url).port;
    const second = await runCli(['dev', 'gateway', '--port', port], cliEnv({}), tmp);
    assert.equal(second.code, 1);
    assert.match(JSON.parse(second.stderr.trim()).error, /EADDRINUSE/);
    assert.equal(await first.stop(), 0);
  });
});

/** POSTs `body` with `headers` to the receiver over HTTPS, trusting its certificate; the status. */
function post(url: string, ca: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((done, fail) => {
    const req = request(url, { method: 'POST', ca, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode!));
    });
    req.on('error', fail);
    req.end(body);
  });
}

describe('offerops dev receiver', () => {
  test('verifies a signed delivery from the stack; answers 401 to a forged or stale one; keeps its certificate', async () => {
    const tenant = await seedTenant(app.db);
    const api = new ApiClient(app.baseUrl, tenant.apiKey);
    // The secret first (the receiver needs it), at a placeholder URL; the receiver's URL once it listens.
    const created = await api.post('/webhooks', { url: 'https://127.0.0.1:9/placeholder', events: ['offer.created'] });
    assert.equal(created.status, 201, created.text);
    const { id: webhookId, secret } = created.body.data as { id: string; secret: string };
    const dir = join(tmp, 'receiver');
    const receiver = await start('dev', 'receiver', '--port', '0', '--secret', secret, '--dir', dir);
    const certFile = join(dir, 'cert.pem');
    assert.ok(receiver.err().includes(`NODE_EXTRA_CA_CERTS=${certFile} OFFEROPS_WEBHOOK_ALLOW=127.0.0.1 npm start`), receiver.err());
    assert.match(receiver.url, /^https:\/\/127\.0\.0\.1:\d+\/webhooks$/);
    assert.equal(statSync(join(dir, 'key.pem')).mode & 0o077, 0, 'the key is private');
    const ca = readFileSync(certFile, 'utf8');
    assert.equal((await api.patch(`/webhooks/${webhookId}`, { url: receiver.url })).status, 200);

    const worker = await startTestWorker(app, taskQueue, { webhookAllow: ['127.0.0.1'], webhookCa: ca });
    try {
      const offer = (await api.post('/offers', { url: 'https://shop.example/p/hook', title: 'Air Fryer', price: 299 })).body.data;
      const line = await waitFor(
        'the delivery to reach the receiver',
        () => Promise.resolve(receiver.lines().find((l) => l.kind === 'offer.created')),
        30_000,
        async () => `${receivedState('the lines the receiver printed', receiver.lines())}\n${await deliveriesState(api, webhookId)}`,
      );
      assert.equal(line.verified, true);
      assert.equal(line.status, 200);
      assert.equal(line.event.data.offer.id, offer.id);
      assert.equal(line.message_id, line.event.id);
      const delivered = await waitFor(
        'the delivery to be recorded as succeeded',
        async () => {
          const list = (await api.get(`/webhooks/${webhookId}/deliveries`)).body.data as { state: string }[];
          return list.find((d) => d.state === 'succeeded');
        },
        30_000,
        () => deliveriesState(api, webhookId),
      );
      assert.ok(delivered);
    } finally {
      await worker.stop();
    }

    // By hand: correctly signed (by the standardwebhooks library) → 200; forged, or signed 10 minutes ago → 401.
    const body = JSON.stringify({ id: 'evt_byhand', kind: 'offer.updated', data: {} });
    const signer = new Webhook(secret);
    const signed = (at: Date, id = 'evt_byhand') => ({
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signer.sign(id, at, body),
    });
    const count = receiver.lines().length;
    assert.equal(await post(receiver.url, ca, signed(new Date()), body), 200);
    assert.equal(await post(receiver.url, ca, signed(new Date()), body.replace('offer.updated', 'offer.created')), 401);
    assert.equal(await post(receiver.url, ca, { ...signed(new Date()), 'webhook-id': 'evt_other' }, body), 401);
    assert.equal(await post(receiver.url, ca, signed(new Date(Date.now() - 10 * 60_000)), body), 401);
    // Only these four: a late redelivery from the stack may print a line in between. Its stdout
    // may reach us after its answer did, so wait for the fourth line.
    const byHand = await waitFor(
      'the receiver to print the four requests',
      () => {
        const lines = receiver
          .lines()
          .slice(count)
          .filter((l) => l.message_id === 'evt_byhand' || l.message_id === 'evt_other');
        return Promise.resolve(lines.length >= 4 ? lines : undefined);
      },
      30_000,
      () => receivedState('the lines the receiver printed', receiver.lines().slice(count), 8),
    );
    assert.deepEqual(
      byHand.map((l) => [l.verified, l.status]),
      [
        [true, 200],
        [false, 401],
        [false, 401],
        [false, 401],
      ],
    );
    assert.match(byHand[3].reason, /5 minutes/);
    assert.equal(await receiver.stop(), 0);

    // A second start keeps the certificate the stack was told to trust.
    const again = await start('dev', 'receiver', '--port', '0', '--dir', dir);
    assert.equal(readFileSync(certFile, 'utf8'), ca);
    assert.match(again.err(), /signatures: not checked/);
    assert.equal(await post(again.url, ca, {}, '{}'), 200);
    assert.equal(again.lines()[0].verified, null);
    assert.equal(await again.stop(), 0);
  });

  test('a malformed --secret is a usage error', async () => {
    const run = await runCli(['dev', 'receiver', '--secret', 'not-a-secret', '--dir', join(tmp, 'r2')], cliEnv({}), tmp);
    assert.equal(run.code, 2);
    assert.match(JSON.parse(run.stderr.trim()).error, /whsec_/);
  });
});
