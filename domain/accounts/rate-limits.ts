/**
 * Per-credential request windows, kept in MongoDB so every API process
 * shares them. A window opens at a credential's first request and lasts
 * `windowMs`; the count only grows inside it. Finished windows are removed by
 * the retention sweep (no TTL index: FerretDB has none).
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

const windows = (db: Db) => platformCollection<WindowDoc>(db, 'rate_limits');

/** Counts one request of `credential` and returns the window it fell in. */
export async function hit(db: Db, credential: string, windowMs: number, now = new Date()): Promise<WindowState> {
  for (;;) {
    const open = await windows(db).findOneAndUpdate(
      { _id: credential, window_end: { $gt: now } },
      { $inc: { count: 1 } },
      { returnDocument: 'after' },
    );
    if (open) return { count: open.count, resetAt: open.window_end };
    // No open window: start one. Two processes racing here both target the
    // same _id; on MongoDB one of them fails the upsert and retries above.
    try {
      const started = await windows(db).findOneAndUpdate(
        { _id: credential, window_end: { $lte: now } },
        { $set: { window_start: now, window_end: new Date(now.getTime() + windowMs), count: 1 } },
        { upsert: true, returnDocument: 'after' },
      );
      if (started) return { count: started.count, resetAt: started.window_end };
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }
}

/** Removes windows that ended before `before`; returns how many. */
export async function sweepWindows(db: Db, before: Date): Promise<number> {
  const res = await windows(db).deleteMany({ window_end: { $lt: before } });
  return res.deletedCount;
}
