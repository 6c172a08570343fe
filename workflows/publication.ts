import { ActivityFailure, ApplicationFailure, patched, proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities/index';
import { SEND_WINDOW_PATCH } from './patches';

export interface PublicationInput {
  publication_id: string;
  account: string;
  environment: 'live' | 'test';
}

const { beginPublication, reserveDeliverySlot, markDeliveryWaiting, failDelivery, completePublication } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** One send to one group: transient channel errors retry with backoff; permanent ones fail that group only. */
const { deliverToGroup } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 6,
    nonRetryableErrorTypes: ['ChannelPermanent'],
  },
});

function reason(err: unknown): string {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure || cause instanceof Error) return cause.message;
  return 'the channel did not accept the message';
}

/** How early a paced send wakes before its slot: the send waits the rest (at most INLINE_WAIT_MS) in its activity. */
const WAKE_EARLY_MS = 800;

/** The next slot a send that missed its own reserved (activities/channels.ts SLOT_MISSED), if `err` is that. */
function missedSlot(err: unknown): string | undefined {
  const cause = err instanceof ActivityFailure ? err.cause : undefined;
  if (!(cause instanceof ApplicationFailure) || cause.type !== 'SlotMissed') return undefined;
  const next: unknown = cause.details?.[0];
  return typeof next === 'string' ? next : undefined;
}

async function deliver(input: PublicationInput, groupId: string): Promise<void> {
  // Pacing: the slot is reserved durably, and the wait is a durable timer.
  // The send checks its slot again right before it goes; one that missed
  // it has reserved the next free slot, waited for here in the same way.
  const windowed = patched(SEND_WINDOW_PATCH);
  let slot: string | undefined = await reserveDeliverySlot({ ...input, group_id: groupId });
  while (slot) {
    const wait = Date.parse(slot) - Date.now() - (windowed ? WAKE_EARLY_MS : 0);
    if (wait > 0) {
      await markDeliveryWaiting({ ...input, group_id: groupId });
      await sleep(wait);
    }
    try {
      await deliverToGroup({ ...input, group_id: groupId, ...(windowed ? { slot } : {}) });
      slot = undefined;
    } catch (err) {
      slot = missedSlot(err);
      if (!slot) await failDelivery({ ...input, group_id: groupId, error: reason(err) });
    }
  }
}

/**
 * Sends one publication: one activity per group, all groups in parallel
 * (each paced), then the final state. Started as `publication-<id>`; the
 * connector receives `<publication>:<group>` as idempotency key, so no group
 * receives it twice — not on retry, not after a worker crash.
 */
export async function publication(input: PublicationInput): Promise<{ status: string }> {
  const pending = await beginPublication(input);
  await Promise.all(pending.map((groupId) => deliver(input, groupId)));
  return { status: await completePublication(input) };
}
