/**
 * The arithmetic of sends over time, pure (no workflow API): how many
 * attempts a send gets and the pause between them, what a send does after a
 * failed attempt, how early a paced send wakes before its slot, and how a
 * delay reads in a summary.
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

/** What a failed attempt says, read from its failure (workflows/sending.ts). */
export interface AttemptFailure {
  /** Its channel's session is not connected (ChannelDisconnected): waiting for it spends no attempt, up to a limit. */
  disconnected: boolean;
  /** The channel refused the send for good. */
  nonRetryable: boolean;
  /** The pause the failure carries (a ChannelTransient's or ChannelDisconnected's): what the far end asked for. */
  askedMs?: number;
}

/** A send's counts: its attempts, and its waits for a channel to come back (how many, how long in all). */
export interface SendCounts {
  attempts: number;
  reconnectWaits: number;
  reconnectWaitedMs: number;
}

/**
 * What a send does after a failed attempt, with its counts after it: waits
 * `pauseMs` for its channel to come back (no attempt spent, within
 * RECONNECT_WAIT_LIMIT_MS), or tries again after `pauseMs` (an attempt
 * spent), or gives up (refused for good, or its attempts spent).
 */
export function afterFailedAttempt(
  counts: SendCounts,
  failure: AttemptFailure,
): { next: 'reconnect' | 'retry'; pauseMs: number; counts: SendCounts } | { next: 'give up'; counts: SendCounts } {
  const reconnect = failure.disconnected ? reconnectPauseMs(counts.reconnectWaits, counts.reconnectWaitedMs, failure.askedMs) : undefined;
  if (reconnect !== undefined) {
    const after = { ...counts, reconnectWaits: counts.reconnectWaits + 1, reconnectWaitedMs: counts.reconnectWaitedMs + reconnect };
    return { next: 'reconnect', pauseMs: reconnect, counts: after };
  }
  const after = { ...counts, attempts: counts.attempts + 1 };
  // A disconnected send past its wait limit retries on the usual pauses, not on the session's.
  const pause = failure.nonRetryable ? undefined : retryPauseMs(after.attempts, failure.disconnected ? undefined : failure.askedMs);
  return pause === undefined ? { next: 'give up', counts: after } : { next: 'retry', pauseMs: pause, counts: after };
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
