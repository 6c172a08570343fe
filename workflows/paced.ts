/**
 * What every paced send to a channel shares, publications and replies alike:
 * the retry policy of the send activity, how early a send wakes before its
 * slot, how a missed slot is recognised, and the failure text recorded.
 */
import { ActivityFailure, ActivityOptions, ApplicationFailure } from '@temporalio/workflow';

/** One send: transient channel errors retry with backoff (2 s doubling to 1 min, 6 attempts); permanent ones fail at once. */
export const CHANNEL_SEND_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 6,
    nonRetryableErrorTypes: ['ChannelPermanent'],
  },
};

/** The text a failed send records: the activity's own (made safe for tenants, activities/internal-errors.ts). */
export function reason(err: unknown): string {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure || cause instanceof Error) return cause.message;
  return 'the channel did not accept the message';
}

/** How early a paced send wakes before its slot: the send waits the rest in its activity. */
export const WAKE_EARLY_MS = 800;
/** After a missed slot the send wakes earlier by how late it was (and this much more), up to MAX_WAKE_EARLY_MS. */
export const WAKE_MARGIN_MS = 200;
export const MAX_WAKE_EARLY_MS = 5000;

/** The next slot a send that missed its own reserved, and how late it was (activities/channels.ts SLOT_MISSED), if `err` is that. */
export function missedSlot(err: unknown): { slot: string; lateMs: number } | undefined {
  const cause = err instanceof ActivityFailure ? err.cause : undefined;
  if (!(cause instanceof ApplicationFailure) || cause.type !== 'SlotMissed') return undefined;
  const [slot, lateMs]: unknown[] = cause.details ?? [];
  return typeof slot === 'string' ? { slot, lateMs: typeof lateMs === 'number' ? lateMs : 0 } : undefined;
}
