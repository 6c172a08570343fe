/**
 * `npm run bench:mixed`: the soak mix of issue 37 against the API's full
 * chain and against the bare Koa floor (tools/bench/bare.ts: the same domain
 * calls through the same driver on the same database, no middleware), in one
 * run, as ratios and against absolute goals.
 *
 * Each of BENCH_MIX_CONNECTIONS keep-alive connections loops for
 * BENCH_MIX_SECONDS per side, picking each request by weight: 30 %
 * `GET /offers?limit=20`, 20 % `GET /offers/{id}`, 10 % `GET /me`, 10 %
 * `GET /segments/{id}`, 20 % `POST /offers` (a new URL each time), 10 %
 * `PATCH /segments/{id}` (a new name and description). Ids come from the
 * seeded offers and segments. Every connection has its own seeded generator,
 * the same on both sides, so both see the same sequence of requests.
 *
 * The sides run in halves, ABBA: offerops, bare, bare, offerops (after a
 * warm-up of each). The creates grow the offers collection as the run goes
 * and the machine's load drifts: in that order a steady drift costs both sides
 * alike, where offerops-then-bare would hand all of it to the second side.
 *
 * Per side: answers a second (2xx, and all), p50/p90/p99 overall and per
 * route, answers by status class (503 apart; no answer within the deadline
 * counts as `none`), and the servers' CPU ms per answer (process.cpuUsage of
 * the child, only one side under load at a time). Goals (a miss marked `!`):
 * throughput ≥ 0.7× the bare floor, p99 ≤ 1 s, zero 5xx, ≥ 155 2xx a second
 * (5 × the 31 requests/s of the issue).
 *
 * Both servers run in one child process (the load generator is this process,
 * so it does not share their event loop); load goes to loopback only. Starts
 * its own stack (or uses MONGODB_URI / TEMPORAL_ADDRESS). Options:
 * BENCH_MIX_SECONDS (per side, default 60), BENCH_MIX_CONNECTIONS (default
 * 32), BENCH_MIX_OFFERS (offers seeded, default 300), BENCH_MIX_SEGMENTS
 * (segments seeded, default 20), BENCH_MIX_DEADLINE_MS (the load generator's
 * per-request deadline, default 10000), BENCH_MIX_SEED (the generators' seed,
 * default 1), BENCH_SERVER_LOG (the servers' JSON log on stdout).
 */
import { Agent, request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { closeApp, createApp } from '../../api/app';
import { connectMongo } from '../../domain/config';
import { Tenant } from '../../domain/db';
import { createSegment } from '../../domain/segments/service';
import { log } from '../stack/processes';
import { bareApp } from './bare';
import {
  apiDeps,
  ask,
  benchAccount,
  childConfig,
  connectBench,
  cpuUs,
  forkServer,
  listen,
  mark,
  portOf,
  quantile,
  ratio,
  runBench,
  seedOffers,
  serveConfig,
  ServeConfig,
  serveUntilStopped,
  stopServer,
  withStack,
} from './harness';

const SECONDS = Number(process.env.BENCH_MIX_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.BENCH_MIX_CONNECTIONS ?? 32);
const OFFERS = Number(process.env.BENCH_MIX_OFFERS ?? 300);
const SEGMENTS = Number(process.env.BENCH_MIX_SEGMENTS ?? 20);
const DEADLINE_MS = Number(process.env.BENCH_MIX_DEADLINE_MS ?? 10_000);
const SEED = Number(process.env.BENCH_MIX_SEED ?? 1);
/** Unmeasured load on each side before the halves: JIT, connections, the key cache. */
const WARMUP_SECONDS = 2;
/** The goals (issue 37): throughput against the bare floor, p99 in ms, 2xx a second (5 × 31). */
const THROUGHPUT_GOAL = 0.7;
const P99_GOAL_MS = 1000;
const RPS_GOAL = 5 * 31;

/** One request of the mix; `route` names its row in the tables. */
interface Shot {
  route: string;
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: string;
}

/** What a request may draw on: a seeded id, and a tag unique to it (side, connection, number) for new URLs and names. */
interface Draw {
  offer: () => string;
  segment: () => string;
  tag: string;
}

/** The soak mix of issue 37: route, weight (per cent), the request. */
const MIX: [string, number, (d: Draw) => Omit<Shot, 'route'>][] = [
  ['GET /offers?limit=20', 30, () => ({ method: 'GET', path: '/api/v1/offers?limit=20' })],
  ['GET /offers/{id}', 20, (d) => ({ method: 'GET', path: `/api/v1/offers/${d.offer()}` })],
  ['GET /me', 10, () => ({ method: 'GET', path: '/api/v1/me' })],
  ['GET /segments/{id}', 10, (d) => ({ method: 'GET', path: `/api/v1/segments/${d.segment()}` })],
  [
    'POST /offers',
    20,
    (d) => ({
      method: 'POST',
      path: '/api/v1/offers',
      body: JSON.stringify({
        url: `https://shop.example/mix/${d.tag}`,
        title: 'Mix offer',
        price: 99.9,
        original_price: 149.9,
        currency: 'BRL',
      }),
    }),
  ],
  [
    'PATCH /segments/{id}',
    10,
    (d) => ({
      method: 'PATCH',
      path: `/api/v1/segments/${d.segment()}`,
      body: JSON.stringify({ name: `Mix segment ${d.tag}`, description: `Renamed by ${d.tag}` }),
    }),
  ],
];

/** mulberry32: a small seeded generator in [0, 1), so that a run replays its sequence. */
function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One sequence per connection, tagged `side`, from `seed`. */
const sequences = (ids: Seeded, side: string, seed: number): (() => Shot)[] =>
  Array.from({ length: CONNECTIONS }, (_, conn) => sequence(ids, side, conn, seed));

/** Connection `conn`'s sequence of requests: the same routes and ids for any `side` (which only tags new URLs and names). */
function sequence(ids: Seeded, side: string, conn: number, seed: number): () => Shot {
  const random = mulberry32(seed * 1_000_003 + conn);
  const pick = (xs: string[]) => () => xs[Math.floor(random() * xs.length)]!;
  const total = MIX.reduce((sum, [, weight]) => sum + weight, 0);
  let n = 0;
  return () => {
    let r = random() * total;
    const [route, , make] = MIX.find(([, weight]) => (r -= weight) < 0) ?? MIX.at(-1)!;
    const tag = `${ids.run}-${side}-${conn}-${++n}`;
    return { route, ...make({ offer: pick(ids.offers), segment: pick(ids.segments), tag }) };
  };
}

/** What the parent seeded: offer and segment ids, and the run's tag (new URLs never collide with an earlier run's). */
interface Seeded {
  offers: string[];
  segments: string[];
  run: string;
}

interface Target {
  port: number;
  apiKey: string;
}

/** One answer: its route, status (0: none within DEADLINE_MS, or the connection failed) and duration in ms. */
interface Sample {
  route: string;
  status: number;
  ms: number;
}

/** One request, never rejecting: its status (0 for no answer) and duration. */
function send(agent: Agent, target: Target, shot: Shot): Promise<Sample> {
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const settle = (status: number) => {
      clearTimeout(timer);
      resolve({ route: shot.route, status, ms: Number(process.hrtime.bigint() - started) / 1e6 });
    };
    const headers = {
      authorization: `Bearer ${target.apiKey}`,
      accept: 'application/json',
      ...(shot.body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(shot.body) }),
    };
    const req = request({ host: '127.0.0.1', port: target.port, method: shot.method, path: shot.path, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => settle(res.statusCode ?? 0));
      res.on('error', () => settle(0));
    });
    const timer = setTimeout(() => req.destroy(new Error('deadline')), DEADLINE_MS);
    req.on('error', () => settle(0));
    req.end(shot.body);
  });
}

/** Every connection's sequence in a loop for `seconds` over keep-alive connections; the answers and the time taken. */
async function load(target: Target, next: (() => Shot)[], seconds: number): Promise<{ samples: Sample[]; seconds: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: next.length });
  const deadline = Date.now() + seconds * 1000;
  const samples: Sample[] = [];
  const started = process.hrtime.bigint();
  await Promise.all(
    next.map(async (shot) => {
      while (Date.now() < deadline) samples.push(await send(agent, target, shot()));
    }),
  );
  agent.destroy();
  return { samples, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

/** What the child is told: where the database is and whose data the bare handlers serve. */
interface MixServeConfig extends ServeConfig {
  tenant: Tenant;
}

/** Child process: the API and the bare floor on loopback, each on a connection of its own; answers 'cpu' with its CPU µs. */
async function serve(config: MixServeConfig): Promise<void> {
  const api = await apiDeps(config);
  const bareMongo = await connectMongo(config);
  const full = createApp(api.deps);
  const bare = bareApp(config.tenant, { db: bareMongo.db, temporal: api.deps.temporal });
  const servers = [await listen(full.callback()), await listen(bare.callback())];
  serveUntilStopped(
    servers,
    { full: portOf(servers[0]!), bare: portOf(servers[1]!) },
    () => closeApp(full).then(() => Promise.allSettled([bareMongo.client.close(), api.close()])),
    (message) => {
      if (message === 'cpu') process.send!(cpuUs());
    },
  );
}

/** One side's measured load so far. */
interface Side {
  name: string;
  target: Target;
  next: (() => Shot)[];
  samples: Sample[];
  seconds: number;
  cpuUs: number;
}

/** The seeded tenant: its key, and its offers' and segments' ids. */
async function seed(conn: Awaited<ReturnType<typeof connectBench>>): Promise<{ apiKey: string; tenant: Tenant; ids: Seeded }> {
  const { apiKey, tenant } = await benchAccount(conn.db);
  const offers = (await seedOffers(conn.domain, tenant, OFFERS)).map((o) => o._id);
  const segments: string[] = [];
  for (let i = 0; i < SEGMENTS; i++) segments.push((await createSegment(conn.domain, tenant, { name: `Bench segment ${i}` }))._id);
  return { apiKey, tenant, ids: { offers, segments, run: randomBytes(3).toString('hex') } };
}

/** Warms each side up, then runs the halves ABBA, adding each half's answers, time and the servers' CPU to its side. */
async function runSides(sides: [Side, Side], cpu: () => Promise<number>, warm: (side: Side) => (() => Shot)[]): Promise<void> {
  for (const side of sides) await load(side.target, warm(side), WARMUP_SECONDS);
  for (const side of [sides[0], sides[1], sides[1], sides[0]]) {
    log(`bench: ${side.name}, ${SECONDS / 2} s at ${CONNECTIONS} connections`);
    const before = await cpu();
    const half = await load(side.target, side.next, SECONDS / 2);
    side.cpuUs += (await cpu()) - before;
    side.samples = side.samples.concat(half.samples);
    side.seconds += half.seconds;
  }
}

/** Answers by status class: 2xx, 4xx, 5xx (503 also apart), none (no answer within the deadline, or a failed connection). */
function classes(samples: Sample[]): { ok: number; client: number; server: number; unavailable: number; none: number } {
  const count = (test: (status: number) => boolean) => samples.filter((s) => test(s.status)).length;
  return {
    ok: count((s) => s >= 200 && s < 300),
    client: count((s) => s >= 400 && s < 500),
    server: count((s) => s >= 500),
    unavailable: count((s) => s === 503),
    none: count((s) => s === 0),
  };
}

/** The q-quantile of the samples' durations (NaN when there are none). */
const latency = (samples: Sample[], q: number): number =>
  samples.length
    ? quantile(
        samples.map((s) => s.ms),
        q,
      )
    : NaN;

/** A table row: answers, p50/p90/p99 ms, and answers by status class. */
function row(name: string, samples: Sample[]): string {
  const c = classes(samples);
  const ms = [0.5, 0.9, 0.99].map((q) => latency(samples, q).toFixed(1).padStart(8)).join(' ');
  const counts = [c.ok, c.client, c.server, c.unavailable, c.none].map((n) => String(n).padStart(6)).join(' ');
  return `${name.padEnd(22)} ${String(samples.length).padStart(7)} ${ms} ${counts}`;
}

/** A side's rates, CPU per answer, and its table overall and per route. */
function printSide(side: Side): void {
  const { ok } = classes(side.samples);
  const perAnswerMs = side.cpuUs / 1000 / Math.max(1, side.samples.length);
  console.log(
    `\n${side.name}: ${(side.samples.length / side.seconds).toFixed(1)} answers/s, ${(ok / side.seconds).toFixed(1)} 2xx/s over ${side.seconds.toFixed(1)} s; servers' CPU ${perAnswerMs.toFixed(2)} ms per answer`,
  );
  const head = ['p50 ms', 'p90 ms', 'p99 ms'].map((h) => h.padStart(8)).join(' ');
  const statuses = ['2xx', '4xx', '5xx', '503', 'none'].map((h) => h.padStart(6)).join(' ');
  console.log(`${'route'.padEnd(22)} ${'answers'.padStart(7)} ${head} ${statuses}`);
  console.log(row('all', side.samples));
  for (const [route] of MIX)
    console.log(
      row(
        route,
        side.samples.filter((s) => s.route === route),
      ),
    );
}

/** The ratios offerops / bare and offerops' absolute figures, each against its goal (`!` marks a miss). */
function printGoals(full: Side, bare: Side): void {
  const rps = (side: Side) => classes(side.samples).ok / side.seconds;
  const [throughput, p99] = [rps(full) / rps(bare), latency(full.samples, 0.99)];
  const { server } = classes(full.samples);
  console.log(
    `\nofferops / bare: throughput (2xx/s) ${ratio(throughput, 5, throughput >= THROUGHPUT_GOAL)} (goal ≥ ${THROUGHPUT_GOAL}×), p99 ${ratio(p99 / latency(bare.samples, 0.99), 5)}`,
  );
  console.log(
    `offerops: p99 ${p99.toFixed(0)} ms${mark(p99 <= P99_GOAL_MS)} (goal ≤ ${P99_GOAL_MS} ms), 5xx ${server}${mark(server === 0)} (goal 0), ` +
      `${rps(full).toFixed(1)} 2xx/s${mark(rps(full) >= RPS_GOAL)} (goal ≥ ${RPS_GOAL})`,
  );
}

async function main(): Promise<void> {
  await withStack('offerops-bench-mixed-', async (bench) => {
    const stack = await bench.startStack();
    const mongodbDb = `bench_${randomBytes(4).toString('hex')}`;
    const conn = await connectBench(serveConfig(stack, mongodbDb));
    log(`bench: seeding ${OFFERS} offers and ${SEGMENTS} segments`);
    const { apiKey, tenant, ids } = await seed(conn);
    const config: MixServeConfig = { ...serveConfig(stack, mongodbDb), tenant };
    const { child: server, ready: ports } = await forkServer<{ full: number; bare: number }>(__filename, config, {
      stdout: process.env.BENCH_SERVER_LOG ? 'inherit' : 'ignore',
    });
    const side = (name: string, port: number): Side => ({
      name,
      target: { port, apiKey },
      next: sequences(ids, name, SEED),
      samples: [],
      seconds: 0,
      cpuUs: 0,
    });
    const sides: [Side, Side] = [side('offerops', ports.full), side('bare', ports.bare)];
    // The warm-up draws from another seed, so the measured sequence starts where the other side's does.
    await runSides(
      sides,
      () => ask<number>(server, 'cpu'),
      (s) => sequences(ids, `${s.name}-warm`, SEED + 1),
    );
    console.log(
      `\nmixed benchmark: ${CONNECTIONS} keep-alive connections, ${SECONDS} s per side in halves (offerops, bare, bare, offerops), ` +
        `${OFFERS} offers and ${SEGMENTS} segments seeded; per-request deadline ${DEADLINE_MS} ms`,
    );
    for (const s of sides) printSide(s);
    printGoals(...sides);
    await stopServer(server);
    await conn.db.dropDatabase();
    await conn.close();
  });
}

runBench(main, { serve: () => serve(childConfig<MixServeConfig>()) });
