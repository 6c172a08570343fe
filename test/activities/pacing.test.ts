/** Send pacing against the real MongoDB-protocol server, including concurrent reservations. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Db, MongoClient } from 'mongodb';
import { reserveSendSlot, sweepSendSlots } from '../../api/store/pacing';
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
    Array.from({ length: 20 }, (_, i) => reserveSendSlot(db, { groupId: `grp_${i}`, groupIntervalMs: 0, channelId: 'chn_a', channelIntervalMs: 250 }, now)),
  );
  assert.equal(new Set(slots.map((s) => s.getTime())).size, 20);
  for (const gap of gaps(slots)) assert.ok(gap >= 250, `gap ${gap}`);
  for (const s of slots) assert.ok(s.getTime() >= now.getTime());
});

test('one group is paced by its own interval, whatever the channel', async () => {
  const now = new Date();
  const slots = [];
  for (let i = 0; i < 3; i++) slots.push(await reserveSendSlot(db, { groupId: 'grp_paced', groupIntervalMs: 3000, channelId: null, channelIntervalMs: 0 }, now));
  for (const gap of gaps(slots)) assert.ok(gap >= 3000, `gap ${gap}`);
  // Without intervals there is no wait at all.
  assert.equal((await reserveSendSlot(db, { groupId: 'grp_free', groupIntervalMs: 0, channelId: null, channelIntervalMs: 0 }, now)).getTime(), now.getTime());
});

test('the retention sweep removes past cells only', async () => {
  const future = await reserveSendSlot(db, { groupId: 'grp_future', groupIntervalMs: 1000, channelId: null, channelIntervalMs: 0 }, new Date(Date.now() + 3_600_000));
  const removed = await sweepSendSlots(db, new Date(Date.now() + 60_000));
  assert.ok(removed >= 1);
  assert.equal(await db.collection('send_slots').countDocuments({ at: future }), 1);
});
