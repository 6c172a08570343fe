/** The channel connectors against real local servers: a gateway of our protocol and a Telegram Bot API stand-in. */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Db, MongoClient } from 'mongodb';
import { ConnectorError, connectorFor } from '../../domain/channels/connectors/index';
import type { OutboundMessage } from '../../domain/channels/connectors/types';
import { ChannelConfig } from '../../domain/channels/store';
import { startFakeGateway, FakeGateway } from '../helpers/fake-gateway';
import { startFakeTelegram } from '../helpers/fake-telegram';
import { stackEnv } from '../helpers/stack';

const TOKEN = 'gw-token-s3cr3t';
let gateway: FakeGateway;
let client: MongoClient;
let db: Db;

before(async () => {
  gateway = await startFakeGateway({ token: TOKEN });
  client = await MongoClient.connect(stackEnv().mongodbUri);
  db = client.db(`t_conn_${randomBytes(4).toString('hex')}`);
});
after(async () => {
  await gateway.close();
  await db.dropDatabase();
  await client.close();
});

const http = (token = TOKEN): ChannelConfig => ({ id: 'chn_x', type: 'http', url: gateway.url, token, minIntervalMs: 0 });

async function failure(p: Promise<unknown>): Promise<ConnectorError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ConnectorError, String(err));
    return err;
  }
  assert.fail('expected a failure');
}

test('http: sends our protocol with the idempotency key; the gateway deduplicates', async () => {
  const connector = connectorFor(http(), { db });
  const res = await connector.send({ to: '1203@g.us', text: 'Hello', imageUrl: 'https://img.example/a.png' }, 'pub_1:grp_1');
  assert.equal(res.providerMessageId, 'msg-pub_1:grp_1');
  await connector.send({ to: '1203@g.us', text: 'Hello' }, 'pub_1:grp_1');
  assert.equal(gateway.messages('1203@g.us').length, 1);
  assert.deepEqual(gateway.messages('1203@g.us')[0], {
    to: '1203@g.us',
    text: 'Hello',
    image_url: 'https://img.example/a.png',
    idempotency_key: 'pub_1:grp_1',
  });
});

test('http: without an image no image_url is sent; a gateway answer without id gives no provider id', async () => {
  const res = await connectorFor(http(), { db }).send({ to: 'plain@g.us', text: 'No picture' }, 'pub_2:grp_1');
  assert.equal(res.providerMessageId, 'msg-pub_2:grp_1');
  assert.deepEqual(gateway.messages('plain@g.us'), [{ to: 'plain@g.us', text: 'No picture', idempotency_key: 'pub_2:grp_1' }]);
  const bare = createServer((_req, res) => res.writeHead(202).end());
  bare.listen(0, '127.0.0.1');
  await once(bare, 'listening');
  try {
    const url = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
    assert.deepEqual(await connectorFor({ ...http(), url }, { db }).send({ to: 'a@g.us', text: 'x' }, 'k'), { providerMessageId: null });
  } finally {
    bare.close();
  }
});

test('http: 5xx, 429 and unreachable are transient; other 4xx permanent; no token or address in messages', async () => {
  gateway.failNext(1, 503);
  const unavailable = await failure(connectorFor(http(), { db }).send({ to: 'a@g.us', text: 'x' }, 'k1'));
  assert.equal(unavailable.permanent, false);
  assert.equal(unavailable.status, 503);
  assert.equal(unavailable.retryAfterMs, undefined);
  gateway.failNext(1, 429);
  const throttled = await failure(connectorFor(http(), { db }).send({ to: 'a@g.us', text: 'x' }, 'k2'));
  assert.equal(throttled.permanent, false);
  assert.equal(throttled.retryAfterMs, 1000, "the gateway's Retry-After is kept");
  const wrongToken = await failure(connectorFor(http('wrong'), { db }).send({ to: 'a@g.us', text: 'x' }, 'k3'));
  assert.equal(wrongToken.permanent, true);
  gateway.failTo('refused@g.us', 400);
  const refused = await failure(connectorFor(http(), { db }).send({ to: 'refused@g.us', text: 'x' }, 'k4'));
  assert.equal(refused.permanent, true);
  const down = await failure(connectorFor({ ...http(), url: 'http://127.0.0.1:1' }, { db }).send({ to: 'a@g.us', text: 'x' }, 'k5'));
  assert.equal(down.permanent, false);
  for (const err of [wrongToken, refused, down]) {
    assert.ok(!err.message.includes(TOKEN) && !err.message.includes('wrong') && !err.message.includes('@g.us'), err.message);
  }
});

test('http: a gateway slower than the timeout is transient', async () => {
  gateway.delayMs = 1000;
  try {
    const slow = await failure(connectorFor(http(), { db, timeoutMs: 100 }).send({ to: 'slow@g.us', text: 'x' }, 'k6'));
    assert.equal(slow.permanent, false);
    assert.match(slow.message, /did not answer in time/);
  } finally {
    gateway.delayMs = 0;
  }
});

test('telegram: sendMessage, sendPhoto with caption, error classes', async () => {
  const bot = await startFakeTelegram();
  const channel: ChannelConfig = { id: 'chn_t', type: 'telegram', url: bot.url, token: '123:ABC', minIntervalMs: 0 };
  const send = (text: string, extra: Partial<OutboundMessage> = {}) =>
    connectorFor(channel, { db }).send({ to: '-100200', text, ...extra }, 'k');
  try {
    const sent = await send('Oferta');
    assert.equal(sent.providerMessageId, '1');
    await send('Oferta', { imageUrl: 'https://img.example/b.png' });
    assert.deepEqual(
      bot.calls.map((c) => c.path),
      ['/bot123:ABC/sendMessage', '/bot123:ABC/sendPhoto'],
    );
    // No parse_mode for a text not written for Telegram: the rendered text goes as is.
    assert.deepEqual(bot.calls[0]!.body, { chat_id: '-100200', text: 'Oferta' });
    assert.deepEqual(bot.calls[1]!.body, { chat_id: '-100200', photo: 'https://img.example/b.png', caption: 'Oferta' });
    bot.answers.push({ status: 429, body: { ok: false, error_code: 429, parameters: { retry_after: 7 } } });
    const limited = await failure(send('x'));
    assert.equal(limited.permanent, false);
    assert.equal(limited.retryAfterMs, 7000);
    assert.match(limited.message, /retry after 7 s/);
    bot.answers.push({ status: 502, body: { ok: false, error_code: 502, description: 'Bad Gateway' } });
    assert.equal((await failure(send('x'))).permanent, false);
    bot.answers.push({ status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: chat -100200 not found' } });
    const missing = await failure(send('x'));
    assert.equal(missing.permanent, true);
    bot.answers.push({ status: 403, body: { ok: false, error_code: 403, description: 'bot was kicked' } });
    const kicked = await failure(send('x'));
    assert.equal(kicked.permanent, true);
    // The token is in the URL path; an unreachable API must not echo it either.
    const down = await failure(connectorFor({ ...channel, url: 'http://127.0.0.1:1' }, { db }).send({ to: '-100200', text: 'x' }, 'k'));
    assert.equal(down.permanent, false);
    for (const err of [limited, missing, kicked, down]) {
      assert.ok(!err.message.includes('123:ABC') && !err.message.includes('-100200'), err.message);
    }
  } finally {
    await bot.close();
  }
});

test('telegram: telegram_html goes with parse_mode HTML; the 4096 and 1024 limits are checked before sending', async () => {
  const bot = await startFakeTelegram();
  const channel: ChannelConfig = { id: 'chn_t', type: 'telegram', url: bot.url, token: '123:ABC', minIntervalMs: 0 };
  const send = (text: string, extra: Partial<OutboundMessage> = {}) => connectorFor(channel, { db }).send({ to: '-1', text, ...extra }, 'k');
  const image = 'https://img.example/p.png';
  try {
    await send('<b>Oferta</b> &amp; frete', { format: 'telegram_html' });
    await send('<b>Oferta</b>', { format: 'telegram_html', imageUrl: image });
    await send('*Oferta*', { format: 'markdown' });
    assert.deepEqual(
      bot.calls.map((c) => [c.method, c.body.parse_mode]),
      [
        ['sendMessage', 'HTML'],
        ['sendPhoto', 'HTML'],
        ['sendMessage', undefined],
      ],
    );
    // Telegram counts the text as shown: tags and entities do not count against the limits.
    const shown = 'a'.repeat(1024);
    await send(`<b>${shown}</b>`, { format: 'telegram_html', imageUrl: image });
    assert.equal(bot.calls.at(-1)!.method, 'sendPhoto');
    await send('x'.repeat(4096), { format: 'plain' });
    assert.equal(bot.calls.at(-1)!.method, 'sendMessage');
    // A caption over 1024: the text as a message, the image as its link preview.
    const long = 'y'.repeat(1025);
    await send(long, { imageUrl: image });
    assert.deepEqual(bot.calls.at(-1)!.body, {
      chat_id: '-1',
      text: long,
      link_preview_options: { url: image, prefer_large_media: true, show_above_text: true },
    });
    // Over 4096: never sent, and not worth retrying.
    const calls = bot.calls.length;
    const tooLong = await failure(send('z'.repeat(4097)));
    assert.equal(tooLong.permanent, true);
    assert.match(tooLong.message, /4097 characters; Telegram takes at most 4096/);
    assert.equal(bot.calls.length, calls);
  } finally {
    await bot.close();
  }
});

test('telegram without a bot token is a permanent error', async () => {
  const err = await failure((async () => connectorFor({ id: 'chn_t', type: 'telegram', url: null, token: null, minIntervalMs: 0 }, { db }))());
  assert.equal(err.permanent, true);
});

test('sandbox: records once per idempotency key, sends nothing', async () => {
  const sandbox = connectorFor(null, { db });
  await sandbox.send({ to: 'grp_1', text: 'one' }, 'pub_9:grp_1');
  await sandbox.send({ to: 'grp_1', text: 'one again' }, 'pub_9:grp_1');
  const rows = await db.collection('sandbox_messages').find({}).toArray();
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.text, 'one');
});
