/**
 * Issue 10 sections 1 and 2: inbound messages of the `http` gateway protocol —
 * the channel's own secret, idempotency by the channel's message id, the
 * contact and conversation a message makes, their events, and addresses
 * kept sealed out of every record and event; the inbox's read side (lists,
 * context, message history with keyset pages) without any address; PATCH,
 * close and the reopening by a new inbound message.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { connectChannel, rotateInboundSecret } from '../../domain/channels/service';
import { ApiClient } from '../helpers/client';
import { seedTenant, startTestApp, Tenant, TestApp } from '../helpers/stack';

let app: TestApp;
let me: Tenant;
let channelId: string;
let secret: string;

const PHONE = '5511987654321@s.whatsapp.net';
const OTHER_PHONE = '5511912345678@s.whatsapp.net';
const GROUP = '120363012345678901@g.us';

const tenantOf = (t: Tenant) => ({ accountId: t.accountId, env: t.env });

before(async () => {
  app = await startTestApp();
  me = await seedTenant(app.db);
  const made = await connectChannel(app.db, tenantOf(me), { type: 'http', url: 'http://127.0.0.1:1', name: 'Gateway' }, () => {
    throw new Error('no token: no key needed');
  });
  channelId = made.channel._id;
  secret = made.inboundSecret!;
});
after(() => app.close());

interface Answer {
  status: number;
  body: any;
  text: string;
}

async function post(body: unknown, opts: { channel?: string; secret?: string | null; raw?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const bearer = opts.secret === undefined ? secret : opts.secret;
  if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
  const res = await fetch(`${app.origin}/inbound/${opts.channel ?? channelId}`, {
    method: 'POST',
    headers,
    body: opts.raw ?? JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), text };
}

let n = 0;
const messageId = () => `wamid.${Date.now()}.${++n}`;
const events = (kind: string) => app.db.collection('events').find({ account_id: me.accountId, kind }).toArray() as Promise<any[]>;
const eventsOf = (t: Tenant, kind: string) =>
  app.db.collection('events').find({ account_id: t.accountId, kind }).sort({ _id: 1 }).toArray() as Promise<any[]>;
const count = (coll: string) => app.db.collection(coll).countDocuments({ account_id: me.accountId });

describe('POST /inbound/{channel_id}', () => {
  test('connect shows an inbound secret once and keeps only its hash', async () => {
    assert.match(secret, /^oo_in_[A-Za-z0-9]{40}$/);
    const doc = await app.db.collection('channels').findOne({ _id: channelId as never });
    assert.ok(doc?.inbound_secret_hash);
    assert.ok(!JSON.stringify(doc).includes(secret));
  });

  test('a first message makes the contact, the conversation and the message, with their events', async () => {
    const id = messageId();
    const res = await post({ id, from: PHONE, name: 'Ana', text: 'Oi, ainda tem a cafeteira?' });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.created, true);
    assert.match(res.body.data.message_id, /^msg_/);
    assert.match(res.body.data.conversation_id, /^cnv_/);
    assert.match(res.body.request_id, /^req_/);

    const [contactEvent] = await events('contact.created');
    assert.equal(contactEvent?.data.contact.display_name, 'Ana');
    assert.equal(contactEvent?.data.contact.stage, 'new');
    const [created] = await events('conversation.created');
    assert.equal(created?.data.conversation.id, res.body.data.conversation_id);
    assert.equal(created?.data.conversation.channel, 'whatsapp');
    assert.equal(created?.data.conversation.channel_id, channelId);
    assert.equal(created?.data.conversation.status, 'open');
    const [received] = await events('message.received');
    assert.equal(received?.data.message.id, res.body.data.message_id);
    assert.equal(received?.data.message.text, 'Oi, ainda tem a cafeteira?');
    assert.equal(received?.data.message.direction, 'inbound');
    assert.equal(received?.data.message.status, 'received');
    assert.equal(received?.data.contact_id, contactEvent?.data.contact.id);
    const updated = (await events('conversation.updated')).filter((e) => e.data.conversation.id === res.body.data.conversation_id);
    assert.equal(updated.length, 1);
    assert.equal(updated[0].data.conversation.unread_count, 1);
    assert.equal(updated[0].data.conversation.last_message_preview, 'Oi, ainda tem a cafeteira?');

    const contact = await app.db.collection('contacts').findOne({ _id: contactEvent.data.contact.id });
    assert.equal(contact?.conversation_count, 1);
    assert.ok(contact?.last_seen_at instanceof Date);
  });

  test('a repeated message id answers 200 and stores nothing new', async () => {
    const id = messageId();
    const first = await post({ id, from: PHONE, text: 'primeira' });
    assert.equal(first.status, 201, first.text);
    const before = await Promise.all(['messages', 'events', 'contacts', 'conversations', 'addresses'].map(count));
    const again = await post({ id, from: PHONE, text: 'primeira' });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.created, false);
    assert.deepEqual(again.body.data, first.body.data);
    assert.deepEqual(await Promise.all(['messages', 'events', 'contacts', 'conversations', 'addresses'].map(count)), before);
  });

  test('the same sender keeps one contact and one conversation; a group is a conversation of its own', async () => {
    const a = await post({ id: messageId(), from: OTHER_PHONE, name: 'Bia', text: 'um' });
    const b = await post({ id: messageId(), from: OTHER_PHONE, text: 'dois' });
    assert.equal(b.body.data.conversation_id, a.body.data.conversation_id);
    const inGroup = await post({
      id: messageId(),
      from: OTHER_PHONE,
      group: GROUP,
      text: 'no grupo',
      media_urls: ['https://cdn.example/p.jpg'],
    });
    assert.equal(inGroup.status, 201, inGroup.text);
    assert.notEqual(inGroup.body.data.conversation_id, a.body.data.conversation_id);
    const conversation = await app.db.collection('conversations').findOne({ _id: a.body.data.conversation_id });
    assert.equal(conversation?.unread_count, 2);
    assert.equal(conversation?.last_message_preview, 'dois');
    const contactIds = new Set(
      (
        await app.db
          .collection('messages')
          .find({ _id: { $in: [a, b, inGroup].map((r) => r.body.data.message_id) } })
          .toArray()
      ).map((m) => m.contact_id),
    );
    assert.equal(contactIds.size, 1);
    const contact = await app.db.collection('contacts').findOne({ _id: [...contactIds][0] });
    assert.equal(contact?.display_name, 'Bia');
    assert.equal(contact?.conversation_count, 2);
    const media = await app.db.collection('messages').findOne({ _id: inGroup.body.data.message_id });
    assert.deepEqual(media?.media_urls, ['https://cdn.example/p.jpg']);
  });

  test('addresses are sealed apart: no record or event but the sealed one holds them', async () => {
    for (const coll of ['contacts', 'conversations', 'messages', 'events', 'channels']) {
      const text = JSON.stringify(await app.db.collection(coll).find({}).toArray());
      for (const address of [PHONE, OTHER_PHONE, GROUP, '5511987654321', '120363012345678901']) {
        assert.ok(!text.includes(address), `${address} in ${coll}`);
      }
    }
    const sealed = await app.db.collection('addresses').find({}).toArray();
    assert.ok(sealed.length >= 3);
    for (const a of sealed) {
      assert.match(a.sealed, /^v1\./);
      assert.ok(![PHONE, OTHER_PHONE, GROUP].some((x) => JSON.stringify(a).includes(x)));
    }
  });

  test('a wrong secret, an unknown channel and a missing bearer answer 401 alike; a rotated secret replaces the old', async () => {
    const body = { id: messageId(), from: PHONE, text: 'x' };
    const wrong = await post(body, { secret: 'oo_in_wrong' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.code, 'invalid_api_key');
    const unknown = await post(body, { channel: 'chn_doesnotexist' });
    assert.equal(unknown.status, 401);
    assert.equal(unknown.body.message, wrong.body.message);
    const none = await post(body, { secret: null });
    assert.equal(none.status, 401);
    assert.equal(none.body.code, 'missing_api_key');
    const fresh = await rotateInboundSecret(app.db, tenantOf(me), channelId);
    assert.equal((await post(body)).status, 401);
    secret = fresh;
    assert.equal((await post(body)).status, 201);
  });

  test('a body outside the protocol is a 400 naming the field; nothing is stored', async () => {
    const before = await count('messages');
    for (const [body, field] of [
      [{ from: PHONE, text: 'x' }, 'id'],
      [{ id: messageId(), text: 'x' }, 'from'],
      [{ id: messageId(), from: PHONE, text: 'x', phone: '55' }, 'phone'],
      [{ id: messageId(), from: PHONE, media_urls: ['not a url'] }, 'media_urls.0'],
    ] as const) {
      const res = await post(body);
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 'validation_failed');
      assert.ok(
        res.body.details.some((d: { field: string }) => d.field === field),
        res.text,
      );
      assert.ok(!res.text.includes(PHONE));
    }
    const empty = await post({ id: messageId(), from: PHONE });
    assert.equal(empty.status, 400, empty.text);
    assert.equal((await post(undefined, { raw: '{' })).body.code, 'malformed_json');
    assert.equal(await count('messages'), before);
  });
});

describe('the inbox read side', () => {
  let other: Tenant;
  let api: ApiClient;
  let inbox: { channel: string; secret: string };
  const SENDER = '5521900000001@s.whatsapp.net';
  const SENDER2 = '5521900000002@s.whatsapp.net';

  before(async () => {
    other = await seedTenant(app.db, { name: 'Inbox reader' });
    api = new ApiClient(app.baseUrl, other.apiKey);
    const made = await connectChannel(app.db, tenantOf(other), { type: 'http', url: 'http://127.0.0.1:1', name: 'Reader gateway' }, () => {
      throw new Error('no token: no key needed');
    });
    inbox = { channel: made.channel._id, secret: made.inboundSecret! };
  });
  const send = async (body: Record<string, unknown>) => {
    const res = await post({ id: messageId(), ...body }, { channel: inbox.channel, secret: inbox.secret });
    assert.equal(res.status, 201, res.text);
    return res.body.data as { message_id: string; conversation_id: string };
  };

  test('conversations: newest activity first, filters, and the context without any address', async () => {
    const first = await send({ from: SENDER, name: 'Caio', text: 'primeira conversa' });
    const second = await send({ from: SENDER2, name: 'Duda', text: 'segunda conversa', network: 'instagram' });
    const list = await api.get('/inbox/conversations');
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.data.map((c: any) => c.id),
      [second.conversation_id, first.conversation_id],
    );
    assert.equal(list.body.pagination.total, 2);
    await send({ from: SENDER, text: 'de novo' });
    assert.deepEqual(
      (await api.get('/inbox/conversations')).body.data.map((c: any) => c.id),
      [first.conversation_id, second.conversation_id],
    );
    assert.deepEqual(
      (await api.get('/inbox/conversations?channel=instagram')).body.data.map((c: any) => c.id),
      [second.conversation_id],
    );
    assert.equal((await api.get('/inbox/conversations?status=closed')).body.pagination.total, 0);
    assert.equal((await api.get('/inbox/conversations?status=open')).body.pagination.total, 2);
    assert.equal((await api.get('/inbox/conversations?status=lost')).status, 400);

    const ctx = await api.get(`/inbox/conversations/${first.conversation_id}`);
    assert.equal(ctx.status, 200, ctx.text);
    assert.equal(ctx.body.data.id, first.conversation_id);
    assert.equal(ctx.body.data.contact.display_name, 'Caio');
    assert.equal(ctx.body.data.contact.stage, 'new');
    assert.deepEqual(ctx.body.data.contact.channels, ['whatsapp']);
    assert.deepEqual(
      ctx.body.data.last_messages.map((m: any) => m.text),
      ['de novo', 'primeira conversa'],
    );
    assert.equal(ctx.body.data.unread_count, 2);
    for (const address of [SENDER, SENDER2, '5521900000001']) assert.ok(!ctx.text.includes(address) && !list.text.includes(address));
    assert.equal((await api.get('/inbox/conversations/cnv_0000000000000000000000')).status, 404);
    // Another tenant sees none of it.
    const stranger = new ApiClient(app.baseUrl, me.apiKey);
    assert.equal((await stranger.get(`/inbox/conversations/${first.conversation_id}`)).status, 404);
  });

  test('messages: newest first; keyset pages with `before` do not move while new messages arrive', async () => {
    const sent: string[] = [];
    let conversation = '';
    for (let i = 1; i <= 5; i++) {
      const r = await send({ from: '5521900000009@s.whatsapp.net', text: `m${i}` });
      sent.push(r.message_id);
      conversation = r.conversation_id;
    }
    const all = await api.get(`/inbox/conversations/${conversation}/messages`);
    assert.deepEqual(
      all.body.data.map((m: any) => m.text),
      ['m5', 'm4', 'm3', 'm2', 'm1'],
    );
    const page1 = await api.get(`/inbox/conversations/${conversation}/messages?limit=2`);
    assert.deepEqual(
      page1.body.data.map((m: any) => m.text),
      ['m5', 'm4'],
    );
    assert.equal(page1.body.pagination.has_more, true);
    await send({ from: '5521900000009@s.whatsapp.net', text: 'm6' });
    const page2 = await api.get(`/inbox/conversations/${conversation}/messages?limit=2&before=${page1.body.data[1].id}`);
    assert.deepEqual(
      page2.body.data.map((m: any) => m.text),
      ['m3', 'm2'],
    );
    const page3 = await api.get(`/inbox/conversations/${conversation}/messages?limit=2&before=${page2.body.data[1].id}`);
    assert.deepEqual(
      page3.body.data.map((m: any) => m.text),
      ['m1'],
    );
    assert.equal(page3.body.pagination.has_more, false);
    const unknown = await api.get(`/inbox/conversations/${conversation}/messages?before=msg_0000000000000000000000`);
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 'unknown_reference');
    assert.equal((await api.get('/inbox/conversations/cnv_0000000000000000000000/messages')).status, 404);
  });

  test('contacts: profile, stage, first/last seen, latest seen first; no phone or e-mail', async () => {
    await send({ from: 'ana.souza@example.com', name: 'Ana Souza', text: 'por e-mail', network: 'webchat' });
    const list = await api.get('/inbox/contacts');
    assert.equal(list.status, 200, list.text);
    const [latest] = list.body.data;
    assert.equal(latest.display_name, 'Ana Souza');
    assert.deepEqual(latest.channels, ['webchat']);
    assert.equal(latest.conversation_count, 1);
    assert.ok(latest.first_seen_at <= latest.last_seen_at);
    assert.ok(!list.text.includes('ana.souza@example.com') && !list.text.includes(SENDER));
    assert.deepEqual(
      (await api.get('/inbox/contacts?query=souza')).body.data.map((c: any) => c.display_name),
      ['Ana Souza'],
    );
    assert.deepEqual(
      (await api.get('/inbox/contacts?channel=instagram')).body.data.map((c: any) => c.display_name),
      ['Duda'],
    );
    assert.equal((await api.get('/inbox/contacts?stage=customer')).body.pagination.total, 0);
    assert.equal((await api.get('/inbox/contacts?query=.*')).body.pagination.total, 0);
  });

  test('PATCH assigns, prioritises, tags, sets DU mode and status; close records conversation.closed; a new message reopens', async () => {
    const from = '5521900000077@s.whatsapp.net';
    const { conversation_id: id } = await send({ from, text: 'quero falar com alguém' });
    const patched = await api.patch(`/inbox/conversations/${id}`, {
      assignee: 'Marina',
      priority: 'urgent',
      du_mode: 'off',
      tags: ['vip'],
      status: 'pending',
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(
      [patched.body.data.assignee, patched.body.data.priority, patched.body.data.du_mode, patched.body.data.tags, patched.body.data.status],
      ['Marina', 'urgent', 'off', ['vip'], 'pending'],
    );
    const updates = (await eventsOf(other, 'conversation.updated')).filter((e) => e.data.conversation.id === id);
    assert.deepEqual(updates.at(-1)?.data.changed.sort(), ['assignee', 'du_mode', 'priority', 'status', 'tags']);
    const unchanged = await api.patch(`/inbox/conversations/${id}`, { assignee: 'Marina' });
    assert.equal(unchanged.body.data.updated_at, patched.body.data.updated_at);
    assert.deepEqual(
      (await api.get('/inbox/conversations?assignee=Marina&priority=urgent')).body.data.map((c: any) => c.id),
      [id],
    );
    for (const bad of [{ priority: 'normal' }, { du_mode: 'manual' }, { status: 'closed' }, { assignee: '' }, { phone: '55' }]) {
      const res = await api.patch(`/inbox/conversations/${id}`, bad);
      assert.equal(res.status, 400, `${JSON.stringify(bad)}: ${res.text}`);
    }

    const closed = await api.post(`/inbox/conversations/${id}/close`, { reason: 'resolvido' });
    assert.equal(closed.status, 200, closed.text);
    assert.equal(closed.body.data.status, 'closed');
    assert.ok(closed.body.data.closed_at);
    const [event] = (await eventsOf(other, 'conversation.closed')).filter((e) => e.data.conversation.id === id);
    assert.equal(event?._id, closed.body.event_id);
    assert.equal(event?.data.reason, 'resolvido');
    const again = await api.post(`/inbox/conversations/${id}/close`);
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'conflict');
    assert.equal((await api.post('/inbox/conversations/cnv_0000000000000000000000/close')).status, 404);

    await send({ from, text: 'voltei' });
    const reopened = (await api.get(`/inbox/conversations/${id}`)).body.data;
    assert.equal(reopened.status, 'open');
    assert.equal(reopened.closed_at, null);
    assert.equal(reopened.assignee, 'Marina');
    const last = (await eventsOf(other, 'conversation.updated')).filter((e) => e.data.conversation.id === id).at(-1);
    assert.ok(last?.data.changed.includes('status'));
  });
});
