/**
 * Send pacing, shared by every worker through MongoDB, with inserts only: a
 * unique-key insert is atomic on MongoDB and on FerretDB alike (a
 * compare-and-set on one document races on FerretDB).
 *
 * Time is cut into cells of one width `w` (the channel's interval, or the
 * group's when there is no channel pacing). A send at `m·w` takes the
 * channel's cell `m` and the group's cells `m … m+k-1`, k = ⌈group interval
 * / w⌉, by inserting one document per cell (`<key>:<n>`). Two sends never
 * share a cell, so two sends on one channel are at least `w` apart and two
 * sends to one group at least `k·w` ≥ the group interval apart — whatever
 * else the channel is busy with. When a group cell is taken, the cells just
 * taken are given back and the search goes on after it. A cell whose owner
 * died before giving it back is only a gap; the retention sweep removes old
 * cells.
 */
import { randomBytes } from 'node:crypto';
import { Db } from 'mongodb';
import { isDuplicateKey, platformCollection } from '../db';

interface CellDoc {
  _id: string;
  at: Date;
  /** The reservation that took the cell (it alone may give it back). */
  owner: string;
}

const cells = (db: Db) => platformCollection<CellDoc>(db, 'send_slots');

/** Takes cell `id` unless someone has it; whether it was free. */
async function take(db: Db, id: string, at: Date, owner: string): Promise<boolean> {
  try {
    await cells(db).insertOne({ _id: id, at, owner });
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

async function giveBack(db: Db, ids: string[], owner: string): Promise<void> {
  await cells(db).deleteMany({ _id: { $in: ids }, owner });
}

/**
 * Reserves the earliest time, at or after `now`, a message may go to
 * `groupId` on `channelId`; the time.
 */
export async function reserveSendSlot(
  db: Db,
  slot: { groupId: string; groupIntervalMs: number; channelId: string | null; channelIntervalMs: number },
  now = new Date(),
): Promise<Date> {
  const channelPaced = slot.channelId !== null && slot.channelIntervalMs > 0;
  const width = channelPaced ? slot.channelIntervalMs : slot.groupIntervalMs;
  if (width <= 0) return now;
  const groupCells = slot.groupIntervalMs > 0 ? Math.ceil(slot.groupIntervalMs / width) : 0;
  // The width is part of the group's key: cells of different widths are different clocks.
  const groupKey = `group:${slot.groupId}/${width}`;
  const owner = randomBytes(12).toString('base64url');
  for (let m = Math.ceil(now.getTime() / width); ; m++) {
    const at = new Date(m * width);
    const held: string[] = [];
    if (channelPaced) {
      const id = `channel:${slot.channelId}:${m}`;
      if (!(await take(db, id, at, owner))) continue;
      held.push(id);
    }
    let blocked = -1;
    for (let n = m; n < m + groupCells; n++) {
      const id = `${groupKey}:${n}`;
      if (!(await take(db, id, new Date(n * width), owner))) {
        blocked = n;
        break;
      }
      held.push(id);
    }
    if (blocked < 0) return at;
    await giveBack(db, held, owner);
    // Every start up to `blocked` would need the taken cell.
    m = blocked;
  }
}

/** Removes cells that started before `before`; how many. */
export async function sweepSendSlots(db: Db, before: Date): Promise<number> {
  return (await cells(db).deleteMany({ at: { $lt: before } })).deletedCount;
}
