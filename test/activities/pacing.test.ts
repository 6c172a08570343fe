/** Send pacing against the real MongoDB-protocol server, including concurrent reservations. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Db, MongoClient } from 'mongodb';
import { reserveSendSlot, sweepSendSlots } from '../../domain/channels/pacing';
import { stackEnv } from '../helpers/stack';

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
  for (const gap of gaps(slots)) assert.ok(gap >= 250, `gap ${gap}`);
  for (const s of slots) assert.ok(s.getTime() >= now.getTime());
});

test('one group is paced by its own interval, whatever the channel', async () => {
  const now = new Date();
  const slots = [];
  for (let i = 0; i < 3; i++)
    slots.push(await reserveSendSlot(db, { groupId: 'grp_paced', groupIntervalMs: 3000, channelId: null, channelIntervalMs: 0 }, now));
  for (const gap of gaps(slots)) assert.ok(gap >= 3000, `gap ${gap}`);
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
  for (const [g, times] of sends) for (const gap of gaps(times)) assert.ok(gap >= 3000, `${g}: gap ${gap}`);
  for (const gap of gaps(channel)) assert.ok(gap >= 1000, `channel gap ${gap}`);
  // Channel cells taken while a group was still busy were given back: one cell per send.
  assert.equal(await db.collection('send_slots').countDocuments({ _id: { $regex: '^channel:chn_busy:' } } as object), channel.length);
});

test('concurrent sends to a few groups on one channel keep both intervals', async () => {
  const now = new Date();
  const reservations = await Promise.all(
    Array.from({ length: 12 }, async (_, i) => {
      const groupId = `grp_mix_${i % 3}`;
      return { groupId, at: await reserveSendSlot(db, { groupId, groupIntervalMs: 900, channelId: 'chn_mix', channelIntervalMs: 200 }, now) };
    }),
  );
  for (const gap of gaps(reservations.map((r) => r.at))) assert.ok(gap >= 200, `channel gap ${gap}`);
  for (let g = 0; g < 3; g++) {
    for (const gap of gaps(reservations.filter((r) => r.groupId === `grp_mix_${g}`).map((r) => r.at))) assert.ok(gap >= 900, `group gap ${gap}`);
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
