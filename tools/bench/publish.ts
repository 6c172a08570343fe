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
 * BENCH_SIZES (the fan-outs' group counts, default 100,1000,10000),
 * BENCH_PACED (paced fan-outs' group counts, none by default, e.g.
 * 1000,10000: live groups spread over BENCH_PACED_CHANNELS http channels,
 * default 50, at 100 ms, sent to a local gateway that answers at once; ./paced.ts).
 * A paced fan-out prints the same figures but the bare side's, plus its
 * child batches and the largest history among them, and checks exactly
 * once on the gateway's requests per idempotency key.
 *
 * Each fan-out runs with pacing off (test-environment groups are never
 * paced) beside a bare workflow with as many no-op activities (one per group:
 * the floor of a workflow that sends each group in an activity). Per size it
 * prints wall and CPU ms per group on both sides, the workflow's history
 * (events, bytes), this process's RSS through our fan-out (start, peak, end),
 * the worker's database round trips and activities per group (offerops sends
 * unpaced groups 25 to an activity, deliverToGroups, so the throughputs
 * compared are groups per second, each side with its own design); then the
 * max/min of each per-group cost across sizes. After each fan-out it checks
 * that every group was sent exactly once: the sandbox inserts the worker
 * sent, counted per idempotency key, and every delivery `sent`.
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
import { setTimeout } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { MongoClient } from 'mongodb';
import { createActivities } from '../../activities/index';
import { AfterAnswer } from '../../domain/after-answer';
import { closeApp, createApp, flushAfterAnswer } from '../../api/app';
import { connectMongo } from '../../domain/config';
import { connectTemporal } from '../../domain/temporal-connection';
import { newSecretKey } from '../../domain/sealing';
import { createLogger } from '../../domain/logger';
import { createAccount, createApiKey } from '../../domain/accounts/store';
import { ensureIndexes } from '../../domain/db';
import { createGroup } from '../../domain/groups/store';
import { SCOPES } from '../../schemas/openapi/common';
import { log } from '../stack/processes';
import { listen, portOf, quantile, runBench, withStack } from './harness';
import { batchHistories, benchGateway, PACED_CHANNELS, pacedSegment } from './paced';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const SIZES = (process.env.BENCH_SIZES ?? '100,1000,10000').split(',').map(Number);
/** Paced fan-outs' group counts (none unless set, e.g. 1000,10000): live groups over BENCH_PACED_CHANNELS channels. */
const PACED = (process.env.BENCH_PACED ?? '').split(',').filter(Boolean).map(Number);
/** Groups of the fan-out that warms both sides before the measured sizes. */
const WARM_UP_GROUPS = 50;
/** Groups created at once while seeding. */
const SEED_PARALLEL = 16;

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

/** One fan-out of a size, ours and the bare workflow's ([ours, bare] pairs). */
interface FanOut {
  size: number;
  ms: [number, number];
  /** CPU of this process (API, workers) from the request to the bookkeeping done. */
  cpuMs: [number, number];
  history: [{ events: number; bytes: number }, { events: number; bytes: number }];
  /** This process's RSS (MB) through our fan-out. */
  memory: { start: number; peak: number; end: number };
  /** Its V8 heap in use (MB) through our fan-out: what RSS keeps after the garbage is collected shows here. */
  heap: FanOut['memory'];
  /** The publish request until its answer (ms), and the 503 answers it met (sent again with its Idempotency-Key). */
  request: { ms: number; retried: number };
  activities: number;
  commands: number;
  /** Groups the sandbox connector sent exactly once, more than once; deliveries not `sent`. */
  sentOnce: number;
  sentTwice: number;
  unsent: number;
}

const mb = (bytes: number): number => bytes / 2 ** 20;

/** V8's collector on demand (the flag set at run time: `gc` exists in contexts made after it). */
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** Samples `read` (bytes) every 100 ms until stopped: at the start and at the end after a full collection, and the peak (MB). */
function sample(read: () => number): { stop(): FanOut['memory'] } {
  collect();
  const start = mb(read());
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, mb(read()))), 100);
  return {
    stop() {
      clearInterval(timer);
      const peakSeen = Math.max(peak, mb(read()));
      collect();
      const end = mb(read());
      return { start, peak: Math.max(peakSeen, end), end };
    },
  };
}

/** The fan-outs' table, one row per size, and how far each per-group cost moves across sizes (max/min). */
function printFanOuts(fanOuts: FanOut[]): void {
  const cols = (cells: (string | number)[], widths: number[]) => cells.map((c, i) => String(c).padStart(widths[i]!)).join(' ');
  const widths = [6, 9, 9, 6, 7, 7, 7, 7, 7, 8, 7, 15, 15, 6, 6, 9];
  console.log(
    '\nfan-outs (ms/grp, cpu/grp: wall and CPU ms per group; events, KB: the workflow history; RSS MB, heap MB: start/peak/end of ours; ' +
      'act/g, db/g: activities and worker round trips per group; req ms: the publish request to its answer)',
  );
  console.log(
    cols(
      [
        'groups',
        'ms',
        'bare',
        'tput',
        'ms/grp',
        'bare',
        'cpu/grp',
        'bare',
        'events',
        'bare',
        'KB',
        'RSS MB',
        'heap MB',
        'act/g',
        'db/g',
        'req ms',
      ],
      widths,
    ),
  );
  for (const f of fanOuts) {
    const [ours, bare] = f.ms;
    console.log(
      cols(
        [
          f.size,
          ours.toFixed(0),
          bare.toFixed(0),
          `${(bare / ours).toFixed(2)}×`,
          (ours / f.size).toFixed(2),
          (bare / f.size).toFixed(2),
          (f.cpuMs[0] / f.size).toFixed(2),
          (f.cpuMs[1] / f.size).toFixed(2),
          f.history[0].events,
          f.history[1].events,
          (f.history[0].bytes / 1024).toFixed(0),
          `${f.memory.start.toFixed(0)}/${f.memory.peak.toFixed(0)}/${f.memory.end.toFixed(0)}`,
          `${f.heap.start.toFixed(0)}/${f.heap.peak.toFixed(0)}/${f.heap.end.toFixed(0)}`,
          (f.activities / f.size).toFixed(2),
          (f.commands / f.size).toFixed(2),
          `${f.request.ms.toFixed(0)}${f.request.retried ? ` (${f.request.retried}×503)` : ''}`,
        ],
        widths,
      ),
    );
  }
  const spread = (perUnit: (f: FanOut) => number) => {
    const xs = fanOuts.map(perUnit);
    return `${(Math.max(...xs) / Math.min(...xs)).toFixed(2)}×`;
  };
  console.log(
    `per-group cost, max/min across sizes: wall ${spread((f) => f.ms[0] / f.size)} (bare ${spread((f) => f.ms[1] / f.size)}), ` +
      `CPU ${spread((f) => f.cpuMs[0] / f.size)} (bare ${spread((f) => f.cpuMs[1] / f.size)})`,
  );
  for (const f of fanOuts) {
    const ok = f.sentOnce === f.size && f.unsent === 0;
    console.log(
      `${f.size} groups: ${f.sentOnce} sent exactly once, ${f.sentTwice} more than once, ${f.size - f.sentOnce - f.sentTwice} never; ` +
        `${f.unsent} deliveries not sent${ok ? '' : '  ! MISSED'}`,
    );
  }
}

/** A paced fan-out: ours only (a bare workflow would not be paced), with its batches' histories. */
interface PacedFanOut extends Omit<FanOut, 'ms' | 'cpuMs' | 'history'> {
  ms: number;
  cpuMs: number;
  /** The publication's own history. */
  history: { events: number; bytes: number };
  /** Its child batches, and the largest history among them (events). */
  batches: number;
  largest: number;
}

/** The paced fan-outs' table, one row per size, and the exactly-once check of each. */
function printPacedFanOuts(fanOuts: PacedFanOut[]): void {
  const widths = [6, 9, 7, 7, 7, 7, 8, 6, 15, 15, 6, 6, 9];
  const cols = (cells: (string | number)[]) => cells.map((c, i) => String(c).padStart(widths[i]!)).join(' ');
  console.log(
    `\npaced fan-outs (live groups over ${PACED_CHANNELS} http channels at 100 ms, a gateway answering at once; events, KB: the ` +
      "publication's history; batches, largest: its child batches and the largest history among them; other columns as above)",
  );
  console.log(cols(['groups', 'ms', 'ms/grp', 'cpu/grp', 'events', 'KB', 'batches', 'largest', 'RSS MB', 'heap MB', 'act/g', 'db/g', 'req ms']));
  for (const f of fanOuts) {
    const mem = (m: FanOut['memory']) => `${m.start.toFixed(0)}/${m.peak.toFixed(0)}/${m.end.toFixed(0)}`;
    console.log(
      cols([
        f.size,
        f.ms.toFixed(0),
        (f.ms / f.size).toFixed(2),
        (f.cpuMs / f.size).toFixed(2),
        f.history.events,
        (f.history.bytes / 1024).toFixed(0),
        f.batches,
        f.largest,
        mem(f.memory),
        mem(f.heap),
        (f.activities / f.size).toFixed(2),
        (f.commands / f.size).toFixed(2),
        `${f.request.ms.toFixed(0)}${f.request.retried ? ` (${f.request.retried}×503)` : ''}`,
      ]),
    );
  }
  for (const f of fanOuts) {
    const ok = f.sentOnce === f.size && f.unsent === 0 && Math.max(f.history.events, f.largest) <= 10_240;
    console.log(
      `${f.size} paced groups: ${f.sentOnce} sent exactly once, ${f.sentTwice} more than once, ${f.size - f.sentOnce - f.sentTwice} never; ` +
        `${f.unsent} deliveries not sent; largest history ${Math.max(f.history.events, f.largest)} events${ok ? '' : '  ! MISSED'}`,
    );
  }
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
    // Every send the sandbox connector made, by idempotency key (its insert of the message, repeats included).
    const sandboxSends = new Map<string, number>();
    workerMongo.on('commandStarted', (e) => {
      workerCommands++;
      if (e.commandName !== 'insert' || e.command.insert !== 'sandbox_messages') return;
      for (const doc of e.command.documents as { _id: string }[]) sandboxSends.set(doc._id, (sandboxSends.get(doc._id) ?? 0) + 1);
    });
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
    /**
     * One request. `retried`: it goes with an Idempotency-Key and, answered 503 (the request outlived the API's
     * time limit, which a large fan-out's publish can on a busy machine), is sent again after its Retry-After, as a
     * client would; each such answer is counted there.
     */
    const call = async <T>(method: string, path: string, body?: unknown, retried?: { count: number }, key = apiKey): Promise<T> => {
      const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      if (retried) headers['idempotency-key'] = randomBytes(12).toString('hex');
      for (;;) {
        const res = await fetch(base + path, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const json: unknown = await res.json();
        // The first attempt may still be running behind the 503: the key answers 409 until it has ended.
        const running = res.status === 409 && (json as { code?: string }).code === 'idempotency_in_progress';
        if (retried && (res.status === 503 || running)) {
          if (res.status === 503) retried.count++;
          await setTimeout(Number(res.headers.get('retry-after') ?? 2) * 1000);
          continue;
        }
        if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
        return json as T;
      }
    };
    const offer = (await call<Created>('POST', '/offers', { url: 'https://shop.example/bench', title: 'Bench offer', price: 10 })).data;
    const one = await createGroup(mongo.db, tenant, { name: 'Bench single' });
    /**
     * A segment of `size` groups of its own, created right before its fan-out: the embedded FerretDB decodes
     * the whole groups collection to find a segment's, so a size's groups are not in it before its turn.
     */
    const segmentOf = async (size: number): Promise<{ size: number; id: string; groups: string[] }> => {
      const segment = (await call<Created>('POST', '/segments', { name: `Bench ${size}` })).data;
      const groups: string[] = [];
      for (let i = 0; i < size; i += SEED_PARALLEL) {
        const batch = Array.from({ length: Math.min(SEED_PARALLEL, size - i) }, (_, j) =>
          createGroup(mongo.db, tenant, { name: `Bench ${size} ${i + j}`, segment_id: segment.id }),
        );
        groups.push(...(await Promise.all(batch)).map((g) => g._id));
      }
      return { size, id: segment.id, groups };
    };

    /** Publishes and waits until the workflow has finished: the time, and the workflow's activities. */
    const ourPhases: number[][] = [];
    const barePhases: number[][] = [];
    /** Publishes (`as`: another key and its offer, the paced fan-outs' live ones) and waits for the workflow's result. */
    const publishAndWait = async (destination: Record<string, string>, retried?: { count: number }, as = { key: apiKey, offerId: offer.id }) => {
      const started = process.hrtime.bigint();
      const t0 = wallMs();
      const res = await call<Published>('POST', `/offers/${as.offerId}/publish`, destination, retried, as.key);
      const answered = ms(started);
      const id = res.data.publications[0]!.id;
      const handle = temporal.client.workflow.getHandle(`publication-${id}`);
      await handle.result();
      const took = ms(started);
      const end = wallMs();
      const events = (await handle.fetchHistory()).events ?? [];
      const { historyLength, historySize } = await handle.describe();
      return {
        id,
        ms: took,
        answered,
        activities: events.filter((e) => e.activityTaskScheduledEventAttributes).length,
        phases: phasesOf(t0, events, end),
        history: { events: historyLength, bytes: historySize ?? NaN },
      };
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
      const { historyLength, historySize } = await handle.describe();
      return {
        ms: took,
        phases: phasesOf(t0, (await handle.fetchHistory()).events ?? [], end),
        history: { events: historyLength, bytes: historySize ?? NaN },
      };
    };

    const latency: number[] = [];
    const bare: number[] = [];
    // CPU of this process (API, worker, bare worker: the Temporal server and the database are not counted) per run.
    const ourCpu: number[] = [];
    const bareCpu: number[] = [];
    const cpuMs = (from: NodeJS.CpuUsage, to: NodeJS.CpuUsage): number => (to.user - from.user + to.system - from.system) / 1000;
    const fanOuts: FanOut[] = [];
    const pacedFanOuts: PacedFanOut[] = [];
    const gateway = await benchGateway();
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
        // Warm the fan-out path (chunks, recordings, the bare fan-out) as the single runs warmed theirs: not measured.
        const warm = await segmentOf(WARM_UP_GROUPS);
        await publishAndWait({ segment_id: warm.id }, { count: 0 });
        await settle();
        await bareRun('baselineFanOut', [WARM_UP_GROUPS]);
        for (const size of [...SIZES].sort((a, b) => a - b)) {
          const segment = await segmentOf(size);
          log(`bench: fan-out to ${size} groups`);
          const before = workerCommands;
          const rss = sample(() => process.memoryUsage.rss());
          const heap = sample(() => process.memoryUsage().heapUsed);
          const cpu0 = process.cpuUsage();
          const retried = { count: 0 };
          const ours = await publishAndWait({ segment_id: segment.id }, retried);
          await settle();
          const cpu1 = process.cpuUsage();
          const memory = rss.stop();
          const heapUsed = heap.stop();
          const commands = workerCommands - before;
          const floor = await bareRun('baselineFanOut', [segment.size]);
          const cpu2 = process.cpuUsage();
          const sends = segment.groups.map((g) => sandboxSends.get(`${ours.id}:${g}`) ?? 0);
          const unsent = await mongo.db.collection('deliveries').countDocuments({ publication_id: ours.id, status: { $ne: 'sent' } });
          fanOuts.push({
            size: segment.size,
            ms: [ours.ms, floor.ms],
            cpuMs: [cpuMs(cpu0, cpu1), cpuMs(cpu1, cpu2)],
            history: [ours.history, floor.history],
            memory,
            heap: heapUsed,
            request: { ms: ours.answered, retried: retried.count },
            activities: ours.activities,
            commands,
            sentOnce: sends.filter((n) => n === 1).length,
            sentTwice: sends.filter((n) => n > 1).length,
            unsent,
          });
        }
        for (const size of [...PACED].sort((a, b) => a - b)) {
          const setup = { db: mongo.db, secretKey, accountId: account._id, gatewayUrl: gateway.url };
          const newSegment = async (key: string) =>
            (await call<Created>('POST', '/segments', { name: `Bench paced ${size}` }, undefined, key)).data.id;
          const segment = await pacedSegment(setup, size, SEED_PARALLEL, newSegment);
          const liveOffer = { url: `https://shop.example/bench-paced/${size}`, title: 'Bench paced offer', price: 10 };
          const offerId = (await call<Created>('POST', '/offers', liveOffer, undefined, segment.apiKey)).data.id;
          log(`bench: paced fan-out to ${size} groups over ${PACED_CHANNELS} channels`);
          const before = workerCommands;
          const rss = sample(() => process.memoryUsage.rss());
          const heap = sample(() => process.memoryUsage().heapUsed);
          const cpu0 = process.cpuUsage();
          const retried = { count: 0 };
          const ours = await publishAndWait({ segment_id: segment.id }, retried, { key: segment.apiKey, offerId });
          await settle();
          const cpu = cpuMs(cpu0, process.cpuUsage());
          const [memory, heapUsed, commands] = [rss.stop(), heap.stop(), workerCommands - before];
          const children = await batchHistories(temporal.client, ours.id);
          const sends = segment.groups.map((g) => gateway.sends.get(`${ours.id}:${g}`) ?? 0);
          const unsent = await mongo.db.collection('deliveries').countDocuments({ publication_id: ours.id, status: { $ne: 'sent' } });
          pacedFanOuts.push({
            size,
            ms: ours.ms,
            cpuMs: cpu,
            history: ours.history,
            batches: children.batches,
            largest: children.largest,
            memory,
            heap: heapUsed,
            request: { ms: ours.answered, retried: retried.count },
            activities: ours.activities + children.activities,
            commands,
            sentOnce: sends.filter((n) => n === 1).length,
            sentTwice: sends.filter((n) => n > 1).length,
            unsent,
          });
        }
      }),
    );

    const row = (name: string, ours: number, floor: number, unit: string) =>
      console.log(
        `${name.padEnd(34)} ${ours.toFixed(1).padStart(9)} ${floor.toFixed(1).padStart(9)}  ${unit.padEnd(9)} ${(ours / floor).toFixed(2).padStart(6)}×`,
      );
    console.log(
      `\npublish benchmark: ${RUNS} single-group publications, fan-outs to ${SIZES.join(' / ')} groups (sandbox connector, pacing off)\n`,
    );
    console.log(`${'metric'.padEnd(34)} ${'offerops'.padStart(9)} ${'bare'.padStart(9)}  ${'unit'.padEnd(9)} ${'ratio'.padStart(7)}`);
    row('publish→delivered latency, p50', quantile(latency, 0.5), quantile(bare, 0.5), 'ms');
    row('publish→delivered latency, p95', quantile(latency, 0.95), quantile(bare, 0.95), 'ms');
    row('CPU of this process per run, p50', quantile(ourCpu, 0.5), quantile(bareCpu, 0.5), 'ms');
    console.log(`\nsingle-group runs, p50 of each phase (ms; the workflow's phases at the Temporal server's times):`);
    PHASES.forEach((phase, i) => {
      const p50 = (runs: number[][]) => quantile(runs.map((r) => r[i]!).filter(Number.isFinite), 0.5);
      console.log(`  ${phase.padEnd(48)} ${p50(ourPhases).toFixed(1).padStart(8)} ${p50(barePhases).toFixed(1).padStart(8)}`);
    });
    printFanOuts(fanOuts);
    if (pacedFanOuts.length) printPacedFanOuts(pacedFanOuts);
    console.log('goals: latency p50 ≤ 1.2×; fan-out throughput ≥ 1.0× the bare workflow; per-group cost within 1.5× across sizes');

    server.close();
    gateway.close();
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
