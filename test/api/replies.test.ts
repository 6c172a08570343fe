/**
 * Issue 10 section 2, replies: `POST /inbox/conversations/{id}/reply` records
 * a queued outbound message and its workflow `reply-<msg>` (a worker in this
 * process with the real activities) delivers it through the channel's
 * gateway (a fake one on loopback) with the pacing and retries of
 * publications; the message moves to sent or failed with its event; closed
 * conversations and unusable channels are 409s; the workflow carries ids only.
 * The conversation's way in and the reply's way out go through each gateway
 * connector alike (our http protocol, Evolution API, WAHA).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { connectChannel, removeChannel } from '../../domain/channels/service';
import { getChannel, saveChannel } from '../../domain/channels/store';
import { queueReply } from '../../domain/inbox/replies';
import { secretKeyFromEnv } from '../../domain/sealing';
import { WorkflowFailedError } from '@temporalio/client';
import { OfferopsState, replyWorkflowId } from '../../temporal/names';
import { ApiClient } from '../helpers/client';
import { FakeGateway, startFakeGateway } from '../helpers/fake-gateway';
import { connectTo, GATEWAY_TYPES, GatewayType, startTestGateway, TestGateway } from '../helpers/gateways';
import { seedTenant, startTestApp, Tenant, TestApp } from '../helpers/stack';
import { historyText, startTestWorker } from '../helpers/worker';
import { waitFor } from '../helpers/wait';
import { eventsState, messagesState, tailOf } from '../helpers/states';

const taskQueue = `test-replies-${randomBytes(4).toString('hex')}`;
let app: TestApp;
let worker: { stop(): Promise<void> };
let gateway: FakeGateway;
const gateways = new Map<GatewayType, TestGateway>();

before(async () => {
  app = await startTestApp({ taskQueue });
  worker = await startTestWorker(app, taskQueue);
  gateway = await startFakeGateway({ token: 'gw-token' });
  for (const type of GATEWAY_TYPES) gateways.set(type, await startTestGateway(type));
});
after(async () => {
  await worker.stop();
  await Promise.all([gateway.close(), ...[...gateways.values()].map((g) => g.close())]);
  await app.close();
});

const tenantOf = (t: Tenant) => ({ accountId: t.accountId, env: t.env });
let n = 0;

/** A tenant with an http channel to the fake gateway and one conversation started by an inbound message from `phone`. */
async function conversationWith(phone: string, opts: { minIntervalMs?: number; env?: 'live' | 'test' } = {}) {
  const tenant = await seedTenant(app.db, { env: opts.env ?? 'live' });
  const { channel, inboundSecret } = await connectChannel(
    app.db,
    tenantOf(tenant),
    { type: 'http', url: gateway.url, token: 'gw-token', name: `Gateway ${++n}`, minIntervalMs: opts.minIntervalMs ?? 0 },
    secretKeyFromEnv,
  );
  const res = await fetch(`${app.origin}/inbound/${channel._id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${inboundSecret}` },
    body: JSON.stringify({ id: `wamid.${n}`, from: phone, name: 'Ana', text: 'Oi!' }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  const { data } = (await res.json()) as { data: { conversation_id: string } };
  return { tenant, api: new ApiClient(app.baseUrl, tenant.apiKey), channelId: channel._id, conversationId: data.conversation_id };
}

/** The same for a channel to `through`, the conversation started the way that gateway brings a contact's message in. */
async function conversationThrough(through: TestGateway, phone: string, opts: { minIntervalMs?: number } = {}) {
  const tenant = await seedTenant(app.db);
  const channel = await connectTo(through, { db: app.db, origin: app.origin, secretKey: secretKeyFromEnv() }, tenantOf(tenant), {
    name: `Gateway ${++n}`,
    ...opts,
  });
  const res = await channel.receive({ from: phone, name: 'Ana', text: 'Oi!' });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return {
    tenant,
    api: new ApiClient(app.baseUrl, tenant.apiKey),
    channelId: channel.id,
    conversationId: res.body.data.conversation_id as string,
  };
}

const messageOf = (api: ApiClient, conversationId: string, id: string) =>
  api.get(`/inbox/conversations/${conversationId}/messages`).then((r) => r.body.data.find((m: { id: string }) => m.id === id));

const settled = (api: ApiClient, conversationId: string, id: string) =>
  waitFor(
    `message ${id} to leave queued`,
    async () => {
      const m = await messageOf(api, conversationId, id);
      return m && m.status !== 'queued' ? m : undefined;
    },
    30_000,
    async () => `${await messagesState(api, conversationId)}\n${await tailOf(app.temporal.client.workflow.getHandle(replyWorkflowId(id)))}`,
  );

const eventsOf = (t: Tenant, kind: string) =>
  app.db.collection('events').find({ account_id: t.accountId, kind }).sort({ _id: 1 }).toArray() as Promise<any[]>;

// The way in and the way out through each gateway connector, with the same assertions.
for (const type of GATEWAY_TYPES) {
  describe(`a reply through a ${type} channel`, () => {
    const through = () => gateways.get(type)!;

    test('a text reply is queued, delivered once to the contact through the gateway, then sent with message.sent; no number leaves the API', async () => {
      const phone = '5511911110001@s.whatsapp.net';
      const { tenant, api, conversationId } = await conversationThrough(through(), phone);
      const res = await api.post(`/inbox/conversations/${conversationId}/reply`, { text: 'Tem sim! R$ 149,90', agent: 'Carla' });
      assert.equal(res.status, 202);
      const queued = res.body.data;
      assert.match(queued.id, /^msg_/);
      assert.deepEqual(
        [queued.status, queued.direction, queued.author, queued.agent, queued.sent_at],
        ['queued', 'outbound', 'team', 'Carla', null],
      );

      const sent = await settled(api, conversationId, queued.id);
      assert.equal(sent.status, 'sent');
      assert.equal(sent.error, null);
      assert.ok(sent.sent_at);
      assert.deepEqual(
        through()
          .delivered(phone)
          .map((m) => m.text),
        ['Tem sim! R$ 149,90'],
      );
      // The event is written with the status (the message's outbox) and relayed to events just after: wait for the relay.
      const event = await waitFor(
        'message.sent',
        async () => (await eventsOf(tenant, 'message.sent'))[0],
        30_000,
        () => eventsState(app.db, { account_id: tenant.accountId }),
      );
      assert.equal(event?.data.message.id, queued.id);
      assert.equal(event?.data.message.status, 'sent');

      const conversation = await api.get(`/inbox/conversations/${conversationId}`);
      assert.equal(conversation.body.data.status, 'pending');
      assert.equal(conversation.body.data.unread_count, 0);
      assert.equal(conversation.body.data.last_message_preview, 'Tem sim! R$ 149,90');
      const shown = [
        conversation.text,
        (await api.get(`/inbox/conversations/${conversationId}/messages`)).text,
        (await api.get('/inbox/contacts')).text,
      ];
      for (const text of shown) assert.ok(!text.includes('5511911110001'), 'the number left the API');

      // The workflow carries ids only: neither its input nor the send's result (the gateway's message id) holds the address.
      const handle = app.temporal.client.workflow.getHandle(replyWorkflowId(queued.id));
      assert.equal((await handle.result()).status, 'sent');
      assert.ok(!(await historyText(handle)).includes('5511911110001'), 'the address is in the history');
    });

    test('a refusal of the gateway fails the reply with its reason and message.failed; a transient error is retried', async () => {
      const refused = '5511911110003@s.whatsapp.net';
      const a = await conversationThrough(through(), refused);
      through().failTo(refused, 400);
      const res = await a.api.post(`/inbox/conversations/${a.conversationId}/reply`, { text: 'não vai' });
      const failed = await settled(a.api, a.conversationId, res.body.data.id);
      assert.equal(failed.status, 'failed');
      assert.match(failed.error, through().refusal);
      // The event is relayed to the events collection just after the message's own write.
      const event = await waitFor(
        'message.failed',
        async () => (await eventsOf(a.tenant, 'message.failed'))[0],
        30_000,
        () => eventsState(app.db, { account_id: a.tenant.accountId }),
      );
      assert.equal(event.data.message.error, failed.error);
      assert.ok(!JSON.stringify(event).includes(refused.split('@')[0]!));
      // Its workflow failed, saying why; OfferopsState says failed.
      const handle = app.temporal.client.workflow.getHandle(replyWorkflowId(failed.id));
      await assert.rejects(handle.result(), (err: unknown) => {
        assert.ok(err instanceof WorkflowFailedError);
        assert.equal(err.cause?.message, `the reply was not delivered: ${failed.error}`);
        return true;
      });
      assert.equal((await handle.describe()).typedSearchAttributes.get(OfferopsState), 'failed');

      const flaky = '5511911110004@s.whatsapp.net';
      const b = await conversationThrough(through(), flaky);
      through().failNext(1, 503);
      const retried = await b.api.post(`/inbox/conversations/${b.conversationId}/reply`, { text: 'vai na segunda' });
      assert.equal((await settled(b.api, b.conversationId, retried.body.data.id)).status, 'sent');
      assert.equal(through().requestsTo(flaky).length, 2);
      assert.equal(through().delivered(flaky).length, 1);
    });

    test("replies on a paced channel reach the gateway at least the channel's interval apart", async () => {
      const phone = '5511911110005@s.whatsapp.net';
      const { api, conversationId } = await conversationThrough(through(), phone, { minIntervalMs: 1000 });
      const ids: string[] = [];
      for (const text of ['um', 'dois', 'três'])
        ids.push((await api.post(`/inbox/conversations/${conversationId}/reply`, { text })).body.data.id);
      for (const id of ids) assert.equal((await settled(api, conversationId, id)).status, 'sent');
      const times = through()
        .requestsTo(phone)
        .map((r) => r.at)
        .sort((x, y) => x - y);
      assert.equal(times.length, 3);
      for (let i = 1; i < times.length; i++) assert.ok(times[i]! - times[i - 1]! >= 1000, `gap ${times[i]! - times[i - 1]!} ms`);
    });
  });
}

describe('POST /inbox/conversations/{id}/reply', () => {
  test('a template reply with an image renders the offer and sends the image', async () => {
    const phone = '5511911110002@s.whatsapp.net';
    const { api, conversationId } = await conversationWith(phone);
    const offer = (await api.post('/offers', { url: 'https://shop.example/p/reply', title: 'Cafeteira', price: 149.9 })).body.data;
    const template = (await api.post('/templates', { name: 'Resposta', body: 'Oferta: {title}\nCupom: {coupon}', format: 'plain' })).body.data;
    const res = await api.post(`/inbox/conversations/${conversationId}/reply`, {
      template_id: template.id,
      offer_id: offer.id,
      media_urls: ['https://cdn.example/cafeteira.jpg'],
    });
    assert.equal(res.status, 202);
    assert.equal(res.body.data.text, 'Oferta: Cafeteira');
    assert.equal(res.body.data.template_id, template.id);
    assert.equal(res.body.data.media_type, 'image');
    assert.equal((await settled(api, conversationId, res.body.data.id)).status, 'sent');
    const [delivered] = gateway.messages(phone);
    assert.equal(delivered?.image_url, 'https://cdn.example/cafeteira.jpg');
    assert.equal(delivered?.text, 'Oferta: Cafeteira');
  });

  test('test keys reply through the sandbox: sent, nothing reaches the gateway', async () => {
    const phone = '5511911110006@s.whatsapp.net';
    const { api, conversationId } = await conversationWith(phone, { env: 'test' });
    const res = await api.post(`/inbox/conversations/${conversationId}/reply`, { text: 'sandbox' });
    assert.equal((await settled(api, conversationId, res.body.data.id)).status, 'sent');
    assert.equal(gateway.requests.filter((r) => r.to === phone).length, 0);
    const recorded = JSON.stringify(await app.db.collection('sandbox_messages').find({}).toArray());
    assert.ok(!recorded.includes(phone.split('@')[0]!));
  });

  test('a closed conversation is a 409 conversation_closed; a deleted or unusable channel a 409 channel_unavailable', async () => {
    const a = await conversationWith('5511911110007@s.whatsapp.net');
    assert.equal((await a.api.post(`/inbox/conversations/${a.conversationId}/close`, {})).status, 200);
    const closed = await a.api.post(`/inbox/conversations/${a.conversationId}/reply`, { text: 'x' });
    assert.equal(closed.status, 409);
    assert.equal(closed.body.code, 'conversation_closed');

    const b = await conversationWith('5511911110008@s.whatsapp.net');
    const channel = (await getChannel(app.db, tenantOf(b.tenant), b.channelId))!;
    assert.ok(await saveChannel(app.db, tenantOf(b.tenant), channel, { url: null }));
    const noUrl = await b.api.post(`/inbox/conversations/${b.conversationId}/reply`, { text: 'x' });
    assert.equal(noUrl.status, 409);
    assert.equal(noUrl.body.code, 'channel_unavailable');
    assert.match(noUrl.body.message, /no gateway URL/);
    await removeChannel(app.db, tenantOf(b.tenant), b.channelId);
    const gone = await b.api.post(`/inbox/conversations/${b.conversationId}/reply`, { text: 'x' });
    assert.equal(gone.status, 409);
    assert.equal(gone.body.code, 'channel_unavailable');
    assert.match(gone.body.message, /deleted/);
    const outbound = await app.db.collection('messages').countDocuments({ account_id: b.tenant.accountId, direction: 'outbound' });
    assert.equal(outbound, 0);
  });

  test('bad bodies are 400s naming the field; unknown ids 400 unknown_reference or 404', async () => {
    const { api, conversationId } = await conversationWith('5511911110009@s.whatsapp.net');
    const both = await api.post(`/inbox/conversations/${conversationId}/reply`, { text: 'x', template_id: 'tpl_0000000000000000' });
    assert.equal(both.status, 400);
    assert.equal(both.body.code, 'validation_failed');
    const twoImages = await api.post(`/inbox/conversations/${conversationId}/reply`, {
      text: 'x',
      media_urls: ['https://cdn.example/1.jpg', 'https://cdn.example/2.jpg'],
    });
    assert.equal(twoImages.status, 400);
    const unknownTemplate = await api.post(`/inbox/conversations/${conversationId}/reply`, { template_id: 'tpl_0000000000000000' });
    assert.equal(unknownTemplate.status, 400);
    assert.equal(unknownTemplate.body.code, 'unknown_reference');
    assert.equal(unknownTemplate.body.details[0].field, 'template_id');
    const missing = await api.post('/inbox/conversations/cnv_0000000000000000/reply', { text: 'x' });
    assert.equal(missing.status, 404);
  });

  test('queueReply (what a journey calls) records an automation message and delivers it the same way', async () => {
    const phone = '5511911110010@s.whatsapp.net';
    const { tenant, api, conversationId } = await conversationWith(phone);
    const message = await queueReply({ db: app.db, temporal: { client: app.temporal.client, taskQueue } }, tenantOf(tenant), conversationId, {
      text: 'Bem-vinda!',
      author: 'journey',
    });
    assert.equal(message.author, 'automation');
    assert.equal((await settled(api, conversationId, message._id)).status, 'sent');
    assert.equal(gateway.messages(phone)[0]?.text, 'Bem-vinda!');
  });

  test('queueReply with an idempotency key (a retried journey send) queues one message and delivers it once', async () => {
    const phone = '5511911110011@s.whatsapp.net';
    const { tenant, api, conversationId } = await conversationWith(phone);
    const deps = { db: app.db, temporal: { client: app.temporal.client, taskQueue } };
    const input = { text: 'Só uma vez', author: 'journey' as const, idempotency_key: `journey-test/${++n}/1` };
    const first = await queueReply(deps, tenantOf(tenant), conversationId, input);
    const again = await queueReply(deps, tenantOf(tenant), conversationId, input);
    assert.equal(again._id, first._id);
    assert.equal((await settled(api, conversationId, first._id)).status, 'sent');
    const other = await queueReply(deps, tenantOf(tenant), conversationId, { ...input, idempotency_key: `journey-test/${n}/2` });
    assert.notEqual(other._id, first._id);
    await settled(api, conversationId, other._id);
    const outbound = (await api.get(`/inbox/conversations/${conversationId}/messages`)).body.data.filter(
      (m: { direction: string }) => m.direction === 'outbound',
    );
    assert.equal(outbound.length, 2);
    assert.deepEqual(
      gateway.messages(phone).map((m) => m.text),
      ['Só uma vez', 'Só uma vez'],
    );
  });
});
