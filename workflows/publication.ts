import {
  ApplicationFailure,
  condition,
  executeChild,
  isCancellation,
  ParentClosePolicy,
  proxyActivities,
  proxyLocalActivities,
  sleep,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index';
import type { ChunkSendResult, GroupSendResult, SentRecord } from '../activities/publications';
import { OfferopsState } from '../temporal/names';
import {
  FAILURES_KEPT,
  OfferopsWorkflows,
  PacedDeliveriesInput,
  PacedDeliveriesResult,
  pacedDeliveriesStartOptions,
  PUBLICATION_FAILED,
  PublicationGroup,
  PublicationInput,
} from '../temporal/workflows';
import { countSends } from './metrics';
import { reason, SEND_ATTEMPT_OPTIONS, sendWithRetries } from './sending';
import { retryPauseMs, spoken } from './send-timing';

const STEP_OPTIONS = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
} as const;
const { reserveDeliverySlot, reserveDeliverySlots, failDelivery } = proxyActivities<Activities>(STEP_OPTIONS);
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
/** Groups as summaries name them: "25 groups: Grupo 1 (grp_…) … Grupo 25 (grp_…)". */
const groupsLabel = (groups: PublicationGroup[]): string =>
  `${groups.length} ${groups.length === 1 ? 'group' : 'groups'}: ${named(groups[0]!)}${groups.length > 1 ? ` … ${named(groups[groups.length - 1]!)}` : ''}`;
/** A group as pacing timers name it: "Grupo 1", or its id. */
const shortName = (g: PublicationGroup): string => (g.name === null ? g.group_id : g.name.replace(/\s+/g, ' '));

interface DeliverOptions {
  /** The workflow records the send (recordSentDeliveries, completePublication): the activity writes nothing when it sends. */
  deferred?: boolean;
  /** The publication's only send: once sent, it completes the publication. */
  complete?: boolean;
  /** Attempts a chunk made of this group before it goes alone. */
  tried?: number;
  /** The slot reserved for the group (null: none, it is not paced any more); absent: reserve one if the group is paced. */
  slot?: string | null;
}

/** Why groups were not sent to: how many, and the first few as the workflow's failure says them ("Grupo 1 (grp_…): <the recorded error>"). */
interface Failures {
  count: number;
  first: string[];
}

const noFailures = (): Failures => ({ count: 0, first: [] });

/** Counts `count` more failures, keeping the first FAILURES_KEPT texts (`texts`, in order). */
function addFailures(failures: Failures, count: number, texts: string[]): void {
  failures.count += count;
  failures.first.push(...texts.slice(0, FAILURES_KEPT - failures.first.length));
}

/**
 * Sends to one group, paced and retried (workflows/sending.ts); what the
 * send did, or undefined when it failed (recorded by failDelivery, and added
 * to `failures`). Every activity and timer carries a summary naming the
 * group, which is what Temporal UI shows on the publication's page.
 */
async function deliver(
  input: PublicationInput,
  group: PublicationGroup,
  failures: Failures,
  opts: DeliverOptions = {},
): Promise<GroupSendResult | undefined> {
  const ref = { ...input, group_id: group.group_id };
  const reserve = (notBefore?: string) =>
    reserveDeliverySlot.executeWithOptions({ summary: `pacing: reserve ${group.group_id}'s slot` }, [
      { ...ref, ...(notBefore ? { not_before: notBefore } : {}) },
    ]);
  const fail = async (error: string, attempts: number) => {
    addFailures(failures, 1, [`${named(group)}: ${error}`]);
    await failDelivery.executeWithOptions({ summary: `record the failure of ${group.group_id}` }, [{ ...ref, error, attempts }]);
    return undefined;
  };
  // An unpaced group needs no slot: its send goes at once (and takes one itself should pacing have been set since).
  let slot: string | null = opts.slot ?? null;
  if (group.paced && opts.slot === undefined) {
    try {
      slot = await reserve();
    } catch (err) {
      if (isCancellation(err)) throw err;
      countSends('failed');
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
  const label = groupsLabel(chunk);
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
      countSends('retried', chunk.length);
      const pause = retryPauseMs(attempt)!;
      await sleep(pause, { summary: `retry: wait ${spoken(pause)} before attempt ${attempt + 1} to ${label}` });
    }
  }
  // Each attempt may have sent to every group of the chunk: a group sent alone counts them.
  const byGroup = new Map((results ?? []).map((r) => [r.group_id, r]));
  const unsent: [PublicationGroup, DeliverOptions][] = [];
  for (const group of chunk) {
    const result = byGroup.get(group.group_id);
    if (result && 'record' in result) {
      countSends('sent');
      sent(result.record);
    } else if (result && 'slot' in result) unsent.push([group, { tried: attempt - 1, slot: result.slot }]);
    // A group whose channel was not connected spent no attempt: sent alone, it waits for the channel.
    else unsent.push([group, { tried: result && 'disconnected' in result ? attempt - 1 : attempt }]);
  }
  await Promise.all(unsent.map(([group, opts]) => alone(group, opts)));
}

/** The most paced groups one reserveDeliverySlots reserves for, and the fewest sends one recordSentDeliveries writes. */
const SENT_BATCH = 100;
/**
 * The full recordings of sends in one fan-out at most (a few smaller ones
 * follow as its last sends come in): a larger fan-out records more sends in
 * each, since every recording rewrites documents that grow with the fan-out
 * (its publication, the day's analytics buckets of its groups) and the
 * recordings' cost would otherwise grow with its square.
 */
const RECORDINGS_MAX = 10;

const batchesOf = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/**
 * Sends to the paced groups, each on its slot: their first slots reserved in
 * one activity per SENT_BATCH groups (which marks `waiting` the deliveries
 * whose slot is later). A batch that could not be reserved is reserved group
 * by group, each send failing on its own refusal.
 */
async function deliverPaced(input: PublicationInput, paced: PublicationGroup[], failures: Failures): Promise<void> {
  await Promise.all(
    batchesOf(paced, SENT_BATCH).map(async (batch) => {
      let slots: (string | null)[] | undefined;
      try {
        slots = await reserveDeliverySlots.executeWithOptions({ summary: `pacing: reserve the slots of ${groupsLabel(batch)}` }, [
          { ...input, group_ids: batch.map((g) => g.group_id) },
        ]);
      } catch (err) {
        if (isCancellation(err)) throw err;
      }
      await Promise.all(batch.map((group, i) => deliver(input, group, failures, slots ? { slot: slots[i] ?? null } : {})));
    }),
  );
}

/**
 * The most groups one workflow sends one by one (paced, or alone), unless
 * the input says (batch_groups); a publication with more sends them in child
 * workflows (pacedDeliveries) of at most as many each, so that no history grows with the publication
 * (Temporal warns past 10,240 events and stops a workflow at 51,200).
 * A paced group costs about 7 events when its send goes at the first try
 * (a timer started and fired, an activity scheduled, started and completed,
 * and its share of workflow tasks; 6.2 and 7.0 measured in two batches of
 * 300, decision 24), a retry about 8 more: 500 groups make about 3,500, room
 * for a retry of each under the 10,240-event warning.
 */
const ONE_BY_ONE_MAX = 500;

/** The publication's reference, as its activities and batches take it: its groups never travel with it. */
const refOf = ({ publication_id, account, environment }: PublicationInput): PublicationInput => ({ publication_id, account, environment });

/**
 * Sends to `groups` (paced, or alone) in batches of at most `max`,
 * of even sizes, each a child workflow (pacedDeliveries) that records its
 * sends and failures itself; they run side by side, and pacing holds across
 * them (slots are reserved in MongoDB). A cancelled publication cancels them.
 */
async function deliverBatches(input: PublicationInput, groups: PublicationGroup[], max: number, failures: Failures): Promise<void> {
  const count = Math.ceil(groups.length / max);
  const batches = batchesOf(groups, Math.ceil(groups.length / count));
  await Promise.all(
    batches.map(async (batch, i) => {
      const child: PacedDeliveriesInput = { ...refOf(input), batch: i + 1, batches: batches.length, groups: batch };
      const options = { ...pacedDeliveriesStartOptions(child, groupsLabel(batch)), parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL };
      const result = await executeChild<OfferopsWorkflows['pacedDeliveries']>('pacedDeliveries', options);
      addFailures(failures, result.failed, result.failures);
    }),
  );
}

/**
 * Sends to every group: the unpaced ones in chunks (but those whose channel
 * cannot deduplicate, which go alone), their sends recorded by
 * the workflow in batches; the sends not recorded yet when all are done go
 * to completePublication with the rest.
 */
async function deliverInBatches(
  input: PublicationInput,
  groups: PublicationGroup[],
  max: number,
  failures: Failures,
): Promise<{ sent: SentRecord[]; recorded: number }> {
  const sent: SentRecord[] = [];
  let recorded = 0;
  const oneByOne = groups.filter((g) => g.paced || g.alone);
  const batched = oneByOne.length > max;
  // The unpaced groups this workflow sends (and records): when batched, those that go alone are the batches'.
  const unpaced = groups.filter((g) => !g.paced && !(batched && g.alone));
  const batchSize = Math.max(SENT_BATCH, Math.ceil(unpaced.length / RECORDINGS_MAX));
  let sending = unpaced.length;
  let done = false;
  // A batch is recorded when it is full, or when as many sends wait to be recorded as are still under way:
  // a fan-out's deliveries show as sent while it runs.
  const recording = (async () => {
    for (let batch = 0; ; batch++) {
      await condition(() => done || (sending > 0 && sent.length - recorded >= Math.min(batchSize, sending)));
      if (done) return;
      const deliveries = sent.slice(recorded, recorded + batchSize);
      await local.recordSentDeliveries.executeWithOptions({ summary: `record ${deliveries.length} sends` }, [{ ...input, batch, deliveries }]);
      recorded += deliveries.length;
    }
  })();
  const record = (r: SentRecord) => {
    sent.push(r);
    sending--;
  };
  const alone = async (group: PublicationGroup, opts: DeliverOptions = {}) => {
    const result = await deliver(input, group, failures, { ...opts, deferred: true });
    if (result?.record) sent.push(result.record);
    sending--;
  };
  const chunked = unpaced.filter((g) => !g.alone);
  const chunks = chunked.length > 1 ? batchesOf(chunked, SEND_CHUNK) : [];
  await Promise.all([
    batched
      ? deliverBatches(input, oneByOne, max, failures)
      : deliverPaced(
          input,
          groups.filter((g) => g.paced),
          failures,
        ),
    ...(chunks.length ? chunks.map((chunk) => deliverChunk(input, chunk, record, alone)) : chunked.map((group) => alone(group))),
    ...unpaced.filter((g) => g.alone).map((group) => alone(group)),
  ]);
  done = true;
  await recording;
  return { sent, recorded };
}

/** What a failed publication's workflow says: the first reasons its groups were not sent to. */
function failureText(failures: Failures): string {
  if (!failures.count) return 'no group received the publication (its deliveries say why)';
  const more = failures.count > failures.first.length ? `; and ${failures.count - failures.first.length} more` : '';
  return `no group received the publication: ${failures.first.join('; ')}${more}`;
}

/**
 * Sends one publication: every group in parallel (the paced ones each on
 * its slot, the unpaced ones in chunks), then the final state, which
 * `OfferopsState` mirrors. A publication no group received fails its
 * workflow (PUBLICATION_FAILED) with the reasons: Temporal UI lists it as
 * Failed. Started as `publication-<id>`; the connector receives
 * `<publication>:<group>` as idempotency key, so no group receives it twice
 * — not when an attempt is tried again, not after a worker crash.
 */
export async function publication({
  groups: given,
  batch_groups: batchGroups,
  ...input
}: PublicationInput): Promise<{ status: 'sent' | 'partial' }> {
  const groups = given ?? (await local.beginPublication.executeWithOptions({ summary: 'begin: the groups still to send to' }, [input]));
  const summary = { summary: 'complete: the final state from the deliveries' };
  const failures = noFailures();
  const [only] = groups;
  let status: string;
  if (groups.length === 1 && !only!.paced) {
    // One unpaced send: it completes the publication itself (no local activity after it), or says it could not.
    const result = await deliver(input, only!, failures, { deferred: true, complete: true });
    const sent = result?.record ? [result.record] : [];
    status = result?.status ?? (await local.completePublication.executeWithOptions(summary, [{ ...input, sent, recorded: 0 }]));
  } else {
    const sends = await deliverInBatches(input, groups, batchGroups ?? ONE_BY_ONE_MAX, failures);
    status = await local.completePublication.executeWithOptions(summary, [{ ...input, ...sends }]);
  }
  upsertSearchAttributes([{ key: OfferopsState, value: status }]);
  if (status === 'failed') throw ApplicationFailure.nonRetryable(failureText(failures), PUBLICATION_FAILED);
  return { status: status === 'partial' ? 'partial' : 'sent' };
}

/**
 * One batch of a large publication's one-by-one sends, a child of its
 * `publication` (`publication-<id>-batch-<n>`): the paced groups each on its
 * slot, as a small publication sends them, the others alone; each send
 * records itself (the publication completes from the deliveries). Returns
 * how many groups failed and why the first did: its result stays small.
 */
export async function pacedDeliveries(input: PacedDeliveriesInput): Promise<PacedDeliveriesResult> {
  const ref = refOf(input);
  const failures = noFailures();
  await Promise.all([
    deliverPaced(
      ref,
      input.groups.filter((g) => g.paced),
      failures,
    ),
    ...input.groups.filter((g) => !g.paced).map((group) => deliver(ref, group, failures)),
  ]);
  return { failed: failures.count, failures: failures.first };
}
