/**
 * The arithmetic of sends over time: how pacing cuts time into cells, where
 * a send stands against its slot and what it does about it
 * (domain/channels/pacing.ts), and the workflow's
 * pauses between attempts, how early it wakes before a slot, and how a delay
 * reads in a summary (workflows/send-timing.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { firstDown, sessionCheckPauseMs } from '../../domain/channels/session-timing';
import {
  INLINE_WAIT_MS,
  isPaced,
  SEND_MARGIN_MS,
  SEND_WINDOW_MS,
  slotCheck,
  SlotRequest,
  slotLayout,
  slotStep,
} from '../../domain/channels/pacing';
import {
  afterFailedAttempt,
  MAX_SEND_ATTEMPTS,
  MAX_WAKE_EARLY_MS,
  msBeforeSlot,
  reconnectPauseMs,
  RECONNECT_WAIT_LIMIT_MS,
  retryPauseMs,
  spoken,
  WAKE_EARLY_MS,
  wakeEarlier,
} from '../../workflows/send-timing';

const slot = new Date(1_000_000);
const at = (ms: number) => new Date(1_000_000 + ms);

const request = (groupIntervalMs: number, channelIntervalMs: number, channelId: string | null = 'chn_1'): SlotRequest => ({
  groupId: 'grp_1',
  groupIntervalMs,
  channelId,
  channelIntervalMs,
});

describe('slotLayout', () => {
  test('no interval on the group nor on a channel: not paced', () => {
    assert.equal(slotLayout(request(0, 0)), null);
    assert.equal(isPaced(request(0, 0)), false);
    // A channel interval without a channel (the sandbox) paces nothing.
    assert.equal(slotLayout(request(0, 500, null)), null);
  });

  test("a cell is the channel's interval plus the window and the margin; a group interval alone sets it when the channel has none", () => {
    assert.deepEqual(slotLayout(request(0, 300)), { width: 300 + SEND_WINDOW_MS + SEND_MARGIN_MS, groupCells: 0, channelPaced: true });
    assert.deepEqual(slotLayout(request(1000, 0)), { width: 1000 + SEND_WINDOW_MS + SEND_MARGIN_MS, groupCells: 1, channelPaced: false });
    assert.deepEqual(slotLayout(request(1000, 700, null)), {
      width: 1000 + SEND_WINDOW_MS + SEND_MARGIN_MS,
      groupCells: 1,
      channelPaced: false,
    });
    // A group slower than its channel takes as many channel-wide cells as its own interval needs: ⌈2200 / 500⌉.
    assert.deepEqual(slotLayout(request(2000, 300)), { width: 500, groupCells: 5, channelPaced: true });
    assert.equal(isPaced(request(2000, 300)), true);
  });

  test('two sends in different cells start at least an interval and the margin apart, however late in its window each went', () => {
    for (const channelMs of [0, 1, 150, 300, 1000, 60_000]) {
      for (const groupMs of [0, 1, 299, 300, 301, 2000, 3_600_000]) {
        const layout = slotLayout(request(groupMs, channelMs));
        if (!layout) {
          assert.deepEqual([channelMs, groupMs], [0, 0]);
          continue;
        }
        const what = `channel ${channelMs} ms, group ${groupMs} ms`;
        // The earliest the next cell's send may start, after a send that started at the very end of its window.
        const apart = (cells: number) => cells * layout.width - SEND_WINDOW_MS;
        if (layout.channelPaced) assert.ok(apart(1) >= channelMs + SEND_MARGIN_MS, what);
        if (groupMs > 0) {
          assert.ok(apart(layout.groupCells) >= groupMs + SEND_MARGIN_MS, what);
          // No more group cells than that takes.
          assert.ok(apart(layout.groupCells - 1) < groupMs + SEND_MARGIN_MS, what);
        } else assert.equal(layout.groupCells, 0, what);
      }
    }
  });
});

describe('slotCheck', () => {
  test('a slot is valid only inside its window: early waits, late must not send', () => {
    assert.deepEqual(slotCheck(slot, at(-300)), { state: 'wait', ms: 300 });
    assert.deepEqual(slotCheck(slot, at(0)), { state: 'go' });
    assert.deepEqual(slotCheck(slot, at(SEND_WINDOW_MS)), { state: 'go' });
    assert.deepEqual(slotCheck(slot, at(SEND_WINDOW_MS + 1)), { state: 'late', ms: SEND_WINDOW_MS + 1 });
  });
});

describe('slotStep', () => {
  test('inside the window the send goes, woken or not', () => {
    assert.deepEqual(slotStep(slot, true, at(50)), { step: 'go' });
    assert.deepEqual(slotStep(slot, false, at(0)), { step: 'go' });
  });

  test('past the window it takes the next slot, saying how late it was', () => {
    assert.deepEqual(slotStep(slot, true, at(2500)), { step: 'retake', ms: 2500 });
    assert.deepEqual(slotStep(slot, false, at(SEND_WINDOW_MS + 1)), { step: 'retake', ms: SEND_WINDOW_MS + 1 });
  });

  test('early for the slot it was woken for, it waits in its activity however early', () => {
    assert.deepEqual(slotStep(slot, true, at(-4000)), { step: 'sleep', ms: 4000 });
  });

  test('for a slot it took itself, it waits in its activity only when the slot is near; else the workflow waits durably', () => {
    assert.deepEqual(slotStep(slot, false, at(-INLINE_WAIT_MS)), { step: 'sleep', ms: INLINE_WAIT_MS });
    assert.deepEqual(slotStep(slot, false, at(-INLINE_WAIT_MS - 1)), { step: 'defer' });
  });
});

describe('retryPauseMs', () => {
  test('2 s after the first failed attempt, doubling up to a minute', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((failed) => retryPauseMs(failed)),
      [2000, 4000, 8000, 16_000, 32_000],
    );
  });

  test('the pause the far end asked for wins', () => {
    assert.equal(retryPauseMs(1, 7000), 7000);
    assert.equal(retryPauseMs(3, 500), 500);
  });

  test(`no pause, no attempt after the ${MAX_SEND_ATTEMPTS}th failed one`, () => {
    assert.equal(MAX_SEND_ATTEMPTS, 6);
    assert.equal(retryPauseMs(MAX_SEND_ATTEMPTS), undefined);
    assert.equal(retryPauseMs(MAX_SEND_ATTEMPTS, 1000), undefined);
  });
});

describe('reconnectPauseMs', () => {
  test('10 s, doubling with each wait, up to 5 min a pause, as docs/guides/whatsapp.md says', () => {
    const pauses: number[] = [];
    let waited = 0;
    for (let pause = reconnectPauseMs(0, 0); pause !== undefined; pause = reconnectPauseMs(pauses.length, waited)) {
      pauses.push(pause);
      waited += pause;
    }
    assert.deepEqual(pauses.slice(0, 7), [10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]);
    assert.ok(pauses.slice(6).every((p) => p <= 300_000));
    // Within the limit in all, the last pause cut to what is left of it; then no more.
    assert.equal(waited, RECONNECT_WAIT_LIMIT_MS);
    assert.equal(reconnectPauseMs(20, RECONNECT_WAIT_LIMIT_MS - 1000), 1000);
    assert.equal(reconnectPauseMs(20, RECONNECT_WAIT_LIMIT_MS), undefined);
  });

  test("until the session's next check when the send says when that is, still within the limit", () => {
    assert.equal(reconnectPauseMs(0, 0, 37_000), 37_000);
    assert.equal(reconnectPauseMs(3, 0, 3000), 3000);
    assert.equal(reconnectPauseMs(3, RECONNECT_WAIT_LIMIT_MS - 1000, 300_000), 1000);
  });
});

describe('afterFailedAttempt: what a send does after its mocked attempt failed', () => {
  const fresh = { attempts: 0, reconnectWaits: 0, reconnectWaitedMs: 0 };
  const transient = { disconnected: false, nonRetryable: false };
  const disconnected = { disconnected: true, nonRetryable: false };

  test('a transient failure spends an attempt and retries after 2 s doubling, or the pause the far end asked for; six in all', () => {
    let counts = fresh;
    const pauses: number[] = [];
    for (;;) {
      const next = afterFailedAttempt(counts, transient);
      counts = next.counts;
      if (next.next === 'give up') break;
      assert.equal(next.next, 'retry');
      pauses.push(next.pauseMs);
    }
    assert.deepEqual(pauses, [2000, 4000, 8000, 16_000, 32_000]);
    assert.equal(counts.attempts, MAX_SEND_ATTEMPTS);
    assert.deepEqual(afterFailedAttempt(fresh, { ...transient, askedMs: 1500 }), {
      next: 'retry',
      pauseMs: 1500,
      counts: { ...fresh, attempts: 1 },
    });
  });

  test('a refusal for good gives up at once, the attempt counted', () => {
    assert.deepEqual(afterFailedAttempt({ ...fresh, attempts: 2 }, { ...transient, nonRetryable: true }), {
      next: 'give up',
      counts: { ...fresh, attempts: 3 },
    });
  });

  test("a channel not connected waits for it, spending no attempt, until the session's next check when it says", () => {
    assert.deepEqual(afterFailedAttempt({ ...fresh, attempts: 1 }, disconnected), {
      next: 'reconnect',
      pauseMs: 10_000,
      counts: { attempts: 1, reconnectWaits: 1, reconnectWaitedMs: 10_000 },
    });
    assert.deepEqual(afterFailedAttempt(fresh, { ...disconnected, askedMs: 37_000 }).counts.reconnectWaitedMs, 37_000);
  });

  test('past the wait limit, a channel not connected counts as a transient failure, on the usual pauses', () => {
    const spent = { attempts: 1, reconnectWaits: 30, reconnectWaitedMs: RECONNECT_WAIT_LIMIT_MS };
    assert.deepEqual(afterFailedAttempt(spent, { ...disconnected, askedMs: 37_000 }), {
      next: 'retry',
      pauseMs: 4000,
      counts: { ...spent, attempts: 2 },
    });
  });
});

describe('the session check back-off (domain/channels/session-timing.ts)', () => {
  test('the gateway is asked 10 s after the first refusal, then 20, 40, 80, 160 s, then every 5 min', () => {
    assert.deepEqual(
      Array.from({ length: 8 }, (_, checks) => sessionCheckPauseMs(checks)),
      [10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000],
    );
    const now = new Date('2026-11-28T12:00:00Z');
    assert.deepEqual(firstDown(now), { checks: 0, check_at: new Date('2026-11-28T12:00:10Z'), checked_at: null });
  });
});

describe('waking before a slot', () => {
  test('a send wakes WAKE_EARLY_MS before its slot; no timer when that is past', () => {
    const slotIso = new Date(10_000).toISOString();
    assert.equal(msBeforeSlot(slotIso, 5000, WAKE_EARLY_MS), 5000 - WAKE_EARLY_MS);
    assert.equal(msBeforeSlot(slotIso, 9500, WAKE_EARLY_MS), 0);
    assert.equal(msBeforeSlot(slotIso, 12_000, WAKE_EARLY_MS), 0);
  });

  test('after a send found its slot passed, it wakes earlier by how late it was (and 200 ms more), up to 5 s', () => {
    assert.equal(wakeEarlier(WAKE_EARLY_MS, 1000), WAKE_EARLY_MS + 1000 + 200);
    assert.equal(wakeEarlier(4000, 3000), MAX_WAKE_EARLY_MS);
    // A slot the send took for itself, not late for any: as early as before.
    assert.equal(wakeEarlier(WAKE_EARLY_MS, 0), WAKE_EARLY_MS);
  });
});

describe('spoken', () => {
  test('a delay as a summary says it', () => {
    assert.deepEqual([50, 1500, 5000, 300_000, 7_200_000].map(spoken), ['50 ms', '2 s', '5 s', '5 min', '2 h']);
  });
});
