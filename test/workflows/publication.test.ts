/**
 * The publication workflow with fake activities on the real Temporal server:
 * fan-out, retries of transient errors, permanent errors failing one group
 * only, durable pacing waits, and the final state.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Client, Connection } from '@temporalio/client';
import { ApplicationFailure, defaultPayloadConverter } from '@temporalio/common';
import { NativeConnection, Runtime, DefaultLogger, Worker } from '@temporalio/worker';
import { WORKFLOW_BUNDLE } from '../../domain/config';
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
  reserved: string[];
  unreserved: string[];
  slots: (string | undefined)[];
  failed: { group: string; error: string }[];
  waiting: string[];
  begun: number;
  /** The sends asked to complete the publication. */
  completing: string[];
  /** The sends completePublication was given. */
  completedWith: unknown[][];
  /** The activity inputs that carried the workflow's groups (none should). */
  carried: number;
  /** The groups of each deliverToGroups. */
  chunks: string[][];
  /** The groups of each batch of sends recorded (recordSentDeliveries). */
  recorded: string[][];
}

function fakes(plan: {
  groups: (string | { group_id: string; name: string; paced: boolean })[];
  slots?: Record<string, number>;
  behaviour: Record<string, 'ok' | 'permanent' | 'flaky' | 'late' | 'late-unreserved' | 'uncompleted' | 'breaks-chunk'>;
}) {
  const calls: Calls = {
    deliver: [],
    reserved: [],
    unreserved: [],
    slots: [],
    failed: [],
    waiting: [],
    begun: 0,
    completing: [],
    completedWith: [],
    carried: 0,
    chunks: [],
    recorded: [],
  };
  const sent = new Set<string>();
  const flakes = new Set<string>();
  const late = new Set<string>();
  const activities = {
    async beginPublication() {
      calls.begun++;
      return plan.groups;
    },
    async reserveDeliverySlot(r: { group_id: string }) {
      calls.reserved.push(r.group_id);
      return new Date(Date.now() + (plan.slots?.[r.group_id] ?? 0)).toISOString();
    },
    async markDeliveryWaiting(r: { group_id: string }) {
      calls.waiting.push(r.group_id);
    },
    async deliverToGroup(r: { group_id: string; slot?: string; unreserved?: boolean; groups?: unknown; complete?: boolean }) {
      calls.deliver.push(r.group_id);
      if (r.groups !== undefined) calls.carried++;
      if (r.unreserved) calls.unreserved.push(r.group_id);
      calls.slots.push(r.slot);
      const behaviour = plan.behaviour[r.group_id];
      // Started 2 s past its slot: no send, the next free slot (4 s on) reserved instead.
      if ((behaviour === 'late' || behaviour === 'late-unreserved') && !late.has(r.group_id)) {
        late.add(r.group_id);
        const next = new Date(Date.now() + 4000).toISOString();
        throw ApplicationFailure.create({ message: 'the send missed its slot', type: 'SlotMissed', nonRetryable: true, details: [next, 2000] });
      }
      if (behaviour === 'permanent') throw ApplicationFailure.nonRetryable('the gateway refused the destination', 'ChannelPermanent');
      if (behaviour === 'flaky' && !flakes.has(r.group_id)) {
        flakes.add(r.group_id);
        throw new Error('gateway unavailable (503)');
      }
      sent.add(r.group_id);
      if (!r.complete) return undefined;
      calls.completing.push(r.group_id);
      const record = { group_id: r.group_id, with_image: false, sent_at: new Date().toISOString(), attempts: 1 };
      // 'uncompleted': sent, but the completion failed (the send reports no status).
      return { outcome: 'sent', message_id: null, record, ...(behaviour === 'uncompleted' ? {} : { status: 'sent' }) };
    },
    async deliverToGroups(r: { group_ids: string[] }) {
      calls.chunks.push(r.group_ids);
      // 'breaks-chunk': the chunk fails as a whole (its attempts ran out).
      if (r.group_ids.some((g) => plan.behaviour[g] === 'breaks-chunk')) throw ApplicationFailure.nonRetryable('the chunk failed');
      return r.group_ids.map((group_id) => {
        const behaviour = plan.behaviour[group_id];
        if (behaviour === 'flaky' && !flakes.has(group_id)) flakes.add(group_id);
        else if (behaviour === 'ok') {
          sent.add(group_id);
          return { group_id, message_id: null, record: { group_id, with_image: false, sent_at: new Date().toISOString(), attempts: 1 } };
        }
        return { group_id, error: behaviour === 'permanent' ? 'the gateway refused the destination' : 'gateway unavailable (503)', attempts: 1 };
      });
    },
    async recordSentDeliveries(r: { deliveries: { group_id: string }[] }) {
      calls.recorded.push(r.deliveries.map((d) => d.group_id));
    },
    async failDelivery(r: { group_id: string; error: string }) {
      calls.failed.push({ group: r.group_id, error: r.error });
    },
    async completePublication(r: { groups?: unknown; sent?: unknown[] }) {
      if (r.groups !== undefined) calls.carried++;
      calls.completedWith.push(r.sent ?? []);
      return sent.size === plan.groups.length ? 'sent' : sent.size === 0 ? 'failed' : 'partial';
    },
  };
  return { activities, calls };
}

/** `inInput`: the groups are given in the workflow's input (as a publish request does), not read by beginPublication. */
async function run(plan: Parameters<typeof fakes>[0], inInput = false) {
  const taskQueue = `test-publication-${randomBytes(4).toString('hex')}`;
  const { activities, calls } = fakes(plan);
  const worker = await Worker.create({
    connection: native,
    namespace: stackEnv().temporalNamespace,
    taskQueue,
    workflowBundle: { codePath: WORKFLOW_BUNDLE },
    activities,
  });
  const workflowId = `publication-pub_test${randomBytes(6).toString('hex')}`;
  const result = await worker.runUntil(
    client.workflow.execute('publication', {
      workflowId,
      taskQueue,
      args: [{ publication_id: 'pub_test', account: 'acc_test', environment: 'live', ...(inInput ? { groups: plan.groups } : {}) }],
    }),
  );
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return { result, calls, history };
}

test('every group is sent to once; the publication is sent', async () => {
  const { result, calls } = await run({ groups: ['grp_a', 'grp_b', 'grp_c'], behaviour: { grp_a: 'ok', grp_b: 'ok', grp_c: 'ok' } });
  assert.deepEqual(result, { status: 'sent' });
  assert.deepEqual([...calls.deliver].sort(), ['grp_a', 'grp_b', 'grp_c']);
  assert.deepEqual(calls.failed, []);
});

test('a transient error is retried; a permanent one fails that group only (partial)', async () => {
  const { result, calls } = await run({
    groups: ['grp_ok', 'grp_bad', 'grp_flaky'],
    behaviour: { grp_ok: 'ok', grp_bad: 'permanent', grp_flaky: 'flaky' },
  });
  assert.deepEqual(result, { status: 'partial' });
  assert.equal(calls.deliver.filter((g) => g === 'grp_flaky').length, 2, 'retried once');
  assert.equal(calls.deliver.filter((g) => g === 'grp_bad').length, 1, 'a permanent error is not retried');
  assert.deepEqual(calls.failed, [{ group: 'grp_bad', error: 'the gateway refused the destination' }]);
});

test('when every group fails the publication fails', async () => {
  const { result } = await run({ groups: ['grp_x'], behaviour: { grp_x: 'permanent' } });
  assert.deepEqual(result, { status: 'failed' });
});

test('a paced group waits on a durable timer before its send', async () => {
  const { result, calls, history } = await run({
    groups: ['grp_now', 'grp_later'],
    slots: { grp_later: 1500 },
    behaviour: { grp_now: 'ok', grp_later: 'ok' },
  });
  assert.deepEqual(result, { status: 'sent' });
  assert.deepEqual(calls.waiting, ['grp_later']);
  const timers = history.events!.filter((e) => e.timerStartedEventAttributes);
  assert.equal(timers.length, 1);
  const seconds = Number(timers[0]!.timerStartedEventAttributes!.startToFireTimeout!.seconds ?? 0);
  assert.ok(seconds <= 2, `timer of ${seconds}s`);
  // These fakes return bare group ids, as beginPublication did before it returned names: summaries then name the id alone.
  const summary = (e: (typeof timers)[number]) => String(defaultPayloadConverter.fromPayload(e.userMetadata!.summary!));
  assert.equal(summary(timers[0]!), "pacing: wait for grp_later's slot");
  const sends = history.events!.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'deliverToGroup');
  assert.deepEqual(sends.map(summary).sort(), ['send to grp_later', 'send to grp_now']);
});

test('a send that missed its slot waits on a durable timer for the next one it reserved (waking earlier by how late it was), then goes', async () => {
  const { result, calls, history } = await run({ groups: ['grp_late'], behaviour: { grp_late: 'late' } });
  assert.deepEqual(result, { status: 'sent' });
  assert.deepEqual(calls.deliver, ['grp_late', 'grp_late']);
  assert.deepEqual(calls.failed, [], 'a missed slot is not a failure');
  assert.deepEqual(calls.waiting, ['grp_late']);
  // Each send carries its slot: the reserved one, then the one the missed send reserved.
  assert.equal(calls.slots.length, 2);
  assert.ok(calls.slots.every((slot) => typeof slot === 'string'));
  assert.notEqual(calls.slots[0], calls.slots[1]);
  const timers = history.events!.filter((e) => e.timerStartedEventAttributes);
  assert.equal(timers.length, 1);
  // 4 s away, but the send was 2 s late: it wakes about 3 s before the slot instead of 0.8 s.
  const seconds = Number(timers[0]!.timerStartedEventAttributes!.startToFireTimeout!.seconds ?? 0);
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
  assert.deepEqual(calls.unreserved, ['grp_free']);
  const types = history.events!.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
  assert.equal(types.filter((t) => t === 'reserveDeliverySlot').length, 1);
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
  // The first send had no slot; the second goes in the one the first reserved.
  assert.deepEqual(calls.unreserved, ['grp_now_paced']);
  assert.equal(calls.slots[0], undefined);
  assert.equal(typeof calls.slots[1], 'string');
  assert.deepEqual(calls.waiting, ['grp_now_paced']);
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
  assert.deepEqual(calls.unreserved, ['grp_given']);
  assert.deepEqual(calls.reserved, ['grp_given_paced']);
  // One local activity: complete.
  assert.equal(history.events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length, 1);
});

test('unpaced groups in a fan-out go in chunks of 25, one activity each; a group its chunk did not send goes alone', async () => {
  const groups = Array.from({ length: 30 }, (_, i) => ({ group_id: `grp_c${i}`, name: `Chunk ${i}`, paced: false }));
  const behaviour = Object.fromEntries(groups.map((g) => [g.group_id, 'ok' as const]));
  const { result, calls, history } = await run({ groups, behaviour: { ...behaviour, grp_c3: 'flaky', grp_c27: 'permanent' } }, true);
  assert.deepEqual(result, { status: 'partial' });
  assert.deepEqual(
    calls.chunks,
    [groups.slice(0, 25), groups.slice(25)].map((chunk) => chunk.map((g) => g.group_id)),
  );
  // The two the chunks did not send, each alone: the flaky one sent, the refused one failed (no retry of a permanent error).
  assert.deepEqual(calls.deliver.sort(), ['grp_c27', 'grp_c3']);
  assert.deepEqual(calls.failed, [{ group: 'grp_c27', error: 'the gateway refused the destination' }]);
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
      .filter((g) => g !== 'grp_c3' && g !== 'grp_c27')
      .sort(),
  );
  const summary = (e: NonNullable<typeof history.events>[number]) => String(defaultPayloadConverter.fromPayload(e.userMetadata!.summary!));
  assert.deepEqual(
    history.events!.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'deliverToGroups').map(summary),
    ['send to 25 groups: Chunk 0 (grp_c0) … Chunk 24 (grp_c24)', 'send to 5 groups: Chunk 25 (grp_c25) … Chunk 29 (grp_c29)'],
  );

  // A chunk that fails as a whole: each of its groups goes alone.
  const broken = await run({ groups: groups.slice(0, 3), behaviour: { ...behaviour, grp_c1: 'breaks-chunk' } }, true);
  assert.deepEqual(broken.calls.chunks, [['grp_c0', 'grp_c1', 'grp_c2']]);
  assert.deepEqual(broken.calls.deliver.sort(), ['grp_c0', 'grp_c1', 'grp_c2']);
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
