/**
 * The publication workflow with fake activities on the real Temporal server
 * (the Temporal samples' pattern: a Worker running the real workflow code,
 * its activities functions of the test): fan-out, attempts counted by the
 * workflow (transient errors tried again after their pause, permanent errors
 * failing one group only), durable pacing waits that are never attempts,
 * chunks, child batches, and the final state. Its decisions alone, without a
 * server: test/unit/publication-plan.test.ts.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure, defaultPayloadConverter } from '@temporalio/common';
import { NativeConnection, Runtime, DefaultLogger, Worker } from '@temporalio/worker';
import { WORKFLOW_BUNDLE } from '../../domain/config';
import { OfferopsState, pacedDeliveriesWorkflowId } from '../../temporal/names';
import { WAKE_EARLY_MS } from '../../workflows/send-timing';
import { stackEnv } from '../helpers/stack';

let connection: Connection;
let client: Client;
let native: NativeConnection;

before(async () => {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const env = stackEnv();
  connection = await Connection.connect({ address: env.temporalAddress });
  client = new Client({ connection, namespace: env.temporalNamespace });
  native = await NativeConnection.connect({ address: env.temporalAddress });
});
after(async () => {
  await connection.close();
  await native.close();
});

interface Calls {
  deliver: string[];
  /** The attempt number each deliverToGroup was given, in call order. */
  attempts: number[];
  reserved: string[];
  /** The `not_before` of each reservation for a retry. */
  notBefore: string[];
  slots: (string | null)[];
  failed: { group: string; error: string; attempts: number }[];
  /** The groups whose first slot was reserved later than now (their deliveries marked `waiting`). */
  waiting: string[];
  /** The groups of each reserveDeliverySlots. */
  slotBatches: string[][];
  begun: number;
  /** The sends asked to complete the publication. */
  completing: string[];
  /** The sends completePublication was given. */
  completedWith: unknown[][];
  /** The activity inputs that carried the workflow's groups (none should). */
  carried: number;
  /** The groups and attempt of each deliverToGroups. */
  chunks: string[][];
  chunkAttempts: number[];
  /** The groups of each batch of sends recorded (recordSentDeliveries). */
  recorded: string[][];
}

type Behaviour =
  | 'ok'
  | 'permanent'
  | 'flaky'
  | 'throttled'
  | 'always-transient'
  | 'late'
  | 'late-unreserved'
  | 'uncompleted'
  | 'breaks-chunk'
  | 'breaks-chunk-once'
  | 'waits-in-chunk';

interface Group {
  group_id: string;
  name: string | null;
  paced: boolean;
}

/** A paced group named by its id only (as beginPublication reports a deleted group). */
const bare = (group_id: string): Group => ({ group_id, name: null, paced: true });

const sentRecord = (group_id: string, attempts: number) => ({ group_id, with_image: false, sent_at: new Date().toISOString(), attempts });

/** The groups a fake beginPublication reports a page (fewer than the real one: a fan-out of 2,000 begins in three pages). */
const BEGIN_PAGE = 800;

/**
 * `slots`: how far from the reservation each group's slot is. A timer for it shows only when the workflow reads the
 * slot more than WAKE_EARLY_MS before it: 2.5 s leaves a busy machine 1.7 s for that.
 */
function fakes(plan: { groups: Group[]; slots?: Record<string, number>; behaviour: Record<string, Behaviour> }) {
  const calls: Calls = {
    deliver: [],
    attempts: [],
    reserved: [],
    notBefore: [],
    slots: [],
    failed: [],
    waiting: [],
    slotBatches: [],
    begun: 0,
    completing: [],
    completedWith: [],
    carried: 0,
    chunks: [],
    chunkAttempts: [],
    recorded: [],
  };
  const sent = new Set<string>();
  const flakes = new Set<string>();
  const late = new Set<string>();
  const broken = new Set<string>();
  const activities = {
    async beginPublication(r: { page?: { from: number; fresh: boolean } }) {
      calls.begun++;
      const from = r.page?.from ?? 0;
      const end = Math.min(from + BEGIN_PAGE, plan.groups.length);
      return { groups: plan.groups.slice(from, end), next: end < plan.groups.length ? end : null, fresh: r.page?.fresh ?? true };
    },
    async reserveDeliverySlot(r: { group_id: string; not_before?: string }) {
      calls.reserved.push(r.group_id);
      if (r.not_before) calls.notBefore.push(r.not_before);
      const at = Date.now() + (plan.slots?.[r.group_id] ?? 0);
      return new Date(Math.max(at, r.not_before ? Date.parse(r.not_before) : 0)).toISOString();
    },
    async reserveDeliverySlots(r: { group_ids: string[] }) {
      calls.slotBatches.push(r.group_ids);
      return r.group_ids.map((group_id) => {
        calls.reserved.push(group_id);
        if (plan.slots?.[group_id]) calls.waiting.push(group_id);
        return new Date(Date.now() + (plan.slots?.[group_id] ?? 0)).toISOString();
      });
    },
    async deliverToGroup(r: {
      group_id: string;
      slot: string | null;
      attempt: number;
      groups?: unknown;
      deferred?: boolean;
      complete?: boolean;
    }) {
      calls.deliver.push(r.group_id);
      calls.attempts.push(r.attempt);
      if (r.groups !== undefined) calls.carried++;
      calls.slots.push(r.slot);
      const behaviour = plan.behaviour[r.group_id];
      // Started 2 s past its slot: no send, the next free slot (4 s on) reserved instead.
      if ((behaviour === 'late' || behaviour === 'late-unreserved') && !late.has(r.group_id)) {
        late.add(r.group_id);
        return { outcome: 'wait', slot: new Date(Date.now() + 4000).toISOString(), late_ms: behaviour === 'late' ? 2000 : 0 };
      }
      if (behaviour === 'permanent') throw ApplicationFailure.nonRetryable('the gateway refused the destination', 'ChannelPermanent');
      if (behaviour === 'flaky' && !flakes.has(r.group_id)) {
        flakes.add(r.group_id);
        throw new Error('gateway unavailable (503)');
      }
      if (behaviour === 'throttled' && !flakes.has(r.group_id)) {
        flakes.add(r.group_id);
        throw ApplicationFailure.create({ message: 'the gateway answered 429', type: 'ChannelTransient', details: [1500] });
      }
      if (behaviour === 'always-transient')
        throw ApplicationFailure.create({ message: 'the gateway answered 503', type: 'ChannelTransient', details: [10] });
      sent.add(r.group_id);
      if (!r.complete) return { outcome: 'sent', message_id: null, ...(r.deferred ? { record: sentRecord(r.group_id, r.attempt) } : {}) };
      calls.completing.push(r.group_id);
      // 'uncompleted': sent, but the completion failed (the send reports no status).
      return {
        outcome: 'sent',
        message_id: null,
        record: sentRecord(r.group_id, r.attempt),
        ...(behaviour === 'uncompleted' ? {} : { status: 'sent' }),
      };
    },
    async deliverToGroups(r: { group_ids: string[]; attempt: number }) {
      calls.chunks.push(r.group_ids);
      calls.chunkAttempts.push(r.attempt);
      // 'breaks-chunk': the chunk fails as a whole, every attempt; 'breaks-chunk-once': its first attempt only.
      if (r.group_ids.some((g) => plan.behaviour[g] === 'breaks-chunk')) throw ApplicationFailure.create({ message: 'the chunk failed' });
      const once = r.group_ids.find((g) => plan.behaviour[g] === 'breaks-chunk-once' && !broken.has(g));
      if (once) {
        broken.add(once);
        throw ApplicationFailure.create({ message: 'the chunk failed once' });
      }
      return r.group_ids.map((group_id) => {
        const behaviour = plan.behaviour[group_id];
        if (behaviour === 'flaky' && !flakes.has(group_id)) flakes.add(group_id);
        else if (behaviour === 'waits-in-chunk') return { group_id, slot: new Date(Date.now() + 2500).toISOString() };
        else if (behaviour !== 'permanent') {
          sent.add(group_id);
          return { group_id, message_id: null, record: sentRecord(group_id, r.attempt) };
        }
        return { group_id, error: behaviour === 'permanent' ? 'the gateway refused the destination' : 'gateway unavailable (503)' };
      });
    },
    async recordSentDeliveries(r: { deliveries: { group_id: string }[] }) {
      calls.recorded.push(r.deliveries.map((d) => d.group_id));
    },
    async failDelivery(r: { group_id: string; error: string; attempts: number }) {
      calls.failed.push({ group: r.group_id, error: r.error, attempts: r.attempts });
    },
    async completePublication(r: { groups?: unknown; sent: unknown[] }) {
      if (r.groups !== undefined) calls.carried++;
      calls.completedWith.push(r.sent);
      return sent.size === plan.groups.length ? 'sent' : sent.size === 0 ? 'failed' : 'partial';
    },
  };
  return { activities, calls };
}

/**
 * `inInput`: the groups are given in the workflow's input (as a publish request does), not read by beginPublication;
 * `batchGroups`: the most groups the workflow sends one by one itself (more go in child batches, whose workflow ids
 * derive from the publication's id: a fresh one then).
 */
async function run(plan: Parameters<typeof fakes>[0], inInput = false, batchGroups?: number) {
  const taskQueue = `test-publication-${randomBytes(4).toString('hex')}`;
  const { activities, calls } = fakes(plan);
  const worker = await Worker.create({
    connection: native,
    namespace: stackEnv().temporalNamespace,
    taskQueue,
    workflowBundle: { codePath: WORKFLOW_BUNDLE },
    activities,
  });
  const publicationId = batchGroups ? `pub_b${randomBytes(6).toString('hex')}` : 'pub_test';
  const workflowId = batchGroups ? `publication-${publicationId}` : `publication-pub_test${randomBytes(6).toString('hex')}`;
  const result = await worker.runUntil(
    client.workflow
      .execute('publication', {
        workflowId,
        taskQueue,
        args: [
          {
            publication_id: publicationId,
            account: 'acc_test',
            environment: 'live',
            ...(inInput ? { groups: plan.groups } : {}),
            ...(batchGroups ? { batch_groups: batchGroups } : {}),
          },
        ],
      })
      .catch((err: unknown) => err),
  );
  const handle = client.workflow.getHandle(workflowId);
  const history = await handle.fetchHistory();
  const state = (await handle.describe()).typedSearchAttributes.get(OfferopsState);
  return { result, calls, history, state, publicationId };
}

/** The run failed its workflow as a publication no group received (Temporal UI: Failed), saying why. */
function assertFailed(result: unknown, reason: RegExp): void {
  assert.ok(result instanceof WorkflowFailedError, `a failed workflow, not ${JSON.stringify(result)}`);
  assert.ok(result.cause instanceof ApplicationFailure);
  assert.equal(result.cause.type, 'PublicationFailed');
  assert.equal(result.cause.nonRetryable, true);
  assert.match(result.cause.message, reason);
}

type History = Awaited<ReturnType<typeof run>>['history'];
type HistoryEvent = NonNullable<History['events']>[number];
const summary = (e: HistoryEvent) => String(defaultPayloadConverter.fromPayload(e.userMetadata!.summary!));
const timers = (history: History) => history.events!.filter((e) => e.timerStartedEventAttributes);
/** When the server recorded the event, in ms since the epoch. */
const eventMs = (e: HistoryEvent) => Number(e.eventTime!.seconds ?? 0) * 1000 + Math.floor((e.eventTime!.nanos ?? 0) / 1e6);
const timerSeconds = (e: HistoryEvent) => Number(e.timerStartedEventAttributes!.startToFireTimeout!.seconds ?? 0);
/** Activities the history shows as failed (a wait for a slot must never be one). */
const failedActivities = (history: History) => history.events!.filter((e) => e.activityTaskFailedEventAttributes);

test('every group is sent to once; the publication is sent', async () => {
  const { result, calls, history, state } = await run({
    groups: ['grp_a', 'grp_b', 'grp_c'].map(bare),
    behaviour: { grp_a: 'ok', grp_b: 'ok', grp_c: 'ok' },
  });
  assert.deepEqual(result, { status: 'sent' });
  assert.equal(state, 'sent');
  // The three slots are reserved by one activity, not one each.
  const types = history.events!.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
  assert.deepEqual(
    types.filter((t) => t.startsWith('reserve')),
    ['reserveDeliverySlots'],
  );
  assert.deepEqual([...calls.deliver].sort(), ['grp_a', 'grp_b', 'grp_c']);
  assert.deepEqual(calls.attempts, [1, 1, 1]);
  assert.deepEqual(calls.failed, []);
  assert.deepEqual(failedActivities(history), []);
});

test('a transient error is tried again after its pause, in a slot reserved for it; a permanent one fails that group only (partial)', async () => {
  const { result, calls, history, state } = await run({
    groups: ['grp_ok', 'grp_bad', 'grp_flaky'].map(bare),
    behaviour: { grp_ok: 'ok', grp_bad: 'permanent', grp_flaky: 'flaky' },
  });
  assert.deepEqual(result, { status: 'partial' });
  assert.equal(state, 'partial');
  assert.deepEqual(
    calls.deliver.flatMap((g, i) => (g === 'grp_flaky' ? [calls.attempts[i]] : [])),
    [1, 2],
    'tried again as attempt 2',
  );
  assert.equal(calls.deliver.filter((g) => g === 'grp_bad').length, 1, 'a permanent error is not tried again');
  assert.deepEqual(calls.failed, [{ group: 'grp_bad', error: 'the gateway refused the destination', attempts: 1 }]);
  // The retry of a paced group goes in a slot reserved no sooner than its pause (2 s after the first failure), and
  // attempt 2 starts no sooner than that slot, less the margin a paced send wakes early by.
  assert.equal(calls.notBefore.length, 1);
  const slot = Date.parse(calls.notBefore[0]!);
  const flaked = failedActivities(history).find((e) => e.activityTaskFailedEventAttributes!.failure?.message === 'gateway unavailable (503)');
  assert.ok(slot >= eventMs(flaked!) + 2000, `slot ${calls.notBefore[0]} is 2 s or more after the failure`);
  const retrySend = history.events!.filter(
    (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'deliverToGroup' && summary(e).includes('attempt 2'),
  );
  assert.deepEqual(retrySend.map(summary), ['send to grp_flaky, attempt 2']);
  assert.ok(eventMs(retrySend[0]!) >= slot - WAKE_EARLY_MS, 'attempt 2 waited for its slot');
  // It waits on a timer named for the slot; none when the workflow read the slot after it passed (a busy machine
  // delayed the reservation by more than the pause less the margin).
  const retryTimers = timers(history).filter((e) => summary(e).startsWith('retry:'));
  for (const timer of retryTimers) assert.equal(summary(timer), "retry: wait for grp_flaky's slot before attempt 2");
  assert.ok(retryTimers.length <= 1);
});

test('a pause the gateway asked for is honoured; attempts run out after six, the failure recorded with them', async () => {
  const throttled = await run({ groups: [{ group_id: 'grp_429', name: 'Throttled', paced: false }], behaviour: { grp_429: 'throttled' } }, true);
  assert.deepEqual(throttled.result, { status: 'sent' });
  // An unpaced group waits for the pause on a timer of its own.
  assert.deepEqual(timers(throttled.history).map(summary), ['retry: wait 2 s before attempt 2 to Throttled (grp_429)']);

  const spent = await run({ groups: [bare('grp_down')], behaviour: { grp_down: 'always-transient' } });
  assertFailed(spent.result, /^no group received the publication: grp_down: the gateway answered 503$/);
  assert.deepEqual(spent.calls.attempts, [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(spent.calls.failed, [{ group: 'grp_down', error: 'the gateway answered 503', attempts: 6 }]);
});

test('when every group fails the publication fails, and so does its workflow, saying why; OfferopsState is failed', async () => {
  const one = await run({ groups: [bare('grp_x')], behaviour: { grp_x: 'permanent' } });
  assertFailed(one.result, /^no group received the publication: grp_x: the gateway refused the destination$/);
  assert.equal(one.state, 'failed');
  const groups = ['grp_f1', 'grp_f2', 'grp_f3', 'grp_f4', 'grp_f5'].map((group_id) => ({ group_id, name: `Down ${group_id}`, paced: false }));
  const many = await run({ groups, behaviour: Object.fromEntries(groups.map((g) => [g.group_id, 'permanent' as const])) }, true);
  assertFailed(many.result, /: Down grp_f\d \(grp_f\d\): the gateway refused the destination;.*; and 2 more$/);
  assert.equal(many.state, 'failed');
});

test('a paced group waits on a durable timer before its send', async () => {
  const { result, calls, history } = await run({
    groups: [bare('grp_now'), { group_id: 'grp_later', name: 'Later group', paced: true }],
    slots: { grp_later: 2500 },
    behaviour: { grp_now: 'ok', grp_later: 'ok' },
  });
  assert.deepEqual(result, { status: 'sent' });
  assert.deepEqual(calls.waiting, ['grp_later']);
  assert.equal(timers(history).length, 1);
  const seconds = timerSeconds(timers(history)[0]!);
  assert.ok(seconds <= 2, `timer of ${seconds}s`);
  assert.equal(summary(timers(history)[0]!), "pacing: wait for Later group's slot");
  const sends = history.events!.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'deliverToGroup');
  // A group whose name is unknown is named by its id alone.
  assert.deepEqual(sends.map(summary).sort(), ['send to Later group (grp_later)', 'send to grp_now']);
});

test('a send that found its slot passed waits on a durable timer for the next one (waking earlier by how late it was): no attempt, no failure', async () => {
  const { result, calls, history } = await run({ groups: [bare('grp_late')], behaviour: { grp_late: 'late' } });
  assert.deepEqual(result, { status: 'sent' });
  assert.deepEqual(calls.deliver, ['grp_late', 'grp_late']);
  assert.deepEqual(calls.attempts, [1, 1], 'the wait is no attempt');
  assert.deepEqual(calls.failed, []);
  assert.deepEqual(failedActivities(history), [], 'nothing failed: Temporal UI shows no red row');
  // Each send carries its slot: the reserved one, then the one the late send reserved.
  assert.equal(calls.slots.length, 2);
  assert.ok(calls.slots.every((slot) => typeof slot === 'string'));
  assert.notEqual(calls.slots[0], calls.slots[1]);
  assert.deepEqual(timers(history).map(summary), ["pacing: wait for grp_late's slot"]);
  // 4 s away, but the send was 2 s late: it wakes about 3 s before the slot instead of 0.8 s.
  const seconds = timerSeconds(timers(history)[0]!);
  assert.ok(seconds <= 1, `timer of ${seconds}s`);
});

test('an unpaced group is sent to at once, without a slot; a paced one still reserves its slot', async () => {
  const { result, calls, history } = await run({
    groups: [
      { group_id: 'grp_free', name: 'Free', paced: false },
      { group_id: 'grp_paced', name: 'Paced', paced: true },
    ],
    behaviour: { grp_free: 'ok', grp_paced: 'ok' },
  });
  assert.deepEqual(result, { status: 'sent' });
  assert.deepEqual(calls.reserved, ['grp_paced']);
  assert.equal(calls.slots[calls.deliver.indexOf('grp_free')], null);
  const types = history.events!.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
  assert.equal(types.filter((t) => t === 'reserveDeliverySlots').length, 1);
  assert.equal(types.filter((t) => t === 'deliverToGroup').length, 2);
  // Begin and complete run as local activities: markers in the history, no task scheduled on the queue.
  assert.ok(!types.includes('beginPublication') && !types.includes('completePublication'), types.join());
  assert.equal(history.events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length, 2);
});

test('an unpaced group whose pacing was set since: the send reserves its slot, the workflow waits for it, then sends in it', async () => {
  const { result, calls } = await run({
    groups: [{ group_id: 'grp_now_paced', name: 'Now paced', paced: false }],
    behaviour: { grp_now_paced: 'late-unreserved' },
  });
  assert.deepEqual(result, { status: 'sent' });
  assert.deepEqual(calls.reserved, []);
  assert.deepEqual(calls.deliver, ['grp_now_paced', 'grp_now_paced']);
  assert.deepEqual(calls.attempts, [1, 1]);
  // The first send had no slot; the second goes in the one the first reserved.
  assert.equal(calls.slots[0], null);
  assert.equal(typeof calls.slots[1], 'string');
});

test('groups given in the input: no beginPublication, and no activity receives them', async () => {
  const { result, calls, history } = await run(
    {
      groups: [
        { group_id: 'grp_given', name: 'Given', paced: false },
        { group_id: 'grp_given_paced', name: 'Given paced', paced: true },
      ],
      behaviour: { grp_given: 'ok', grp_given_paced: 'ok' },
    },
    true,
  );
  assert.deepEqual(result, { status: 'sent' });
  assert.equal(calls.begun, 0);
  assert.equal(calls.carried, 0);
  assert.deepEqual(calls.reserved, ['grp_given_paced']);
  // One local activity: complete.
  assert.equal(history.events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length, 1);
});

test('unpaced groups in a fan-out go in chunks of 25, one activity each; a group its chunk did not send goes alone, the chunk counted', async () => {
  const groups = Array.from({ length: 30 }, (_, i) => ({ group_id: `grp_c${i}`, name: `Chunk ${i}`, paced: false }));
  const behaviour: Record<string, Behaviour> = Object.fromEntries(groups.map((g) => [g.group_id, 'ok']));
  const { result, calls, history } = await run({ groups, behaviour: { ...behaviour, grp_c3: 'flaky', grp_c27: 'permanent' } }, true);
  assert.deepEqual(result, { status: 'partial' });
  assert.deepEqual(
    calls.chunks,
    [groups.slice(0, 25), groups.slice(25)].map((chunk) => chunk.map((g) => g.group_id)),
  );
  // The two the chunks did not send, each alone as its second attempt: the flaky one sent, the refused one failed.
  assert.deepEqual(calls.deliver.sort(), ['grp_c27', 'grp_c3']);
  assert.deepEqual(calls.attempts, [2, 2]);
  assert.deepEqual(calls.failed, [{ group: 'grp_c27', error: 'the gateway refused the destination', attempts: 2 }]);
  // Every send a chunk made is recorded once, by the workflow (in batches, the rest with the completion).
  const recorded = [
    ...calls.recorded.flat(),
    ...calls.completedWith
      .flat()
      .slice(calls.recorded.flat().length)
      .map((r) => (r as { group_id: string }).group_id),
  ];
  assert.deepEqual(
    recorded.sort(),
    groups
      .map((g) => g.group_id)
      .filter((g) => g !== 'grp_c27')
      .sort(),
  );
  assert.deepEqual(
    history.events!.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'deliverToGroups').map(summary),
    ['send to 25 groups: Chunk 0 (grp_c0) … Chunk 24 (grp_c24)', 'send to 5 groups: Chunk 25 (grp_c25) … Chunk 29 (grp_c29)'],
  );
});

test('a fan-out of 2,000 unpaced groups begins in three pages, records its sends in 10 recordings of 200 and a few smaller at its end, each group once', async () => {
  const groups = Array.from({ length: 2000 }, (_, i) => ({ group_id: `grp_r${i}`, name: null, paced: false }));
  const { result, calls, history } = await run({ groups, behaviour: Object.fromEntries(groups.map((g) => [g.group_id, 'ok'])) });
  assert.deepEqual(result, { status: 'sent' });
  assert.equal(calls.begun, 3);
  const begins = history.events!.filter((e) => e.markerRecordedEventAttributes && summary(e).startsWith('begin:')).map(summary);
  assert.deepEqual(begins, [
    'begin: the groups still to send to',
    'begin: the groups still to send to, from number 801',
    'begin: the groups still to send to, from number 1601',
  ]);
  const sizes = calls.recorded.map((batch) => batch.length);
  assert.ok(sizes.length <= 14 && sizes.every((n) => n <= 200), `recordings of ${sizes.join(', ')} sends`);
  const completed = calls.completedWith[0]!.map((r) => (r as { group_id: string }).group_id);
  assert.equal(completed.length, groups.length, 'the completion is given every send');
  const recorded = [...calls.recorded.flat(), ...completed.slice(calls.recorded.flat().length)];
  assert.deepEqual(recorded.sort(), groups.map((g) => g.group_id).sort());
});

test('a chunk that fails is tried again as a whole, three attempts in all; then each of its groups goes alone, those counted', async () => {
  const groups = Array.from({ length: 3 }, (_, i) => ({ group_id: `grp_k${i}`, name: `Chunk ${i}`, paced: false }));
  const once = await run({ groups, behaviour: { grp_k0: 'ok', grp_k1: 'breaks-chunk-once', grp_k2: 'ok' } }, true);
  assert.deepEqual(once.result, { status: 'sent' });
  assert.deepEqual(once.calls.chunkAttempts, [1, 2]);
  assert.deepEqual(once.calls.deliver, []);
  assert.deepEqual(timers(once.history).map(summary), ['retry: wait 2 s before attempt 2 to 3 groups: Chunk 0 (grp_k0) … Chunk 2 (grp_k2)']);

  const broken = await run({ groups, behaviour: { grp_k0: 'ok', grp_k1: 'breaks-chunk', grp_k2: 'ok' } }, true);
  assert.deepEqual(broken.calls.chunkAttempts, [1, 2, 3]);
  assert.deepEqual(broken.calls.deliver.sort(), ['grp_k0', 'grp_k1', 'grp_k2']);
  assert.deepEqual(broken.calls.attempts, [4, 4, 4], "each alone as its fourth attempt, the chunk's three counted");
});

test('a group that waits for a slot in its chunk (pacing set since) goes alone in that slot, no attempt counted', async () => {
  const groups = Array.from({ length: 2 }, (_, i) => ({ group_id: `grp_s${i}`, name: `Slot ${i}`, paced: false }));
  const { result, calls, history } = await run({ groups, behaviour: { grp_s0: 'ok', grp_s1: 'waits-in-chunk' } }, true);
  assert.deepEqual(result, { status: 'sent' });
  assert.deepEqual(calls.deliver, ['grp_s1']);
  assert.deepEqual(calls.attempts, [1]);
  assert.equal(typeof calls.slots[0], 'string');
  assert.deepEqual(timers(history).map(summary), ["pacing: wait for Slot 1's slot"]);
});

test('one unpaced group: its send completes the publication, no local activity; if it could not, complete runs with that send', async () => {
  const one = await run({ groups: [{ group_id: 'grp_one', name: 'One', paced: false }], behaviour: { grp_one: 'ok' } }, true);
  assert.deepEqual(one.result, { status: 'sent' });
  assert.deepEqual(one.calls.completing, ['grp_one']);
  assert.deepEqual(one.calls.completedWith, []);
  assert.equal(one.history.events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length, 0);

  const fallback = await run({ groups: [{ group_id: 'grp_two', name: 'Two', paced: false }], behaviour: { grp_two: 'uncompleted' } }, true);
  assert.deepEqual(fallback.result, { status: 'sent' });
  assert.deepEqual(fallback.calls.completing, ['grp_two']);
  assert.deepEqual(
    fallback.calls.completedWith.map((sent) => (sent as { group_id: string }[]).map((r) => r.group_id)),
    [['grp_two']],
  );

  // A paced one (or a fan-out) completes as before.
  const paced = await run({ groups: [{ group_id: 'grp_paced1', name: 'P', paced: true }], behaviour: { grp_paced1: 'ok' } }, true);
  assert.deepEqual(paced.calls.completing, []);
  assert.equal(paced.calls.completedWith.length, 1);
});

test('more paced groups than one workflow sends: even child batches, each paced on its slots; the parent chunks and completes (partial)', async () => {
  const paced = ['grp_p1', 'grp_p2', 'grp_p3', 'grp_p4', 'grp_p5', 'grp_p6'].map(bare);
  const unpaced = ['grp_u1', 'grp_u2', 'grp_u3'].map((group_id) => ({ group_id, name: null, paced: false }));
  const { result, calls, history, state, publicationId } = await run(
    {
      groups: [...paced, ...unpaced],
      slots: { grp_p3: 2500 },
      behaviour: { ...Object.fromEntries([...paced, ...unpaced].map((g) => [g.group_id, 'ok'])), grp_p5: 'permanent' },
    },
    true,
    2,
  );
  assert.deepEqual(result, { status: 'partial' });
  assert.equal(state, 'partial');
  // Six one-by-one groups over a limit of two: three children of two, each reserving its groups' slots in one activity.
  const children = history.events!.flatMap((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId ?? []);
  assert.deepEqual(
    children,
    [1, 2, 3].map((batch) => pacedDeliveriesWorkflowId(publicationId, batch)),
  );
  assert.deepEqual(calls.slotBatches.map((b) => b.join()).sort(), ['grp_p1,grp_p2', 'grp_p3,grp_p4', 'grp_p5,grp_p6']);
  // The paced sends are the children's, each once; the unpaced groups go in one chunk from the parent.
  assert.deepEqual([...calls.deliver].sort(), ['grp_p1', 'grp_p2', 'grp_p3', 'grp_p4', 'grp_p5', 'grp_p6']);
  const parentActivities = history.events!.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
  assert.deepEqual(parentActivities, ['deliverToGroups']);
  assert.deepEqual(calls.chunks, [['grp_u1', 'grp_u2', 'grp_u3']]);
  // A paced group whose slot is later waits for it on a durable timer, in its child's history.
  const child = await client.workflow.getHandle(pacedDeliveriesWorkflowId(publicationId, 2)).fetchHistory();
  assert.deepEqual(timers(child).map(summary), ["pacing: wait for grp_p3's slot"]);
  // The failure is the child's to record; the parent's completion is given its own sends only, and says why one failed.
  assert.deepEqual(calls.failed, [{ group: 'grp_p5', error: 'the gateway refused the destination', attempts: 1 }]);
  const completed = calls.completedWith[0]!.map((r) => (r as { group_id: string }).group_id);
  assert.deepEqual(completed.sort(), ['grp_u1', 'grp_u2', 'grp_u3']);
});
