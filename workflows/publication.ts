import { condition, isCancellation, proxyActivities, proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities/index';
import type { ChunkSendResult, GroupSendResult, SentRecord } from '../activities/publications';
import type { PublicationGroup, PublicationInput } from '../temporal/workflows';
import { reason, SEND_ATTEMPT_OPTIONS, sendWithRetries } from './sending';
import { retryPauseMs, spoken } from './send-timing';

const STEP_OPTIONS = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
} as const;
const { reserveDeliverySlot, markDeliveryWaiting, failDelivery } = proxyActivities<Activities>(STEP_OPTIONS);
/**
 * The first and last steps, and the records of sends in batches, are a few
 * database reads and writes: run in the worker as local activities (recorded
 * as markers), they need no round trip through the server's task queue.
 */
const local = proxyLocalActivities<Activities>(STEP_OPTIONS);

/** One attempt to send to one group (workflows/sending.ts counts and retries them). */
const { deliverToGroup } = proxyActivities<Activities>(SEND_ATTEMPT_OPTIONS);

/**
 * One attempt of the sends of a chunk of unpaced groups, at once: a chunk
 * lost with its worker (10 s without a heartbeat) or failed as a whole is
 * tried again, CHUNK_ATTEMPTS in all; a group the chunk did not send is then
 * sent on its own (deliverToGroup), the chunk's attempts counted.
 */
const { deliverToGroups } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { maximumAttempts: 1 },
});
const CHUNK_ATTEMPTS = 3;

/** Unpaced groups one deliverToGroups sends to. */
const SEND_CHUNK = 25;

/** A group as summaries name it: "Grupo 1 (grp_…)", or its id alone when the name is unknown. */
const named = (g: PublicationGroup): string => (g.name === null ? g.group_id : `${g.name.replace(/\s+/g, ' ')} (${g.group_id})`);
/** A group as pacing timers name it: "Grupo 1", or its id. */
const shortName = (g: PublicationGroup): string => (g.name === null ? g.group_id : g.name.replace(/\s+/g, ' '));

interface DeliverOptions {
  /** The workflow records the send (recordSentDeliveries, completePublication): the activity writes nothing when it sends. */
  deferred?: boolean;
  /** The publication's only send: once sent, it completes the publication. */
  complete?: boolean;
  /** Attempts a chunk made of this group before it goes alone. */
  tried?: number;
  /** A slot a chunk's send found the group waits for, reserved. */
  slot?: string;
}

/**
 * Sends to one group, paced and retried (workflows/sending.ts); what the
 * send did, or undefined when it failed (recorded by failDelivery). Every
 * activity and timer carries a summary naming the group, which is what
 * Temporal UI shows on the publication's page.
 */
async function deliver(input: PublicationInput, group: PublicationGroup, opts: DeliverOptions = {}): Promise<GroupSendResult | undefined> {
  const ref = { ...input, group_id: group.group_id };
  const reserve = (notBefore?: string) =>
    reserveDeliverySlot.executeWithOptions({ summary: `pacing: reserve ${group.group_id}'s slot` }, [
      { ...ref, ...(notBefore ? { not_before: notBefore } : {}) },
    ]);
  const fail = async (error: string, attempts: number) => {
    await failDelivery.executeWithOptions({ summary: `record the failure of ${group.group_id}` }, [{ ...ref, error, attempts }]);
    return undefined;
  };
  // An unpaced group needs no slot: its send goes at once (and takes one itself should pacing have been set since).
  let slot: string | null = opts.slot ?? null;
  if (group.paced && !slot) {
    try {
      slot = await reserve();
    } catch (err) {
      if (isCancellation(err)) throw err;
      return fail(reason(err), opts.tried ?? 0);
    }
  }
  const sends = { ...(opts.deferred ? { deferred: true } : {}), ...(opts.complete ? { complete: true } : {}) };
  const result = await sendWithRetries({
    slotOf: `${shortName(group)}'s slot`,
    target: named(group),
    slot,
    tried: opts.tried ?? 0,
    attempt: (at, attempt) =>
      deliverToGroup.executeWithOptions({ summary: `send to ${named(group)}${attempt > 1 ? `, attempt ${attempt}` : ''}` }, [
        { ...ref, ...sends, slot: at, attempt },
      ]),
    ...(group.paced ? { reserve } : {}),
    waiting: () => markDeliveryWaiting.executeWithOptions({ summary: `pacing: ${group.group_id} waits for its slot` }, [ref]),
  });
  return 'error' in result ? fail(result.error, result.attempts) : result.sent;
}

/**
 * Sends to a chunk of unpaced groups with deliverToGroups, trying the whole
 * chunk again when an attempt is lost or fails as a whole; reports each
 * group it sent (`sent`), and sends the others alone (`alone`).
 */
async function deliverChunk(
  input: PublicationInput,
  chunk: PublicationGroup[],
  sent: (record: SentRecord) => void,
  alone: (group: PublicationGroup, opts: DeliverOptions) => Promise<void>,
): Promise<void> {
  const label = `${chunk.length} groups: ${named(chunk[0]!)}${chunk.length > 1 ? ` … ${named(chunk[chunk.length - 1]!)}` : ''}`;
  let results: ChunkSendResult[] | undefined;
  let attempt = 1;
  for (; ; attempt++) {
    try {
      const summary = `send to ${label}${attempt > 1 ? `, attempt ${attempt}` : ''}`;
      results = await deliverToGroups.executeWithOptions({ summary }, [{ ...input, group_ids: chunk.map((g) => g.group_id), attempt }]);
      break;
    } catch (err) {
      if (isCancellation(err)) throw err;
      if (attempt >= CHUNK_ATTEMPTS) break;
      const pause = retryPauseMs(attempt)!;
      await sleep(pause, { summary: `retry: wait ${spoken(pause)} before attempt ${attempt + 1} to ${label}` });
    }
  }
  // Each attempt may have sent to every group of the chunk: a group sent alone counts them.
  const byGroup = new Map((results ?? []).map((r) => [r.group_id, r]));
  const unsent: [PublicationGroup, DeliverOptions][] = [];
  for (const group of chunk) {
    const result = byGroup.get(group.group_id);
    if (result && 'record' in result) sent(result.record);
    else if (result && 'slot' in result) unsent.push([group, { tried: attempt - 1, slot: result.slot }]);
    // A group whose channel was not connected spent no attempt: sent alone, it waits for the channel.
    else unsent.push([group, { tried: result && 'disconnected' in result ? attempt - 1 : attempt }]);
  }
  await Promise.all(unsent.map(([group, opts]) => alone(group, opts)));
}

/** The most sends one recordSentDeliveries writes. */
const SENT_BATCH = 100;

/**
 * Sends to every group: the unpaced ones in chunks, their sends recorded by
 * the workflow in batches; the sends not recorded yet when all are done go
 * to completePublication with the rest.
 */
async function deliverInBatches(input: PublicationInput, groups: PublicationGroup[]): Promise<{ sent: SentRecord[]; recorded: number }> {
  const sent: SentRecord[] = [];
  let recorded = 0;
  const unpaced = groups.filter((g) => !g.paced);
  let sending = unpaced.length;
  let done = false;
  // A batch is recorded when it is full, or when as many sends wait to be recorded as are still under way:
  // a fan-out's deliveries show as sent while it runs.
  const recording = (async () => {
    for (let batch = 0; ; batch++) {
      await condition(() => done || (sending > 0 && sent.length - recorded >= Math.min(SENT_BATCH, sending)));
      if (done) return;
      const deliveries = sent.slice(recorded, recorded + SENT_BATCH);
      await local.recordSentDeliveries.executeWithOptions({ summary: `record ${deliveries.length} sends` }, [{ ...input, batch, deliveries }]);
      recorded += deliveries.length;
    }
  })();
  const record = (r: SentRecord) => {
    sent.push(r);
    sending--;
  };
  const alone = async (group: PublicationGroup, opts: DeliverOptions = {}) => {
    const result = await deliver(input, group, { ...opts, deferred: true });
    if (result?.record) sent.push(result.record);
    sending--;
  };
  const chunks =
    unpaced.length > 1
      ? Array.from({ length: Math.ceil(unpaced.length / SEND_CHUNK) }, (_, i) => unpaced.slice(i * SEND_CHUNK, (i + 1) * SEND_CHUNK))
      : [];
  await Promise.all([
    ...groups.filter((g) => g.paced).map((group) => deliver(input, group)),
    ...(chunks.length ? chunks.map((chunk) => deliverChunk(input, chunk, record, alone)) : unpaced.map((group) => alone(group))),
  ]);
  done = true;
  await recording;
  return { sent, recorded };
}

/**
 * Sends one publication: every group in parallel (the paced ones each on
 * its slot, the unpaced ones in chunks), then the final state. Started as
 * `publication-<id>`; the connector receives `<publication>:<group>` as
 * idempotency key, so no group receives it twice — not when an attempt is
 * tried again, not after a worker crash.
 */
export async function publication({ groups: given, ...input }: PublicationInput): Promise<{ status: string }> {
  const groups = given ?? (await local.beginPublication.executeWithOptions({ summary: 'begin: the groups still to send to' }, [input]));
  const summary = { summary: 'complete: the final state from the deliveries' };
  const [only] = groups;
  if (groups.length === 1 && !only!.paced) {
    // One unpaced send: it completes the publication itself (no local activity after it), or says it could not.
    const result = await deliver(input, only!, { deferred: true, complete: true });
    if (result?.status) return { status: result.status };
    const sent = result?.record ? [result.record] : [];
    return { status: await local.completePublication.executeWithOptions(summary, [{ ...input, sent, recorded: 0 }]) };
  }
  const sends = await deliverInBatches(input, groups);
  return { status: await local.completePublication.executeWithOptions(summary, [{ ...input, ...sends }]) };
}
