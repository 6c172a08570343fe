/**
 * Issue 26: WhatsApp channels through Evolution API and WAHA, each against
 * its stand-in (real HTTP on loopback). For each gateway: the webhook
 * offerops sets on it brings a contact's messages in (Evolution's bearer
 * header, WAHA's HMAC signature), our echoes and status broadcasts are
 * skipped, the session's state becomes the channel's with its event; a
 * disconnected session sends nothing and its publication waits on a durable
 * timer until it is back; two imports of its groups at once make each once;
 * no JID leaves the API. Publishing and replies run
 * through these gateways in their own suites (publish.test.ts,
 * replies.test.ts), with the same assertions as every connector.
 */
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { defaultPayloadConverter } from '@temporalio/common';
import { gatewayFor } from '../../domain/channels/connectors/index';
import { importGroups } from '../../domain/operator/discovery';
import { connectChannel } from '../../domain/channels/service';
import { channelForSend } from '../../domain/channels/store';
import { createGroup } from '../../domain/groups/store';
import { secretKeyFromEnv } from '../../domain/sealing';
import { publicationWorkflowId } from '../../temporal/names';
import { ApiClient } from '../helpers/client';
import { FAKE_API_KEY, FLAVORS, startFakeWhatsApp, WhatsAppGatewayFake } from '../helpers/fake-whatsapp';
import { seedTenant, startTestApp, Tenant, TestApp } from '../helpers/stack';
import { startTestWorker } from '../helpers/worker';
import { waitFor } from '../helpers/wait';
import { eventsState, publicationState } from '../helpers/states';

const taskQueue = `test-whatsapp-${randomBytes(4).toString('hex')}`;
let app: TestApp;
let worker: { stop(): Promise<void> };

before(async () => {
  app = await startTestApp({ taskQueue });
  worker = await startTestWorker(app, taskQueue);
});
after(async () => {
  await worker.stop();
  await app.close();
});

const CONTACT = '5511987650001@s.whatsapp.net';
const GROUP_JID = '120363040000000001@g.us';
let n = 0;

for (const flavor of FLAVORS) {
  describe(`${flavor} channel`, () => {
    let fake: WhatsAppGatewayFake;
    let tenant: Tenant;
    let api: ApiClient;
    let channelId: string;
    let secret: string;

    before(async () => {
      fake = await startFakeWhatsApp(flavor);
      tenant = await seedTenant(app.db);
      api = new ApiClient(app.baseUrl, tenant.apiKey);
      const made = await connectChannel(
        app.db,
        { accountId: tenant.accountId, env: tenant.env },
        { type: flavor, url: fake.url, token: FAKE_API_KEY, instance: fake.session, name: `WhatsApp ${flavor}`, minIntervalMs: 0 },
        secretKeyFromEnv,
      );
      channelId = made.channel._id;
      secret = made.inboundSecret!;
      // What admin channel connect --public-url does.
      const config = await channelForSend(app.db, tenant, channelId, secretKeyFromEnv());
      await gatewayFor(config!).setWebhook(`${app.origin}/inbound/${channelId}`, secret);
    });
    after(() => fake.close());

    const channelDoc = () => app.db.collection('channels').findOne({ _id: channelId } as object);
    const stored = (coll: string) => app.db.collection(coll).countDocuments({ account_id: tenant.accountId });

    test("a contact's message makes a whatsapp contact and conversation; a redelivery stores nothing new; no JID is stored in clear", async () => {
      const first = await fake.receive({ from: CONTACT, name: 'Ana Souza', text: 'Oi, tem cupom?' });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      const data = (first.body as any).data;
      const conversation = (await api.get(`/inbox/conversations/${data.conversation_id}`)).body.data;
      assert.equal(conversation.channel, 'whatsapp');
      assert.equal(conversation.channel_id, channelId);
      assert.equal(conversation.contact.display_name, 'Ana Souza');
      assert.equal(conversation.last_messages[0].text, 'Oi, tem cupom?');
      const again = await fake.redeliver();
      assert.equal(again?.status, 200);
      assert.deepEqual((again?.body as any).data, data);
      assert.equal(await stored('messages'), 1);
      for (const coll of ['contacts', 'conversations', 'messages', 'events', 'channels']) {
        const docs = JSON.stringify(await app.db.collection(coll).find({ account_id: tenant.accountId }).toArray());
        assert.ok(!docs.includes('5511987650001'), `${coll} holds the contact's number`);
      }
      const shown = JSON.stringify((await api.get('/inbox/conversations')).body) + JSON.stringify(conversation);
      assert.ok(!shown.includes('5511987650001') && !shown.includes(fake.session));
    });

    test('a group message belongs to the group conversation; our echoes and status broadcasts are taken and skipped', async () => {
      const inGroup = await fake.receive({ from: CONTACT, group: GROUP_JID, text: 'Chegou a air fryer?' });
      assert.equal(inGroup.status, 201, JSON.stringify(inGroup.body));
      const before = await stored('messages');
      for (const m of [
        { from: CONTACT, text: 'nosso próprio envio', fromMe: true },
        { from: CONTACT, text: 'meu status', status: true },
      ]) {
        const skipped = await fake.receive(m);
        assert.equal(skipped.status, 200);
        assert.deepEqual((skipped.body as any).data, { ignored: true });
      }
      assert.equal(await stored('messages'), before);
    });

    test('a wrong secret or signature is a 401; a body that is no event of the gateway a 400', async () => {
      const post = (body: unknown, headers: Record<string, string>) =>
        fetch(`${app.origin}/inbound/${channelId}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
      const event = { event: flavor === 'evolution' ? 'messages.upsert' : 'message', instance: fake.session, session: fake.session };
      const forged: Record<string, string> =
        flavor === 'evolution' ? { authorization: 'Bearer oo_in_wrong' } : { 'x-webhook-hmac': 'ab'.repeat(64) };
      const wrong = await post(event, forged);
      assert.deepEqual([wrong.status, wrong.body.code], [401, 'invalid_api_key']);
      const hello = { hello: 'world' };
      const good: Record<string, string> =
        flavor === 'evolution'
          ? { authorization: `Bearer ${secret}` }
          : { 'x-webhook-hmac': createHmac('sha512', secret).update(JSON.stringify(hello)).digest('hex') };
      const invalid = await post(hello, good);
      assert.deepEqual([invalid.status, invalid.body.details[0].field], [400, 'event']);
    });

    test("the session's state becomes the channel's, with a channel.state_changed event", async () => {
      const down = await fake.setConnected(false);
      assert.deepEqual([down?.status, (down?.body as any).data], [200, { state: 'disconnected' }]);
      const doc = await app.db.collection('channels').findOne({ _id: channelId } as object);
      assert.equal(doc?.state, 'disconnected');
      const event = await waitFor(
        'the state event',
        async () =>
          (await app.db
            .collection('events')
            .findOne({ account_id: tenant.accountId, kind: 'channel.state_changed', 'data.state': 'disconnected' })) ?? undefined,
        30_000,
        () => eventsState(app.db, { account_id: tenant.accountId, kind: 'channel.state_changed' }),
      );
      assert.deepEqual(event.data, { channel_id: channelId, channel_type: flavor, state: 'disconnected', previous_state: 'unknown' });
      await fake.setConnected(true);
      assert.equal((await app.db.collection('channels').findOne({ _id: channelId } as object))?.state, 'connected');
    });

    test("two imports of the gateway's groups at once make each group once: the unique index on its address, not only a look-up", async () => {
      const importAll = () => importGroups(app.db, tenant, channelId, 'all', {}, secretKeyFromEnv());
      const hints = (list: { address_hint: string | null }[]) => list.map((g) => g.address_hint!);
      // Without the index, imports in step (each looks a group up, then makes it) make some groups twice; a few rounds
      // make sure they meet.
      for (let round = 0; round < 3; round++) {
        fake.groups = Array.from({ length: 20 }, (_, i) => ({
          id: `1203630700${round}${String(i).padStart(3, '0')}@g.us`,
          subject: `Lote ${i}`,
          size: 10,
        }));
        // Both imports get the list at the same moment.
        fake.answerGroupListsTogether(2);
        const [a, b] = await Promise.all([importAll(), importAll()]);
        // Between them the two made every group once; what one made, the other found.
        assert.deepEqual([...hints(a.imported), ...hints(b.imported)].sort(), fake.groups.map((g) => `…${g.id.slice(-9)}`).sort());
        assert.deepEqual(
          [a, b].map((run) => run.imported.length + run.existing.length),
          [20, 20],
        );
        const stored = await app.db
          .collection('groups')
          .find({ account_id: tenant.accountId, address: { $in: fake.groups.map((g) => g.id) } })
          .toArray();
        assert.equal(stored.length, 20, `round ${round}`);
      }
      fake.groups = [];
    });

    test('a publication to a disconnected channel waits on a named durable timer, spending no attempt, and goes once it is back', async () => {
      const address = `1203630600${++n}@g.us`;
      const group = await createGroup(app.db, tenant, {
        name: `Espera ${flavor}`,
        channel: { id: channelId, type: flavor, address },
        minIntervalMs: 0,
      });
      const offer = (await api.post('/offers', { url: `https://shop.example/wa/wait/${flavor}/${++n}`, title: 'Cafeteira' })).body.data;
      await fake.setConnected(false);
      const id = (await api.post(`/offers/${offer.id}/publish`, { group_id: group._id })).body.data.publications[0].id;
      const handle = app.temporal.client.workflow.getHandle(publicationWorkflowId(id));
      const summary = await waitFor(
        'the wait for the channel',
        async () => {
          const events = (await handle.fetchHistory()).events ?? [];
          const timers = events.filter((e) => e.timerStartedEventAttributes && e.userMetadata?.summary);
          return timers.map((e) => String(defaultPayloadConverter.fromPayload(e.userMetadata!.summary!)))[0];
        },
        30_000,
        () => publicationState(api, id, app.temporal.client),
      );
      // Down since the webhook said so: the wait lasts until the session's first check, 10 s after that report.
      const waited = /^channel not connected: wait (\d+) s for Espera \w+ \(grp_\w+\)'s channel to come back$/.exec(summary);
      assert.ok(waited && Number(waited[1]) >= 1 && Number(waited[1]) <= 10, summary);
      assert.ok(summary.includes(`Espera ${flavor} (${group._id})`), summary);
      assert.equal(fake.requests.filter((m) => m.to === address).length, 0, 'a session known to be down is sent nothing');
      await fake.setConnected(true);
      assert.deepEqual(await handle.result(), { status: 'sent' });
      const done = (await api.get(`/publications/${id}`)).body.data;
      assert.deepEqual([done.deliveries[0].status, done.deliveries[0].attempts], ['sent', 1]);
      assert.equal(fake.sent.filter((m) => m.to === address).length, 1);
    });

    test('a session down without a report: one check per back-off for all the waiting sends, no attempt spent, sent once it is back', async () => {
      const segment = (await api.post('/segments', { name: `Queda ${flavor}` })).body.data;
      const addresses = Array.from({ length: 4 }, () => `1203630610${++n}@g.us`);
      for (const [i, address] of addresses.entries())
        await createGroup(app.db, tenant, {
          name: `Queda ${flavor} ${i}`,
          segment_id: segment.id,
          channel: { id: channelId, type: flavor, address },
          minIntervalMs: 0,
        });
      const offer = (await api.post('/offers', { url: `https://shop.example/wa/down/${flavor}/${++n}`, title: 'Liquidificador' })).body.data;
      fake.connected = false; // the gateway tells nobody: offerops learns it from a refused send
      const checksBefore = fake.stateChecks.length;
      const id = (await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id })).body.data.publications[0].id;
      const state = () => publicationState(api, id, app.temporal.client);
      const attempts = async () =>
        ((await api.get(`/publications/${id}`)).body.data.deliveries as { attempts: number }[]).map((d) => d.attempts);
      const tried = () => fake.requests.filter((r) => addresses.includes(r.to)).length;

      // The first sends are refused as not connected: the channel is marked down, and its first check is 10 s later.
      await waitFor(
        'the session to be found down',
        async () => ((await channelDoc())?.state === 'disconnected' ? true : undefined),
        30_000,
        state,
      );
      await waitFor('the first check of the session', async () => (fake.stateChecks.length > checksBefore ? true : undefined), 30_000, state);
      assert.deepEqual(await attempts(), [0, 0, 0, 0], 'waiting for the session spends no attempt');
      // Sends already past their check when the first refusal marked the channel down are refused too: each group at most once.
      const whileDown = fake.requests.filter((r) => addresses.includes(r.to)).map((r) => r.to);
      assert.ok(whileDown.length >= 1 && new Set(whileDown).size === whileDown.length, `refused while down: ${whileDown.join(', ')}`);
      fake.connected = true; // back, still without a word: the next check, 20 s after the first, finds it
      const done = await waitFor(
        'the publication to be sent',
        async () => {
          const p = (await api.get(`/publications/${id}`)).body.data;
          return p.status === 'sent' ? p : undefined;
        },
        60_000,
        state,
      );
      const checks = fake.stateChecks.slice(checksBefore);
      assert.equal(checks.length, 2, 'one check per back-off, whatever the number of sends waiting');
      assert.ok(checks[1]! - checks[0]! >= 19_500, `the second check ${checks[1]! - checks[0]!} ms after the first (20 s)`);
      assert.equal(tried() - whileDown.length, addresses.length, 'nothing was sent while the session was down; each group once after');
      assert.deepEqual(
        fake.sent
          .filter((m) => addresses.includes(m.to))
          .map((m) => m.to)
          .sort(),
        [...addresses].sort(),
      );
      assert.deepEqual(
        done.deliveries.map((d: { status: string; attempts: number }) => [d.status, d.attempts]),
        addresses.map(() => ['sent', 1]),
      );
    });
  });
}
