/**
 * `npm run bench:monitor`: one monitor run over a large Google Merchant RSS
 * feed (BENCH_ITEMS, default 100,000 items) served from a local HTTP server,
 * beside a bare streaming parse of the same feed from the same server (`sax`,
 * counting items, nothing else), as ratios of time and of peak memory growth.
 *
 * Each side runs in a child process of its own, so its memory is its own:
 * the bare parse, and an offerops worker (the real workflows and activities)
 * whose RSS is sampled from when it is ready, over every run. The run is started as the
 * scheduler starts it (a trigger of the monitor's Temporal Schedule) and
 * timed from the workflow's own start and end (`last_result.duration_ms`)
 * and from the trigger to the recorded result. The monitor counts what
 * matches (`automation: none`): creating offers is measured by the API
 * benchmark. Starts its own stack (or uses MONGODB_URI / TEMPORAL_ADDRESS).
 * Options: BENCH_ITEMS, BENCH_RUNS (default 3).
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { createServer, get } from 'node:http';
import { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import sax from 'sax';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities/index';
import { connectMongo, WORKFLOW_BUNDLE } from '../../domain/config';
import { connectTemporal } from '../../domain/temporal-connection';
import { createAccount } from '../../domain/accounts/store';
import { ensureIndexes } from '../../domain/db';
import { createLogger } from '../../domain/logger';
import { createMonitor } from '../../domain/monitors/service';
import { getMonitor } from '../../domain/monitors/store';
import { newSecretKey } from '../../domain/sealing';
import { quantile, ratio, runBench, withStack } from './harness';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const MB = 1024 * 1024;

const median = (xs: number[]): number => quantile(xs, 0.5);

/** Samples RSS every 20 ms; `peak()` is the highest growth over the RSS when it started. */
function rssSampler() {
  const base = process.memoryUsage.rss();
  let top = base;
  const timer = setInterval(() => (top = Math.max(top, process.memoryUsage.rss())), 20);
  timer.unref();
  return { peak: () => Math.max(top, process.memoryUsage.rss()) - base };
}

// --- child: the bare parse --------------------------------------------------------

async function bareParse(url: string): Promise<void> {
  const rss = rssSampler();
  const started = process.hrtime.bigint();
  const parser = sax.parser(true, { trim: false, normalize: false, position: false });
  let items = 0;
  parser.onclosetag = (name) => {
    if (name === 'item') items++;
  };
  await new Promise<void>((resolve, reject) => {
    get(url, (res) => {
      res.setEncoding('utf8');
      res.on('data', (text: string) => parser.write(text));
      res.on('end', () => {
        parser.close();
        resolve();
      });
      res.on('error', reject);
    }).on('error', reject);
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  process.send!({ ms, items, peak: rss.peak() });
}

// --- child: the worker ------------------------------------------------------------

async function workerChild(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const env = JSON.parse(process.env.BENCH_CHILD!) as {
    mongodbUri: string;
    db: string;
    temporalAddress: string;
    namespace: string;
    taskQueue: string;
  };
  const mongo = await connectMongo({ mongodbUri: env.mongodbUri, mongodbDb: env.db });
  const temporal = await connectTemporal({ temporalAddress: env.temporalAddress, temporalNamespace: env.namespace });
  const native = await NativeConnection.connect({ address: env.temporalAddress });
  const worker = await Worker.create({
    connection: native,
    namespace: env.namespace,
    taskQueue: env.taskQueue,
    workflowBundle: { codePath: WORKFLOW_BUNDLE },
    activities: createActivities({
      db: mongo.db,
      temporal: temporal.client,
      taskQueue: env.taskQueue,
      secretKey: Buffer.from(newSecretKey(), 'base64'),
      webhookAllow: ['127.0.0.1'],
    }),
  });
  // From the worker ready and idle, over the warm-up run and every measured run.
  const rss = rssSampler();
  process.on('message', (m: { cmd: string }) => {
    if (m.cmd === 'peak') process.send!({ peak: rss.peak() });
    else if (m.cmd === 'stop') worker.shutdown();
  });
  process.send!({ ready: true });
  await worker.run();
  await native.close();
  await temporal.connection.close();
  await mongo.client.close();
}

// --- parent ---------------------------------------------------------------------

/** Writes a Google Merchant RSS feed of `n` items to `path`; one in ten is an air fryer. */
async function writeFeed(path: string, n: number): Promise<void> {
  const out = createWriteStream(path);
  const write = (s: string) => (out.write(s) ? Promise.resolve() : once(out, 'drain').then(() => undefined));
  await write(
    '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel><title>Bench</title>\n',
  );
  for (let i = 0; i < n; i++) {
    const kind = i % 10 === 0 ? 'Air Fryer' : 'Cafeteira';
    await write(
      `<item><g:id>${i}</g:id><title><![CDATA[${kind} modelo ${i} & cia]]></title><link>https://shop.example/p/${i}?utm_source=feed&amp;x=${i}</link>` +
        `<description>Produto ${i} com descrição longa o bastante para parecer um feed de verdade, com acentuação e detalhes técnicos.</description>` +
        `<g:price>${(200 + (i % 300)).toFixed(2)} BRL</g:price><g:sale_price>${(150 + (i % 200)).toFixed(2)} BRL</g:sale_price>` +
        `<g:image_link>https://img.example/p/${i}.jpg</g:image_link><g:brand>Loja ${i % 50}</g:brand>` +
        `<g:product_type>Casa &gt; Cozinha &gt; Eletro</g:product_type><g:availability>in stock</g:availability></item>\n`,
    );
  }
  await write('</channel></rss>\n');
  out.end();
  await once(out, 'finish');
}

function child(args: string[], env: Record<string, string> = {}) {
  return fork(__filename, args, { env: { ...process.env, ...env }, stdio: 'inherit' });
}

const next = <T>(proc: ReturnType<typeof child>, pick: (m: Record<string, unknown>) => boolean): Promise<T> =>
  new Promise((resolve, reject) => {
    const onMessage = (m: Record<string, unknown>) => {
      if (!pick(m)) return;
      proc.off('message', onMessage);
      resolve(m as T);
    };
    proc.on('message', onMessage);
    proc.once('exit', (code) => reject(new Error(`the child exited (${code})`)));
  });

async function main(): Promise<void> {
  await withStack('offerops-bench-monitor-', async (bench) => {
    const feedPath = join(bench.dataDir, 'feed.xml');
    await writeFeed(feedPath, ITEMS);
    const feedBytes = statSync(feedPath).size;
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml', 'content-length': feedBytes });
      createReadStream(feedPath).pipe(res);
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.xml`;

    const stack = await bench.startStack();
    const dbName = `bench_${randomBytes(4).toString('hex')}`;
    const mongo = await connectMongo({ mongodbUri: stack.mongodbUri, mongodbDb: dbName });
    await ensureIndexes(mongo.db);
    const temporal = await connectTemporal(stack);
    const taskQueue = `bench-monitor-${randomBytes(4).toString('hex')}`;
    const worker = child(['worker'], {
      BENCH_CHILD: JSON.stringify({
        mongodbUri: stack.mongodbUri,
        db: dbName,
        temporalAddress: stack.temporalAddress,
        namespace: stack.temporalNamespace,
        taskQueue,
      }),
    });
    await next(worker, (m) => m.ready === true);

    const account = await createAccount(mongo.db, { name: 'Bench' });
    const tenant = { accountId: account._id, env: 'live' as const };
    const deps = {
      db: mongo.db,
      temporal: { client: temporal.client, taskQueue },
      logger: createLogger('bench', 'silent'),
      webhookAllow: ['127.0.0.1'],
    };
    const monitor = await createMonitor(deps, tenant, {
      name: 'Bench',
      sources: [{ type: 'merchant_xml', url }],
      criteria: { keywords_include: ['air fryer'], min_discount_pct: 10 },
      // Active (a paused monitor's runs do nothing) and due only on 29 February: it runs when triggered below.
      frequency: { cron: '0 0 29 2 *' },
      state: 'active',
    });

    const runOnce = async () => {
      const before = (await getMonitor(mongo.db, tenant, monitor._id))!.last_result?.run_id ?? null;
      const started = process.hrtime.bigint();
      await temporal.client.schedule.getHandle(`monitor-${monitor._id}`).trigger();
      for (;;) {
        const result = (await getMonitor(mongo.db, tenant, monitor._id))!.last_result;
        if (result && result.run_id !== before) {
          const wall = Number(process.hrtime.bigint() - started) / 1e6;
          return { ms: result.duration_ms, wall, seen: result.seen, matched: result.matched, error: result.sources[0]!.error };
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    const bareOnce = async () => {
      const proc = child(['bare', url]);
      return next<{ ms: number; items: number; peak: number }>(proc, (m) => typeof m.ms === 'number');
    };

    const load = loadavg().map((x) => x.toFixed(1));
    // Warm both (the workflow bundle, connections, the JIT) before measuring.
    await runOnce();
    await bareOnce();
    const ours: Awaited<ReturnType<typeof runOnce>>[] = [];
    const bare: Awaited<ReturnType<typeof bareOnce>>[] = [];
    for (let i = 0; i < RUNS; i++) {
      ours.push(await runOnce());
      bare.push(await bareOnce());
    }
    const peak = next<{ peak: number }>(worker, (m) => typeof m.peak === 'number');
    worker.send({ cmd: 'peak' });
    const workerPeak = (await peak).peak;
    const last = ours.at(-1)!;
    if (last.seen !== ITEMS || bare.at(-1)!.items !== ITEMS || last.error) {
      throw new Error(`the run read ${last.seen} items (error: ${last.error}), the bare parse ${bare.at(-1)!.items}; expected ${ITEMS}`);
    }
    const row = (name: string, a: number, b: number, unit: string) =>
      console.log(`${name.padEnd(36)} ${a.toFixed(1).padStart(10)} ${b.toFixed(1).padStart(10)}  ${unit.padEnd(4)} ${ratio(a / b, 6)}`);
    console.log(
      `\nmonitor benchmark: ${ITEMS} items, ${(feedBytes / MB).toFixed(1)} MB of Google Merchant RSS over local HTTP, ` +
        `${last.matched} matching; median of ${RUNS} runs; load average at start ${load.join(' ')}\n`,
    );
    console.log(`${'metric'.padEnd(36)} ${'monitor'.padStart(10)} ${'bare sax'.padStart(10)}  ${'unit'.padEnd(4)} ${'ratio'.padStart(7)}`);
    row('run time (workflow start → end)', median(ours.map((r) => r.ms)), median(bare.map((r) => r.ms)), 'ms');
    row('trigger → result recorded', median(ours.map((r) => r.wall)), median(bare.map((r) => r.ms)), 'ms');
    row('peak RSS growth', workerPeak / MB, Math.max(...bare.map((r) => r.peak)) / MB, 'MB');
    console.log('(RSS growth: the worker from ready to its highest over all runs; the bare parse, a fresh process each run, its highest)');
    console.log(`(goal: run time ≤ 2× the bare parse, < 100 MB extra memory in the worker)`);

    worker.send({ cmd: 'stop' });
    await once(worker, 'exit');
    server.close();
    await temporal.connection.close();
    await mongo.db.dropDatabase();
    await mongo.client.close();
  });
}

// A child exits when done: its IPC channel to the parent would keep it alive (the parent waits for the worker's exit).
runBench(main, { bare: ([url]) => bareParse(url!).then(() => process.exit(0)), worker: () => workerChild().then(() => process.exit(0)) });
