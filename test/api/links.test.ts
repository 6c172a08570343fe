/**
 * Link conversion and tracked links on the real stack: each marketplace's
 * integration, short links followed through a fake shortener (loopback,
 * allowed the way webhook tests allow it), Shopee's API through a fake, the
 * errors, the public redirect and the clicks it records (people and machines
 * apart), their buckets, the flush on close, and tenancy.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createHash } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ApiClient } from '../helpers/client';
import { seedTenant, startTestApp, Tenant, TestApp } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { bucketsState, clicksState } from '../helpers/states';
import { putIntegration } from '../../domain/integrations/store';
import { IntegrationConfig } from '../../domain/marketplaces';
import { secretKeyFromEnv } from '../../domain/sealing';
import { bucketId, readBuckets } from '../../domain/analytics/buckets';
import { clickById } from '../../domain/links/clicks';
import { newId } from '../../domain/ids';

let app: TestApp;
let tenant: Tenant;
let api: ApiClient;
let shortener: Server;
let shortOrigin: string;
let shopeeApi: Server;
const shopeeCalls: { authorization: string; body: string }[] = [];

/** A fake shortener: `/to/<encoded URL>` redirects there; `/hop/<n>/<encoded>` redirects n times first; `/loop` forever. */
function startShortener(): Server {
  return createServer((req, res) => {
    const path = req.url ?? '/';
    const hop = /^\/hop\/(\d+)\/(.+)$/.exec(path);
    let location: string | null = null;
    if (path.startsWith('/to/')) location = decodeURIComponent(path.slice(4));
    else if (hop) location = Number(hop[1]) > 0 ? `/hop/${Number(hop[1]) - 1}/${hop[2]}` : decodeURIComponent(hop[2]!);
    else if (path === '/loop') location = '/loop';
    else if (path === '/head-refused' && req.method === 'HEAD') {
      res.writeHead(405).end();
      return;
    } else if (path === '/head-refused') location = 'https://www.amazon.com.br/dp/B0HEAD0001';
    if (location) res.writeHead(301, { location }).end();
    else res.writeHead(404).end();
  });
}

function startShopeeApi(): Server {
  return createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const authorization = req.headers.authorization ?? '';
      shopeeCalls.push({ authorization, body });
      const m = /^SHA256 Credential=(\d+), Timestamp=(\d+), Signature=([0-9a-f]{64})$/.exec(authorization);
      const expected = m && createHash('sha256').update(`${m[1]}${m[2]}${body}S3CRET`).digest('hex');
      res.writeHead(200, { 'content-type': 'application/json' });
      if (!m || m[3] !== expected) res.end(JSON.stringify({ errors: [{ message: 'Invalid Signature', extensions: { code: 10020 } }] }));
      else res.end(JSON.stringify({ data: { generateShortLink: { shortLink: 'https://s.shopee.com.br/AbCdE123' } } }));
    });
  });
}

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const KEY = secretKeyFromEnv();
const integrate = (t: Tenant, config: IntegrationConfig) => putIntegration(app.db, { accountId: t.accountId, env: t.env }, config, KEY);

before(async () => {
  shortener = startShortener();
  shopeeApi = startShopeeApi();
  shortOrigin = await listen(shortener);
  const shopeeOrigin = await listen(shopeeApi);
  app = await startTestApp({
    webhookAllow: ['127.0.0.1'],
    shortLinkHosts: ['127.0.0.1', '10.1.2.3'],
    shopeeApiUrl: `${shopeeOrigin}/graphql`,
    clickFlushMs: 50,
    publicUrl: 'https://go.example.com',
  });
  tenant = await seedTenant(app.db);
  api = new ApiClient(app.baseUrl, tenant.apiKey);
  await integrate(tenant, { marketplace: 'amazon', tag: 'loja-20' });
  await integrate(tenant, { marketplace: 'mercadolivre', tool: '12345678', word: 'lojadamaria' });
  await integrate(tenant, { marketplace: 'aliexpress', params: { aff_fcid: 'fc1', aff_platform: 'portals-tool', sk: '_skx' } });
  await integrate(tenant, { marketplace: 'magalu', store: 'magazinelojadamaria' });
  await integrate(tenant, { marketplace: 'other', template: 'https://track.example.net/c?u={url}&s={sub_id}', hosts: ['kabum.com.br'] });
});
after(async () => {
  await app.close();
  shortener.close();
  shopeeApi.close();
});

const convert = (body: Record<string, unknown>, client = api) => client.post('/links/convert', body);

describe('POST /links/convert', () => {
  test('amazon: others’ tag and tracking removed, our tag applied, sub_id in ascsubtag, a tracked short link', async () => {
    const res = await convert({
      url: 'https://www.amazon.com.br/dp/B0ABCDEF12/ref=sr_1_3?tag=someone-20&utm_source=x&psc=1&linkCode=ll1',
      sub_id: 'promo1',
    });
    assert.equal(res.status, 200, res.text);
    const d = res.body.data;
    assert.equal(d.marketplace, 'amazon');
    assert.equal(d.affiliate_url, 'https://www.amazon.com.br/dp/B0ABCDEF12?psc=1&tag=loja-20&ascsubtag=promo1');
    assert.match(d.integration, /^int_/);
    assert.match(d.short_url, /^https:\/\/go\.example\.com\/l\/[a-z2-9]{12}$/);
    assert.match(d.link_id, /^lnk_[a-z2-9]{12}$/);
    assert.equal(d.resolved_url, null);
    const event = await app.db.collection('events').findOne({ kind: 'link.created', 'data.link_id': d.link_id });
    assert.ok(event);
  });

  test('mercadolivre, aliexpress, magalu and other', async () => {
    const ml = await convert({
      url: 'https://produto.mercadolivre.com.br/MLB-123-tenis-_JM?matt_tool=999&matt_word=outro&utm_medium=a#reco_id=x',
    });
    assert.equal(ml.status, 200, ml.text);
    assert.equal(ml.body.data.affiliate_url, 'https://produto.mercadolivre.com.br/MLB-123-tenis-_JM?matt_tool=12345678&matt_word=lojadamaria');
    const ali = await convert({ url: 'https://pt.aliexpress.com/item/1005001.html?spm=a2g0o&aff_fcid=theirs&algo_pvid=1' });
    assert.equal(ali.body.data.affiliate_url, 'https://pt.aliexpress.com/item/1005001.html?aff_fcid=fc1&aff_platform=portals-tool&sk=_skx');
    const magalu = await convert({ url: 'https://www.magazineluiza.com.br/smartphone-x/p/237184100/te/smxs/?seller_id=1' });
    assert.equal(magalu.body.data.affiliate_url, 'https://www.magazinevoce.com.br/magazinelojadamaria/smartphone-x/p/237184100/');
    const other = await convert({ url: 'https://www.kabum.com.br/produto/1?utm_source=z', sub_id: 'g1' });
    assert.equal(other.body.data.marketplace, 'other');
    assert.equal(
      other.body.data.affiliate_url,
      `https://track.example.net/c?u=${encodeURIComponent('https://www.kabum.com.br/produto/1')}&s=g1`,
    );
  });

  test('a short link is followed (HEAD, then GET where HEAD is refused) through the fake shortener', async () => {
    const target = 'https://www.amazon.com.br/dp/B0SHORT001?tag=other-20';
    const res = await convert({ url: `${shortOrigin}/hop/2/${encodeURIComponent(target)}` });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.resolved_url, target);
    assert.equal(res.body.data.affiliate_url, 'https://www.amazon.com.br/dp/B0SHORT001?tag=loja-20');
    const head = await convert({ url: `${shortOrigin}/head-refused` });
    assert.equal(head.status, 200, head.text);
    assert.equal(head.body.data.affiliate_url, 'https://www.amazon.com.br/dp/B0HEAD0001?tag=loja-20');
  });

  test('short links: too many redirects, a dead end and a refused address are 400 link_unresolvable', async () => {
    const loop = await convert({ url: `${shortOrigin}/loop` });
    assert.equal(loop.status, 400);
    assert.equal(loop.body.code, 'link_unresolvable');
    assert.match(loop.body.message, /more than 5 redirects/);
    const dead = await convert({ url: `${shortOrigin}/nothing` });
    assert.equal(dead.body.code, 'link_unresolvable');
    // A shortener pointing at another short link on a private address: refused by the webhook rules.
    const priv = await convert({ url: `${shortOrigin}/to/${encodeURIComponent('https://10.1.2.3/x')}` });
    assert.equal(priv.status, 400);
    assert.equal(priv.body.code, 'link_unresolvable');
    assert.match(priv.body.message, /private/);
  });

  test('shopee: the affiliate redirect with our affiliate id, and the API short link when it has credentials', async () => {
    const other = await seedTenant(app.db);
    await integrate(other, { marketplace: 'shopee', affiliate_id: '1800', app_id: '77', app_secret: 'S3CRET' });
    const res = await convert(
      { url: 'https://shopee.com.br/Fone-i.123.456?sp_atk=abc&xptdk=def', sub_id: 'grp1' },
      new ApiClient(app.baseUrl, other.apiKey),
    );
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.affiliate_url, 'https://s.shopee.com.br/AbCdE123');
    const call = shopeeCalls.at(-1)!;
    assert.match(call.body, /originUrl:\\"https:\/\/shopee.com.br\/Fone-i.123.456\\"/);
    assert.match(call.body, /subIds:\[\\"grp1\\"\]/);
    const link = await app.db.collection('links').findOne({ _id: res.body.data.link_id } as object);
    assert.match(link!.target, /^https:\/\/s\.shopee\.com\.br\/an_redir\?origin_link=.+&affiliate_id=1800&sub_id=\{click_id\}$/);
    const bad = await seedTenant(app.db);
    await integrate(bad, { marketplace: 'shopee', affiliate_id: '1801', app_id: '78', app_secret: 'WRONG' });
    const refused = await convert({ url: 'https://shopee.com.br/Fone-i.123.456' }, new ApiClient(app.baseUrl, bad.apiKey));
    assert.equal(refused.status, 503);
    assert.equal(refused.body.code, 'service_unavailable');
    assert.ok(!refused.text.includes('WRONG'));
  });

  test('no integration for the marketplace: 404 integration_missing naming it; unknown host: 400 unknown_marketplace', async () => {
    const missing = await convert({ url: 'https://shopee.com.br/x-i.1.2' });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'integration_missing');
    assert.match(missing.body.message, /shopee/);
    const unknown = await convert({ url: 'https://www.example.org/p/1' });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 'unknown_marketplace');
    assert.match(unknown.body.message, /www\.example\.org/);
    const mismatch = await convert({ url: 'https://www.amazon.com.br/dp/B0ABCDEF12', marketplace: 'magalu' });
    assert.equal(mismatch.body.code, 'unknown_marketplace');
  });

  test('bounds: body closed, url http(s) and ≤ 2000, sub_id pattern, offer_id of this account', async () => {
    assert.equal((await convert({ url: 'ftp://www.amazon.com.br/dp/B0' })).status, 400);
    assert.equal((await convert({ url: `https://www.amazon.com.br/dp/B0?q=${'a'.repeat(2000)}` })).status, 400);
    assert.equal((await convert({ url: 'https://www.amazon.com.br/dp/B0', sub_id: 'has space' })).status, 400);
    assert.equal((await convert({ url: 'https://www.amazon.com.br/dp/B0', sub_id: 'x'.repeat(65) })).status, 400);
    assert.equal((await convert({ url: 'https://www.amazon.com.br/dp/B0', shorten: true })).status, 400);
    const ref = await convert({ url: 'https://www.amazon.com.br/dp/B0', offer_id: 'off_0000000000000000000000' });
    assert.equal(ref.status, 400);
    assert.equal(ref.body.code, 'unknown_reference');
  });

  test("tenancy: another account's integration is never used, nor its offer", async () => {
    const other = await seedTenant(app.db);
    const client = new ApiClient(app.baseUrl, other.apiKey);
    const res = await convert({ url: 'https://www.amazon.com.br/dp/B0ABCDEF12' }, client);
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'integration_missing');
    const offer = await api.post('/offers', { title: 'Fone', url: 'https://www.amazon.com.br/dp/B0OFFER001', price: 10, currency: 'BRL' });
    assert.equal(offer.status, 201, offer.text);
    await integrate(other, { marketplace: 'amazon', tag: 'other-20' });
    const foreign = await convert({ url: 'https://www.amazon.com.br/dp/B0ABCDEF12', offer_id: offer.body.data.id }, client);
    assert.equal(foreign.body.code, 'unknown_reference');
    const own = await convert({ url: 'https://www.amazon.com.br/dp/B0ABCDEF12' }, client);
    assert.match(own.body.data.affiliate_url, /tag=other-20$/);
  });
});

describe('GET /l/{code}', () => {
  const click = (shortUrl: string, headers: Record<string, string> = {}, query = '') =>
    fetch(`${app.origin}${new URL(shortUrl).pathname}${query}`, { redirect: 'manual', headers });

  test('302 to the affiliate URL with the click id as sub-id; the click recorded with its dimensions and counted in buckets', async () => {
    const offer = await api.post('/offers', { title: 'Mouse', url: 'https://www.amazon.com.br/dp/B0MOUSE001', price: 50, currency: 'BRL' });
    const res = await convert({ url: 'https://www.amazon.com.br/dp/B0MOUSE001', offer_id: offer.body.data.id });
    const reply = await click(
      res.body.data.short_url,
      {
        'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148',
        referer: 'https://lojas.example.com/s/x/',
        'cf-ipcountry': 'BR',
      },
      '?p=pg_home&e=hero',
    );
    assert.equal(reply.status, 302);
    assert.equal(reply.headers.get('cache-control'), 'no-store');
    const location = reply.headers.get('location')!;
    const m = /^https:\/\/www\.amazon\.com\.br\/dp\/B0MOUSE001\?tag=loja-20&ascsubtag=(clk_[0-9a-z]+)$/.exec(location);
    assert.ok(m, location);
    const doc = await waitFor(
      'the click',
      async () => (await clickById(app.db, tenant, m[1]!)) ?? undefined,
      30_000,
      () => clicksState(app.db, tenant, [m[1]!]),
    );
    assert.equal(doc.account_id, tenant.accountId);
    assert.equal(doc.link_id, res.body.data.link_id);
    assert.equal(doc.offer_id, offer.body.data.id);
    assert.equal(doc.marketplace, 'amazon');
    assert.equal(doc.page_id, 'pg_home');
    assert.equal(doc.element, 'hero');
    assert.equal(doc.referrer_host, 'lojas.example.com');
    assert.equal(doc.ua_class, 'mobile');
    assert.equal(doc.bot, false);
    assert.equal(doc.country, 'BR');
    assert.match(doc.ip_hash!, /^[A-Za-z0-9_-]{22}$/);
    const batch = await app.db.collection('clicks').findOne({ _id: m[1]!.slice(0, -3) } as object);
    assert.ok(batch && !JSON.stringify(batch).includes('127.0.0.1'));
    const day = doc.at.toISOString().slice(0, 10);
    const t = { accountId: tenant.accountId, env: tenant.env };
    const totals = await waitFor(
      'the totals bucket',
      async () => (await app.db.collection('analytics_buckets').findOne({ _id: bucketId(t, day, 'totals') } as object)) ?? undefined,
      30_000,
      () => bucketsState(app.db, `${t.accountId}:${t.env}:${day}:`),
    );
    assert.ok(totals.c.clicks >= 1);
    const [offers] = await readBuckets(app.db, t, 'offers', [day]);
    assert.equal((offers!.c[offer.body.data.id] as { clicks: number }).clicks, 1);
    const [sources] = await readBuckets(app.db, t, 'sources', [day]);
    assert.ok((sources!.c.amazon as { clicks: number }).clicks >= 1);
    const [elements] = await readBuckets(app.db, t, 'elements', [day]);
    assert.equal((elements!.c.hero as { clicks: number }).clicks, 1);
  });

  test('link previews, crawlers and prefetches count as bot_clicks, not clicks', async () => {
    const res = await convert({ url: 'https://www.amazon.com.br/dp/B0BOTS0001' });
    const agents: Record<string, string>[] = [
      { 'user-agent': 'WhatsApp/2.23.20.0 A' },
      { 'user-agent': 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)' },
      { 'user-agent': 'TelegramBot (like TwitterBot)' },
      { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
      { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0', purpose: 'prefetch' },
    ];
    const ids: string[] = [];
    for (const headers of agents) {
      const reply = await click(res.body.data.short_url, headers);
      assert.equal(reply.status, 302);
      ids.push(/(clk_[0-9a-z]+)$/.exec(reply.headers.get('location')!)![1]!);
    }
    const docs = await waitFor(
      'the clicks',
      async () => {
        const found = await Promise.all(ids.map((id) => clickById(app.db, tenant, id)));
        return found.every((d) => d !== null) ? found : undefined;
      },
      30_000,
      () => clicksState(app.db, tenant, ids),
    );
    assert.deepEqual(
      docs.map((d) => d.bot),
      [true, true, true, true, true],
    );
    assert.deepEqual(new Set(docs.map((d) => d.ua_class)), new Set(['preview', 'bot', 'prefetch']));
    const day = docs[0]!.at.toISOString().slice(0, 10);
    const totals = await app.db
      .collection('analytics_buckets')
      .findOne({ _id: bucketId({ accountId: tenant.accountId, env: tenant.env }, day, 'totals') } as object);
    assert.ok(totals!.c.bot_clicks >= 5);
  });

  test("HEAD redirects too; the body is Koa's (HTML unless the client takes only other types)", async () => {
    const res = await convert({ url: 'https://www.amazon.com.br/dp/B0HEADS001' });
    const url = `${app.origin}${new URL(res.body.data.short_url).pathname}`;
    const head = await fetch(url, { method: 'HEAD', redirect: 'manual' });
    assert.equal(head.status, 302);
    assert.match(head.headers.get('location')!, /^https:\/\/www\.amazon\.com\.br\/dp\/B0HEADS001\?tag=loja-20&ascsubtag=clk_[0-9a-z]+$/);
    assert.match(head.headers.get('x-request-id')!, /^req_/);
    assert.equal(await head.text(), '');
    const html = await fetch(url, { redirect: 'manual' });
    assert.equal(html.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(await html.text(), `Redirecting to ${html.headers.get('location')!.replaceAll('&', '&amp;')}.`);
    const plain = await fetch(url, { redirect: 'manual', headers: { accept: 'application/json' } });
    assert.equal(plain.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(await plain.text(), `Redirecting to ${plain.headers.get('location')}.`);
  });

  test('an unknown or malformed code is a 404 page', async () => {
    for (const path of ['/l/abcdefghjkmn', '/l/short', '/l/ABCDEFGHJKMN']) {
      const reply = await fetch(`${app.origin}${path}`, { redirect: 'manual' });
      assert.equal(reply.status, 404);
      assert.match(reply.headers.get('content-type') ?? '', /text\/html/);
    }
    const post = await fetch(`${app.origin}/l/abcdefghjkmn`, { method: 'POST' });
    assert.equal(post.status, 405);
  });

  test('clicks waiting in the buffer are written when the app closes cleanly', async () => {
    const second = await startTestApp({ dbName: app.dbName, clickFlushMs: 3_600_000, publicUrl: 'https://go.example.com' });
    const res = await convert({ url: 'https://www.amazon.com.br/dp/B0CLOSE001' });
    const reply = await fetch(`${second.origin}${new URL(res.body.data.short_url).pathname}`, {
      redirect: 'manual',
      headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0) Chrome/120' },
    });
    assert.equal(reply.status, 302);
    const id = /(clk_[0-9a-z]+)$/.exec(reply.headers.get('location')!)![1]!;
    assert.equal(await clickById(app.db, tenant, id), null, 'waits in the buffer (flushed hourly here)');
    await second.close();
    const doc = await clickById(app.db, tenant, id);
    assert.equal(doc?.ua_class, 'desktop');
  });

  test("a tenant's clicks of one flush are one document; each click is read by its id, only by its tenant", async () => {
    const second = await startTestApp({ dbName: app.dbName, clickFlushMs: 3_600_000, publicUrl: 'https://go.example.com' });
    const offer = await api.post('/offers', { title: 'Teclado', url: 'https://www.amazon.com.br/dp/B0BATCH001', price: 90, currency: 'BRL' });
    const a = await convert({ url: 'https://www.amazon.com.br/dp/B0BATCH001', offer_id: offer.body.data.id });
    const b = await convert({ url: 'https://www.amazon.com.br/dp/B0BATCH002' });
    const ids: string[] = [];
    for (const [shortUrl, element] of [
      [a.body.data.short_url, 'hero'],
      [b.body.data.short_url, 'grid'],
      [a.body.data.short_url, 'grid'],
    ]) {
      const reply = await fetch(`${second.origin}${new URL(shortUrl).pathname}?e=${element}`, {
        redirect: 'manual',
        headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Mobile' },
      });
      assert.equal(reply.status, 302);
      ids.push(/(clk_[0-9a-z]+)$/.exec(reply.headers.get('location')!)![1]!);
    }
    await second.close();
    const batchIds = new Set(ids.map((id) => id.slice(0, -3)));
    assert.equal(batchIds.size, 1, ids.join(' '));
    const batch = await app.db.collection('clicks').findOne({ _id: [...batchIds][0] } as object);
    assert.equal(batch?.count, 3);
    const clicks = await Promise.all(ids.map((id) => clickById(app.db, tenant, id)));
    assert.deepEqual(
      clicks.map((c) => [c?._id, c?.link_id, c?.offer_id, c?.element]),
      [
        [ids[0], a.body.data.link_id, offer.body.data.id, 'hero'],
        [ids[1], b.body.data.link_id, undefined, 'grid'],
        [ids[2], a.body.data.link_id, offer.body.data.id, 'grid'],
      ],
    );
    const other = await seedTenant(app.db);
    assert.equal(await clickById(app.db, other, ids[0]!), null, "another tenant's click");
    assert.equal(await clickById(app.db, tenant, `${[...batchIds][0]}003`), null, 'past the batch');
    assert.equal(await clickById(app.db, tenant, [...batchIds][0]!), null, 'a batch id is no click id');
  });

  test('a click stored one document per click (by a build before batches) is still read by its id, only by its tenant', async () => {
    const id = newId('clk');
    const legacy = {
      _id: id,
      account_id: tenant.accountId,
      env: tenant.env,
      link_id: 'lnk_legacy',
      marketplace: 'amazon',
      offer_id: 'off_legacy',
      ua_class: 'mobile',
      bot: false,
      at: new Date(),
    };
    await app.db.collection('clicks').insertOne(legacy as object);
    assert.deepEqual(await clickById(app.db, tenant, id), legacy);
    assert.equal(await clickById(app.db, await seedTenant(app.db), id), null, "another tenant's click");
  });

  test('a removed link stops redirecting once its time in memory is over', async () => {
    const second = await startTestApp({ dbName: app.dbName, clickFlushMs: 50, linkCacheMs: 100, publicUrl: 'https://go.example.com' });
    try {
      const res = await convert({ url: 'https://www.amazon.com.br/dp/B0REMOVED1' });
      const url = `${second.origin}${new URL(res.body.data.short_url).pathname}`;
      assert.equal((await fetch(url, { redirect: 'manual' })).status, 302);
      await app.db.collection('links').deleteOne({ _id: res.body.data.link_id });
      let last = 0;
      await waitFor(
        'the 404',
        async () => ((last = (await fetch(url, { redirect: 'manual' })).status) === 404 ? true : undefined),
        30_000,
        () => `${url} last answered ${last}`,
      );
    } finally {
      await second.close();
    }
  });
});
