/**
 * Send pacing against the real MongoDB-protocol server, including concurrent
 * reservations; and end to end (API, real Temporal, real activities, a gateway
 * recording arrival times) while sends are made late on purpose.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { Db, MongoClient } from 'mongodb';
import { createActivities } from '../../activities/index';
import { WORKFLOW_BUNDLE } from '../../domain/config';
import { reserveSendSlot, SEND_MARGIN_MS, SEND_WINDOW_MS, sweepSendSlots } from '../../domain/channels/pacing';
import { createChannel } from '../../domain/channels/store';
import { createGroup } from '../../domain/groups/store';
import { secretKeyFromEnv } from '../../domain/sealing';
import { ApiClient } from '../helpers/client';
import { startFakeGateway } from '../helpers/fake-gateway';
import { seedTenant, stackEnv, startTestApp } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { publicationState } from '../helpers/states';

let client: MongoClient;
let db: Db;

before(async () => {
  client = await MongoClient.connect(stackEnv().mongodbUri);
  db = client.db(`t_pacing_${randomBytes(4).toString('hex')}`);
});
after(async () => {
  await db.dropDatabase();
  await client.close();
});

/** How much later than its slot a send may start, and the slack for its way to the channel: slots are this much further apart. */
const GUARD = SEND_WINDOW_MS + SEND_MARGIN_MS;

const gaps = (times: Date[]) => {
  const sorted = times.map((t) => t.getTime()).sort((a, b) => a - b);
  return sorted.slice(1).map((t, i) => t - sorted[i]!);
};

test('concurrent sends on one channel get distinct slots at least one interval apart', async () => {
  const now = new Date();
  const slots = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      reserveSendSlot(db, { groupId: `grp_${i}`, groupIntervalMs: 0, channelId: 'chn_a', channelIntervalMs: 250 }, now),
    ),
  );
  assert.equal(new Set(slots.map((s) => s.getTime())).size, 20);
  // Two sends each starting anywhere inside their windows are still an interval (and the margin) apart.
  for (const gap of gaps(slots)) assert.ok(gap - SEND_WINDOW_MS >= 250 + SEND_MARGIN_MS, `gap ${gap}`);
  for (const s of slots) assert.ok(s.getTime() >= now.getTime());
});

test('one group is paced by its own interval, whatever the channel', async () => {
  const now = new Date();
  const slots = [];
  for (let i = 0; i < 3; i++)
    slots.push(await reserveSendSlot(db, { groupId: 'grp_paced', groupIntervalMs: 3000, channelId: null, channelIntervalMs: 0 }, now));
  for (const gap of gaps(slots)) assert.ok(gap - SEND_WINDOW_MS >= 3000 + SEND_MARGIN_MS, `gap ${gap}`);
  // Without intervals there is no wait at all.
  assert.equal(
    (await reserveSendSlot(db, { groupId: 'grp_free', groupIntervalMs: 0, channelId: null, channelIntervalMs: 0 }, now)).getTime(),
    now.getTime(),
  );
});

test('a busy channel never brings two sends to one group closer than the group interval', async () => {
  // Round one fills the channel (1 s apart); round two goes to the same groups
  // in reverse order, so the last group of round one comes first in round two.
  const now = new Date();
  const groups = Array.from({ length: 5 }, (_, i) => `grp_busy_${i}`);
  const slot = (groupId: string) => reserveSendSlot(db, { groupId, groupIntervalMs: 3000, channelId: 'chn_busy', channelIntervalMs: 1000 }, now);
  const sends = new Map<string, Date[]>(groups.map((g) => [g, []]));
  const channel: Date[] = [];
  for (const round of [groups, [...groups].reverse()]) {
    for (const g of round) {
      const at = await slot(g);
      sends.get(g)!.push(at);
      channel.push(at);
    }
  }
  for (const [g, times] of sends) for (const gap of gaps(times)) assert.ok(gap >= 3000 + GUARD, `${g}: gap ${gap}`);
  for (const gap of gaps(channel)) assert.ok(gap >= 1000 + GUARD, `channel gap ${gap}`);
  // Channel cells taken while a group was still busy were given back: one cell per send.
  assert.equal(await db.collection('send_slots').countDocuments({ _id: { $regex: '^channel:chn_busy\\/' } } as object), channel.length);
});

test('concurrent sends to a few groups on one channel keep both intervals', async () => {
  const now = new Date();
  const reservations = await Promise.all(
    Array.from({ length: 12 }, async (_, i) => {
      const groupId = `grp_mix_${i % 3}`;
      return { groupId, at: await reserveSendSlot(db, { groupId, groupIntervalMs: 900, channelId: 'chn_mix', channelIntervalMs: 200 }, now) };
    }),
  );
  for (const gap of gaps(reservations.map((r) => r.at))) assert.ok(gap >= 200 + GUARD, `channel gap ${gap}`);
  for (let g = 0; g < 3; g++) {
    for (const gap of gaps(reservations.filter((r) => r.groupId === `grp_mix_${g}`).map((r) => r.at)))
      assert.ok(gap >= 900 + GUARD, `group gap ${gap}`);
  }
});

test("a channel's reservations cost one insert each, not one per slot taken before them", async () => {
  const monitored = await MongoClient.connect(stackEnv().mongodbUri, { monitorCommands: true });
  let inserts = 0;
  monitored.on('commandStarted', (e) => (inserts += e.commandName === 'insert' ? 1 : 0));
  try {
    const mdb = monitored.db(db.databaseName);
    const now = new Date();
    const slots: Date[] = [];
    for (let i = 0; i < 120; i++)
      slots.push(
        await reserveSendSlot(mdb, { groupId: `grp_many_${i}`, groupIntervalMs: 0, channelId: 'chn_many', channelIntervalMs: 100 }, now),
      );
    for (const gap of gaps(slots)) assert.ok(gap >= 100 + GUARD, `channel gap ${gap}`);
    // Searching from the start each time would have tried 120 · 121 / 2 = 7,260 cells.
    assert.equal(inserts, 120);
  } finally {
    await monitored.close();
  }
});

test('the retention sweep removes past cells only', async () => {
  const future = await reserveSendSlot(
    db,
    { groupId: 'grp_future', groupIntervalMs: 1000, channelId: null, channelIntervalMs: 0 },
    new Date(Date.now() + 3_600_000),
  );
  const removed = await sweepSendSlots(db, new Date(Date.now() + 60_000));
  assert.ok(removed >= 1);
  assert.equal(await db.collection('send_slots').countDocuments({ at: future }), 1);
});

test('late sends take the next free slot: arrivals on a channel and on each group keep their intervals', async () => {
  const CHANNEL_MS = 500;
  const GROUP_MS = 1500;
  const TOKEN = 'pacing-gateway-token';
  const taskQueue = `test-pacing-${randomBytes(4).toString('hex')}`;
  // The test polls the API until the publications finish: no rate limit should cut that short.
  const app = await startTestApp({ taskQueue, rateLimit: { limit: 100_000, windowMs: 60_000 } });
  const gateway = await startFakeGateway({ token: TOKEN });
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const connection = await NativeConnection.connect({ address: stackEnv().temporalAddress });
  try {
    const tenant = await seedTenant(app.db);
    const api = new ApiClient(app.baseUrl, tenant.apiKey);
    const channel = await createChannel(
      app.db,
      tenant,
      { type: 'http', url: gateway.url, token: TOKEN, minIntervalMs: CHANNEL_MS },
      secretKeyFromEnv(),
    );
    const segment = (await api.post('/segments', { name: 'Paced segment' })).body.data;
    for (let i = 0; i < 4; i++) {
      await createGroup(app.db, tenant, {
        name: `Paced ${i}`,
        segment_id: segment.id,
        channel: { id: channel._id, type: 'http', address: `5511800${i}@g.us` },
        minIntervalMs: GROUP_MS,
      });
    }
    // A busy worker: every second send starts three channel intervals after it was due (once per send).
    const activities = createActivities({ db: app.db, temporal: app.temporal.client, taskQueue, secretKey: secretKeyFromEnv() });
    const started = new Set<string>();
    let delayed = 0;
    const worker = await Worker.create({
      connection,
      namespace: stackEnv().temporalNamespace,
      taskQueue,
      workflowBundle: { codePath: WORKFLOW_BUNDLE },
      activities: {
        ...activities,
        async deliverToGroup(r: Parameters<typeof activities.deliverToGroup>[0]) {
          const key = `${r.publication_id}:${r.group_id}`;
          if (!started.has(key)) {
            started.add(key);
            if (started.size % 2 === 0) {
              delayed++;
              await sleep(3 * CHANNEL_MS); // a late send (the case under test): not a wait for a state
            }
          }
          return activities.deliverToGroup(r);
        },
      },
    });
    // And a gateway that fails the first send once (its retry must be paced too).
    gateway.failNext(1, 503);
    await worker.runUntil(async () => {
      const ids: string[] = [];
      for (const n of [1, 2, 3]) {
        const offer = (await api.post('/offers', { url: `https://shop.example/paced/${n}`, title: `Paced offer ${n}` })).body.data;
        ids.push((await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id })).body.data.publications[0].id);
      }
      for (const id of ids) {
        const done = await waitFor(
          `publication ${id} to finish`,
          async () => {
            const p = (await api.get(`/publications/${id}`)).body.data;
            return p.completed_at && p.status !== 'sending' ? p : undefined;
          },
          120_000,
          () => publicationState(api, id, app.temporal.client),
        );
        assert.equal(done.status, 'sent');
      }
    });
    assert.ok(delayed >= 4, `${delayed} sends made late`);
    // Every request the gateway received (the failed one included), as it saw them.
    const arrivals = gateway.requests.map((r) => ({ to: r.to, at: r.at })).sort((a, b) => a.at - b.at);
    assert.equal(arrivals.length, 3 * 4 + 1);
    const channelGaps = arrivals.slice(1).map((r, i) => r.at - arrivals[i]!.at);
    assert.ok(
      channelGaps.every((gap) => gap >= CHANNEL_MS),
      `channel gaps ${channelGaps.join(', ')} ms`,
    );
    for (const to of new Set(arrivals.map((r) => r.to))) {
      const times = arrivals.filter((r) => r.to === to).map((r) => r.at);
      const groupGaps = times.slice(1).map((t, i) => t - times[i]!);
      assert.ok(
        groupGaps.every((gap) => gap >= GROUP_MS),
        `${to}: gaps ${groupGaps.join(', ')} ms`,
      );
      assert.equal(gateway.messages(to).length, 3, `${to} received each publication once`);
    }
  } finally {
    await connection.close();
    await gateway.close();
    await app.close();
  }
});
