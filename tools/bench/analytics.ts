/**
 * `npm run bench:analytics`: each analytics operation over HTTP (the API's
 * whole chain: request id, key check, rate limit, scope, validation, the
 * report, the access log) beside a bare driver read of the same bucket
 * documents, as p50 ratios. Goal: every operation ≤ 2× its bare read, under
 * 50 ms p50 and 80 ms p90.
 *
 * The account (time zone America/Sao_Paulo) gets the buckets that 10,000,000
 * clicks (5% of them bots) and 100,000 publications (to segments of 8 of its
 * 300 groups; 95% of deliveries sent) with 100,000 commissions over 365 days
 * would produce, written through `addToBuckets` a day at a time with the facts
 * the writers make (domain/publications/counts.ts for publications); its
 * 25,000 offers (240 live on a day, each for about three days) and groups
 * exist, so that reports find their names. No operation reads the raw
 * publications or clicks, so none are written. Then each report runs once in
 * this process, so that its closed parts are packed (as the first reports of
 * a deployment pack them), before the API's process starts with nothing kept.
 *
 * The bare read is the fastest plain driver read we know on this database of
 * what a report reads on every request (`reportBucketIds(...).every`: the
 * counts of late writes and the live days' documents): every `_id` with its
 * own findOne (a keyed dimension's shards with one `$in` read), all in
 * flight at once. `first` is the API's first request of
 * the operation (its process has kept no closed sum yet) and `cold bare` the
 * bare read of what that request reads (the packed closed parts as well). The
 * API runs in a child process; sequential keep-alive requests alternate with
 * the bare reads. Starts its own stack (or uses MONGODB_URI /
 * TEMPORAL_ADDRESS). Options: BENCH_REQUESTS (per operation and window,
 * default 40), BENCH_CLICKS (default 10,000,000), BENCH_PUBLICATIONS (default
 * 100,000); groups, offers, storefront pages and elements grow with them.
 */
import { Agent, request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { closeApp, createApp } from '../../api/app';
import { createAccount, createApiKey, setAccountRateLimit, setAccountTimeZone } from '../../domain/accounts/store';
import {
  addToBuckets,
  BucketDoc,
  BucketFact,
  BucketIncrement,
  Dimension,
  isKeyedId,
  KEY_SHARDS,
  monthBucketsFrom,
  openFrom,
  shardIds,
  startMonthBuckets,
  windowDays,
} from '../../domain/analytics/buckets';
import { packingsDone } from '../../domain/analytics/reads';
import {
  groupsReport,
  heatmapReport,
  offersReport,
  ReportName,
  reportBucketIds,
  reportPlans,
  sourcesReport,
  summaryReport,
  timeseriesReport,
} from '../../domain/analytics/service';
import { completedFact, deliveryFact, queuedFact } from '../../domain/publications/counts';
import { MARKETPLACES } from '../../domain/marketplaces';
import { connectMongo, WORKER_DB_TIMEOUTS } from '../../domain/config';
import { Tenant } from '../../domain/db';
import { createGroup } from '../../domain/groups/store';
import { createOffer } from '../../domain/offers/service';
import { SCOPES } from '../../schemas/openapi/common';
import { log } from '../stack/processes';
import {
  apiDeps,
  childConfig,
  connectBench,
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

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40);
const CLICKS = Number(process.env.BENCH_CLICKS ?? 10_000_000);
const PUBLICATIONS = Number(process.env.BENCH_PUBLICATIONS ?? 100_000);
const DAYS = 365;
/** The account's size grows with its publications: a deal is an offer published about four times, to segments of 8 groups. */
const SCALE = Math.max(1, PUBLICATIONS / 10_000);
const GROUPS = Math.round(30 * SCALE);
const SEGMENTS = Math.round(8 * SCALE);
const OFFERS = Math.round(2_500 * SCALE);
/** Offers clicked on one day: a deal lives a few days (a new one every 1/7 of a day's live ones). */
const LIVE_OFFERS = Math.round(24 * SCALE);
const PAGES = Math.round(10 * SCALE);
const ELEMENTS = 30;
const TIME_ZONE = 'America/Sao_Paulo';

/** A small deterministic generator (the same data every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The API, listening on loopback; its port goes to the parent. */
async function serve(config: ServeConfig): Promise<void> {
  const { deps, close } = await apiDeps(config);
  const app = createApp(deps);
  const server = await listen(app.callback());
  serveUntilStopped([server], { port: portOf(server) }, () => closeApp(app).then(close));
}

/** The account, its groups and offers, and the buckets of a year of clicks, publications and commissions. */
async function seed(config: ServeConfig): Promise<{ tenant: Tenant; apiKey: string; docs: number }> {
  // The seed's writes of a week's month documents take seconds each on the embedded FerretDB: the worker's socket timeout.
  const { db, domain, close } = await connectBench(config, WORKER_DB_TIMEOUTS);
  await startMonthBuckets(db);
  const account = await createAccount(db, { name: 'Bench analytics' });
  const tenant: Tenant = { accountId: account._id, env: 'live' };
  await setAccountRateLimit(db, account._id, 10_000_000);
  await setAccountTimeZone(db, account._id, TIME_ZONE);
  const { apiKey } = await createApiKey(db, { accountId: account._id, env: 'live', scopes: SCOPES });
  const groups: string[] = [];
  const started = Date.now();
  for (let i = 0; i < GROUPS; i++) groups.push((await createGroup(db, tenant, { name: `Grupo ${i}` }))._id);
  const segments = Array.from({ length: SEGMENTS }, (_, i) => `seg_bench${String(i).padStart(6, '0')}`);
  const offers: string[] = [];
  for (let i = 0; i < OFFERS; i += 20) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(20, OFFERS - i) }, (_, j) =>
        createOffer(domain, tenant, {
          url: `https://shop.example/bench/analytics-${i + j}`,
          title: `Oferta ${i + j}`,
          price: 100 + j,
          currency: 'BRL',
        }),
      ),
    );
    offers.push(...batch.map((r) => r.offer._id));
  }
  log(`bench: ${GROUPS} groups and ${OFFERS} offers created in ${seconds(started)} s; writing the buckets of ${DAYS} days`);
  const writing = Date.now();

  const rnd = random(42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const start = Date.now() - (DAYS - 1) * 86_400_000;
  let clicks = 0;
  let publications = 0;
  // A week of facts per addToBuckets call: its month documents move once a week rather than once a day.
  let facts: BucketFact[] = [];
  for (let d = 0; d < DAYS; d++) {
    const dayStart = start + d * 86_400_000;
    const live = Array.from({ length: LIVE_OFFERS }, (_, i) => offers[(d * Math.round(LIVE_OFFERS / 3.4) + i) % OFFERS]!);
    const wantPublications = Math.round(((d + 1) * PUBLICATIONS) / DAYS) - publications;
    for (let p = 0; p < wantPublications; p++) {
      const segment = pick(segments);
      const publication = {
        offer_id: pick(live),
        segment_id: segment,
        source: pick(MARKETPLACES),
        queued_at: new Date(dayStart + rnd() * 86_400_000),
        group_ids: ((first: number) => Array.from({ length: 8 }, (_, i) => groups[(first + i) % GROUPS]!))(Math.floor(rnd() * GROUPS)),
      };
      facts.push(queuedFact(publication));
      let sent = 0;
      for (const group_id of publication.group_ids) {
        const ok = rnd() < 0.95;
        sent += ok ? 1 : 0;
        facts.push(deliveryFact({ group_id, queued_at: publication.queued_at }, ok ? 'sent' : 'failed'));
      }
      facts.push(completedFact(publication, sent === 8 ? 'sent' : sent === 0 ? 'failed' : 'partial'));
    }
    publications += wantPublications;
    const wantClicks = Math.round(((d + 1) * CLICKS) / DAYS) - clicks;
    for (let c = 0; c < wantClicks; c++) {
      // More in the evening: a click's hour leans towards 18–23 h.
      const at = new Date(dayStart + Math.min(0.9999, Math.sqrt(rnd())) * 86_400_000);
      const counter = rnd() < 0.05 ? 'bot_clicks' : 'clicks';
      const offer = pick(live);
      const source = pick(MARKETPLACES);
      const fromStore = rnd() < 0.3;
      const keyed: [Dimension, string][] = [
        ['offers', offer],
        ['sources', source],
        ...(fromStore
          ? ([
              ['pages', `pag_bench${String(Math.floor(rnd() * PAGES)).padStart(4, '0')}`],
              ['elements', `element-${Math.floor(rnd() * ELEMENTS)}`],
            ] as [Dimension, string][])
          : ([
              ['groups', pick(groups)],
              ['segments', pick(segments)],
            ] as [Dimension, string][])),
      ];
      const incs: BucketIncrement[] = [
        { dimension: 'totals', counter, by: 1 },
        { dimension: 'hours', counter, by: 1 },
        ...keyed.map(([dimension, key]) => ({ dimension, key, counter, by: 1 })),
      ];
      // About 1% of people's clicks sell: a commission in integer minor units, mostly in reais.
      if (counter === 'clicks' && rnd() < 0.0105) {
        const currency = rnd() < 0.9 ? 'BRL' : 'USD';
        const amount = 100 + Math.floor(rnd() * 20_000);
        for (const [dimension, key] of [['totals', undefined], ...keyed.filter(([dim]) => dim !== 'pages' && dim !== 'elements')] as [
          Dimension,
          string | undefined,
        ][]) {
          incs.push({ dimension, ...(key ? { key } : {}), counter: `commissions.${currency}.count`, by: 1 });
          incs.push({ dimension, ...(key ? { key } : {}), counter: `commissions.${currency}.amount_minor`, by: amount });
        }
      }
      facts.push({ at, incs });
    }
    clicks += wantClicks;
    if (d % 7 === 6 || d === DAYS - 1) {
      await addToBuckets(db, tenant, facts);
      facts = [];
    }
  }
  const docs = await db.collection('analytics_buckets').countDocuments({});
  log(`bench: ${clicks} clicks and ${publications} publications counted in ${docs} bucket documents in ${seconds(writing)} s`);
  // Every report once, as a deployment's first reports: their closed parts packed.
  const packing = Date.now();
  const page = { limit: 30, offset: 0 };
  for (const days of [30, 365]) {
    const q = { days, include_bots: false };
    await summaryReport(db, tenant, q);
    await timeseriesReport(db, tenant, q);
    await groupsReport(db, tenant, q, page);
    await offersReport(db, tenant, { ...q, sort: 'publications' }, page);
    await sourcesReport(db, tenant, q, page);
    await heatmapReport(db, tenant, q);
  }
  await packingsDone();
  log(`bench: closed parts packed in ${seconds(packing)} s`);
  await close();
  return { tenant, apiKey, docs };
}

const seconds = (since: number): string => ((Date.now() - since) / 1000).toFixed(0);

function get(agent: Agent, port: number, path: string, apiKey: string): Promise<{ ms: number; status: number; body: string }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            ms: Number(process.hrtime.bigint() - started) / 1e6,
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const OPERATIONS: ReportName[] = ['summary', 'timeseries', 'groups', 'offers', 'sources', 'heatmap'];

async function main(): Promise<void> {
  await withStack('offerops-bench-analytics-', async (bench) => {
    const stack = await bench.startStack();
    const config = serveConfig(stack, `bench_${randomBytes(4).toString('hex')}`);
    const seeded = await seed(config);
    const {
      child,
      ready: { port },
    } = await forkServer<{ port: number }>(__filename, config);
    const mongo = await connectMongo(config);
    const coll = mongo.db.collection<BucketDoc>('analytics_buckets');
    /** The bare read of one bucket document by `_id`, a keyed dimension's shards by one `$in` read (as readBucketDocs reads them). */
    const bareRead = (id: string) =>
      isKeyedId(id)
        ? coll
            .find({ _id: { $in: shardIds(id) } }, { limit: KEY_SHARDS + 1 })
            .toArray()
            .then((docs) => docs[0] ?? null)
        : coll.findOne({ _id: id });
    const monthsFrom = await monthBucketsFrom(mongo.db);
    log('bench: measuring');
    const rows: string[] = [];
    let met = true;
    for (const days of [30, 365]) {
      const list = windowDays(new Date(), days, TIME_ZONE);
      for (const name of OPERATIONS) {
        // What the report reads on every request, and what a process reads the first time (reads.ts).
        const read = reportBucketIds(seeded.tenant, reportPlans(seeded.tenant, name, list, monthsFrom, openFrom(new Date())));
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        const path = `/api/v1/analytics/${name}?days=${days}${name === 'groups' || name === 'offers' ? '&limit=30' : ''}`;
        const ours: number[] = [];
        const bare: number[] = [];
        let bytes = 0;
        let found = 0;
        let first = 0;
        for (let i = 0; i < REQUESTS + 3; i++) {
          const res = await get(agent, port, path, seeded.apiKey);
          if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.body.slice(0, 300)}`);
          if (i === 0) first = res.ms;
          const t0 = process.hrtime.bigint();
          const docs = await Promise.all(read.every.map(bareRead));
          const t1 = Number(process.hrtime.bigint() - t0) / 1e6;
          if (i >= 3) {
            ours.push(res.ms);
            bare.push(t1);
          }
          bytes = res.body.length;
          found = docs.filter(Boolean).length;
        }
        agent.destroy();
        const t0 = process.hrtime.bigint();
        await Promise.all([...read.every, ...read.closed].map(bareRead));
        const coldBare = Number(process.hrtime.bigint() - t0) / 1e6;
        const [o, b, o90] = [quantile(ours, 0.5), quantile(bare, 0.5), quantile(ours, 0.9)];
        const ok = o <= 2 * b && o < 50 && o90 < 80;
        met &&= ok;
        const f = (x: number) => x.toFixed(1).padStart(8);
        rows.push(
          `${String(days).padStart(4)} ${name.padEnd(11)} ${`${found}+${read.closed.length}`.padStart(6)} ${f(o)} ${f(b)} ${ratio(o / b, 6, ok)} ${f(o90)} ${f(first)} ${f(coldBare)} ${String(bytes).padStart(7)}`,
        );
      }
    }
    await mongo.client.close();
    console.log(
      `\nanalytics benchmark: ${CLICKS} clicks, ${PUBLICATIONS} publications over ${DAYS} days (${GROUPS} groups, ${OFFERS} offers) in ${seeded.docs} bucket documents; ${REQUESTS} sequential keep-alive requests per operation and window (after 3 warm-up)`,
    );
    console.log(
      'Goal: p50 ≤ 2× the bare driver read of what the report reads on every request (findOne by _id, all in flight), p50 < 50 ms, p90 < 80 ms (! marks a miss)',
    );
    console.log(
      'docs: read on every request + packed closed parts; first: the first request of a fresh API process; cold bare: the bare read of both\n',
    );
    console.log(
      `${'days'.padStart(4)} ${'operation'.padEnd(11)} ${'docs'.padStart(6)} ${'p50 ms'.padStart(8)} ${'bare'.padStart(8)} ${'ratio'.padStart(7)}  ${'p90 ms'.padStart(8)} ${'first'.padStart(8)} ${'coldbare'.padStart(8)} ${'bytes'.padStart(7)}`,
    );
    for (const row of rows) console.log(row);
    console.log(met ? '\nEvery goal met.' : '\nSome goals missed (!).');
    await stopServer(child);
  });
}

runBench(main, { serve: () => serve(childConfig<ServeConfig>()) });
