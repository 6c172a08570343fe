import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { request } from 'node:http';
import { setCollection } from '../../domain/store/admin';
import { verifyStoreDomain } from '../../domain/store/service';
import { ApiClient } from '../helpers/client';
import { addKey, seedTenant, startTestApp, TestApp } from '../helpers/stack';

let app: TestApp;

before(async () => {
  app = await startTestApp();
});
after(() => app.close());

let n = 0;
const uniqueSub = () => `vitrine-${process.pid}-${Date.now().toString(36)}-${n++}`;

const HOSTILE = [
  '# Guia',
  '',
  '<script>document.title = "pwned"</script>',
  '',
  '[clique](javascript:alert(1)) <img src="x" onerror="alert(1)">',
  '',
  '[Loja parceira](https://shop.example/parceira)',
].join('\n');

/** A live store with a collection (one approved, one pending offer) and two pages (one published). */
async function liveStore(opts: { active?: boolean } = {}) {
  const t = await seedTenant(app.db);
  const api = new ApiClient(app.baseUrl, t.apiKey);
  const sub = uniqueSub();
  const store = await api.patch('/store', {
    name: 'Achados & Cia',
    subdomain: sub,
    tagline: 'Ofertas <escolhidas>',
    seo_title: 'Achados: as melhores ofertas',
    seo_description: 'Ofertas escolhidas a dedo todos os dias.',
    theme: 'magazine',
    contact: { kind: 'telegram', url: 'https://t.me/achados' },
    active: opts.active ?? true,
  });
  assert.equal(store.status, 200, store.text);
  const approved = await api.post('/offers', {
    url: 'https://shop.example/p/cafeteira',
    title: 'Cafeteira Expresso',
    price: 149.9,
    original_price: 199.9,
    coupon: 'CAFE10',
  });
  assert.equal(approved.status, 201, approved.text);
  assert.equal((await api.patch(`/offers/${approved.body.data.id}`, { status: 'approved' })).status, 200);
  const pending = await api.post('/offers', { url: 'https://shop.example/p/pendente', title: 'Oferta Pendente', price: 5 });
  assert.equal(pending.status, 201, pending.text);
  await setCollection(app.db, t, { title: 'Cozinha', offer_ids: [pending.body.data.id, approved.body.data.id] });
  await setCollection(app.db, t, { title: 'Escondida', published: false, offer_ids: [approved.body.data.id] });
  const page = await api.post('/store/pages', {
    title: 'Guia de compras',
    body: HOSTILE,
    summary: 'Como comprar bem',
    seo_description: 'O guia da loja',
    cover: 'https://cdn.example/capa.jpg',
    published: true,
  });
  assert.equal(page.status, 201, page.text);
  await api.post('/store/pages', { title: 'Rascunho', body: 'ainda não', published: false });
  return { t, api, sub, origin: app.origin };
}

const get = (path: string, headers: Record<string, string> = {}) => fetch(app.origin + path, { headers, redirect: 'manual' });

describe('public storefront', () => {
  test('home: identity, theme, the published collection with its approved offers, pages, SEO and canonical', async () => {
    const { sub } = await liveStore();
    const res = await get(`/s/${sub}/`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=60');
    const html = await res.text();
    assert.match(html, /<title>Achados: as melhores ofertas<\/title>/);
    assert.match(html, /<meta property="og:description" content="Ofertas escolhidas a dedo todos os dias.">/);
    assert.ok(html.includes(`<link rel="canonical" href="${app.origin}/s/${sub}/">`));
    assert.match(html, /Achados &#38; Cia/);
    assert.match(html, /Ofertas &#60;escolhidas&#62;/, 'escaped, not markup');
    assert.match(html, /<h2>Cozinha<\/h2>/);
    assert.doesNotMatch(html, /Escondida/, 'an unpublished collection is not shown');
    assert.match(html, /href="https:\/\/shop.example\/p\/cafeteira"[^>]*>Cafeteira Expresso</);
    assert.match(html, /R\$\s149,90/);
    assert.match(html, /CAFE10/);
    assert.doesNotMatch(html, /Oferta Pendente/, 'only approved offers');
    assert.match(html, /href="https:\/\/t.me\/achados"/);
    assert.ok(html.includes(`href="${app.origin}/s/${sub}/guia-de-compras"`));
    assert.doesNotMatch(html, /Rascunho/, 'an unpublished page is not listed');
    assert.doesNotMatch(html, /<script/i);
    // A repeat with the ETag: 304.
    const etag = res.headers.get('etag');
    assert.ok(etag);
    assert.equal((await get(`/s/${sub}/`, { 'if-none-match': etag })).status, 304);
    // RFC 9110 §13.1.2: a list, a weak tag (weak comparison) and `*` match too; a list without it does not.
    for (const header of [`"other", ${etag}`, `W/${etag}`, `W/"x",W/${etag}`, '*']) {
      assert.equal((await get(`/s/${sub}/`, { 'if-none-match': header })).status, 304, header);
    }
    for (const header of ['"other"', `"other", W/"${etag.slice(1, -2)}"`]) {
      assert.equal((await get(`/s/${sub}/`, { 'if-none-match': header })).status, 200, header);
    }
    // Without the trailing slash: a redirect to it.
    const bare = await get(`/s/${sub}`);
    assert.equal(bare.status, 301);
    assert.equal(bare.headers.get('location'), `/s/${sub}/`);
  });

  test('a hostile Markdown page renders inert; its SEO fields and canonical', async () => {
    const { sub } = await liveStore();
    const res = await get(`/s/${sub}/guia-de-compras`);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<title>Guia de compras<\/title>/);
    assert.match(html, /<meta name="description" content="O guia da loja">/);
    assert.match(html, /<meta property="og:image" content="https:\/\/cdn.example\/capa.jpg">/);
    assert.ok(html.includes(`<link rel="canonical" href="${app.origin}/s/${sub}/guia-de-compras">`));
    assert.match(html, /<h1>Guia<\/h1>/);
    assert.match(html, /<a href="https:\/\/shop.example\/parceira"/);
    assert.doesNotMatch(html, /<script/i);
    // No tag with an on* attribute (quoted values, escaped, may say anything; written HTML shows as text).
    assert.doesNotMatch(html.replace(/"[^"]*"/g, '""'), /<[a-z][^>]*\son\w+=/i);
    assert.match(html, /&lt;script&gt;/, 'the script shows as text');
    assert.doesNotMatch(html, /href="javascript:/i);
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  });

  test('sitemap.xml and robots.txt', async () => {
    const { sub } = await liveStore();
    const map = await get(`/s/${sub}/sitemap.xml`);
    assert.equal(map.status, 200);
    assert.match(map.headers.get('content-type') ?? '', /^application\/xml/);
    const xml = await map.text();
    assert.ok(xml.includes(`<loc>${app.origin}/s/${sub}/</loc>`));
    assert.ok(xml.includes(`<loc>${app.origin}/s/${sub}/guia-de-compras</loc>`));
    assert.doesNotMatch(xml, /rascunho/);
    const robots = await get(`/s/${sub}/robots.txt`);
    assert.equal(robots.status, 200);
    assert.equal(await robots.text(), `User-agent: *\nAllow: /\nSitemap: ${app.origin}/s/${sub}/sitemap.xml\n`);
  });

  test('never public: an inactive store, a test-environment store, an unknown store, an unpublished or unknown page', async () => {
    const inactive = await liveStore({ active: false });
    assert.equal((await get(`/s/${inactive.sub}/`)).status, 404);
    assert.equal((await get(`/s/${inactive.sub}/guia-de-compras`)).status, 404);
    // The same account's test environment, with an active store of its own name.
    const testApi = inactive.api.withKey((await addKey(app.db, inactive.t, { env: 'test' })).apiKey);
    const testSub = uniqueSub();
    assert.equal((await testApi.patch('/store', { subdomain: testSub, active: true })).status, 200);
    assert.equal((await get(`/s/${testSub}/`)).status, 404);
    const live = await liveStore();
    assert.equal((await get(`/s/${live.sub}/rascunho`)).status, 404);
    assert.equal((await get(`/s/${live.sub}/nada-aqui`)).status, 404);
    assert.equal((await get(`/s/${live.sub}/Bad_Slug`)).status, 404);
    assert.equal((await get('/s/nenhuma-loja-assim/')).status, 404);
    const post = await fetch(`${app.origin}/s/${live.sub}/`, { method: 'POST' });
    assert.equal(post.status, 405);
  });

  test('a verified custom domain: served by Host, canonical URLs name it; other Hosts and API paths unchanged', async () => {
    const { t, api, sub } = await liveStore();
    const domain = `loja-${process.pid}-${n++}.example.com`;
    assert.equal((await api.patch('/store', { domain })).status, 200);
    const port = new URL(app.origin).port;
    const byHost = (host: string, path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        });
        req.on('error', reject);
        req.end();
      });
    // Not verified yet: that Host gets the API's own 404, and the address stays the subdomain.
    const before = await byHost(domain, '/');
    assert.equal(before.status, 404);
    assert.equal(JSON.parse(before.body).code, 'route_not_found');
    assert.equal((await api.get('/store')).body.data.url, `http://127.0.0.1:8080/s/${sub}/`);
    await verifyStoreDomain({ db: app.db }, t, {});
    const store = (await api.get('/store')).body.data;
    assert.equal(store.domain_verified, 1);
    assert.equal(store.url, `https://${domain}/`);
    const home = await byHost(domain, '/');
    assert.equal(home.status, 200);
    assert.ok(home.body.includes(`<link rel="canonical" href="https://${domain}/">`));
    assert.match(home.body, /Cafeteira Expresso/);
    const page = await byHost(domain, '/guia-de-compras');
    assert.equal(page.status, 200);
    assert.ok(page.body.includes(`<link rel="canonical" href="https://${domain}/guia-de-compras">`));
    assert.equal((await byHost(domain, '/robots.txt')).body, `User-agent: *\nAllow: /\nSitemap: https://${domain}/sitemap.xml\n`);
    assert.equal((await byHost(domain, '/nada')).status, 404);
    // The subdomain address still answers, naming the domain as canonical.
    assert.ok((await (await get(`/s/${sub}/`)).text()).includes(`<link rel="canonical" href="https://${domain}/">`));
    // API paths on that Host are the API's; another Host is not a store.
    assert.equal((await byHost(domain, '/api/v1/openapi.json')).status, 200);
    assert.equal((await byHost('outra-loja.example.com', '/')).status, 404);
    assert.equal(JSON.parse((await byHost('outra-loja.example.com', '/')).body).code, 'route_not_found');
  });
});
