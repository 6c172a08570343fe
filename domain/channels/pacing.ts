/**
 * Send pacing, shared by every worker through the database, with inserts
 * only: a unique-key insert claims a slot atomically on every engine, and
 * an insert never waits for a concurrent change of the same document.
 *
 * The promise is about the real sends, as the channel sees them: no two
 * sends to one channel, nor to one group, leave closer than its interval.
 * A reserved slot is therefore valid only for a short window: a send must
 * start within [slot, slot + SEND_WINDOW_MS] (checked against the clock right
 * before the connector is called, see `slotCheck`). A send that would start
 * later does not go: it takes the next free slot and waits again.
 *
 * Time is cut into cells of one width `w`: the channel's interval, or the
 * group's when there is no channel pacing, plus the window and a margin
 * (SEND_MARGIN_MS, slack for the time from the check to the channel varying
 * between two sends). A send at `m·w` takes the channel's cell `m` and the
 * group's cells `m … m+k-1`, k = ⌈(group interval + window + margin) / w⌉, by
 * inserting one document per cell (`<key>:<n>`). Two sends never share a
 * cell, so two sends on one channel start at least `w − window` = interval +
 * margin apart, and two sends to one group at least `k·w − window` ≥ group
 * interval + margin apart — however late inside its window each started,
 * and whatever else the channel is busy with. When a group cell is taken,
 * the cells just taken are given back and the search goes on after it. A
 * cell whose owner died before giving it back, or whose send missed its
 * window, is only a gap; the retention sweep removes old cells.
 */
import { randomBytes } from 'node:crypto';
import { Db } from 'mongodb';
import { isDuplicateKey, platformCollection } from '../db';

/** How late after its slot a send may still start; later, it takes the next free slot. */
export const SEND_WINDOW_MS = 100;
/** Slack in the cell width for the time from the clock check to the channel varying between two sends. */
export const SEND_MARGIN_MS = 100;

interface CellDoc {
  _id: string;
  at: Date;
  /** The reservation that took the cell (it alone may give it back). */
  owner: string;
}

/** What a send is paced by: its group and, when the channel is paced, its channel. */
export interface SlotRequest {
  groupId: string;
  groupIntervalMs: number;
  channelId: string | null;
  channelIntervalMs: number;
}

const cells = (db: Db) => platformCollection<CellDoc>(db, 'send_slots');
// The width is part of the keys: cells of different widths are different clocks.
const groupCell = (groupId: string, width: number, n: number) => `group:${groupId}/${width}:${n}`;
const channelCell = (channelId: string | null, width: number, n: number) => `channel:${channelId}/${width}:${n}`;

/** The cell width and how many group cells a send takes; null when the send is not paced. */
export function slotLayout(slot: SlotRequest): { width: number; groupCells: number; channelPaced: boolean } | null {
  const channelPaced = slot.channelId !== null && slot.channelIntervalMs > 0;
  const interval = channelPaced ? slot.channelIntervalMs : slot.groupIntervalMs;
  if (interval <= 0) return null;
  const width = interval + SEND_WINDOW_MS + SEND_MARGIN_MS;
  const groupCells = slot.groupIntervalMs > 0 ? Math.ceil((slot.groupIntervalMs + SEND_WINDOW_MS + SEND_MARGIN_MS) / width) : 0;
  return { width, groupCells, channelPaced };
}

/** Whether sends of this group on this channel are paced at all. */
export const isPaced = (slot: SlotRequest): boolean => slotLayout(slot) !== null;

/**
 * Where a send stands against its slot at `now`: `wait` ms before it may
 * start, `go`, or `late` by ms (past its window: it must not send in this slot).
 */
export function slotCheck(slotAt: Date, now = new Date()): { state: 'wait' | 'late'; ms: number } | { state: 'go' } {
  const early = slotAt.getTime() - now.getTime();
  if (early > 0) return { state: 'wait', ms: early };
  return -early <= SEND_WINDOW_MS ? { state: 'go' } : { state: 'late', ms: -early };
}

/** How near a slot must be for a send to wait for it in its activity; a later one is waited for on a durable timer. */
export const INLINE_WAIT_MS = 1000;

/**
 * What a send does about its slot at `now`, right before the connector:
 * `go`; `sleep` that long in its activity (the slot is near, or is the one the
 * workflow woke it for, `woken`: it woke a little early on purpose); `retake`
 * (past its window, `ms` late: it takes the next free slot); or `defer` (a slot
 * it took itself is far: the workflow waits for it on a durable timer).
 */
export function slotStep(
  slotAt: Date,
  woken: boolean,
  now = new Date(),
): { step: 'go' } | { step: 'sleep' | 'retake'; ms: number } | { step: 'defer' } {
  const check = slotCheck(slotAt, now);
  if (check.state === 'go') return { step: 'go' };
  if (check.state === 'late') return { step: 'retake', ms: check.ms };
  return woken || check.ms <= INLINE_WAIT_MS ? { step: 'sleep', ms: check.ms } : { step: 'defer' };
}

/** Takes cell `id` unless someone has it; whether it is ours. */
async function take(db: Db, id: string, at: Date, owner: string): Promise<boolean> {
  try {
    await cells(db).insertOne({ _id: id, at, owner });
    return true;
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return false;
  }
}

async function giveBack(db: Db, ids: string[], owner: string): Promise<void> {
  await cells(db).deleteMany({ _id: { $in: ids }, owner });
}

/** Channels whose search start this process remembers, at most (the oldest is forgotten first). */
const FRONTIERS_MAX = 10_000;

/**
 * Where this process's search for a free cell of each paced channel starts:
 * the cell after the last one a reservation of it kept. Without it, the n-th
 * reservation on a busy channel would try the n−1 taken cells first, and a
 * fan-out's reservations would cost the square of its groups per channel
 * (10,000 groups over 50 channels: about a million inserts refused). A cell
 * below it that was given back stays a gap.
 */
const frontiers = new Map<string, number>();

function reached(channel: string, m: number): void {
  if ((frontiers.get(channel) ?? -1) > m) return;
  frontiers.delete(channel);
  if (frontiers.size >= FRONTIERS_MAX) frontiers.delete(frontiers.keys().next().value!);
  frontiers.set(channel, m + 1);
}

/**
 * Reserves the earliest time, at or after `now`, a message may go to
 * `groupId` on `channelId` (at or after the channel's frontier in this
 * process); the time (`now` itself when the send is not paced).
 */
export async function reserveSendSlot(db: Db, slot: SlotRequest, now = new Date()): Promise<Date> {
  const cellsOf = slotLayout(slot);
  if (!cellsOf) return now;
  const { width, groupCells, channelPaced } = cellsOf;
  const owner = randomBytes(12).toString('base64url');
  const channel = `${db.databaseName}/${slot.channelId}/${width}`;
  const from = Math.ceil(now.getTime() / width);
  for (let m = channelPaced ? Math.max(from, frontiers.get(channel) ?? from) : from; ; m++) {
    const at = new Date(m * width);
    const held: string[] = [];
    if (channelPaced) {
      const id = channelCell(slot.channelId, width, m);
      if (!(await take(db, id, at, owner))) continue;
      held.push(id);
    }
    let blocked = -1;
    for (let n = m; n < m + groupCells; n++) {
      const id = groupCell(slot.groupId, width, n);
      if (!(await take(db, id, new Date(n * width), owner))) {
        blocked = n;
        break;
      }
      held.push(id);
    }
    if (blocked < 0) {
      if (channelPaced) reached(channel, m);
      return at;
    }
    await giveBack(db, held, owner);
    // Every start up to `blocked` would need the taken cell.
    m = blocked;
  }
}

/** Removes cells that started before `before`; how many. */
export async function sweepSendSlots(db: Db, before: Date): Promise<number> {
  return (await cells(db).deleteMany({ at: { $lt: before } })).deletedCount;
}
