/**
 * Sends to a group as the activities make them (domain/channels/send.ts, its
 * refusals as the failures workflows read) on real data: groups and channels
 * in MongoDB, sends to a local gateway of our http protocol (a real HTTP server).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ApplicationFailure } from '@temporalio/common';
import { withActivityFailures } from '../../activities/failures';
import { reserveGroupSlot, SendContent, sendToGroup } from '../../domain/channels/send';
import { secretKeyFromEnv } from '../../domain/sealing';
import { createChannel } from '../../domain/channels/store';
import { createGroup } from '../../domain/groups/store';
import { ApiClient } from '../helpers/client';
import { FakeGateway, startFakeGateway } from '../helpers/fake-gateway';
import { seedTenant, startTestApp, TestApp } from '../helpers/stack';

const TOKEN = 'gw-activity-token';
let app: TestApp;
let gateway: FakeGateway;
let activities: ReturnType<typeof channelSends>;
let n = 0;

before(async () => {
  app = await startTestApp();
  gateway = await startFakeGateway({ token: TOKEN });
  activities = channelSends({ db: app.db, secretKey: secretKeyFromEnv() });
});
after(async () => {
  await gateway.close();
  await app.close();
});

/** A send to a group and a reservation of its slot, as the activities make them. */
type Target = { account: string; environment: 'live' | 'test'; groupId: string };
function channelSends(deps: { db: typeof app.db; secretKey: Buffer }) {
  const tenantOf = (t: Target) => ({ accountId: t.account, env: t.environment });
  return {
    sendToGroup: withActivityFailures((input: Target & SendContent) => sendToGroup(deps, tenantOf(input), input.groupId, input)),
    reserveSendSlot: withActivityFailures((input: Target & { notBefore?: string }) =>
      reserveGroupSlot(deps, tenantOf(input), input.groupId, input.notBefore),
    ),
  };
}

/** An account of `env` with an http channel to the gateway and one group on it. */
async function connected(opts: { env?: 'live' | 'test'; groupIntervalMs?: number; channelIntervalMs?: number; token?: string } = {}) {
  const tenant = await seedTenant(app.db, { env: opts.env ?? 'live' });
  const channel = await createChannel(
    app.db,
    tenant,
    { type: 'http', url: gateway.url, token: opts.token ?? TOKEN, minIntervalMs: opts.channelIntervalMs ?? 0 },
    secretKeyFromEnv(),
  );
  const address = `5511999${++n}-group@g.us`;
  const group = await createGroup(app.db, tenant, {
    name: `Group ${n}`,
    channel: { id: channel._id, type: channel.type, address },
    minIntervalMs: opts.groupIntervalMs ?? 0,
  });
  return { tenant, channel, group, address, input: { account: tenant.accountId, environment: tenant.env, groupId: group._id } };
}

async function rejection(p: Promise<unknown>): Promise<ApplicationFailure> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ApplicationFailure, String(err));
    return err;
  }
  assert.fail('expected a failure');
}

test('live: sends to the group address through its channel, with the image and the idempotency key', async () => {
  const { input, address } = await connected();
  const sent = await activities.sendToGroup({ ...input, text: 'Oferta!', imageUrl: 'https://img.example/p.png', idempotencyKey: 'pub_a:grp_a' });
  assert.deepEqual(sent, { outcome: 'sent', providerMessageId: 'msg-pub_a:grp_a', withImage: true });
  assert.deepEqual(gateway.messages(address), [
    { to: address, text: 'Oferta!', image_url: 'https://img.example/p.png', idempotency_key: 'pub_a:grp_a' },
  ]);
  // A retry of the same delivery reaches the gateway with the same key: still one message.
  await activities.sendToGroup({ ...input, text: 'Oferta!', imageUrl: 'https://img.example/p.png', idempotencyKey: 'pub_a:grp_a' });
  assert.equal(gateway.messages(address).length, 1);
  const noImage = await activities.sendToGroup({ ...input, text: 'Sem imagem', imageUrl: null, idempotencyKey: 'pub_b:grp_a' });
  assert.deepEqual(noImage, { outcome: 'sent', providerMessageId: 'msg-pub_b:grp_a', withImage: false });
  assert.equal(gateway.messages(address)[1]!.image_url, undefined);
});

test('test environment: always the sandbox, even for a group on an http channel', async () => {
  const { input, address } = await connected({ env: 'test' });
  const before = gateway.requests.length;
  const sent = await activities.sendToGroup({ ...input, text: 'Teste', imageUrl: null, idempotencyKey: 'pub_t:grp_t' });
  await activities.sendToGroup({ ...input, text: 'Teste', imageUrl: null, idempotencyKey: 'pub_t:grp_t' });
  assert.deepEqual(sent, { outcome: 'sent', providerMessageId: 'pub_t:grp_t', withImage: false });
  assert.equal(gateway.requests.length, before, 'nothing reached the gateway');
  assert.equal(gateway.messages(address).length, 0);
  const recorded = await app.db
    .collection('sandbox_messages')
    .find({ _id: 'pub_t:grp_t' } as object)
    .toArray();
  assert.equal(recorded.length, 1);
  assert.equal(recorded[0]!.to, address);
  assert.equal(recorded[0]!.text, 'Teste');
});

test('an inactive group, a group without channel or a refused destination: non-retryable ChannelPermanent', async () => {
  const { tenant, input, group } = await connected();
  const api = new ApiClient(app.baseUrl, tenant.apiKey);
  assert.equal((await api.patch(`/groups/${group._id}`, { active: false })).status, 200);
  const inactive = await rejection(activities.sendToGroup({ ...input, text: 'x', imageUrl: null, idempotencyKey: 'k1' }));
  assert.equal(inactive.type, 'ChannelPermanent');
  assert.equal(inactive.nonRetryable, true);

  const bare = await createGroup(app.db, tenant, { name: 'No channel' });
  const unconnected = await rejection(activities.sendToGroup({ ...input, groupId: bare._id, text: 'x', imageUrl: null, idempotencyKey: 'k2' }));
  assert.equal(unconnected.type, 'ChannelPermanent');

  const refusedTo = await connected();
  gateway.failTo(refusedTo.address, 400);
  const refused = await rejection(activities.sendToGroup({ ...refusedTo.input, text: 'x', imageUrl: null, idempotencyKey: 'k3' }));
  assert.equal(refused.type, 'ChannelPermanent');
  assert.equal(refused.nonRetryable, true);

  const wrongToken = await connected({ token: 'not-the-token' });
  const unauthorized = await rejection(activities.sendToGroup({ ...wrongToken.input, text: 'x', imageUrl: null, idempotencyKey: 'k4' }));
  assert.equal(unauthorized.nonRetryable, true);
  for (const err of [refused, unauthorized]) {
    assert.ok(!err.message.includes(refusedTo.address) && !err.message.includes('not-the-token') && !err.message.includes(TOKEN), err.message);
  }
});

test('a channel of another account is not found: the group cannot send', async () => {
  const mine = await seedTenant(app.db);
  const theirs = await connected();
  const group = await createGroup(app.db, mine, { name: 'Borrowed', channel: { id: theirs.channel._id, type: 'http', address: 'x@g.us' } });
  const err = await rejection(
    activities.sendToGroup({
      account: mine.accountId,
      environment: 'live',
      groupId: group._id,
      text: 'x',
      imageUrl: null,
      idempotencyKey: 'k5',
    }),
  );
  assert.equal(err.type, 'ChannelPermanent');
  assert.equal(gateway.messages('x@g.us').length, 0);
});

test('transient gateway errors are retryable; a 429 carries the pause the gateway asked for', async () => {
  const { input } = await connected();
  gateway.failNext(1, 503);
  const unavailable = await rejection(activities.sendToGroup({ ...input, text: 'x', imageUrl: null, idempotencyKey: 'k6' }));
  assert.equal(unavailable.nonRetryable, false);
  assert.equal(unavailable.type, 'ChannelTransient');
  assert.deepEqual(unavailable.details ?? [], []);
  gateway.failNext(1, 429);
  const throttled = await rejection(activities.sendToGroup({ ...input, text: 'x', imageUrl: null, idempotencyKey: 'k6' }));
  assert.equal(throttled.nonRetryable, false);
  assert.deepEqual(throttled.details, [1000]);
});

test('a paced send whose slot is far sends nothing and returns that slot, reserved; woken for it, it goes in it', async () => {
  const { input, address } = await connected({ groupIntervalMs: 2000 });
  // Another send holds the group's next slot.
  await activities.reserveSendSlot(input);
  const content = { text: 'Pausado', imageUrl: null, idempotencyKey: 'pub_w:grp_w' };
  const waiting = await activities.sendToGroup({ ...input, ...content });
  assert.equal(waiting.outcome, 'wait');
  assert.ok(waiting.outcome === 'wait' && Date.parse(waiting.slot) - Date.now() > 1000, 'a slot not near');
  assert.equal(gateway.requests.filter((r) => r.to === address).length, 0, 'nothing sent');
  const slot = waiting.outcome === 'wait' ? waiting.slot : '';
  const sent = await activities.sendToGroup({ ...input, ...content, slot });
  assert.equal(sent.outcome, 'sent');
  const [arrival] = gateway.requests.filter((r) => r.to === address);
  assert.ok(arrival!.at >= Date.parse(slot), 'not before its slot');
});

test('a paced send woken for a slot that passed takes the next free one: it waits for it, how late it was said', async () => {
  const { input, address } = await connected({ groupIntervalMs: 2000 });
  await activities.reserveSendSlot(input);
  const passed = new Date(Date.now() - 1500).toISOString();
  const late = await activities.sendToGroup({ ...input, text: 'Atrasado', imageUrl: null, idempotencyKey: 'pub_l:grp_l', slot: passed });
  assert.equal(late.outcome, 'wait');
  assert.ok(late.outcome === 'wait' && late.late_ms >= 1500 && late.slot > passed, JSON.stringify(late));
  assert.equal(gateway.requests.filter((r) => r.to === address).length, 0, 'nothing sent');
});

test('reserveSendSlot: live sends to one group are spaced by its interval, from a time given; unpaced and test sends have no slot', async () => {
  const live = await connected({ groupIntervalMs: 3000, channelIntervalMs: 1000 });
  const first = Date.parse((await activities.reserveSendSlot(live.input))!);
  const second = Date.parse((await activities.reserveSendSlot(live.input))!);
  assert.ok(second - first >= 3000, `${second - first} ms apart`);
  // A retry's slot: the first free one at or after its pause.
  const notBefore = new Date(second + 60_000);
  const later = Date.parse((await activities.reserveSendSlot({ ...live.input, notBefore: notBefore.toISOString() }))!);
  assert.ok(later >= notBefore.getTime(), 'not before the time given');

  const unpaced = await connected();
  assert.equal(await activities.reserveSendSlot(unpaced.input), null);
  const sandbox = await connected({ env: 'test', groupIntervalMs: 3000 });
  const cellsBefore = await app.db.collection('send_slots').countDocuments();
  for (let i = 0; i < 2; i++) assert.equal(await activities.reserveSendSlot(sandbox.input), null);
  assert.equal(await app.db.collection('send_slots').countDocuments(), cellsBefore);
});
