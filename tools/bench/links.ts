/**
 * `npm run bench:links`: the tracked-link redirect (`GET /l/{code}` as the
 * API serves it, requestListener: answered ahead of Koa with its request id,
 * access log and error shape, the link read, the click queued in the
 * ClickBuffer and flushed in batches with its buckets)
 * beside a bare `node:http` listener answering the same 302 with no work (and,
 * for reference, a bare Koa one), on the same
 * machine, in one run, as ratios: latency p50 and p99 and throughput, each
 * over 64 keep-alive connections (BENCH_CONNECTIONS) for BENCH_SECONDS
 * (default 5) per side, after a warm-up; then one visitor at a time
 * (BENCH_REQUESTS sequential requests per side, alternating). Beside them,
 * the server's CPU time per answer and the database server's (from /proc),
 * which hold still when the machine is busy. Both servers run in one child
 * process; the load generator is this process. Starts its own stack.
 * Goal against the bare `node:http` 302 at 64 connections: p50 ≤ 1.3×,
 * p99 ≤ 1.5×, throughput ≥ 0.8×.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Agent, IncomingMessage, request, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Koa from 'koa';
import { Db } from 'mongodb';
import { closeApp, createApp, requestListener } from '../../api/app';
import { connectMongo } from '../../domain/config';
import { createAccount } from '../../domain/accounts/store';
import { ensureIndexes, Tenant } from '../../domain/db';
import { ClickBatchDoc } from '../../domain/links/clicks';
import { applyIntegration } from '../../domain/marketplaces';
import { insertLinks, LinkFields, linkIdOf, newCode } from '../../domain/links/store';
import { log } from '../stack/processes';
import {
  apiDeps,
  ask,
  childConfig,
  cpuUs,
  forkServer,
  listen,
  portOf,
  quantile,
  ratio,
  runBench,
  serveConfig,
  ServeConfig,
  serveUntilStopped,
  stopServer,
  withStack,
} from './harness';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const LINKS = 200;
/** Sequential requests per side for the one-visitor-at-a-time latency. */
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);

const BARE_TARGET = 'https://www.amazon.com.br/dp/B0BENCH001?tag=bench-20&ascsubtag=clk_0000000000000000000000';

/** The floor: Node's HTTP server answering a 302 to a fixed affiliate URL, nothing else. */
function bareListener(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(302, { Location: BARE_TARGET });
  res.end();
}

/** For reference: Koa answering the same 302, nothing else. */
function bareKoa(): Koa {
  const app = new Koa();
  app.use((ctx) => {
    ctx.status = 302;
    ctx.redirect(BARE_TARGET);
  });
  return app;
}

async function serve(config: ServeConfig): Promise<void> {
  const { deps, close } = await apiDeps(config);
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const full = createApp(deps);
  const servers = [await listen(requestListener(full)), await listen(bareListener), await listen(bareKoa().callback())];
  serveUntilStopped(
    servers,
    { full: portOf(servers[0]!), bare: portOf(servers[1]!), koa: portOf(servers[2]!) },
    () => closeApp(full).then(close),
    (message) => {
      // 'cpu': the servers' CPU time so far (user + system, µs), and the longest the event loop was held since the last
      // 'cpu' (ms); the parent takes differences around each side's load.
      if (message !== 'cpu') return;
      process.send!({ cpu: cpuUs(), loopMaxMs: loop.max / 1e6 });
      loop.reset();
    },
  );
}

function send(agent: Agent, port: number, path: string): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'GET', path, agent, headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Mobile' } },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 302 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`answered ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** CPU time (µs) used so far by the database server of the stack in `dir` (the process whose command line names its folder), from /proc; null where there is none. */
function databaseCpu(dir: string): number | null {
  let total = 0;
  let found = false;
  for (const pid of existsSync('/proc') ? readdirSync('/proc').filter((p) => /^\d+$/.test(p)) : []) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`${dir}/ferretdb`)) continue;
      // Fields 14 and 15 of /proc/PID/stat (after the command in parentheses): user and system time in clock ticks (100 a second).
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * 10_000;
      found = true;
    } catch {
      // The process ended while we looked.
    }
  }
  return found ? total : null;
}

/** The clicks stored, and the documents (batches) holding them. */
async function clicksStored(db: Db): Promise<{ clicks: number; documents: number }> {
  const batches = await db
    .collection<ClickBatchDoc>('clicks')
    .find({}, { projection: { count: 1 } })
    .toArray();
  return { clicks: batches.reduce((n, b) => n + b.count, 0), documents: batches.length };
}

/** `connections` keep-alive connections for `seconds`: every answer's latency, and answers per second. */
async function load(port: number, paths: () => string, seconds: number): Promise<{ lat: number[]; rps: number; failed: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const deadline = Date.now() + seconds * 1000;
  const lat: number[] = [];
  let failed = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < deadline) {
        await send(agent, port, paths()).then(
          (ms) => lat.push(ms),
          () => failed++,
        );
      }
    }),
  );
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  return { lat, rps: lat.length / elapsed, failed };
}

async function main(): Promise<void> {
  await withStack('offerops-bench-links-', async (bench) => {
    const stack = await bench.startStack();
    const mongodbDb = `bench_${randomBytes(4).toString('hex')}`;
    const mongo = await connectMongo({ mongodbUri: stack.mongodbUri, mongodbDb });
    await ensureIndexes(mongo.db);
    const account = await createAccount(mongo.db, { name: 'Bench' });
    const tenant: Tenant = { accountId: account._id, env: 'live' };
    const applied = applyIntegration(new URL('https://www.amazon.com.br/dp/B0BENCH001'), { marketplace: 'amazon', tag: 'bench-20' }, null);
    const links: LinkFields[] = Array.from({ length: LINKS }, (_, i) => {
      const code = newCode();
      return {
        _id: linkIdOf(code),
        code,
        marketplace: 'amazon',
        integration_id: 'int_bench',
        original_url: 'https://www.amazon.com.br/dp/B0BENCH001',
        affiliate_url: applied.affiliateUrl,
        target: applied.target,
        sub_id: null,
        offer_id: `off_bench${i % 10}`,
        publication_id: `pub_bench${i}`,
        group_id: `grp_bench${i % 20}`,
        segment_id: 'seg_bench',
        created_at: new Date(),
      };
    });
    await insertLinks(mongo.db, tenant, links);
    const { child, ready: ports } = await forkServer<{ full: number; bare: number; koa: number }>(__filename, serveConfig(stack, mongodbDb), {
      // BENCH_CPU_PROF=DIR: a V8 CPU profile of the servers (node --cpu-prof), written when they stop.
      ...(process.env.BENCH_CPU_PROF ? { execArgv: ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] } : {}),
    });
    let i = 0;
    const path = () => `/l/${links[i++ % LINKS]!.code}`;
    log('bench: warm-up');
    const warm = (await load(ports.full, path, 2)).lat.length;
    await load(ports.bare, path, 2);
    await load(ports.koa, path, 2);
    // One visitor at a time: sequential keep-alive requests, the two sides alternating request by request.
    const seqAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    const seq = { full: [] as number[], bare: [] as number[] };
    for (let n = 0; n < REQUESTS; n++) {
      seq.full.push(await send(seqAgent, ports.full, path()));
      seq.bare.push(await send(seqAgent, ports.bare, path()));
    }
    seqAgent.destroy();
    const cpu = () => ask<{ cpu: number; loopMaxMs: number }>(child, 'cpu');
    /** A load on one side, with the server's and the database server's CPU time per answer (load-independent where wall times are not). */
    const measure = async (port: number) => {
      const [before, dbBefore] = [await cpu(), databaseCpu(bench.dataDir)];
      const result = await load(port, path, SECONDS);
      const [after, dbAfter] = [await cpu(), databaseCpu(bench.dataDir)];
      const n = result.lat.length;
      return {
        ...result,
        cpu: (after.cpu - before.cpu) / n,
        loopMaxMs: after.loopMaxMs,
        dbCpu: dbBefore === null || dbAfter === null ? null : (dbAfter - dbBefore) / n,
      };
    };
    log('bench: measuring');
    const full = await measure(ports.full);
    const bare = await measure(ports.bare);
    const koa = await measure(ports.koa);
    const clicks = await clicksStored(mongo.db);
    const f = (x: number) => x.toFixed(2).padStart(7);
    const r50 = quantile(full.lat, 0.5) / quantile(bare.lat, 0.5);
    const r99 = quantile(full.lat, 0.99) / quantile(bare.lat, 0.99);
    const rps = full.rps / bare.rps;
    console.log(
      `\nlinks benchmark: GET /l/{code} (${LINKS} links) vs a bare node:http 302, ${CONNECTIONS} keep-alive connections, ${SECONDS} s per side`,
    );
    console.log('Goal: p50 ≤ 1.3×, p99 ≤ 1.5×, throughput ≥ 0.8× the bare node:http 302 (! marks a miss)\n');
    const us = (x: number) => x.toFixed(0).padStart(16);
    const row = (side: string, s: typeof full) =>
      console.log(`${side.padEnd(8)} ${f(quantile(s.lat, 0.5))} ${f(quantile(s.lat, 0.99))} ${s.rps.toFixed(0).padStart(8)} ${us(s.cpu)}`);
    console.log(`${'side'.padEnd(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'req/s'.padStart(8)} ${'server µs/answer'}`);
    row('redirect', full);
    row('bare', bare);
    row('koa', koa);
    console.log(
      `${'ratio'.padEnd(8)} ${ratio(r50, 6, r50 <= 1.3)}${ratio(r99, 6, r99 <= 1.5)}${ratio(rps, 7, rps >= 0.8)}${ratio(full.cpu / bare.cpu, 15)}`,
    );
    const k50 = quantile(full.lat, 0.5) / quantile(koa.lat, 0.5);
    console.log(
      `against the bare Koa 302: p50 ${ratio(k50, 0)} p99 ${ratio(quantile(full.lat, 0.99) / quantile(koa.lat, 0.99), 0)} throughput ${ratio(full.rps / koa.rps, 0)}`,
    );
    const s50 = quantile(seq.full, 0.5) / quantile(seq.bare, 0.5);
    console.log(
      `\none visitor at a time (${REQUESTS} sequential keep-alive requests per side): p50 ${quantile(seq.full, 0.5).toFixed(2)} / ${quantile(seq.bare, 0.5).toFixed(2)} ms = ${ratio(s50, 0)} p99 ${quantile(seq.full, 0.99).toFixed(2)} / ${quantile(seq.bare, 0.99).toFixed(2)} ms`,
    );
    console.log(
      `longest hold of the server's event loop: ${full.loopMaxMs.toFixed(1)} ms redirect, ${bare.loopMaxMs.toFixed(1)} ms bare, ${koa.loopMaxMs.toFixed(1)} ms koa`,
    );
    if (full.dbCpu !== null && bare.dbCpu !== null)
      console.log(`database server (FerretDB) CPU per answer: ${full.dbCpu.toFixed(0)} µs redirect, ${bare.dbCpu.toFixed(0)} µs bare`);
    if (full.failed + bare.failed + koa.failed) console.log(`failed answers: ${full.failed} redirect, ${bare.failed} bare, ${koa.failed} koa`);
    await stopServer(child);
    const written = await clicksStored(mongo.db);
    const redirects = warm + REQUESTS + full.lat.length;
    console.log(
      `clicks written: ${written.clicks} in ${written.documents} documents for ${redirects} redirects answered${written.clicks === redirects ? '' : ' (! not one each)'}; ${clicks.clicks} were written before the clean stop flushed the rest`,
    );
    await mongo.db.dropDatabase();
    await mongo.client.close();
  });
}

runBench(main, { serve: () => serve(childConfig<ServeConfig>()) });
