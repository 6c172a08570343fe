/**
 * `npm run bench:publish`: publish-to-delivered latency and fan-out
 * throughput of offerops, printed beside a bare Temporal workflow with no-op
 * activities on the same server, in the same process, as a ratio.
 *
 * offerops side: a real HTTP publish through the API (validation, MongoDB
 * writes, outbox, workflow start) until the `publication-<id>` workflow has
 * delivered to every group through the sandbox connector (test environment:
 * the chat network is not measured). Starts its own stack (or uses
 * MONGODB_URI / TEMPORAL_ADDRESS). Options: BENCH_RUNS (default 20),
 * BENCH_GROUPS (default 1000).
 *
 * The fan-out runs with pacing off (test-environment groups are never paced)
 * beside a bare workflow with as many no-op activities (one per group: the
 * floor of a workflow that sends each group in an activity), and prints how many database round trips the worker
 * made and how many activities the workflow ran per group: offerops sends
 * unpaced groups 25 to an activity (deliverToGroups), so the throughputs
 * compared are groups per second, each side with its own design.
 *
 * The single-group runs also print the CPU time of this process (the API
 * and the workers; not the Temporal server's nor the database's) per run.
 * The API and the worker keep their bookkeeping for after their answers, as
 * in production (domain/after-answer.ts): the benchmark runs it after each
 * publication is delivered, before the bare run, so that none of it lands on
 * the bare side; it is in the CPU per run, not in the latency.
 *
 * Then the timeline of one more single-group publication and of one bare run:
 * the HTTP answer, the workflow's history events (server times) and every
 * database round trip of the API and of the worker, in ms from the request;
 * and, over the single-group runs, the p50 of each phase on both sides.
 */
import { randomBytes } from 'node:crypto';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { MongoClient } from 'mongodb';
import { createActivities } from '../../activities/index';
import { AfterAnswer } from '../../domain/after-answer';
import { closeApp, createApp, flushAfterAnswer } from '../../api/app';
import { connectMongo, connectTemporal } from '../../domain/config';
import { newSecretKey } from '../../domain/sealing';
import { createLogger } from '../../domain/logger';
import { createAccount, createApiKey } from '../../domain/accounts/store';
import { ensureIndexes } from '../../domain/db';
import { createGroup } from '../../domain/groups/store';
import { SCOPES } from '../../schemas/openapi/common';
import { listen, portOf, quantile, runBench, withStack } from './harness';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const GROUPS = Number(process.env.BENCH_GROUPS ?? 1000);

const ms = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;
/** Wall-clock ms with sub-ms precision (comparable with the Temporal server's event times: same machine). */
const wallMs = (): number => performance.timeOrigin + performance.now();

/** One database round trip seen by a command-monitoring client. */
interface Command {
  side: 'api' | 'worker';
  name: string;
  collection: string;
  start: number;
  end: number;
}

/** Records the round trips of `client` into `into` while `on()` holds. */
function traceCommands(client: MongoClient, side: Command['side'], on: () => boolean, into: Command[]): void {
  const open = new Map<number, Omit<Command, 'end'>>();
  client.on('commandStarted', (e) => {
    if (!on()) return;
    const target: unknown = e.command[e.commandName];
    open.set(e.requestId, { side, name: e.commandName, collection: typeof target === 'string' ? target : '', start: wallMs() });
  });
  const done = (e: { requestId: number }) => {
    const c = open.get(e.requestId);
    if (!c) return;
    open.delete(e.requestId);
    into.push({ ...c, end: wallMs() });
  };
  client.on('commandSucceeded', done);
  client.on('commandFailed', done);
}

/** A history event as the timeline shows it: what happened, at the server's time. */
interface HistoryEvent {
  eventTime?: { seconds?: unknown; nanos?: number | null } | null;
  [attributes: string]: unknown;
}
/** An event's server time in ms (its seconds may be a Long). */
function eventMs(e: HistoryEvent): number {
  const s = e.eventTime?.seconds;
  const seconds = typeof s === 'object' && s !== null && 'toNumber' in s ? (s as { toNumber(): number }).toNumber() : Number(s ?? 0);
  return seconds * 1000 + (e.eventTime?.nanos ?? 0) / 1e6;
}

/** `markerRecorded` → "marker recorded"; a local activity's marker and an activity name their type. */
function eventLabel(e: HistoryEvent): string {
  const key = Object.keys(e).find((k) => k.endsWith('EventAttributes') && e[k]) ?? 'unknown';
  const attrs = e[key] as { activityType?: { name?: string }; details?: Record<string, { payloads?: { data?: Uint8Array }[] }> };
  let label = key.replace(/EventAttributes$/, '').replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
  if (attrs.activityType?.name) label += ` ${attrs.activityType.name}`;
  const data = attrs.details?.data?.payloads?.[0]?.data;
  if (data) {
    try {
      const marker = JSON.parse(Buffer.from(data).toString('utf8')) as { activity_type?: string };
      if (marker.activity_type) label += ` (local activity ${marker.activity_type})`;
    } catch {
      // not a local activity's marker
    }
  }
  return label;
}

/** The phases of one run, in ms: from the request (or start) to the workflow's result, cut at its history events. */
const PHASES = [
  'request → workflow started',
  'started → first workflow task started',
  'first workflow task (to the send scheduled)',
  'send: activity scheduled → completed',
  'completed → last workflow task started',
  'last workflow task (to the workflow completed)',
  'workflow completed → result received',
] as const;

function phasesOf(t0: number, events: object[], end: number): number[] {
  const timed = (events as HistoryEvent[]).map((e) => ({ at: eventMs(e), e }));
  const first = (key: string) => timed.find((t) => t.e[key])?.at ?? NaN;
  const last = (key: string) => [...timed].reverse().find((t) => t.e[key])?.at ?? NaN;
  const marks = [
    t0,
    first('workflowExecutionStartedEventAttributes'),
    first('workflowTaskStartedEventAttributes'),
    first('activityTaskScheduledEventAttributes'),
    last('activityTaskCompletedEventAttributes'),
    last('workflowTaskStartedEventAttributes'),
    first('workflowExecutionCompletedEventAttributes'),
    end,
  ];
  return marks.slice(1).map((m, i) => m - marks[i]!);
}

/** Prints a timeline: history events and round trips in time order, in ms from `t0`. */
function printTimeline(title: string, t0: number, marks: { at: number; what: string }[], events: object[], commands: Command[]): void {
  const rows = [
    ...marks,
    ...(events as HistoryEvent[]).map((e) => ({ at: eventMs(e), what: `temporal: ${eventLabel(e)}` })),
    ...commands.map((c) => ({ at: c.start, what: `${c.side} db: ${c.name} ${c.collection} (${(c.end - c.start).toFixed(1)} ms)` })),
  ].sort((a, b) => a.at - b.at);
  console.log(`\n${title} (ms from the request)`);
  for (const r of rows) console.log(`${(r.at - t0).toFixed(1).padStart(8)}  ${r.what}`);
}

/** What the benchmark reads of the API's answers: a created resource's id, a publish's publication ids. */
interface Created {
  data: { id: string };
}
interface Published {
  data: { publications: { id: string }[] };
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  await withStack('offerops-bench-', async (bench) => {
    const stack = await bench.startStack();
    const dbName = `bench_${randomBytes(4).toString('hex')}`;
    const mongo = await connectMongo({ mongodbUri: stack.mongodbUri, mongodbDb: dbName });
    // The worker's activities have a client of their own that counts the commands it sends: database round trips.
    const workerMongo = await MongoClient.connect(stack.mongodbUri, { monitorCommands: true });
    let workerCommands = 0;
    workerMongo.on('commandStarted', () => workerCommands++);
    // The API has a client of its own too, so that the timeline shows its round trips.
    const apiMongo = await MongoClient.connect(stack.mongodbUri, { monitorCommands: true });
    const traced: Command[] = [];
    let tracing = false;
    traceCommands(apiMongo, 'api', () => tracing, traced);
    traceCommands(workerMongo, 'worker', () => tracing, traced);
    await ensureIndexes(mongo.db);
    const temporal = await connectTemporal(stack);
    const native = await NativeConnection.connect({ address: stack.temporalAddress });
    const secretKey = Buffer.from(newSecretKey(), 'base64');
    const taskQueue = `bench-${randomBytes(4).toString('hex')}`;
    const baselineQueue = `${taskQueue}-baseline`;

    const app = createApp({
      db: apiMongo.db(dbName),
      secretKey,
      temporal: { client: temporal.client, namespace: stack.temporalNamespace, taskQueue },
      logger: createLogger('bench', 'silent'),
    });
    const handle = app.callback();
    const server = await listen(handle);
    const base = `http://127.0.0.1:${portOf(server)}/api/v1`;

    // As in production (worker/main.ts): the worker's bookkeeping after the activities' results.
    const workerAfter = new AfterAnswer((err) => console.error('bookkeeping after an activity failed:', err));
    /** Runs the bookkeeping the API and the worker left for after their answers (after a publication was delivered). */
    const settle = () => Promise.all([flushAfterAnswer(app), workerAfter.flush()]);
    const worker = await Worker.create({
      connection: native,
      namespace: stack.temporalNamespace,
      taskQueue,
      workflowsPath: require.resolve('../../workflows/index'),
      activities: createActivities({ db: workerMongo.db(dbName), temporal: temporal.client, taskQueue, secretKey, afterAnswer: workerAfter }),
    });
    const baseline = await Worker.create({
      connection: native,
      namespace: stack.temporalNamespace,
      taskQueue: baselineQueue,
      workflowsPath: require.resolve('./baseline-workflows'),
      activities: { noop: async () => undefined },
    });

    const account = await createAccount(mongo.db, { name: 'Bench' });
    const tenant = { accountId: account._id, env: 'test' as const };
    const { apiKey } = await createApiKey(mongo.db, { accountId: account._id, env: 'test', scopes: SCOPES });
    const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const res = await fetch(base + path, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json: unknown = await res.json();
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json as T;
    };
    const offer = (await call<Created>('POST', '/offers', { url: 'https://shop.example/bench', title: 'Bench offer', price: 10 })).data;
    const segment = (await call<Created>('POST', '/segments', { name: 'Bench segment' })).data;
    const one = await createGroup(mongo.db, tenant, { name: 'Bench single' });
    for (let i = 0; i < GROUPS; i++) await createGroup(mongo.db, tenant, { name: `Bench ${i}`, segment_id: segment.id });

    /** Publishes and waits until the workflow has finished: the time, and the workflow's activities. */
    const ourPhases: number[][] = [];
    const barePhases: number[][] = [];
    const publishAndWait = async (destination: Record<string, string>) => {
      const started = process.hrtime.bigint();
      const t0 = wallMs();
      const res = await call<Published>('POST', `/offers/${offer.id}/publish`, destination);
      const handle = temporal.client.workflow.getHandle(`publication-${res.data.publications[0]!.id}`);
      await handle.result();
      const took = ms(started);
      const end = wallMs();
      const events = (await handle.fetchHistory()).events ?? [];
      return { ms: took, activities: events.filter((e) => e.activityTaskScheduledEventAttributes).length, phases: phasesOf(t0, events, end) };
    };
    const bareRun = async (type: string, args: unknown[]) => {
      const started = process.hrtime.bigint();
      const t0 = wallMs();
      const handle = await temporal.client.workflow.start(type, {
        workflowId: `bench-${randomBytes(6).toString('hex')}`,
        taskQueue: baselineQueue,
        args,
      });
      await handle.result();
      const took = ms(started);
      const end = wallMs();
      return { ms: took, phases: phasesOf(t0, (await handle.fetchHistory()).events ?? [], end) };
    };

    const latency: number[] = [];
    const bare: number[] = [];
    // CPU of this process (API, worker, bare worker: the Temporal server and the database are not counted) per run.
    const ourCpu: number[] = [];
    const bareCpu: number[] = [];
    const cpuMs = (from: NodeJS.CpuUsage, to: NodeJS.CpuUsage): number => (to.user - from.user + to.system - from.system) / 1000;
    let fanOut = { ms: 0, activities: 0 };
    let fanOutCommands = 0;
    let bareFanOut = 0;
    await worker.runUntil(() =>
      baseline.runUntil(async () => {
        // Warm both paths (bundles, connections, JIT) before measuring.
        await publishAndWait({ group_id: one._id });
        await settle();
        await bareRun('baselineOne', []);
        for (let i = 0; i < RUNS; i++) {
          const cpu0 = process.cpuUsage();
          const ours = await publishAndWait({ group_id: one._id });
          // The bookkeeping the request and the send left for after their answers runs now, after the delivery, before
          // the bare run (not in the latency: nobody waits for it; in the CPU: it is this publication's work).
          await settle();
          const cpu1 = process.cpuUsage();
          latency.push(ours.ms);
          ourPhases.push(ours.phases);
          const floor = await bareRun('baselineOne', []);
          const cpu2 = process.cpuUsage();
          bare.push(floor.ms);
          barePhases.push(floor.phases);
          ourCpu.push(cpuMs(cpu0, cpu1));
          bareCpu.push(cpuMs(cpu1, cpu2));
        }
        // One more of each, traced (before the fan-out, as the runs above).
        tracing = true;
        const t0 = wallMs();
        const res = await call<Published>('POST', `/offers/${offer.id}/publish`, { group_id: one._id });
        const answered = wallMs();
        const traceHandle = temporal.client.workflow.getHandle(`publication-${res.data.publications[0]!.id}`);
        await traceHandle.result();
        const delivered = wallMs();
        tracing = false;
        const marks = [
          { at: t0, what: 'request sent' },
          { at: answered, what: 'HTTP answer received' },
          { at: delivered, what: 'workflow result received' },
        ];
        printTimeline('timeline of one single-group publication', t0, marks, (await traceHandle.fetchHistory()).events ?? [], traced);
        await settle();
        const b0 = wallMs();
        const bareHandle = await temporal.client.workflow.start('baselineOne', {
          workflowId: `bench-${randomBytes(6).toString('hex')}`,
          taskQueue: baselineQueue,
        });
        await bareHandle.result();
        const bareMarks = [
          { at: b0, what: 'start sent' },
          { at: wallMs(), what: 'workflow result received' },
        ];
        printTimeline('timeline of one bare workflow', b0, bareMarks, (await bareHandle.fetchHistory()).events ?? [], []);
        const before = workerCommands;
        fanOut = await publishAndWait({ segment_id: segment.id });
        fanOutCommands = workerCommands - before;
        await settle();
        bareFanOut = (await bareRun('baselineFanOut', [GROUPS])).ms;
      }),
    );

    const row = (name: string, ours: number, floor: number, unit: string) =>
      console.log(
        `${name.padEnd(34)} ${ours.toFixed(1).padStart(9)} ${floor.toFixed(1).padStart(9)}  ${unit.padEnd(9)} ${(ours / floor).toFixed(2).padStart(6)}×`,
      );
    console.log(`\npublish benchmark: ${RUNS} single-group publications, one ${GROUPS}-group fan-out (sandbox connector, pacing off)\n`);
    console.log(`${'metric'.padEnd(34)} ${'offerops'.padStart(9)} ${'bare'.padStart(9)}  ${'unit'.padEnd(9)} ${'ratio'.padStart(7)}`);
    row('publish→delivered latency, p50', quantile(latency, 0.5), quantile(bare, 0.5), 'ms');
    row('publish→delivered latency, p95', quantile(latency, 0.95), quantile(bare, 0.95), 'ms');
    row('CPU of this process per run, p50', quantile(ourCpu, 0.5), quantile(bareCpu, 0.5), 'ms');
    row(`fan-out to ${GROUPS} groups, total`, fanOut.ms, bareFanOut, 'ms');
    const tput = (GROUPS / fanOut.ms) * 1000;
    const bareTput = (GROUPS / bareFanOut) * 1000;
    console.log(
      `${`fan-out throughput`.padEnd(34)} ${tput.toFixed(1).padStart(9)} ${bareTput.toFixed(1).padStart(9)}  ${'groups/s'.padEnd(9)} ${(tput / bareTput).toFixed(2).padStart(6)}×`,
    );
    console.log(`\nsingle-group runs, p50 of each phase (ms; the workflow's phases at the Temporal server's times):`);
    PHASES.forEach((phase, i) => {
      const p50 = (runs: number[][]) => quantile(runs.map((r) => r[i]!).filter(Number.isFinite), 0.5);
      console.log(`  ${phase.padEnd(48)} ${p50(ourPhases).toFixed(1).padStart(8)} ${p50(barePhases).toFixed(1).padStart(8)}`);
    });
    console.log(
      `\nper group in the fan-out: ${(fanOut.activities / GROUPS).toFixed(2)} activities (bare: 1), ` +
        `${(fanOutCommands / GROUPS).toFixed(2)} database round trips of the worker (bare: 0)`,
    );
    console.log('goals: latency p50 ≤ 1.5×, fan-out throughput ≥ 0.7× the bare workflow');

    server.close();
    await Promise.all([closeApp(app), workerAfter.close()]);
    await native.close();
    await temporal.connection.close();
    await mongo.db.dropDatabase();
    await mongo.client.close();
    await workerMongo.close();
    await apiMongo.close();
  });
}

runBench(main);
