/**
 * `npm run bench:api`: the API's full middleware chain (request id, auth,
 * rate limit, plan, scope, body, validation, access log) beside a bare Koa
 * handler doing the same database work through the same driver on the same
 * database, in one run, as ratios:
 *
 * - latency: sequential requests over one keep-alive connection, the two
 *   servers alternating request by request; p50 and p90;
 * - throughput: 64 keep-alive connections for a bounded time (and count).
 *
 * on `GET /offers/{id}`, `GET /offers?limit=30` and `POST /offers` (a new URL
 * each time: the create path). Both servers run in one child process (the
 * load generator is this process, so it does not share their event loop).
 * Load goes to loopback only. Starts its own stack (or uses MONGODB_URI /
 * TEMPORAL_ADDRESS). Options: BENCH_REQUESTS (sequential requests per side
 * and path, default 1000), BENCH_SECONDS (throughput run per side and path,
 * default 4), BENCH_CONNECTIONS (default 64), BENCH_OFFERS (the tenant's
 * offers in the collection: every path runs at each size, the collection
 * grown with insertMany between sizes; default 1000,100000,1000000), whose
 * table of per-request costs by size ends with their max/min;
 * BENCH_LATENCY_SECONDS (the sequential requests' time bound, default 60).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { closeApp, createApp } from '../../api/app';
import { Db, MongoClient } from 'mongodb';
import { Tenant } from '../../domain/db';
import { newId } from '../../domain/ids';
import type { OfferDoc } from '../../domain/offers/store';
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

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
/** At most this many requests per throughput run, whatever the time. */
const MAX_PER_RUN = 50_000;
const SEEDED_OFFERS = 100;
/** The most seconds of sequential requests per path and size (BENCH_LATENCY_SECONDS), whatever BENCH_REQUESTS. */
const LATENCY_SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 60);
/** The slowest p50 (ms) of a path still put under load at BENCH_CONNECTIONS; slower, its throughput and CPU columns show NaN. */
const LOAD_LIMIT_MS = 500;
/** The goals per path against the bare handler (docs/benchmarks/api.md): p50 at most, throughput at least. */
const P50_GOAL = 1.2;
const THROUGHPUT_GOAL = 0.9;
const OFFER_SIZES = (process.env.BENCH_OFFERS ?? '1000,100000,1000000').split(',').map(Number);
/** Offers per insertMany when the collection grows to a size. */
const SEED_BATCH = 1000;

/** Grows the tenant's offers from `from` to `to` with copies of `template` (each its own id and URL), SEED_BATCH per insertMany. */
async function growOffers(db: Db, template: OfferDoc, from: number, to: number): Promise<void> {
  const { _outbox, ...doc } = template;
  for (let i = from; i < to; i += SEED_BATCH) {
    const batch = Array.from({ length: Math.min(SEED_BATCH, to - i) }, (_, j) => ({
      ...doc,
      _id: newId('off'),
      url: `https://shop.example/bench/grown-${i + j}`,
    }));
    await db.collection<OfferDoc>('offers').insertMany(batch);
  }
}

/** What the child is told: where the database is and whose data the bare handlers serve. */
interface ApiServeConfig extends ServeConfig {
  tenant: Tenant;
}

/** Child process: both servers on loopback, their ports sent to the parent; exits when told. */
async function serve(config: ApiServeConfig): Promise<void> {
  // One client per server, each counting the commands it sends: database round trips per request.
  const connect = async () => {
    const client = await MongoClient.connect(config.mongodbUri, { monitorCommands: true });
    const counter = { client, db: client.db(config.mongodbDb), commands: 0 };
    client.on('commandStarted', () => counter.commands++);
    return counter;
  };
  const mongo = await connect();
  const bareMongo = await connect();
  const api = await apiDeps(config, mongo.db);
  const full = createApp(api.deps);
  const bare = bareApp(config.tenant, { db: bareMongo.db, temporal: api.deps.temporal });
  const servers = [await listen(full.callback()), await listen(bare.callback())];
  serveUntilStopped(
    servers,
    { full: portOf(servers[0]!), bare: portOf(servers[1]!) },
    () => closeApp(full).then(() => Promise.allSettled([mongo.client.close(), bareMongo.client.close(), api.close()])),
    (message) => {
      if (message === 'commands') process.send!({ full: mongo.commands, bare: bareMongo.commands, cpuUs: cpuUs() });
    },
  );
}

interface Throughput {
  rps: number;
  failed: number;
  cpuUs: number;
  dbCpuUs: number;
}

/**
 * The embedded FerretDB's CPU time so far (µs, user + system, from /proc; its
 * pid from the stack's run file); null with MONGODB_URI or off Linux.
 */
function databaseCpu(dataDir: string): () => number | null {
  const pidFile = join(dataDir, 'run', 'ferretdb.json');
  const pid = existsSync(pidFile) ? (JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number }).pid : null;
  return () => {
    if (pid === null || !existsSync(`/proc/${pid}/stat`)) return null;
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in clock ticks (100 a second).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  };
}

interface Target {
  port: number;
  apiKey: string;
}

interface Shot {
  method: 'GET' | 'POST';
  path: () => string;
  body?: () => string;
  expect: number;
}

/** One request; resolves with its duration in ms, rejects on any status but the expected one. */
function send(agent: Agent, target: Target, shot: Shot): Promise<number> {
  const body = shot.body?.();
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: target.port,
        method: shot.method,
        path: shot.path(),
        agent,
        headers: {
          authorization: `Bearer ${target.apiKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode !== shot.expect) {
            reject(new Error(`${shot.method} port ${target.port}: ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 300)}`));
          } else {
            resolve(Number(process.hrtime.bigint() - started) / 1e6);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Sequential, alternating: the i-th request of each side runs back to back, so drift hits both alike; `count`
 * pairs, or as many as LATENCY_SECONDS allow (a list over a million offers takes seconds on the embedded FerretDB).
 */
async function latencies(shot: Shot, full: Target, bare: Target, count: number): Promise<{ full: number[]; bare: number[] }> {
  const agents = [new Agent({ keepAlive: true, maxSockets: 1 }), new Agent({ keepAlive: true, maxSockets: 1 })] as const;
  const out = { full: [] as number[], bare: [] as number[] };
  const deadline = Date.now() + LATENCY_SECONDS * 1000;
  for (let i = 0; i < count && (i < 5 || Date.now() < deadline); i++) {
    out.full.push(await send(agents[0], full, shot));
    out.bare.push(await send(agents[1], bare, shot));
  }
  for (const a of agents) a.destroy();
  return out;
}

/**
 * Answered requests per second over `connections` keep-alive connections, for
 * `seconds` or MAX_PER_RUN requests; answers other than the expected status
 * are counted apart (and not in the rate).
 */
async function throughput(
  shot: Shot,
  target: Target,
  connections: number,
  seconds: number,
): Promise<{ rps: number; done: number; failed: number; seconds: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const deadline = Date.now() + seconds * 1000;
  let done = 0;
  let failed = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < deadline && done + failed < MAX_PER_RUN) {
        await send(agent, target, shot).then(
          () => done++,
          () => failed++,
        );
      }
    }),
  );
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  return { rps: done / elapsed, done, failed, seconds: elapsed };
}

/** Per path, the per-request cost at each size of the collection and its max/min across sizes (goal ≤ 1.5×). */
function printBySize(perRequest: { size: number; name: string; p50: number; cpuUs: number }[]): void {
  const spread = (xs: number[]) => Math.max(...xs) / Math.min(...xs);
  console.log(`\nper-request cost by offers in the collection (${OFFER_SIZES.join(' / ')}): p50 ms and the servers' CPU µs per request`);
  for (const name of [...new Set(perRequest.map((r) => r.name))]) {
    const runs = perRequest.filter((r) => r.name === name);
    const cells = runs.map((r) => `${r.p50.toFixed(2)} ms ${r.cpuUs.toFixed(0)} µs`.padStart(20)).join(' ');
    const p50 = spread(runs.map((r) => r.p50));
    const cpu = spread(runs.map((r) => r.cpuUs));
    console.log(`${name.padEnd(24)} ${cells}  max/min p50 ${ratio(p50, 5, p50 <= 1.5)} CPU ${ratio(cpu, 5, cpu <= 1.5)}`);
  }
}

async function main(): Promise<void> {
  await withStack('offerops-bench-api-', async (bench) => {
    const stack = await bench.startStack();
    const dbCpu = databaseCpu(bench.dataDir);
    const mongodbDb = `bench_${randomBytes(4).toString('hex')}`;
    const conn = await connectBench(serveConfig(stack, mongodbDb));
    const { db, domain } = conn;
    const { apiKey, tenant } = await benchAccount(db);
    const seeded = await seedOffers(domain, tenant, SEEDED_OFFERS);
    const template = seeded.at(-1)!;
    const offerId = template._id;

    const config: ApiServeConfig = { ...serveConfig(stack, mongodbDb), tenant };
    log('bench: seeded; starting the servers');
    const { child: server, ready: ports } = await forkServer<{ full: number; bare: number }>(__filename, config, {
      // BENCH_CPU_PROF=DIR: a V8 CPU profile of the servers (node --cpu-prof), written when they stop.
      execArgv: process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
      stdout: process.env.BENCH_SERVER_LOG ? 'inherit' : 'ignore',
    });
    /** The servers' database commands so far, and their process's CPU time (µs, user + system). */
    const commands = () => ask<{ full: number; bare: number; cpuUs: number }>(server, 'commands');
    /**
     * The throughput runs of both sides, in one-second slices taken in turn (so a change of the machine's load
     * hits both alike), with the servers' CPU time per answered request (only the side under load runs then).
     */
    const measured = async (shot: Shot) => {
      const sides = [full, bare].map((target) => ({ target, done: 0, failed: 0, seconds: 0, cpuUs: 0, dbCpuUs: 0 }));
      for (let slice = 0; slice < Math.max(1, Math.round(SECONDS)); slice++) {
        for (const side of sides) {
          const before = await commands();
          const dbBefore = dbCpu();
          const result = await throughput(shot, side.target, CONNECTIONS, SECONDS / Math.max(1, Math.round(SECONDS)));
          const after = await commands();
          const dbAfter = dbCpu();
          side.dbCpuUs += dbBefore === null || dbAfter === null ? NaN : dbAfter - dbBefore;
          side.done += result.done;
          side.failed += result.failed;
          side.seconds += result.seconds;
          side.cpuUs += after.cpuUs - before.cpuUs;
        }
      }
      return sides.map((side) => ({
        rps: side.done / side.seconds,
        failed: side.failed,
        cpuUs: side.cpuUs / Math.max(1, side.done),
        dbCpuUs: side.dbCpuUs / Math.max(1, side.done),
      }));
    };
    const full: Target = { port: ports.full, apiKey };
    const bare: Target = { port: ports.bare, apiKey };

    let n = 0;
    const run = randomBytes(3).toString('hex');
    const shots: [string, Shot][] = [
      ['GET /offers/{id}', { method: 'GET', path: () => `/api/v1/offers/${offerId}`, expect: 200 }],
      ['GET /offers (limit 20)', { method: 'GET', path: () => '/api/v1/offers?limit=20', expect: 200 }],
      [
        'POST /offers (new URL)',
        {
          method: 'POST',
          path: () => '/api/v1/offers',
          body: () =>
            JSON.stringify({
              url: `https://shop.example/bench/${run}/${++n}`,
              title: 'Bench offer',
              price: 99.9,
              original_price: 149.9,
              currency: 'BRL',
            }),
          expect: 201,
        },
      ],
      ['GET /offers?status=', { method: 'GET', path: () => '/api/v1/offers?limit=20&status=pending', expect: 200 }],
      // A word in every offer's store: the page fills at once, the total counts the tenant's offers.
      ['GET /offers?query=', { method: 'GET', path: () => '/api/v1/offers?limit=20&query=bench', expect: 200 }],
    ];

    // BENCH_PATHS=1,3: only those paths (1 = by id, 2 = list, 3 = create, 4 = list by status, 5 = list by query).
    const only = process.env.BENCH_PATHS?.split(',').map(Number);
    const rows: string[] = [];
    /** Per size and path: p50 ms and the servers' CPU µs per request. */
    const perRequest: { size: number; name: string; p50: number; cpuUs: number }[] = [];
    // The tenant's offers, counted here: a count on the embedded FerretDB decodes the collection (seconds at 100,000).
    let offers = SEEDED_OFFERS;
    let created = 0;
    const picked = shots.filter((_, i) => !only || only.includes(i + 1));
    for (const [size, [name, shot]] of OFFER_SIZES.flatMap((size) => picked.map((path) => [size, path] as const))) {
      // The offers the create path added count towards the next size.
      offers += n - created;
      created = n;
      if (offers < size) {
        log(`bench: growing the offers from ${offers} to ${size}`);
        await growOffers(db, template, offers, size);
        offers = size;
      }
      log(`bench: ${name} (${size} offers)`);
      let lat: { full: number[]; bare: number[] };
      let before: { full: number; bare: number };
      try {
        await latencies(shot, full, bare, Math.min(200, REQUESTS)); // warm-up: JIT, connections, caches
        before = await commands();
        lat = await latencies(shot, full, bare, REQUESTS);
      } catch (err) {
        // A path that outlives the API's time limit at this size (503) has no figures here; the others go on.
        perRequest.push({ size, name, p50: NaN, cpuUs: NaN });
        rows.push(`${String(size).padStart(8)} ${name.padEnd(24)} failed: ${(err as Error).message.slice(0, 120)}`);
        continue;
      }
      const after = await commands();
      const trips = { full: (after.full - before.full) / lat.full.length, bare: (after.bare - before.bare) / lat.bare.length };
      // A path that answers one request in more than LOAD_LIMIT_MS is not loaded: 64 of them at once would run for minutes.
      const unloaded: Throughput = { rps: NaN, failed: 0, cpuUs: NaN, dbCpuUs: NaN };
      const loadable = Math.max(quantile(lat.full, 0.5), quantile(lat.bare, 0.5)) <= LOAD_LIMIT_MS;
      const [tFull, tBare] = loadable ? ((await measured(shot)) as [Throughput, Throughput]) : [unloaded, unloaded];
      const [rpsFull, rpsBare] = [tFull.rps, tBare.rps];
      const p = (xs: number[], q: number) => quantile(xs, q).toFixed(2).padStart(6);
      const r50 = quantile(lat.full, 0.5) / quantile(lat.bare, 0.5);
      const r90 = quantile(lat.full, 0.9) / quantile(lat.bare, 0.9);
      perRequest.push({ size, name, p50: quantile(lat.full, 0.5), cpuUs: tFull.cpuUs });
      rows.push(
        `${String(size).padStart(8)} ${name.padEnd(24)} ${trips.full.toFixed(2).padStart(5)} ${trips.bare.toFixed(2).padStart(5)} ${p(lat.full, 0.5)} ${p(lat.bare, 0.5)} ${ratio(r50, 5, r50 <= P50_GOAL)}` +
          ` ${p(lat.full, 0.9)} ${p(lat.bare, 0.9)} ${ratio(r90, 5)}` +
          ` ${rpsFull.toFixed(0).padStart(7)} ${rpsBare.toFixed(0).padStart(7)} ${ratio(rpsFull / rpsBare, 5, rpsFull / rpsBare >= THROUGHPUT_GOAL)}` +
          ` ${tFull.cpuUs.toFixed(0).padStart(6)} ${tBare.cpuUs.toFixed(0).padStart(6)} ${ratio(tFull.cpuUs / tBare.cpuUs, 5)}` +
          ` ${tFull.dbCpuUs.toFixed(0).padStart(6)} ${tBare.dbCpuUs.toFixed(0).padStart(6)}` +
          (tFull.failed + tBare.failed ? `  (failed answers: ${tFull.failed} full, ${tBare.failed} bare)` : ''),
      );
    }
    console.log(
      `\napi benchmark: ${REQUESTS} sequential keep-alive requests per side and path; throughput over ${CONNECTIONS} connections for ${SECONDS} s per side and path`,
    );
    console.log(
      `db/rq: database round trips per request (sequential run); cpu µs: the servers' CPU time per answered request in the throughput run; db µs: the embedded FerretDB's (NaN on MONGODB_URI). Goals: p50 ≤ ${P50_GOAL}× and throughput ≥ ${THROUGHPUT_GOAL}× the bare handler (! marks a miss)\n`,
    );
    console.log(
      `${'offers'.padStart(8)} ${'path'.padEnd(24)} ${'db/rq'.padStart(5)} ${'bare'.padStart(5)} ${'p50 ms'.padStart(6)} ${'bare'.padStart(6)} ${'ratio'.padStart(7)} ${'p90 ms'.padStart(6)} ${'bare'.padStart(6)} ${'ratio'.padStart(6)} ${'req/s'.padStart(7)} ${'bare'.padStart(7)} ${'ratio'.padStart(7)} ${'cpu µs'.padStart(6)} ${'bare'.padStart(6)} ${'ratio'.padStart(6)} ${'db µs'.padStart(6)} ${'bare'.padStart(6)}`,
    );
    for (const row of rows) console.log(row);
    printBySize(perRequest);

    await stopServer(server);
    await db.dropDatabase();
    await conn.close();
  });
}

runBench(main, { serve: () => serve(childConfig<ApiServeConfig>()) });
