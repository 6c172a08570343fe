/**
 * `npm run bench:links`: the tracked-link redirect (`GET /l/{code}` through
 * the whole app: request id, access log, error handler, the link read, the
 * click queued in the ClickBuffer and flushed in batches with its buckets)
 * beside a bare Koa handler answering the same 302 with no work, on the same
 * machine, in one run, as ratios: latency p50 and p99 and throughput, each
 * over 64 keep-alive connections (BENCH_CONNECTIONS) for BENCH_SECONDS
 * (default 5) per side, after a warm-up; then one visitor at a time
 * (BENCH_REQUESTS sequential requests per side, alternating). Beside them,
 * the server's CPU time per answer and the database server's (from /proc),
 * which hold still when the machine is busy. Both servers run in one child
 * process; the load generator is this process. Starts its own stack.
 * Goal: p50 ≤ 1.5× the bare handler.
 */
import { ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import Koa from 'koa';
import pino from 'pino';
import { closeApp, createApp } from '../../api/app';
import { connectMongo, connectTemporal } from '../../domain/config';
import { createLogger } from '../../domain/logger';
import { createAccount } from '../../domain/accounts/store';
import { ensureIndexes, Tenant } from '../../domain/db';
import { applyIntegration } from '../../domain/links/marketplaces';
import { insertLinks, LinkFields, linkIdOf, newCode } from '../../domain/links/store';
import { newSecretKey } from '../../domain/sealing';
import { log, Supervisor } from '../stack/processes';
import { startStack } from '../stack/stack';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const LINKS = 200;
/** Sequential requests per side for the one-visitor-at-a-time latency. */
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);

const quantile = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

interface ServeConfig {
  mongodbUri: string;
  mongodbDb: string;
  temporalAddress: string;
  temporalNamespace: string;
}

/** The floor: Koa answering a 302 to a fixed affiliate URL, nothing else. */
function bareApp(): Koa {
  const app = new Koa();
  app.use((ctx) => {
    ctx.status = 302;
    ctx.redirect('https://www.amazon.com.br/dp/B0BENCH001?tag=bench-20&ascsubtag=clk_0000000000000000000000');
  });
  return app;
}

async function serve(config: ServeConfig): Promise<void> {
  const mongo = await connectMongo(config);
  const temporal = await connectTemporal(config);
  const full = createApp({
    db: mongo.db,
    secretKey: Buffer.from(newSecretKey(), 'base64'),
    temporal: { client: temporal.client, namespace: config.temporalNamespace },
    logger: createLogger('offerops-api', undefined, pino.destination({ dest: 1, sync: false })),
  });
  const listen = async (app: { callback: Koa['callback'] }) => {
    const handle = app.callback();
    const server = createServer((req, res) => void handle(req, res)).listen(0, '127.0.0.1');
    await once(server, 'listening');
    return server;
  };
  const servers = [await listen(full), await listen(bareApp())];
  process.send!({ full: (servers[0]!.address() as AddressInfo).port, bare: (servers[1]!.address() as AddressInfo).port });
  process.on('message', (message) => {
    if (message === 'cpu') {
      // The servers' CPU time so far (user + system, µs): the parent takes differences around each side's load.
      const { user, system } = process.cpuUsage();
      process.send!({ cpu: user + system });
      return;
    }
    for (const s of servers) s.closeAllConnections();
    void Promise.all(servers.map((s) => new Promise((r) => s.close(r))))
      .then(() => closeApp(full))
      .then(() => Promise.allSettled([mongo.client.close(), temporal.connection.close()]))
      .then(() => process.exit(0));
  });
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

/** CPU time (µs) used so far by the processes whose command line names `dir` (the stack's database server), from /proc; null where there is none. */
function cpuOfProcessesIn(dir: string): number | null {
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
  const dataDir = mkdtempSync(join(tmpdir(), 'offerops-bench-links-'));
  const supervisor = await Supervisor.open(dataDir, log);
  let child: ChildProcess | undefined;
  try {
    const stack = await startStack({ supervisor, withApp: false, log });
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
    child = fork(__filename, ['serve'], {
      // BENCH_CPU_PROF=DIR: a V8 CPU profile of the servers (node --cpu-prof), written when they stop.
      execArgv: process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env: {
        ...process.env,
        BENCH_SERVE: JSON.stringify({
          mongodbUri: stack.mongodbUri,
          mongodbDb,
          temporalAddress: stack.temporalAddress,
          temporalNamespace: stack.temporalNamespace,
        } satisfies ServeConfig),
      },
    });
    const [ports] = (await once(child, 'message')) as [{ full: number; bare: number }];
    let i = 0;
    const path = () => `/l/${links[i++ % LINKS]!.code}`;
    log('bench: warm-up');
    await load(ports.full, path, 2);
    await load(ports.bare, path, 2);
    // One visitor at a time: sequential keep-alive requests, the two sides alternating request by request.
    const seqAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    const seq = { full: [] as number[], bare: [] as number[] };
    for (let n = 0; n < REQUESTS; n++) {
      seq.full.push(await send(seqAgent, ports.full, path()));
      seq.bare.push(await send(seqAgent, ports.bare, path()));
    }
    seqAgent.destroy();
    const server = child;
    const cpu = async (): Promise<number> => {
      server.send('cpu');
      const [reply] = (await once(server, 'message')) as [{ cpu: number }];
      return reply.cpu;
    };
    /** A load on one side, and the server process's CPU time per answer (load-independent where wall times are not). */
    const measure = async (port: number) => {
      const before = await cpu();
      const dbBefore = cpuOfProcessesIn(dataDir);
      const result = await load(port, path, SECONDS);
      const dbAfter = cpuOfProcessesIn(dataDir);
      return { ...result, cpuPerAnswer: (await cpu()) - before, dbCpu: dbBefore === null || dbAfter === null ? null : dbAfter - dbBefore };
    };
    log('bench: measuring');
    const full = await measure(ports.full);
    const bare = await measure(ports.bare);
    full.cpuPerAnswer /= full.lat.length;
    bare.cpuPerAnswer /= bare.lat.length;
    const clicks = await mongo.db.collection('clicks').countDocuments({});
    const f = (x: number) => x.toFixed(2).padStart(7);
    const r50 = quantile(full.lat, 0.5) / quantile(bare.lat, 0.5);
    const r99 = quantile(full.lat, 0.99) / quantile(bare.lat, 0.99);
    console.log(
      `\nlinks benchmark: GET /l/{code} (${LINKS} links) vs a bare Koa 302, ${CONNECTIONS} keep-alive connections, ${SECONDS} s per side`,
    );
    console.log('Goal: p50 ≤ 1.5× the bare handler (! marks a miss)\n');
    const us = (x: { cpuPerAnswer: number }) => x.cpuPerAnswer.toFixed(0).padStart(10);
    console.log(`${'side'.padEnd(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'req/s'.padStart(8)} ${'server µs/answer'.padStart(10)}`);
    console.log(
      `${'redirect'.padEnd(8)} ${f(quantile(full.lat, 0.5))} ${f(quantile(full.lat, 0.99))} ${full.rps.toFixed(0).padStart(8)} ${us(full)}`,
    );
    console.log(
      `${'bare'.padEnd(8)} ${f(quantile(bare.lat, 0.5))} ${f(quantile(bare.lat, 0.99))} ${bare.rps.toFixed(0).padStart(8)} ${us(bare)}`,
    );
    console.log(
      `${'ratio'.padEnd(8)} ${r50.toFixed(2).padStart(6)}×${r50 <= 1.5 ? ' ' : '!'}${r99.toFixed(2).padStart(6)}× ${(full.rps / bare.rps).toFixed(2).padStart(7)}× ${(full.cpuPerAnswer / bare.cpuPerAnswer).toFixed(2).padStart(9)}×`,
    );
    const s50 = quantile(seq.full, 0.5) / quantile(seq.bare, 0.5);
    console.log(
      `\none visitor at a time (${REQUESTS} sequential keep-alive requests per side): p50 ${quantile(seq.full, 0.5).toFixed(2)} / ${quantile(seq.bare, 0.5).toFixed(2)} ms = ${s50.toFixed(2)}×${s50 <= 1.5 ? '' : '!'}, p99 ${quantile(seq.full, 0.99).toFixed(2)} / ${quantile(seq.bare, 0.99).toFixed(2)} ms`,
    );
    if (full.dbCpu !== null && bare.dbCpu !== null)
      console.log(
        `database server (FerretDB) CPU per answer: ${(full.dbCpu / full.lat.length).toFixed(0)} µs redirect, ${(bare.dbCpu / bare.lat.length).toFixed(0)} µs bare`,
      );
    if (full.failed + bare.failed) console.log(`failed answers: ${full.failed} redirect, ${bare.failed} bare`);
    child.send('stop');
    await once(child, 'exit');
    child = undefined;
    const written = await mongo.db.collection('clicks').countDocuments({});
    console.log(`clicks written: ${written} (${clicks} before the clean stop flushed the rest)`);
    await mongo.db.dropDatabase();
    await mongo.client.close();
  } finally {
    child?.kill();
    await supervisor.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'serve') {
  serve(JSON.parse(process.env.BENCH_SERVE!) as ServeConfig).catch((err) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
