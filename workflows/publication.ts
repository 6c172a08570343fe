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
  OfferopsWorkflows,
  PacedDeliveriesInput,
  PacedDeliveriesResult,
  pacedDeliveriesStartOptions,
  PUBLICATION_FAILED,
  PublicationGroup,
  PublicationInput,
} from '../temporal/workflows';
import { countSends } from './metrics';
import {
  addFailures,
  batchesOf,
  chunkOutcome,
  chunkRetryPauseMs,
  completesItself,
  evenBatches,
  failureText,
  Failures,
  groupsLabel,
  named,
  noFailures,
  ONE_BY_ONE_MAX,
  planSends,
  publicationOutcome,
  recordingDue,
  SENT_BATCH,
  shortName,
} from './publication-plan';
import { reason, SEND_ATTEMPT_OPTIONS, sendWithRetries } from './sending';
import { spoken } from './send-timing';

const STEP_OPTIONS = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
} as const;
const { reserveDeliverySlot, failDelivery } = proxyActivities<Activities>(STEP_OPTIONS);
/** A batch's slots: reported group by group (heartbeats), so a lost attempt is noticed in 10 s and a slow one, on a busy database, is not cut short. */
const { reserveDeliverySlots } = proxyActivities<Activities>({
  ...STEP_OPTIONS,
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '10 seconds',
});
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
 * tried again, CHUNK_ATTEMPTS in all (./publication-plan.ts); a group the chunk did not send is then
 * sent on its own (deliverToGroup), the chunk's attempts counted.
 */
const { deliverToGroups } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { maximumAttempts: 1 },
});

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
      const pause = chunkRetryPauseMs(attempt);
      if (pause === undefined) break;
      countSends('retried', chunk.length);
      await sleep(pause, { summary: `retry: wait ${spoken(pause)} before attempt ${attempt + 1} to ${label}` });
    }
  }
  // Each attempt may have sent to every group of the chunk: a group sent alone counts them.
  const unsent: [PublicationGroup, DeliverOptions][] = [];
  chunkOutcome(chunk, results, attempt).forEach((next, i) => {
    if ('sent' in next) {
      countSends('sent');
      sent(next.sent);
    } else unsent.push([chunk[i]!, next.alone]);
  });
  await Promise.all(unsent.map(([group, opts]) => alone(group, opts)));
}

/**
 * Sends to the paced groups, each on its slot: their first slots reserved in
 * one activity per SENT_BATCH groups, one batch after another (which marks
 * `waiting` the deliveries whose slot is later), each batch's sends starting
 * once its slots are. A batch that could not be reserved is reserved group
 * by group, each send failing on its own refusal.
 */
async function deliverPaced(input: PublicationInput, paced: PublicationGroup[], failures: Failures): Promise<void> {
  const sending: Promise<unknown>[] = [];
  for (const batch of batchesOf(paced, SENT_BATCH)) {
    let slots: (string | null)[] | undefined;
    try {
      slots = await reserveDeliverySlots.executeWithOptions({ summary: `pacing: reserve the slots of ${groupsLabel(batch)}` }, [
        { ...input, group_ids: batch.map((g) => g.group_id) },
      ]);
    } catch (err) {
      if (isCancellation(err)) throw err;
    }
    const sends = Promise.all(batch.map((group, i) => deliver(input, group, failures, slots ? { slot: slots[i] ?? null } : {})));
    sends.catch(() => undefined); // awaited below, with the others: not an unhandled rejection meanwhile
    sending.push(sends);
  }
  await Promise.all(sending);
}

/** The publication's reference, as its activities and batches take it: its groups never travel with it. */
const refOf = ({ publication_id, account, environment }: PublicationInput): PublicationInput => ({ publication_id, account, environment });

/**
 * Sends to `groups` (paced, or alone) in batches of at most `max`,
 * of even sizes, each a child workflow (pacedDeliveries) that records its
 * sends and failures itself; they run side by side, and pacing holds across
 * them (slots are reserved in MongoDB). A cancelled publication cancels them.
 */
async function deliverBatches(input: PublicationInput, groups: PublicationGroup[], max: number, failures: Failures): Promise<void> {
  const batches = evenBatches(groups, max);
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
  const plan = planSends(groups, max);
  let sending = plan.unpaced.length;
  let done = false;
  const recording = (async () => {
    for (let batch = 0; ; batch++) {
      await condition(() => done || recordingDue(sent.length - recorded, sending, plan.recordingSize));
      if (done) return;
      const deliveries = sent.slice(recorded, recorded + plan.recordingSize);
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
  await Promise.all([
    plan.batched ? deliverBatches(input, plan.oneByOne, max, failures) : deliverPaced(input, plan.paced, failures),
    ...plan.chunks.map((chunk) => deliverChunk(input, chunk, record, alone)),
    ...plan.alone.map((group) => alone(group)),
  ]);
  done = true;
  await recording;
  return { sent, recorded };
}

/** Moves the publication to `sending`, and reads the groups still to send to, a page (BEGIN_PAGE_GROUPS) per local activity. */
async function begin(input: PublicationInput): Promise<PublicationGroup[]> {
  const first = await local.beginPublication.executeWithOptions({ summary: 'begin: the groups still to send to' }, [input]);
  const groups = [...first.groups];
  for (let from = first.next; from !== null;) {
    const summary = `begin: the groups still to send to, from number ${from + 1}`;
    const page = await local.beginPublication.executeWithOptions({ summary }, [{ ...input, page: { from, fresh: first.fresh } }]);
    groups.push(...page.groups);
    from = page.next;
  }
  return groups;
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
  const groups = given ?? (await begin(input));
  const summary = { summary: 'complete: the final state from the deliveries' };
  const failures = noFailures();
  const [only] = groups;
  let status: string;
  if (completesItself(groups)) {
    // One unpaced send: it completes the publication itself (no local activity after it), or says it could not.
    const result = await deliver(input, only!, failures, { deferred: true, complete: true });
    const sent = result?.record ? [result.record] : [];
    status = result?.status ?? (await local.completePublication.executeWithOptions(summary, [{ ...input, sent, recorded: 0 }]));
  } else {
    const sends = await deliverInBatches(input, groups, batchGroups ?? ONE_BY_ONE_MAX, failures);
    status = await local.completePublication.executeWithOptions(summary, [{ ...input, ...sends }]);
  }
  upsertSearchAttributes([{ key: OfferopsState, value: status }]);
  const outcome = publicationOutcome(status);
  if (outcome === 'failed') throw ApplicationFailure.nonRetryable(failureText(failures), PUBLICATION_FAILED);
  return outcome;
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
