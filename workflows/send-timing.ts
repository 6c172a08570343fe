/**
 * The arithmetic of sends over time, pure (no workflow API): how many
 * attempts a send gets and the pause between them, how early a paced send
 * wakes before its slot, and how a delay reads in a summary.
 */

/** Attempts of one send (a send lost with its worker, or failed on our side, included); a wait for a slot is none. */
export const MAX_SEND_ATTEMPTS = 6;
/** The pause after a first failed attempt; it doubles with each one after, up to MAX_RETRY_PAUSE_MS. */
const FIRST_RETRY_PAUSE_MS = 2000;
const MAX_RETRY_PAUSE_MS = 60_000;

/** How long, in all, a send waits for its channel's session to come back before its failures count as attempts again. */
export const RECONNECT_WAIT_LIMIT_MS = 60 * 60_000;
/** The first pause for a channel that is not connected; it doubles, up to MAX_RECONNECT_PAUSE_MS. */
const FIRST_RECONNECT_PAUSE_MS = 10_000;
const MAX_RECONNECT_PAUSE_MS = 5 * 60_000;

/**
 * The pause before trying again a send whose channel's session was not
 * connected, after `waits` such pauses lasting `waitedMs` in all: until the
 * session's next check (`askedMs`, domain/channels/session.ts), else 10 s
 * doubling to 5 min; within RECONNECT_WAIT_LIMIT_MS in all, undefined once
 * that is spent.
 */
export function reconnectPauseMs(waits: number, waitedMs: number, askedMs?: number): number | undefined {
  const left = RECONNECT_WAIT_LIMIT_MS - waitedMs;
  if (left <= 0) return undefined;
  return Math.min(askedMs ?? Math.min(MAX_RECONNECT_PAUSE_MS, FIRST_RECONNECT_PAUSE_MS * 2 ** waits), left);
}

/** How early a paced send wakes before its slot: the send waits the rest in its activity. */
export const WAKE_EARLY_MS = 800;
/** After a send found its slot passed, it wakes earlier by how late it was and this much more, up to MAX_WAKE_EARLY_MS. */
const WAKE_MARGIN_MS = 200;
export const MAX_WAKE_EARLY_MS = 5000;

/**
 * The pause before the next attempt after `failed` failed ones: what the far
 * end asked for (`askedMs`), else 2 s doubling to 1 min; undefined when the
 * attempts are spent.
 */
export function retryPauseMs(failed: number, askedMs?: number): number | undefined {
  if (failed >= MAX_SEND_ATTEMPTS) return undefined;
  return askedMs ?? Math.min(MAX_RETRY_PAUSE_MS, FIRST_RETRY_PAUSE_MS * 2 ** (failed - 1));
}

/** How early to wake for the next slot, after a send woken `wakeEarlyMs` early was `lateMs` late for its own. */
export const wakeEarlier = (wakeEarlyMs: number, lateMs: number): number =>
  lateMs > 0 ? Math.min(MAX_WAKE_EARLY_MS, wakeEarlyMs + lateMs + WAKE_MARGIN_MS) : wakeEarlyMs;

/** How long to sleep before a send to `slot` (ISO time), woken `wakeEarlyMs` early; 0 when it should go now. */
export const msBeforeSlot = (slot: string, now: number, wakeEarlyMs: number): number => Math.max(0, Date.parse(slot) - now - wakeEarlyMs);

/** A delay as summaries say it: 50 ms, 5 s, 5 min, 2 h. */
export const spoken = (ms: number): string =>
  ms < 1000
    ? `${ms} ms`
    : ms < 60_000
      ? `${Math.round(ms / 1000)} s`
      : ms < 3_600_000
        ? `${Math.round(ms / 60_000)} min`
        : `${Math.round(ms / 3_600_000)} h`;
