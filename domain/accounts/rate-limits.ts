/**
 * Per-credential request windows, kept in MongoDB so every API process
 * shares them. A window opens at a credential's first request and lasts
 * `windowMs`; `count` is how many of its requests have been handed out to
 * API processes, never more than the limit. Finished windows are removed by
 * the retention sweep, or by a TTL index where the engine has one (db.ts).
 *
 * A process does not ask MongoDB once per request: it reserves a block of
 * the window (`WindowReserver`, one atomic update) and hands its slots out
 * locally, each with its position in the window. Reservations never take the
 * count past the limit, so all processes together never serve more than the
 * limit in a window; a slot reserved by one process and not used by it is
 * not available to another until the window ends or that process stops
 * cleanly (it gives its unused slots back).
 */
import { Db } from 'mongodb';
import { isDuplicateKey, platformCollection } from '../db';

interface WindowDoc {
  _id: string;
  window_start: Date;
  window_end: Date;
  count: number;
}

export interface WindowState {
  count: number;
  resetAt: Date;
}

/** Slots `first`..`last` of the window that ends at `end`; or `full` when none is left. */
type Reservation = { full: false; start: Date; end: Date; first: number; last: number } | { full: true; end: Date };

const windows = (db: Db) => platformCollection<WindowDoc>(db, 'rate_limits');

/**
 * Reserves up to `want` slots of `credential`'s open window (opening one if
 * none is), never taking its count past `limit`: all of them when they fit,
 * else what is left.
 */
async function reserve(db: Db, credential: string, windowMs: number, limit: number, want: number, now: Date): Promise<Reservation> {
  let n = Math.min(want, limit);
  for (;;) {
    const open = await windows(db).findOneAndUpdate(
      { _id: credential, window_end: { $gt: now }, count: { $lte: limit - n } },
      { $inc: { count: n } },
      { returnDocument: 'after' },
    );
    if (open) return { full: false, start: open.window_start, end: open.window_end, first: open.count - n + 1, last: open.count };
    // No room for n, or no open window: start one (when the stored one has ended, or there is none).
    try {
      const started = await windows(db).findOneAndUpdate(
        { _id: credential, window_end: { $lte: now } },
        { $set: { window_start: now, window_end: new Date(now.getTime() + windowMs), count: n } },
        { upsert: true, returnDocument: 'after' },
      );
      if (started) return { full: false, start: started.window_start, end: started.window_end, first: 1, last: n };
    } catch (err) {
      // An open window exists (the upsert collided with it): see how much of it is left.
      if (!isDuplicateKey(err)) throw err;
    }
    const current = await windows(db).findOne({ _id: credential });
    if (current && current.window_end > now) {
      if (current.count >= limit) return { full: true, end: current.window_end };
      n = Math.min(n, limit - current.count);
    }
  }
}

/** Counts one request of `credential` (without a limit) and returns the window it fell in. */
export async function hit(db: Db, credential: string, windowMs: number, now = new Date()): Promise<WindowState> {
  const r = await reserve(db, credential, windowMs, Number.MAX_SAFE_INTEGER, 1, now);
  if (r.full) throw new Error('unreachable: a window without a limit is never full');
  return { count: r.last, resetAt: r.end };
}

/** Removes windows that ended before `before`; returns how many. */
export async function sweepWindows(db: Db, before: Date): Promise<number> {
  const res = await windows(db).deleteMany({ window_end: { $lt: before } });
  return res.deletedCount;
}

/** A block of one window reserved by this process: slots `next`..`last` are still to hand out. */
interface Block {
  start: Date;
  end: Date;
  next: number;
  last: number;
}

/** A twelfth of the limit (10 of the default 120), at most 100: what one process may hold unused. */
export const blockSize = (limit: number): number => Math.max(1, Math.min(100, Math.floor(limit / 12)));

/**
 * One API process's share of the windows: `take` answers from the block this
 * process holds for the credential, and reserves the next block (one atomic
 * update) when it is spent. Concurrent requests of one credential wait for
 * the one reservation under way, which asks for at least as many slots as
 * there are requests waiting.
 */
export class WindowReserver {
  private readonly blocks = new Map<string, Block>();
  private readonly reserving = new Map<string, Promise<Reservation>>();
  private readonly waiting = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly windowMs: number,
  ) {}

  /**
   * Counts one request of `credential` from the block this process holds for
   * it, synchronously; null when there is none left (then `take` reserves).
   */
  takeHeld(credential: string, now = new Date()): WindowState | null {
    const block = this.blocks.get(credential);
    return block && block.end > now && block.next <= block.last ? { count: block.next++, resetAt: block.end } : null;
  }

  /**
   * Counts one request of `credential`: its position in the window (past
   * `limit` when the window is full and the request must be refused) and
   * when the window ends.
   */
  async take(credential: string, limit: number, now = new Date()): Promise<WindowState> {
    for (;;) {
      const held = this.takeHeld(credential, now);
      if (held) return held;
      const under = this.reserving.get(credential);
      if (under) {
        this.waiting.set(credential, (this.waiting.get(credential) ?? 0) + 1);
        await under.catch(() => undefined);
        this.waiting.set(credential, this.waiting.get(credential)! - 1);
        continue;
      }
      const want = Math.max(blockSize(limit), 1 + (this.waiting.get(credential) ?? 0));
      const reservation = reserve(this.db, credential, this.windowMs, limit, want, now);
      this.reserving.set(credential, reservation);
      let r: Reservation;
      try {
        r = await reservation;
      } finally {
        this.reserving.delete(credential);
        if (!this.waiting.get(credential)) this.waiting.delete(credential);
      }
      if (r.full) {
        this.blocks.delete(credential);
        return { count: limit + 1, resetAt: r.end };
      }
      if (this.blocks.size > 10_000) this.prune(now);
      this.blocks.set(credential, { start: r.start, end: r.end, next: r.first, last: r.last });
    }
  }

  /** Forgets blocks whose window has ended. */
  private prune(now: Date): void {
    for (const [credential, block] of this.blocks) if (block.end <= now) this.blocks.delete(credential);
  }

  /** Gives the unused slots of open windows back (a clean stop), so other processes can use them. */
  async close(now = new Date()): Promise<void> {
    const unused = [...this.blocks].filter(([, b]) => b.end > now && b.next <= b.last);
    this.blocks.clear();
    await Promise.all(
      unused.map(([credential, b]) =>
        windows(this.db).updateOne(
          { _id: credential, window_start: b.start, count: { $gte: b.last - b.next + 1 } },
          { $inc: { count: -(b.last - b.next + 1) } },
        ),
      ),
    );
  }
}
