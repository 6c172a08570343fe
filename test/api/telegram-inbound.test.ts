/**
 * Issue 10 section 1, Telegram: a telegram channel's updates arrive on
 * `POST /inbound/{channel_id}` authenticated by the
 * `X-Telegram-Bot-Api-Secret-Token` header (the inbound secret given to
 * setWebhook); a message makes its contact and conversation like a gateway's
 * (user and chat ids sealed), a redelivered update stores nothing new,
 * updates without a text message are taken and skipped, and a reply goes
 * back through the Bot API (a fake one on loopback) to the chat.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { connectChannel } from '../../domain/channels/service';
import { secretKeyFromEnv } from '../../domain/sealing';
import { ApiClient } from '../helpers/client';
import { FakeTelegram, startFakeTelegram } from '../helpers/fake-telegram';
import { seedTenant, startTestApp, Tenant, TestApp } from '../helpers/stack';
import { startTestWorker } from '../helpers/worker';
import { waitFor } from '../helpers/wait';
import { messagesState, receivedState } from '../helpers/states';

const taskQueue = `test-telegram-in-${randomBytes(4).toString('hex')}`;
let app: TestApp;
let worker: { stop(): Promise<void> };
let telegram: FakeTelegram;
let tenant: Tenant;
let api: ApiClient;
let channelId: string;
let secret: string;

const USER_ID = 987654321;
const GROUP_CHAT = -1001234567890;

before(async () => {
  app = await startTestApp({ taskQueue });
  worker = await startTestWorker(app, taskQueue);
  telegram = await startFakeTelegram();
  tenant = await seedTenant(app.db);
  api = new ApiClient(app.baseUrl, tenant.apiKey);
  const made = await connectChannel(
    app.db,
    { accountId: tenant.accountId, env: tenant.env },
    { type: 'telegram', url: telegram.url, token: '42:BOT', name: 'Bot', minIntervalMs: 0 },
    secretKeyFromEnv,
  );
  channelId = made.channel._id;
  secret = made.inboundSecret!;
});
after(async () => {
  await worker.stop();
  await telegram.close();
  await app.close();
});

let updateId = 1000;
const update = (message: Record<string, unknown>) => ({ update_id: ++updateId, message });
const privateMessage = (id: number, text: string) => ({
  message_id: id,
  from: { id: USER_ID, is_bot: false, first_name: 'Ana', last_name: 'Souza', username: 'anasouza' },
  chat: { id: USER_ID, type: 'private', first_name: 'Ana' },
  date: 1_790_000_000,
  text,
});

async function post(body: unknown, headers: Record<string, string> = { 'x-telegram-bot-api-secret-token': secret }) {
  const res = await fetch(`${app.origin}/inbound/${channelId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), text };
}

describe('Telegram updates on POST /inbound/{channel_id}', () => {
  test('a private message makes a telegram contact and conversation; a redelivered update stores nothing new', async () => {
    const first = await post(update(privateMessage(1, 'Oi, bot')));
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.created, true);
    const conversation = (await api.get(`/inbox/conversations/${first.body.data.conversation_id}`)).body.data;
    assert.equal(conversation.channel, 'telegram');
    assert.equal(conversation.channel_id, channelId);
    assert.equal(conversation.contact.display_name, 'Ana Souza');
    assert.deepEqual(conversation.contact.channels, ['telegram']);
    assert.equal(conversation.last_messages[0].text, 'Oi, bot');
    assert.equal(conversation.last_messages[0].sent_at, new Date(1_790_000_000_000).toISOString());

    const again = await post({ update_id: updateId, message: privateMessage(1, 'Oi, bot') });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body.data, first.body.data);
    assert.equal(await app.db.collection('messages').countDocuments({ account_id: tenant.accountId }), 1);

    // The ids are sealed like any address: no record or event but the sealed one holds them.
    for (const coll of ['contacts', 'conversations', 'messages', 'events']) {
      const docs = JSON.stringify(await app.db.collection(coll).find({ account_id: tenant.accountId }).toArray());
      assert.ok(!docs.includes(String(USER_ID)), `${coll} holds the user id`);
    }
  });

  test('a group message belongs to the group conversation; a caption is its text; other updates are taken and skipped', async () => {
    const inGroup = await post(
      update({
        message_id: 7,
        from: { id: USER_ID, is_bot: false, first_name: 'Ana' },
        chat: { id: GROUP_CHAT, type: 'supergroup', title: 'Ofertas' },
        date: 1_790_000_100,
        caption: 'Olha essa',
        photo: [{ file_id: 'AgAD', width: 90, height: 90 }],
      }),
    );
    assert.equal(inGroup.status, 201, inGroup.text);
    const direct = (await api.get('/inbox/conversations?channel=telegram')).body.data;
    assert.equal(direct.length, 2);
    assert.equal((await api.get(`/inbox/conversations/${inGroup.body.data.conversation_id}`)).body.data.last_messages[0].text, 'Olha essa');

    const before = await app.db.collection('messages').countDocuments({ account_id: tenant.accountId });
    const sticker = await post(
      update({ message_id: 8, from: { id: USER_ID }, chat: { id: USER_ID, type: 'private' }, sticker: { file_id: 'x' } }),
    );
    assert.equal(sticker.status, 200);
    assert.deepEqual(sticker.body.data, { ignored: true });
    const edited = await post({ update_id: ++updateId, edited_message: privateMessage(1, 'editado') });
    assert.equal(edited.status, 200);
    assert.equal(await app.db.collection('messages').countDocuments({ account_id: tenant.accountId }), before);
  });

  test('a wrong or missing secret token is a 401; a body that is no Update a 400', async () => {
    const wrong = await post(update(privateMessage(20, 'x')), { 'x-telegram-bot-api-secret-token': 'oo_in_wrong' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.code, 'invalid_api_key');
    assert.equal((await post(update(privateMessage(21, 'x')), {})).status, 401);
    const notUpdate = await post({ hello: 'world' });
    assert.equal(notUpdate.status, 400);
    assert.equal(notUpdate.body.details[0].field, 'update_id');
    const noChat = await post(update({ message_id: 22, text: 'x' }));
    assert.equal(noChat.status, 400);
    assert.equal(noChat.body.details[0].field, 'message.chat');
  });

  test('a reply goes back through the Bot API to the chat', async () => {
    const { body } = await post(update(privateMessage(30, 'Tem cupom?')));
    const reply = (await api.post(`/inbox/conversations/${body.data.conversation_id}/reply`, { text: 'Tem: CAFE10' })).body.data;
    const sent = await waitFor(
      'the reply to be sent',
      async () => {
        const m = (await api.get(`/inbox/conversations/${body.data.conversation_id}/messages`)).body.data.find(
          (x: { id: string }) => x.id === reply.id,
        );
        return m.status === 'queued' ? undefined : m;
      },
      30_000,
      async () =>
        `${await messagesState(api, body.data.conversation_id)}\n${receivedState(
          'the Bot API',
          telegram.calls.map((c) => [c.method, c.path]),
        )}`,
    );
    assert.equal(sent.status, 'sent');
    const call = telegram.calls.find((c) => c.method === 'sendMessage' && c.body.text === 'Tem: CAFE10');
    assert.equal(call?.path, '/bot42:BOT/sendMessage');
    assert.equal(call?.body.chat_id, String(USER_ID));
  });
});
