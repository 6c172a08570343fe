/**
 * How a schedule write reads the scheduler back (domain/schedules/temporal.ts
 * `settled`), without the stack: Temporal applies a pause or an update
 * asynchronously, so the answer waits for the description to agree, and past
 * the bound reports the pause state Temporal accepted rather than the one it
 * had not applied yet. test/api/schedules.test.ts covers the real scheduler.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ScheduleDescription } from '@temporalio/client';
import { settled, statusOf, syncHash } from '../../domain/schedules/temporal';
import { DAY } from '../helpers/time';

const doc = { run_at: new Date(Date.now() + DAY), recurrence: null, paused: true };

/** A scheduler description with the given memo hash and pause state, one run ahead. */
const description = (sync: string, paused: boolean): ScheduleDescription =>
  ({
    action: { memo: { sync } },
    state: { paused },
    info: { nextActionTimes: [doc.run_at], recentActions: [], numActionsTaken: 0 },
  }) as unknown as ScheduleDescription;

/** A handle whose describe answers `lagging` descriptions first, then `applied` ones; counts the calls. */
function scheduler(lagging: number, before: ScheduleDescription, after: ScheduleDescription) {
  const seen = { describes: 0 };
  const handle = { describe: async () => (seen.describes++ < lagging ? before : after) };
  return { handle, seen };
}

test('a change the scheduler shows within the bound is answered as it shows it', async () => {
  const { handle, seen } = scheduler(2, description(syncHash({ ...doc, paused: false }), false), description(syncHash(doc), true));
  const desc = await settled(handle, doc, 5_000);
  assert.equal(statusOf(desc), 'paused');
  assert.equal(seen.describes, 3, 'polled until the description agreed');
});

test('a pause the scheduler has not applied by the bound is answered as paused, not as it was', async () => {
  const stale = description(syncHash(doc), false);
  const { handle, seen } = scheduler(Infinity, stale, stale);
  const desc = await settled(handle, doc, 60);
  assert.equal(statusOf(desc), 'paused');
  assert.ok(seen.describes >= 2, 'polled before giving up');
  assert.equal(stale.state.paused, false, 'the description read is left as it was');
});

test('a resume not yet applied is answered as active with the run ahead', async () => {
  const resumed = { ...doc, paused: false };
  const stale = description(syncHash(resumed), true);
  const desc = await settled(scheduler(Infinity, stale, stale).handle, resumed, 60);
  assert.equal(statusOf(desc), 'active');
  assert.deepEqual(desc.info.nextActionTimes, [doc.run_at]);
});
