import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setCollection } from '../../domain/store/admin';
import { ApiClient } from '../helpers/client';
import { addKey, seedTenant, startTestApp, Tenant, TestApp } from '../helpers/stack';

let app: TestApp;

before(async () => {
  app = await startTestApp();
});
after(() => app.close());

async function tenant(opts: { env?: 'live' | 'test'; scopes?: string[] } = {}): Promise<{ t: Tenant; api: ApiClient }> {
  const t = await seedTenant(app.db, opts);
  return { t, api: new ApiClient(app.baseUrl, t.apiKey) };
}

let n = 0;
const uniqueSub = (prefix = 'loja') => `${prefix}-${process.pid}-${Date.now().toString(36)}-${n++}`;

const fieldsOf = (res: { body: { details?: { field: string; rule: string }[] } }) => (res.body.details ?? []).map((d) => d.field);

describe('GET /store', () => {
  test('before any change: the default store, inactive, at acc-<account>, integers 0/1', async () => {
    const { t, api } = await tenant();
    const res = await api.get('/store');
    assert.equal(res.status, 200, res.text);
    const s = res.body.data;
    assert.equal(s.subdomain, `acc-${t.accountId.slice(4)}`);
    assert.equal(s.name, 'Test account');
    assert.equal(s.theme, 'classic');
    assert.equal(s.active, 0);
    assert.equal(s.domain_verified, 0);
    assert.deepEqual(s.colors, { primary: '#c0392b', secondary: '#2c3e50', background: '#ffffff', text: '#222222' });
    assert.equal(s.url, `http://127.0.0.1:8080/s/${s.subdomain}/`);
    assert.equal(await app.db.collection('stores').countDocuments({ account_id: t.accountId }), 0, 'nothing written by a read');
    // A PATCH that changes nothing writes nothing either.
    assert.deepEqual((await api.patch('/store', { name: 'Test account', theme: 'classic' })).body.data, s);
    assert.equal(await app.db.collection('stores').countDocuments({ account_id: t.accountId }), 0);
  });

  test('scopes: store:read reads, store:write is needed to change', async () => {
    const { t } = await tenant();
    const reader = new ApiClient(app.baseUrl, (await addKey(app.db, t, { scopes: ['store:read'] })).apiKey);
    assert.equal((await reader.get('/store')).status, 200);
    assert.equal((await reader.patch('/store', { name: 'X' })).status, 403);
    const none = new ApiClient(app.baseUrl, (await addKey(app.db, t, { scopes: ['offers:read'] })).apiKey);
    assert.equal((await none.get('/store')).status, 403);
    assert.equal((await none.get('/store/collections')).status, 403);
  });
});

describe('PATCH /store', () => {
  test('first change writes the store; fields, theme colours, networks, hours, contact; store.updated event', async () => {
    const { api } = await tenant();
    const sub = uniqueSub();
    const res = await api.patch('/store', {
      name: 'Achados da Ana',
      subdomain: sub,
      theme: 'dark',
      colors: { primary: '#ff0000' },
      networks: { instagram: 'https://instagram.com/achados' },
      hours: [{ day: 'mon', opens: '09:00', closes: '18:00' }],
      contact: { kind: 'whatsapp_group', url: 'https://chat.whatsapp.com/AbCdEfGh' },
      active: true,
    });
    assert.equal(res.status, 200, res.text);
    const s = res.body.data;
    assert.equal(s.name, 'Achados da Ana');
    assert.equal(s.subdomain, sub);
    assert.equal(s.active, 1);
    assert.deepEqual(s.colors, { primary: '#ff0000', secondary: '#e67e22', background: '#121212', text: '#eeeeee' });
    assert.equal(s.networks.instagram, 'https://instagram.com/achados');
    assert.equal(s.networks.x, null);
    assert.deepEqual(s.hours, [{ day: 'mon', opens: '09:00', closes: '18:00' }]);
    assert.deepEqual((await api.get('/store')).body.data, s);
    const event = await app.db.collection('events').findOne({ kind: 'store.updated', 'data.store.id': s.id });
    assert.ok(event, 'store.updated');
    assert.ok((event.data as { changed: string[] }).changed.includes('subdomain'));
    // A second PATCH changes only what is sent; a domain resets domain_verified.
    const again = await api.patch('/store', { tagline: 'Os melhores achados', domain: 'ofertas.example.com' });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.data.name, 'Achados da Ana');
    assert.equal(again.body.data.tagline, 'Os melhores achados');
    assert.equal(again.body.data.domain_verified, 0);
    assert.equal(again.body.data.dns_target, '127.0.0.1');
    // Nothing sent that differs: no event.
    const before = await app.db.collection('events').countDocuments({ kind: 'store.updated', 'data.store.id': s.id });
    assert.equal((await api.patch('/store', { name: 'Achados da Ana' })).status, 200);
    assert.equal(await app.db.collection('events').countDocuments({ kind: 'store.updated', 'data.store.id': s.id }), before);
  });

  test('a subdomain taken by another account is a 409 slug_taken; by the same account in the other environment it is free', async () => {
    const sub = uniqueSub();
    const { t, api: first } = await tenant();
    assert.equal((await first.patch('/store', { subdomain: sub })).status, 200);
    const { api: second } = await tenant();
    const res = await second.patch('/store', { subdomain: sub });
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.code, 'slug_taken');
    // The second account's store is still writable under another name, and then taken the same way.
    assert.equal((await second.patch('/store', { subdomain: `${sub}-b` })).status, 200);
    const clash = await second.patch('/store', { subdomain: sub });
    assert.equal(clash.status, 409);
    const testKey = (await addKey(app.db, t, { env: 'test' })).apiKey;
    assert.equal((await first.withKey(testKey).patch('/store', { subdomain: sub })).status, 200);
  });

  for (const [sub, rule] of [
    ['www', 'reserved'],
    ['admin', 'reserved'],
    ['acc-123abc', 'reserved'],
    ['xn--bcher-kva', 'pattern'],
  ] as const) {
    test(`subdomain ${sub}: 400 validation_failed (${rule})`, async () => {
      const { api } = await tenant();
      const res = await api.patch('/store', { subdomain: sub });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 'validation_failed');
      assert.deepEqual(
        res.body.details.map((d: { field: string; rule: string }) => [d.field, d.rule]),
        [['subdomain', rule]],
      );
    });
  }

  test('bounds: subdomain 3–63 of [a-z0-9-], name 1–80, seo 70/180, theme and colours from the list', async () => {
    const { api } = await tenant();
    const bad: [string, Record<string, unknown>][] = [
      ['subdomain', { subdomain: 'ab' }],
      ['subdomain', { subdomain: 'a'.repeat(64) }],
      ['subdomain', { subdomain: 'Loja' }],
      ['subdomain', { subdomain: '-loja' }],
      ['subdomain', { subdomain: 'loja_1' }],
      ['name', { name: '' }],
      ['name', { name: 'n'.repeat(81) }],
      ['seo_title', { seo_title: 't'.repeat(71) }],
      ['seo_description', { seo_description: 'd'.repeat(181) }],
      ['theme', { theme: 'neon' }],
      ['colors.primary', { colors: { primary: 'red' } }],
      ['networks.instagram', { networks: { instagram: 'http://instagram.com/x' } }],
      ['active', { active: 1 }],
      ['hours.0.opens', { hours: [{ day: 'mon', opens: '24:00', closes: '25:00' }] }],
      ['hours.0.closes', { hours: [{ day: 'mon', opens: '18:00', closes: '09:00' }] }],
      ['timezone', { timezone: 'Mars/Olympus' }],
      ['contact.url', { contact: { kind: 'site', url: 'https://wa.me/5511999990001' } }],
      ['contact.url', { contact: { kind: 'site', url: 'https://example.com/?to=ana%40example.com' } }],
      ['networks.whatsapp', { networks: { whatsapp: 'https://api.whatsapp.com/send?phone=5511999990001' } }],
    ];
    for (const [field, body] of bad) {
      const res = await api.patch('/store', body);
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
      assert.ok(
        fieldsOf(res).some((f) => f === field || f.startsWith(`${field}.`) || field.startsWith(f)),
        `${JSON.stringify(body)} names ${field}: ${res.text}`,
      );
    }
    const good: Record<string, unknown>[] = [
      { subdomain: uniqueSub('abc').slice(0, 63) },
      { subdomain: `a${'b'.repeat(61)}c`.slice(0, 63) },
      { name: 'n' },
      { name: 'n'.repeat(80) },
      { seo_title: 't'.repeat(70), seo_description: 'd'.repeat(180) },
      { theme: 'magazine', colors: {} },
      { timezone: 'Europe/Lisbon' },
      { contact: { kind: 'telegram', url: 'https://t.me/achados', label: 'Entre no canal' } },
      { contact: null },
    ];
    for (const body of good) {
      const res = await api.patch('/store', body);
      if (res.status === 409) continue; // the 63-character name may be taken by another run of this file: the bound still passed validation
      assert.equal(res.status, 200, `${JSON.stringify(body)}: ${res.text}`);
    }
  });
});

describe('POST /store/pages', () => {
  test('201 created, slug from the title, defaults, store.page_created event', async () => {
    const { t, api } = await tenant();
    const res = await api.post('/store/pages', { title: 'Como Comprar Barato!' });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.created, true);
    const p = res.body.data;
    assert.equal(p.slug, 'como-comprar-barato');
    assert.equal(p.path, '/como-comprar-barato');
    assert.equal(p.published, false);
    assert.equal(p.published_at, null);
    assert.equal(p.body, '');
    assert.equal(p.url, `http://127.0.0.1:8080/s/acc-${t.accountId.slice(4)}/como-comprar-barato`);
    assert.ok(await app.db.collection('events').findOne({ kind: 'store.page_created', 'data.page.id': p.id }));
    // The same title again: a unique derived slug; the same slug given: 409.
    const twin = await api.post('/store/pages', { title: 'Como Comprar Barato!' });
    assert.equal(twin.status, 201);
    assert.match(twin.body.data.slug, /^como-comprar-barato-[0-9a-f]{6}$/);
    const taken = await api.post('/store/pages', { title: 'Outra', slug: 'como-comprar-barato' });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.code, 'slug_taken');
    assert.equal(taken.body.message, `Page ${p.id} of this store already uses the slug "como-comprar-barato"; choose another slug.`);
    // Slugs are per store: another account may use it.
    const { api: other } = await tenant();
    assert.equal((await other.post('/store/pages', { title: 'Outra', slug: 'como-comprar-barato' })).status, 201);
  });

  test('bounds of every field, each side', async () => {
    const { api } = await tenant();
    const ok: Record<string, unknown>[] = [
      { title: 'ab' },
      { title: 't'.repeat(160) },
      { title: 'Slug 80', slug: 's'.repeat(80) },
      { title: 'Slug 1', slug: 'a' },
      { title: 'Summary', summary: 's'.repeat(500) },
      { title: 'Body', body: 'b'.repeat(50_000) },
      { title: 'Cover', cover: 'https://cdn.example.com/c.jpg' },
      { title: 'SEO', seo_title: 't'.repeat(70), seo_description: 'd'.repeat(180), published: true },
    ];
    for (const body of ok) {
      const res = await api.post('/store/pages', body);
      assert.equal(res.status, 201, `${JSON.stringify(body).slice(0, 80)}: ${res.text.slice(0, 300)}`);
    }
    const bad: [string, Record<string, unknown>][] = [
      ['title', {}],
      ['title', { title: 'a' }],
      ['title', { title: 't'.repeat(161) }],
      ['slug', { title: 'ok', slug: 's'.repeat(81) }],
      ['slug', { title: 'ok', slug: '' }],
      ['slug', { title: 'ok', slug: 'Não-Pode' }],
      ['summary', { title: 'ok', summary: 's'.repeat(501) }],
      ['body', { title: 'ok', body: 'b'.repeat(50_001) }],
      ['cover', { title: 'ok', cover: 'http://cdn.example.com/c.jpg' }],
      ['cover', { title: 'ok', cover: 'javascript:alert(1)' }],
      ['seo_title', { title: 'ok', seo_title: 't'.repeat(71) }],
      ['seo_description', { title: 'ok', seo_description: 'd'.repeat(181) }],
      ['published', { title: 'ok', published: 'yes' }],
      ['extra', { title: 'ok', extra: 1 }],
    ];
    for (const [field, body] of bad) {
      const res = await api.post('/store/pages', body);
      assert.equal(res.status, 400, `${field}: ${res.text.slice(0, 300)}`);
      assert.equal(res.body.code, 'validation_failed');
      assert.ok(res.text.includes(field), `names ${field}: ${res.text.slice(0, 300)}`);
    }
  });
});

describe('GET /store/collections', () => {
  test('in public order, with their offers in order; published filter; pagination bounds', async () => {
    const { t, api } = await tenant();
    const a = (await api.post('/offers', { url: 'https://shop.example/p/a', title: 'Oferta A', price: 10 })).body.data.id as string;
    const b = (await api.post('/offers', { url: 'https://shop.example/p/b', title: 'Oferta B', price: 20 })).body.data.id as string;
    await setCollection(app.db, t, { title: 'Cozinha', position: 2, offer_ids: [b, a] });
    await setCollection(app.db, t, { title: 'Destaques', position: 1, offer_ids: [a] });
    await setCollection(app.db, t, { title: 'Rascunho', position: 0, published: false, offer_ids: [] });
    const res = await api.get('/store/collections');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.data.map((c: { slug: string }) => c.slug),
      ['rascunho', 'destaques', 'cozinha'],
    );
    const cozinha = res.body.data[2];
    assert.deepEqual(cozinha.offer_ids, [b, a]);
    assert.equal(cozinha.offer_count, 2);
    assert.deepEqual(
      (await api.get('/store/collections?published=true')).body.data.map((c: { slug: string }) => c.slug),
      ['destaques', 'cozinha'],
    );
    assert.deepEqual(
      (await api.get('/store/collections?published=false')).body.data.map((c: { slug: string }) => c.slug),
      ['rascunho'],
    );
    const page = await api.get('/store/collections?limit=1&offset=1');
    assert.deepEqual(page.body.pagination, { total: 3, limit: 1, offset: 1, has_more: true });
    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'published=maybe', 'other=1']) {
      assert.equal((await api.get(`/store/collections?${q}`)).status, 400, q);
    }
    // Set again by slug: replaced, not doubled.
    await setCollection(app.db, t, { title: 'Cozinha', position: 2, offer_ids: [a] });
    assert.equal((await api.get('/store/collections')).body.pagination.total, 3);
    // Another tenant sees none of them.
    const { api: other } = await tenant();
    assert.equal((await other.get('/store/collections')).body.pagination.total, 0);
  });

  test('a collection naming an offer the tenant does not have is refused', async () => {
    const { t } = await tenant();
    await assert.rejects(setCollection(app.db, t, { title: 'X', offer_ids: ['off_0000000000nothere'] }), /unknown|no offer/i);
  });
});
