/**
 * How every send to a channel goes over time, publications and replies alike
 * (docs/architecture/decisions/0017-send-attempts-counted-by-the-workflow.md): one activity per attempt, counted by
 * the workflow; a wait for a pacing slot is a durable timer, never an attempt;
 * a failed or lost attempt is tried again after a pause (in a slot reserved
 * for it when the target is paced) while attempts remain. A send whose
 * channel's session is not connected (a WhatsApp gateway's) is no attempt
 * either: it waits on a durable timer named for it, until the session's next
 * check, and tries again, up to RECONNECT_WAIT_LIMIT_MS in all
 * (docs/guides/whatsapp.md).
 */
import { ActivityFailure, ActivityOptions, ApplicationFailure, isCancellation, sleep, TimeoutFailure } from '@temporalio/workflow';
import type { SlotWait } from '../activities/publications';
import { countPacingWait, countSends } from './metrics';
import { afterFailedAttempt, AttemptFailure, msBeforeSlot, spoken, WAKE_EARLY_MS, wakeEarlier } from './send-timing';

/**
 * One attempt of a send: Temporal does not retry it (the workflow does, and
 * counts); a worker lost mid-send is noticed after 10 s without a heartbeat.
 */
export const SEND_ATTEMPT_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  heartbeatTimeout: '10 seconds',
  retry: { maximumAttempts: 1 },
};

/** The text a failed send records: the activity's own (made safe for tenants, activities/failures.ts), or what became of it. */
export function reason(err: unknown): string {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof TimeoutFailure) return 'the send did not complete in time (its worker may have stopped)';
  if (cause instanceof ApplicationFailure || cause instanceof Error) return cause.message;
  return 'the channel did not accept the message';
}

/**
 * What a failed attempt `err` says: whether its channel is not connected (the
 * send may go once it is), whether it was refused for good, and the pause a
 * channel's transient or disconnected failure carries (what the far end
 * asked for, or until the session's next check).
 */
function failureOf(err: ActivityFailure): AttemptFailure {
  const cause = err.cause;
  if (!(cause instanceof ApplicationFailure)) return { disconnected: false, nonRetryable: false };
  const [asked] = cause.type === 'ChannelTransient' || cause.type === 'ChannelDisconnected' ? (cause.details ?? []) : [];
  return {
    disconnected: cause.type === 'ChannelDisconnected',
    nonRetryable: cause.nonRetryable === true,
    ...(typeof asked === 'number' ? { askedMs: asked } : {}),
  };
}

/** How a send ended: what its last attempt returned, or the reason it failed; and the attempts it made in all. */
export type Attempted<T> = { sent: T; attempts: number } | { error: string; attempts: number };

export interface SendPlan<T> {
  /** What pacing timers wait for: "Grupo 1's slot". */
  slotOf: string;
  /** What retry timers name: "Grupo 1 (grp_…)". */
  target: string;
  /** The first slot, reserved; null when none was (the target is not paced, or the send takes its slot itself). */
  slot: string | null;
  /** Attempts made before this send began (a chunk's). */
  tried: number;
  /** Runs attempt number `attempt` (its activity) in `slot`. */
  attempt(slot: string | null, attempt: number): Promise<T | SlotWait>;
  /** Reserves a retry's slot, the first free one at or after `notBefore`; absent when the target is not paced. */
  reserve?: (notBefore: string) => Promise<string | null>;
}

/**
 * Sends as `plan` says: waits for the slot on a durable timer (waking a
 * little early; the activity waits the rest), runs an attempt, and waits for
 * the slot the attempt returns when its own had passed. A failed attempt, or
 * one that did not complete (a worker lost), counts; the next goes after its
 * pause while attempts remain. Counts the sends by outcome and the pacing
 * waits (./metrics.ts).
 */
export async function sendWithRetries<T>(plan: SendPlan<T>): Promise<Attempted<T>> {
  let counts = { attempts: plan.tried, reconnectWaits: 0, reconnectWaitedMs: 0 };
  let slot = plan.slot;
  let wakeEarly = WAKE_EARLY_MS;
  let retrying = false;
  let reconnecting = false;
  for (;;) {
    const ms = slot === null ? 0 : msBeforeSlot(slot, Date.now(), wakeEarly);
    if (ms > 0) {
      if (!retrying && !reconnecting) countPacingWait(ms);
      const summary = reconnecting
        ? `channel not connected: wait for ${plan.slotOf} to try again`
        : retrying
          ? `retry: wait for ${plan.slotOf} before attempt ${counts.attempts + 1}`
          : `pacing: wait for ${plan.slotOf}`;
      await sleep(ms, { summary });
    }
    let outcome: T | SlotWait;
    try {
      outcome = await plan.attempt(slot, counts.attempts + 1);
    } catch (err) {
      if (isCancellation(err) || !(err instanceof ActivityFailure)) throw err;
      // Waiting for the channel to come back spends no attempt and no slot, up to the limit; past it, the failure counts.
      const next = afterFailedAttempt(counts, failureOf(err));
      counts = next.counts;
      if (next.next === 'give up') return failed(reason(err), counts.attempts);
      reconnecting = next.next === 'reconnect';
      const pause = next.pauseMs;
      try {
        // The send after a reconnect wait takes its slot itself, should its target be paced.
        slot = plan.reserve && !reconnecting ? await plan.reserve(new Date(Date.now() + pause).toISOString()) : null;
      } catch (reserveErr) {
        if (isCancellation(reserveErr) || !(reserveErr instanceof ActivityFailure)) throw reserveErr;
        return failed(reason(reserveErr), counts.attempts);
      }
      if (!reconnecting) countSends('retried');
      const summary = reconnecting
        ? `channel not connected: wait ${spoken(pause)} for ${plan.target}'s channel to come back`
        : `retry: wait ${spoken(pause)} before attempt ${counts.attempts + 1} to ${plan.target}`;
      if (slot === null) await sleep(pause, { summary });
      wakeEarly = WAKE_EARLY_MS;
      retrying = true;
      continue;
    }
    if (isSlotWait(outcome)) {
      slot = outcome.slot;
      retrying = false;
      reconnecting = false;
      wakeEarly = wakeEarlier(wakeEarly, outcome.late_ms);
      continue;
    }
    countSends('sent');
    return { sent: outcome, attempts: counts.attempts + 1 };
  }
}

function failed(error: string, attempts: number): { error: string; attempts: number } {
  countSends('failed');
  return { error, attempts };
}

const isSlotWait = (outcome: unknown): outcome is SlotWait =>
  typeof outcome === 'object' && outcome !== null && (outcome as { outcome?: unknown }).outcome === 'wait';
