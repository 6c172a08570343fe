/**
 * Records the histories the replay test replays: runs each workflow type on
 * the test stack with fake activities and writes its history to
 * test/replay/histories/<type>.<case>.json, one case per type that takes
 * its interesting paths. Run it (with the stack's TEMPORAL_ADDRESS) after a
 * deliberate workflow change (docs/architecture/workflow-versioning.md):
 *   npm test -- dist/test/replay/record.js
 * (`node dist/test/replay/record.js TYPE…`, or `RECORD_ONLY=TYPE,… npm test -- dist/test/replay/record.js`,
 * records only those workflow types.)
 */
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { WORKFLOW_BUNDLE } from '../../domain/config';
import { temporalBinary } from '../../tools/stack/temporal-cli';
import { stackEnv } from '../helpers/stack';
import { temporalScheduleState, workflowTail } from '../helpers/states';
import { waitFor } from '../helpers/wait';

const DIR = resolve(__dirname, '../../../test/replay/histories');

/** Fake activities: enough for every workflow to take its interesting paths. */
function fakeActivities() {
  const once = new Set<string>();
  /** Whether `what` happens for the first time (then true), each later time false. */
  const first = (what: string) => !once.has(what) && !!once.add(what);
  const record = (group_id: string, attempts: number) => ({ group_id, with_image: false, sent_at: new Date().toISOString(), attempts });
  const nextSlot = () => new Date(Date.now() + 1000).toISOString();
  /** The slot a late send takes: far enough to be waited for on a timer, however early it wakes. */
  const laterSlot = () => new Date(Date.now() + 3000).toISOString();
  let purges = 0;
  return {
    async reserveDeliverySlot(r: { not_before?: string }) {
      return r.not_before ?? nextSlot();
    },
    async reserveDeliverySlots(r: { group_ids: string[] }) {
      // The many paced groups of a publication in batches go at once (their batches' histories are not recorded).
      return r.group_ids.map((id) => (id.startsWith('grp_many') ? new Date().toISOString() : nextSlot()));
    },
    async deliverToGroup(r: { group_id: string; attempt: number }) {
      if (r.group_id === 'grp_bad') throw ApplicationFailure.nonRetryable('refused', 'ChannelPermanent');
      // The paced group's first send wakes too late for its slot and waits for the next (domain/channels/send.ts).
      if (r.group_id === 'grp_paced' && first('grp_paced late')) return { outcome: 'wait', slot: laterSlot(), late_ms: 1500 };
      // The flaky group, sent alone after its chunk, fails once more and is tried again.
      if (r.group_id === 'grp_flaky' && first('grp_flaky alone')) throw ApplicationFailure.create({ message: '503', type: 'ChannelTransient' });
      return { outcome: 'sent', message_id: 'gw_1', ...(r.group_id === 'grp_paced' ? {} : { record: record(r.group_id, r.attempt) }) };
    },
    /** A chunk of unpaced groups: grp_ok is sent, the others are reported not sent (and go alone). */
    async deliverToGroups(r: { group_ids: string[]; attempt: number }) {
      return r.group_ids.map((group_id) =>
        group_id === 'grp_ok'
          ? { group_id, message_id: 'gw_1', record: record(group_id, r.attempt) }
          : { group_id, error: 'the gateway answered 503' },
      );
    },
    async recordSentDeliveries() {},
    async failDelivery() {},
    async reserveReplySlot(r: { not_before?: string }) {
      return r.not_before ?? nextSlot();
    },
    async deliverReply(r: { message_id: string }) {
      // The first send misses its slot and waits for the next one; the one after fails once and is tried again.
      if (first(`${r.message_id} late`)) return { outcome: 'wait', slot: laterSlot(), late_ms: 1500 };
      if (first(`${r.message_id} 503`)) throw ApplicationFailure.create({ message: 'the gateway answered 503', type: 'ChannelTransient' });
      return { outcome: 'sent', message_id: 'gw_1' };
    },
    async failReply() {},
    async completePublication() {
      return 'partial';
    },
    async sweepExpiredRecords() {
      return { rate_limit_windows: 2 };
    },
    async relayPendingEvents() {
      return { relayed: 1, dispatched: 1, resumed: 0 };
    },
    async markEventDispatched() {},
    async webhookTargets() {
      return { account: 'acc_replay', environment: 'live', kind: 'offer.created', webhook_ids: ['whk_replay'], hosts: ['hooks.example'] };
    },
    async attemptWebhookDelivery(input: { event_id: string }) {
      // The first attempt does not complete (a worker lost mid-attempt), the second is answered 503, the third succeeds.
      if (first(`${input.event_id} crash`)) throw ApplicationFailure.nonRetryable('worker lost', 'Crash');
      const ok = !first(`${input.event_id} 503`);
      return {
        outcome: ok ? 'succeeded' : 'failed',
        at: new Date().toISOString(),
        http_status: ok ? 200 : 503,
        duration_ms: 12,
        error: ok ? null : 'the destination answered 503',
      };
    },
    async purgeWebhookDeliveries() {
      return { listed: purges++ === 0 ? 2 : 0 };
    },
    async runSchedule() {
      return { publication_id: 'pub_replay', event_id: 'evt_replay3' };
    },
    async journeyTargets() {
      // One execution to start (a trigger and an end), and a waiting execution that is gone by the time of the signal.
      const input = { ...JOURNEY_INPUT, journey_id: 'jrn_replay2', blocks: [{ id: 'start', type: 'trigger', config: {}, next: [] }] };
      return { starts: [{ input, name: 'Replay' }], waiting: ['journey-jrn_gone-evt_gone'], message_id: 'msg_replay' };
    },
    async journeyProgress() {},
    async journeyCondition() {
      return true;
    },
    async journeyTag() {},
    async journeyAssign() {},
    async journeyHttp() {
      return { status: 200, body: { ok: true }, error: null };
    },
    async journeyClose() {},
    async journeySend() {
      return 'msg_replay2';
    },
    async startMonitorRun() {
      const automation = { mode: 'create', segment_id: null, group_id: null, with_image: true };
      const sources = [
        { type: 'merchant_xml', url: 'https://feeds.example/ok.xml', name: 'ok' },
        { type: 'csv', url: 'https://feeds.example/down.csv', name: 'down' },
      ];
      return { sources, criteria: { keywords_include: ['fryer'] }, automation };
    },
    async readMonitorSource(input: { index: number }) {
      // The second source fails for good (its error goes in the run's result); the first is read.
      if (input.index === 1) throw ApplicationFailure.nonRetryable('the source could not be reached (ECONNREFUSED)', 'MonitorSourceUnavailable');
      return { name: 'ok', type: 'merchant_xml', seen: 10, matched: 3, created: 2, published: 0, error: null };
    },
    async finishMonitorRun(input: { sources: { seen: number; matched: number; created: number; published: number; error: string | null }[] }) {
      const sum = (k: 'seen' | 'matched' | 'created' | 'published') => input.sources.reduce((n, x) => n + x[k], 0);
      const errors = input.sources.filter((x) => x.error !== null).length;
      return {
        event_id: 'evt_replay4',
        seen: sum('seen'),
        matched: sum('matched'),
        created: sum('created'),
        published: sum('published'),
        errors,
      };
    },
  };
}

/** A journey execution that takes every kind of block (timers shortened: the recorder passes minutes the contract would refuse). */
const JOURNEY_INPUT = {
  journey_id: 'jrn_replay',
  version: 3,
  account: 'acc_replay',
  environment: 'live',
  event: { id: 'evt_replay4', kind: 'conversation.created', data: { conversation: { id: 'cnv_replay', contact_id: 'ctc_replay' } } },
  conversation_id: 'cnv_replay',
  contact_id: 'ctc_replay',
  blocks: [
    { id: 'start', type: 'trigger', config: {}, next: ['pause'] },
    { id: 'pause', type: 'wait', config: { minutes: 0.01 }, next: ['call'] },
    { id: 'call', type: 'http', config: { url: 'https://hooks.example/check' }, next: ['check'] },
    { id: 'check', type: 'condition', config: { field: 'http.call.status', operator: 'eq', value: 200 }, next: ['mark', 'done'] },
    { id: 'mark', type: 'tag', config: { add: ['vip'], stage: 'engaged' }, next: ['human'] },
    { id: 'human', type: 'assign', config: { assignee: 'Ana', du_mode: 'off' }, next: ['answer'] },
    { id: 'answer', type: 'wait_reply', config: { timeout_minutes: 5 }, next: ['hello', 'done'] },
    { id: 'hello', type: 'message', config: { text: 'Oi!' }, next: ['done'] },
    { id: 'done', type: 'end', config: { close_conversation: true } },
  ],
};

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const env = stackEnv();
  const temporal = await temporalBinary((line) => console.log(line));
  const connection = await Connection.connect({ address: env.temporalAddress });
  const client = new Client({ connection, namespace: env.temporalNamespace });
  const native = await NativeConnection.connect({ address: env.temporalAddress });
  const taskQueue = `record-${randomBytes(4).toString('hex')}`;
  const worker = await Worker.create({
    connection: native,
    namespace: env.temporalNamespace,
    taskQueue,
    workflowBundle: { codePath: WORKFLOW_BUNDLE },
    activities: fakeActivities(),
  });
  // A fan-out given in the input: three unpaced groups (ok, refused, flaky) in a chunk, and more paced groups than one
  // workflow sends (ONE_BY_ONE_MAX, workflows/publication-plan.ts), which go in two batches.
  const unpaced = ['grp_ok', 'grp_bad', 'grp_flaky'].map((group_id) => ({ group_id, name: `Group ${group_id}`, paced: false }));
  const manyPaced = Array.from({ length: 501 }, (_, i) => ({ group_id: `grp_many${i}`, name: null, paced: true }));
  // A batch: a paced group whose first send wakes late, a paced one refused, and an unpaced one that goes alone.
  const batchGroups = [
    { group_id: 'grp_paced', name: 'Group grp_paced', paced: true },
    { group_id: 'grp_bad', name: null, paced: true },
    { group_id: 'grp_alone', name: 'Group grp_alone', paced: false, alone: true },
  ];
  const ref = { publication_id: 'pub_replay', account: 'acc_replay', environment: 'live' };
  const cases: [string, string, unknown[]][] = [
    ['publication', 'fan-out-in-batches', [{ ...ref, groups: [...unpaced, ...manyPaced] }]],
    ['pacedDeliveries', 'batch', [{ ...ref, publication_id: 'pub_replay2', batch: 1, batches: 1, groups: batchGroups }]],
    ['reply', 'paced', [{ message_id: 'msg_replay', account: 'acc_replay', environment: 'live' }]],
    ['retentionSweep', 'sweep', [{ every_ms: 200, sweeps: 2 }]],
    ['outboxSweep', 'sweep', [{ every_ms: 200, sweeps: 2 }]],
    ['dispatchEvent', 'webhook-and-journeys', [{ event_id: 'evt_replay' }]],
    [
      'webhookDelivery',
      'retried',
      [
        {
          webhook_id: 'whk_replay',
          event_id: 'evt_replay2',
          event_kind: 'offer.created',
          account: 'acc_replay',
          environment: 'live',
          host: 'hooks.example',
          delays_ms: [0, 500, 500],
        },
      ],
    ],
    ['webhookCleanup', 'purged', [{ webhook_id: 'whk_replay', account: 'acc_replay', environment: 'live' }]],
    ['scheduleRun', 'triggered', [{ schedule_id: 'sch_replay', account: 'acc_replay', environment: 'live' }]],
    ['journeyExecution', 'replied', [JOURNEY_INPUT]],
    ['monitorRun', 'two-sources', [{ monitor_id: 'mon_replay', account: 'acc_replay', environment: 'live' }]],
  ];
  /** Runs `type` as a Temporal Schedule starts it (scheduleRun reads what only a Schedule sets); its workflow id. */
  async function executeFromSchedule(type: string, args: unknown[]): Promise<string> {
    const scheduleId = `record-${type}-${randomBytes(4).toString('hex')}`;
    const handle = await client.schedule.create({
      scheduleId,
      spec: { calendars: [{ year: 2099, month: 'JANUARY' }] },
      action: { type: 'startWorkflow', workflowType: type, workflowId: scheduleId, taskQueue, args, memo: { sync: 'replay' } },
    });
    await handle.trigger();
    const taken = await waitFor(
      `the run of ${scheduleId}`,
      async () => (await handle.describe()).info.recentActions[0],
      undefined,
      () => temporalScheduleState(client, scheduleId),
    );
    await client.workflow.getHandle(taken.action.workflow.workflowId).result();
    await handle.delete();
    return taken.action.workflow.workflowId;
  }
  /** Runs a journey execution; when it waits for a reply (its timer is started), signals one. */
  async function executeJourney(workflowId: string, args: unknown[]): Promise<void> {
    const handle = await client.workflow.start('journeyExecution', { workflowId, taskQueue, args });
    // The first timer is the wait block's; the second, the reply's time-out.
    await waitFor(
      'the wait for a reply',
      async () => {
        const { events } = await handle.fetchHistory();
        return (events ?? []).filter((e) => e.timerStartedEventAttributes).length >= 2 ? true : undefined;
      },
      undefined,
      () => workflowTail(handle),
    );
    await handle.signal('journeyReply', { message_id: 'msg_replay' });
    await handle.result();
  }
  /** Runs a sweep until its first run continues as new, then ends the chain; the first run's id (its history is recorded). */
  async function executeSweep(type: string, workflowId: string, args: unknown[]): Promise<string> {
    const handle = await client.workflow.start(type, { workflowId, taskQueue, args });
    const first = client.workflow.getHandle(workflowId, handle.firstExecutionRunId);
    await waitFor(
      'the first run to continue as new',
      async () => ((await first.describe()).status.name === 'RUNNING' ? undefined : true),
      undefined,
      () => workflowTail(first),
    );
    await handle.terminate('recorded');
    return handle.firstExecutionRunId;
  }
  // `node dist/test/replay/record.js scheduleRun publication` (or RECORD_ONLY=scheduleRun,publication under
  // `npm test --`) records only the types named.
  const only = [...process.argv.slice(2), ...(process.env.RECORD_ONLY?.split(',').filter(Boolean) ?? [])];
  await worker.runUntil(async () => {
    for (const [type, name, args] of cases.filter(([type]) => !only.length || only.includes(type))) {
      let workflowId = `record-${type}-${randomBytes(4).toString('hex')}`;
      let runId: string | undefined;
      if (type === 'scheduleRun') workflowId = await executeFromSchedule(type, args);
      else if (type === 'journeyExecution') await executeJourney(workflowId, args);
      else if (type.endsWith('Sweep')) runId = await executeSweep(type, workflowId, args);
      else await client.workflow.execute(type, { workflowId, taskQueue, args });
      // The Temporal CLI writes histories in the standard JSON form the replayer reads.
      const json = execFileSync(temporal, [
        'workflow',
        'show',
        '--workflow-id',
        workflowId,
        ...(runId ? ['--run-id', runId] : []),
        '--address',
        env.temporalAddress,
        '--namespace',
        env.temporalNamespace,
        '--output',
        'json',
      ]);
      writeFileSync(resolve(DIR, `${type}.${name}.json`), json);
      console.log(`recorded ${type}.${name}.json`);
    }
  });
  await native.close();
  await connection.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
