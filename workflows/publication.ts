import { patched, proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities/index';
import type { PendingGroup } from '../activities/publications';
import { CHANNEL_SEND_OPTIONS, MAX_WAKE_EARLY_MS, missedSlot, reason, WAKE_EARLY_MS, WAKE_MARGIN_MS } from './paced';
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
const { deliverToGroup } = proxyActivities<Activities>(CHANNEL_SEND_OPTIONS);

/** A group as summaries name it: "Grupo 1 (grp_…)", or its id alone when the name is unknown. */
const named = (g: PendingGroup): string => (g.name === null ? g.group_id : `${g.name.replace(/\s+/g, ' ')} (${g.group_id})`);

/**
 * Every activity and timer carries a summary naming its group, which is
 * what Temporal UI shows on the publication's page instead of the bare
 * activity type and timer number.
 */
async function deliver(input: PublicationInput, group: PendingGroup): Promise<void> {
  const ref = { ...input, group_id: group.group_id };
  // Pacing: the slot is reserved durably, and the wait is a durable timer.
  // The send checks its slot again right before it goes; one that missed
  // it has reserved the next free slot, waited for here in the same way.
  const windowed = patched(SEND_WINDOW_PATCH);
  let wakeEarly = windowed ? WAKE_EARLY_MS : 0;
  let slot: string | undefined = await reserveDeliverySlot.executeWithOptions({ summary: `pacing: reserve ${group.group_id}'s slot` }, [ref]);
  while (slot) {
    const wait = Date.parse(slot) - Date.now() - wakeEarly;
    if (wait > 0) {
      await markDeliveryWaiting.executeWithOptions({ summary: `pacing: ${group.group_id} waits for its slot` }, [ref]);
      await sleep(wait, { summary: `pacing: wait for ${group.group_id}'s slot` });
    }
    try {
      await deliverToGroup.executeWithOptions({ summary: `send to ${named(group)}` }, [{ ...ref, ...(windowed ? { slot } : {}) }]);
      slot = undefined;
    } catch (err) {
      const missed = missedSlot(err);
      if (!missed)
        await failDelivery.executeWithOptions({ summary: `record the failure of ${group.group_id}` }, [{ ...ref, error: reason(err) }]);
      else wakeEarly = Math.min(MAX_WAKE_EARLY_MS, wakeEarly + missed.lateMs + WAKE_MARGIN_MS);
      slot = missed?.slot;
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
  // Histories recorded before beginPublication returned group names hold bare group ids.
  const pending: (string | PendingGroup)[] = await beginPublication.executeWithOptions({ summary: 'begin: the groups still to send to' }, [
    input,
  ]);
  const groups = pending.map((g) => (typeof g === 'string' ? { group_id: g, name: null } : g));
  await Promise.all(groups.map((group) => deliver(input, group)));
  return { status: await completePublication.executeWithOptions({ summary: 'complete: the final state from the deliveries' }, [input]) };
}
