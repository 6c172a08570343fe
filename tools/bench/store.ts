/**
 * `npm run bench:store`: the public storefront's home page (a store with a
 * collection of BENCH_OFFERS approved offers and a few pages) served by the
 * API process — its whole chain: request id, access log, store look-up,
 * collections, offers, pages, rendering, ETag — beside a bare Koa handler
 * answering the same HTML from memory, as a p50/p90 ratio (goal p50 ≤ 2×).
 * Two rows: with the storefront's render cache as deployed (STOREFRONT_CACHE_MS)
 * and with it off (every request reads the database and renders). The
 * servers run in a child process; sequential keep-alive requests alternate
 * between them so drift hits both alike. Load goes to loopback only. Options:
 * BENCH_REQUESTS (default 1000), BENCH_OFFERS (default 24).
 */
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import Koa from 'koa';
import { closeApp, createApp } from '../../api/app';
import { STOREFRONT_CACHE_MS } from '../../api/storefront';
import { createAccount } from '../../domain/accounts/store';
import { Tenant } from '../../domain/db';
import { createOffer, updateOffer } from '../../domain/offers/service';
import { setCollection } from '../../domain/store/admin';
import { createPage, updateStore } from '../../domain/store/service';
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

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const OFFERS = Number(process.env.BENCH_OFFERS ?? 24);
const SUBDOMAIN = 'bench-store';

function get(agent: Agent, port: number, path: string): Promise<{ ms: number; status: number; body: string }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { accept: 'text/html' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** Child: the API with its render cache, the API without it, and the bare handler serving the same HTML. */
async function serve(config: ServeConfig): Promise<void> {
  const { deps, close } = await apiDeps(config);
  const cached = createApp(deps);
  const uncached = createApp({ ...deps, storefrontCacheMs: 0 });
  const servers = [await listen(cached.callback()), await listen(uncached.callback())];
  const agent = new Agent({ keepAlive: false });
  const page = await get(agent, portOf(servers[0]!), `/s/${SUBDOMAIN}/`);
  if (page.status !== 200) throw new Error(`the storefront answered ${page.status}`);
  const bare = new Koa();
  bare.use((ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page.body;
  });
  servers.push(await listen(bare.callback()));
  serveUntilStopped(
    servers,
    { cached: portOf(servers[0]!), uncached: portOf(servers[1]!), bare: portOf(servers[2]!), bytes: Buffer.byteLength(page.body) },
    () => Promise.all([closeApp(cached), closeApp(uncached)]).then(close),
  );
}

async function seed(config: ServeConfig): Promise<void> {
  const { db, domain, close } = await connectBench(config);
  const account = await createAccount(db, { name: 'Bench store' });
  const tenant: Tenant = { accountId: account._id, env: 'live' };
  const site = {};
  await updateStore(domain, tenant, account, site, {
    name: 'Bench store',
    subdomain: SUBDOMAIN,
    tagline: 'Ofertas escolhidas',
    theme: 'magazine',
    seo_title: 'Bench store: ofertas',
    seo_description: 'A store for the benchmark.',
    contact: { kind: 'telegram', url: 'https://t.me/bench' },
    active: true,
  });
  const ids: string[] = [];
  for (let i = 0; i < OFFERS; i++) {
    const { offer } = await createOffer(domain, tenant, {
      url: `https://shop.example/bench/store-${i}`,
      title: `Oferta ${i}`,
      price: 100 + i,
      original_price: 150 + i,
      currency: 'BRL',
      image: `https://cdn.example/bench/${i}.jpg`,
    });
    await updateOffer(domain, tenant, offer._id, { status: 'approved' });
    ids.push(offer._id);
  }
  await setCollection(db, tenant, { title: 'Destaques', offer_ids: ids });
  for (let i = 0; i < 3; i++)
    await createPage(domain, tenant, account, site, { title: `Página ${i}`, body: `# Página ${i}\n\nTexto.`, published: true });
  await close();
}

async function main(): Promise<void> {
  await withStack('offerops-bench-store-', async (bench) => {
    const stack = await bench.startStack();
    const config = serveConfig(stack, `bench_${randomBytes(4).toString('hex')}`);
    await seed(config);
    const { child, ready: ports } = await forkServer<{ cached: number; uncached: number; bare: number; bytes: number }>(__filename, config);
    log('bench: seeded; measuring');
    const path = `/s/${SUBDOMAIN}/`;
    const rows: string[] = [];
    for (const [name, port] of [
      [`home, render cache ${STOREFRONT_CACHE_MS} ms`, ports.cached],
      ['home, no render cache', ports.uncached],
    ] as const) {
      const agents = [new Agent({ keepAlive: true, maxSockets: 1 }), new Agent({ keepAlive: true, maxSockets: 1 })] as const;
      const ours: number[] = [];
      const bare: number[] = [];
      for (let i = 0; i < Math.min(100, REQUESTS) + REQUESTS; i++) {
        const a = await get(agents[0], port, path);
        const b = await get(agents[1], ports.bare, path);
        if (a.status !== 200 || b.status !== 200) throw new Error(`answers ${a.status} and ${b.status}`);
        if (i >= Math.min(100, REQUESTS)) {
          ours.push(a.ms);
          bare.push(b.ms);
        }
      }
      for (const a of agents) a.destroy();
      const r50 = quantile(ours, 0.5) / quantile(bare, 0.5);
      const r90 = quantile(ours, 0.9) / quantile(bare, 0.9);
      const f = (x: number) => x.toFixed(2).padStart(7);
      rows.push(
        `${name.padEnd(30)} ${f(quantile(ours, 0.5))} ${f(quantile(bare, 0.5))} ${ratio(r50, 6, r50 <= 2)} ${f(quantile(ours, 0.9))} ${f(quantile(bare, 0.9))} ${ratio(r90, 6)}`,
      );
    }
    console.log(
      `\nstore benchmark: ${REQUESTS} sequential keep-alive GET ${path} per side (after 100 warm-up), ${OFFERS} offers, ${ports.bytes} bytes of HTML`,
    );
    console.log('Goal: p50 ≤ 2× the bare Koa handler serving the same HTML from memory (! marks a miss)\n');
    console.log(
      `${'page'.padEnd(30)} ${'p50 ms'.padStart(7)} ${'bare'.padStart(7)} ${'ratio'.padStart(8)} ${'p90 ms'.padStart(7)} ${'bare'.padStart(7)} ${'ratio'.padStart(7)}`,
    );
    for (const row of rows) console.log(row);
    await stopServer(child);
  });
}

runBench(main, { serve: () => serve(childConfig<ServeConfig>()) });
