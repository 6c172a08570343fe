/**
 * Send pacing: the next free time of each group and channel, kept in MongoDB
 * so concurrent workflows share it. A reservation moves `next_at` forward by
 * the interval; the caller waits (durably) until the time it got.
 */
import { Db } from 'mongodb';
import { isDuplicateKey, platformCollection } from './db';

interface SlotDoc {
  _id: string;
  next_at: Date;
}

/** Reserves the earliest time ≥ `notBefore` at which `key` is free, and holds it for `intervalMs`. */
async function reserve(db: Db, key: string, notBefore: Date, intervalMs: number): Promise<Date> {
  const slots = platformCollection<SlotDoc>(db, 'send_slots');
  for (;;) {
    const current = await slots.findOne({ _id: key });
    const at = current && current.next_at > notBefore ? current.next_at : notBefore;
    const next = new Date(at.getTime() + intervalMs);
    if (!current) {
      try {
        await slots.insertOne({ _id: key, next_at: next });
        return at;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        continue; // someone reserved first
      }
    }
    // Compare-and-set on the value we read: a concurrent reservation makes us read again.
    const res = await slots.updateOne({ _id: key, next_at: current.next_at }, { $set: { next_at: next } });
    if (res.matchedCount === 1) return at;
  }
}

/**
 * The earliest time a message may go to `groupId` on `channelId`: at least
 * `groupIntervalMs` after the group's previous send and `channelIntervalMs`
 * after the channel's. Both are reserved.
 */
export async function reserveSendSlot(
  db: Db,
  slot: { groupId: string; groupIntervalMs: number; channelId: string | null; channelIntervalMs: number },
  now = new Date(),
): Promise<Date> {
  const groupKey = `group:${slot.groupId}`;
  const groupAt = await reserve(db, groupKey, now, slot.groupIntervalMs);
  if (!slot.channelId) return groupAt;
  const at = await reserve(db, `channel:${slot.channelId}`, groupAt, slot.channelIntervalMs);
  if (at > groupAt) {
    // The channel made the group wait: its next send counts from this later time.
    const next = new Date(at.getTime() + slot.groupIntervalMs);
    await platformCollection<SlotDoc>(db, 'send_slots').updateOne({ _id: groupKey, next_at: { $lt: next } }, { $set: { next_at: next } });
  }
  return at;
}
