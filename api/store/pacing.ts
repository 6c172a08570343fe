/**
 * Send pacing, shared by every worker through MongoDB. Time is cut into
 * cells of the pacing interval; a send takes the first free cell starting at
 * or after its earliest time, by inserting the cell's document (`<key>:<n>`).
 * A unique-key insert is atomic on MongoDB and on FerretDB alike, so two
 * sends never share a cell, and sends in distinct cells start at least one
 * interval apart. Old cells are removed by the retention sweep.
 */
import { Db } from 'mongodb';
import { isDuplicateKey, platformCollection } from './db';

interface CellDoc {
  _id: string;
  at: Date;
}

const cells = (db: Db) => platformCollection<CellDoc>(db, 'send_slots');

/** Takes the first free cell of `key` starting at or after `notBefore`; its start time. */
async function takeCell(db: Db, key: string, intervalMs: number, notBefore: Date): Promise<Date> {
  if (intervalMs <= 0) return notBefore;
  for (let n = Math.ceil(notBefore.getTime() / intervalMs); ; n++) {
    const at = new Date(n * intervalMs);
    try {
      await cells(db).insertOne({ _id: `${key}:${n}`, at });
      return at;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }
}

/**
 * The time a message may go to `groupId` on `channelId`: a free cell of the
 * group (its minimum interval) and, from there, a free cell of the channel.
 */
export async function reserveSendSlot(
  db: Db,
  slot: { groupId: string; groupIntervalMs: number; channelId: string | null; channelIntervalMs: number },
  now = new Date(),
): Promise<Date> {
  const groupAt = await takeCell(db, `group:${slot.groupId}`, slot.groupIntervalMs, now);
  if (!slot.channelId) return groupAt;
  return takeCell(db, `channel:${slot.channelId}`, slot.channelIntervalMs, groupAt);
}

/** Removes cells that started before `before`; how many. */
export async function sweepSendSlots(db: Db, before: Date): Promise<number> {
  return (await cells(db).deleteMany({ at: { $lt: before } })).deletedCount;
}
