import { condition, isCancellation, patched, proxyActivities, proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities/index';
import type { ChunkSendResult, GroupSendResult, PendingGroup, SentRecord } from '../activities/publications';
import { CHANNEL_SEND_OPTIONS, MAX_WAKE_EARLY_MS, missedSlot, reason, WAKE_EARLY_MS, WAKE_MARGIN_MS } from './paced';
import {
  CHUNKED_SENDS_PATCH,
  GROUPS_IN_INPUT_PATCH,
  LOCAL_STEPS_PATCH,
  PUBLICATION_PATCHES_PATCH,
  SEND_COMPLETES_PATCH,
  SEND_WINDOW_PATCH,
  SENT_BATCHES_PATCH,
  UNPACED_SEND_PATCH,
} from './patches';

export interface PublicationInput {
  publication_id: string;
  account: string;
  environment: 'live' | 'test';
  /**
   * The groups to send to, as the request that queued the publication found
   * them (it moved the publication to `sending`): no beginPublication. Absent
   * in starts that must begin (see GROUPS_IN_INPUT_PATCH). Never passed on to
   * an activity.
   */
  groups?: PendingGroup[];
}

const STEP_OPTIONS = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
} as const;
const { beginPublication, reserveDeliverySlot, markDeliveryWaiting, failDelivery, completePublication } =
  proxyActivities<Activities>(STEP_OPTIONS);
/**
 * The first and last steps are a few database reads and writes: run in the
 * worker as local activities (recorded as markers), they need no round trip
 * through the server's task queue. Publications started before this choose
 * the scheduled ones above when replayed.
 */
const local = proxyLocalActivities<Activities>(STEP_OPTIONS);

/** One send to one group: transient channel errors retry with backoff; permanent ones fail that group only. */
const { deliverToGroup } = proxyActivities<Activities>(CHANNEL_SEND_OPTIONS);

/**
 * The sends of a chunk of unpaced groups, at once: a few attempts for the
 * whole chunk (a worker lost mid-chunk), as the sends are idempotent; a
 * group the chunk did not send is then sent on its own (deliverToGroup).
 */
const { deliverToGroups } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds', maximumAttempts: 3 },
});

/** Unpaced groups one deliverToGroups sends to. */
const SEND_CHUNK = 25;

/** A group as summaries name it: "Grupo 1 (grp_…)", or its id alone when the name is unknown. */
const named = (g: PendingGroup): string => (g.name === null ? g.group_id : `${g.name.replace(/\s+/g, ' ')} (${g.group_id})`);

/** Whether the execution takes the path of patch `id` (see PUBLICATION_PATCHES_PATCH). */
type Patched = (id: string) => boolean;

/**
 * Every activity and timer carries a summary naming its group, which is
 * what Temporal UI shows on the publication's page instead of the bare
 * activity type and timer number.
 */
async function deliver(
  input: PublicationInput,
  group: PendingGroup,
  isPatched: Patched,
  deferred = false,
  complete = false,
  tried = 0,
): Promise<GroupSendResult | undefined> {
  const ref = {
    ...input,
    group_id: group.group_id,
    ...(deferred ? { deferred } : {}),
    ...(complete ? { complete } : {}),
    ...(tried ? { tried } : {}),
  };
  // Pacing: the slot is reserved durably, and the wait is a durable timer.
  // The send checks its slot again right before it goes; one that missed
  // it has reserved the next free slot, waited for here in the same way.
  const windowed = isPatched(SEND_WINDOW_PATCH);
  let wakeEarly = windowed ? WAKE_EARLY_MS : 0;
  // An unpaced group needs no slot: its send goes at once (and reserves one itself should pacing have been set since).
  const unreserved = group.paced === false && isPatched(UNPACED_SEND_PATCH);
  let slot: string | undefined = unreserved
    ? undefined
    : await reserveDeliverySlot.executeWithOptions({ summary: `pacing: reserve ${group.group_id}'s slot` }, [ref]);
  let first = true;
  let result: GroupSendResult | undefined;
  while (first || slot) {
    if (slot) {
      const wait = Date.parse(slot) - Date.now() - wakeEarly;
      if (wait > 0) {
        await markDeliveryWaiting.executeWithOptions({ summary: `pacing: ${group.group_id} waits for its slot` }, [ref]);
        await sleep(wait, { summary: `pacing: wait for ${group.group_id}'s slot` });
      }
    }
    const pacing = slot ? (windowed ? { slot } : {}) : { unreserved: true };
    first = false;
    try {
      result = await deliverToGroup.executeWithOptions({ summary: `send to ${named(group)}` }, [{ ...ref, ...pacing }]);
      slot = undefined;
    } catch (err) {
      const missed = missedSlot(err);
      if (!missed)
        await failDelivery.executeWithOptions({ summary: `record the failure of ${group.group_id}` }, [{ ...ref, error: reason(err) }]);
      else wakeEarly = Math.min(MAX_WAKE_EARLY_MS, wakeEarly + missed.lateMs + WAKE_MARGIN_MS);
      slot = missed?.slot;
    }
  }
  return result;
}

/** The most sends one recordSentDeliveries writes. */
const SENT_BATCH = 100;

/**
 * Sends to every group, the unpaced ones deferred (their sends are recorded
 * by the workflow, in batches); the sends not recorded yet when all are done
 * go to completePublication with the rest.
 */
async function deliverInBatches(
  input: PublicationInput,
  groups: PendingGroup[],
  isPatched: Patched,
): Promise<{ sent: SentRecord[]; recorded: number }> {
  const sent: SentRecord[] = [];
  let recorded = 0;
  let sending = groups.filter((g) => g.paced === false).length;
  let done = false;
  // A batch is recorded when it is full, or when as many sends wait to be recorded as are still under way:
  // a fan-out's deliveries show as sent while it runs, and a single send waits for completePublication only.
  const recording = (async () => {
    for (let batch = 0; ; batch++) {
      await condition(() => done || (sending > 0 && sent.length - recorded >= Math.min(SENT_BATCH, sending)));
      if (done) return;
      const deliveries = sent.slice(recorded, recorded + SENT_BATCH);
      await local.recordSentDeliveries.executeWithOptions({ summary: `record ${deliveries.length} sends` }, [{ ...input, batch, deliveries }]);
      recorded += deliveries.length;
    }
  })();
  const alone = async (group: PendingGroup, tried = 0) => {
    const record = (await deliver(input, group, isPatched, true, false, tried))?.record;
    if (record) sent.push(record);
    sending--;
  };
  const unpaced = groups.filter((g) => g.paced === false);
  if (unpaced.length > 1 && patched(CHUNKED_SENDS_PATCH)) {
    const chunks = Array.from({ length: Math.ceil(unpaced.length / SEND_CHUNK) }, (_, i) => unpaced.slice(i * SEND_CHUNK, (i + 1) * SEND_CHUNK));
    await Promise.all([
      ...groups.filter((g) => g.paced !== false).map((group) => deliver(input, group, isPatched)),
      ...chunks.map(async (chunk) => {
        let results: ChunkSendResult[] = [];
        try {
          const summary = `send to ${chunk.length} groups: ${named(chunk[0]!)}${chunk.length > 1 ? ` … ${named(chunk[chunk.length - 1]!)}` : ''}`;
          results = await deliverToGroups.executeWithOptions({ summary }, [{ ...input, group_ids: chunk.map((g) => g.group_id) }]);
        } catch (err) {
          // The chunk failed as a whole (its attempts ran out): each of its groups goes on its own.
          if (isCancellation(err)) throw err;
        }
        const byGroup = new Map(results.map((r) => [r.group_id, r]));
        const unsent: [PendingGroup, number][] = [];
        for (const group of chunk) {
          const result = byGroup.get(group.group_id);
          if (!result || !('record' in result)) unsent.push([group, result?.attempts ?? 0]);
          else {
            sent.push(result.record);
            sending--;
          }
        }
        await Promise.all(unsent.map(([group, tried]) => alone(group, tried)));
      }),
    ]);
  } else {
    await Promise.all(groups.map((group) => (group.paced !== false ? deliver(input, group, isPatched) : alone(group))));
  }
  done = true;
  await recording;
  return { sent, recorded };
}

/**
 * Sends one publication: one activity per group, all groups in parallel
 * (each paced), then the final state. Started as `publication-<id>`; the
 * connector receives `<publication>:<group>` as idempotency key, so no group
 * receives it twice — not on retry, not after a worker crash.
 */
export async function publication({ groups: given, ...input }: PublicationInput): Promise<{ status: string }> {
  // Asked once, first: a new execution records one marker for every patch; one recorded before takes each as it did.
  const all = patched(PUBLICATION_PATCHES_PATCH);
  const isPatched: Patched = (id) => all || patched(id);
  const steps = isPatched(LOCAL_STEPS_PATCH) ? local : { beginPublication, completePublication };
  // Histories recorded before beginPublication returned group names hold bare group ids.
  const pending: (string | PendingGroup)[] =
    given && isPatched(GROUPS_IN_INPUT_PATCH)
      ? given
      : await steps.beginPublication.executeWithOptions({ summary: 'begin: the groups still to send to' }, [input]);
  const groups: PendingGroup[] = pending.map((g) => (typeof g === 'string' ? { group_id: g, name: null } : g));
  const summary = { summary: 'complete: the final state from the deliveries' };
  if (isPatched(SENT_BATCHES_PATCH)) {
    const [only] = groups;
    if (groups.length === 1 && only!.paced === false && isPatched(SEND_COMPLETES_PATCH)) {
      // One unpaced send: it completes the publication itself (no local activity after it), or says it could not.
      const result = await deliver(input, only!, isPatched, true, true);
      if (result?.status) return { status: result.status };
      const sent = result?.record ? [result.record] : [];
      return { status: await local.completePublication.executeWithOptions(summary, [{ ...input, sent, recorded: 0 }]) };
    }
    const sends = await deliverInBatches(input, groups, isPatched);
    return { status: await local.completePublication.executeWithOptions(summary, [{ ...input, ...sends }]) };
  }
  await Promise.all(groups.map((group) => deliver(input, group, isPatched)));
  return { status: await steps.completePublication.executeWithOptions(summary, [input]) };
}
