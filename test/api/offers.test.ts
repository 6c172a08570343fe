import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ApiClient } from '../helpers/client';
import { seedTenant, startTestApp, TestApp } from '../helpers/stack';

let app: TestApp;
let api: ApiClient;

before(async () => {
  app = await startTestApp();
  api = new ApiClient(app.baseUrl, (await seedTenant(app.db)).apiKey);
});
after(() => app.close());

let n = 0;
const url = () => `https://shop.example/p/${Date.now()}-${++n}`;
const offer = (extra: Record<string, unknown> = {}) => ({ url: url(), title: 'Cafeteira Expresso', ...extra });

describe('POST /offers', () => {
  test('creates a pending offer with defaults and returns the persisted record', async () => {
    const body = offer({ price: 149.9, original_price: 199.9, store: 'Loja X', marketplace: 'amazon' });
    const res = await api.post('/offers', body);
    assert.equal(res.status, 201);
    assert.equal(res.body.created, true);
    const o = res.body.data;
    assert.match(o.id, /^off_/);
    assert.equal(o.status, 'pending');
    assert.equal(o.currency, 'BRL');
    assert.equal(o.discount_pct, 25);
    assert.deepEqual(
      o.status_history.map((h: any) => h.status),
      ['pending'],
    );
    const again = await api.get(`/offers/${o.id}`);
    assert.deepEqual(again.body.data, o);
  });

  test('is idempotent by URL: the existing offer comes back untouched', async () => {
    const first = await api.post('/offers', offer());
    const second = await api.post('/offers', { url: first.body.data.url, title: 'A different title', price: 1 });
    assert.equal(second.status, 200);
    assert.equal(second.body.created, false);
    assert.deepEqual(second.body.data, first.body.data);
    const list = await api.get(`/offers?query=${encodeURIComponent('A different title')}`);
    assert.equal(list.body.pagination.total, 0);
  });

  test('status may only be pending on creation', async () => {
    const res = await api.post('/offers', offer({ status: 'approved' }));
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validation_failed');
    assert.deepEqual(
      res.body.details.map((d: any) => [d.field, d.rule, d.message]),
      [['status', 'enum', 'must be one of: "pending"']],
    );
    assert.equal((await api.post('/offers', offer({ status: 'pending' }))).status, 201);
  });

  // Spec 2.2 and 8, each limit at its boundary: the last valid value passes, the first invalid one fails.
  const boundaries: [string, unknown, unknown][] = [
    [
      'url',
      `https://s.example/${'a'.repeat(2000 - 'https://s.example/'.length)}`,
      `https://s.example/${'a'.repeat(2001 - 'https://s.example/'.length)}`,
    ],
    ['title', 'abc', 'ab'],
    ['title', 't'.repeat(240), 't'.repeat(241)],
    ['marketplace', 'm'.repeat(40), 'm'.repeat(41)],
    ['currency', 'USD', 'US'],
    ['currency', 'ABCDEFGH', 'ABCDEFGHI'],
    ['copy', 'c'.repeat(6000), 'c'.repeat(6001)],
    ['image', 'https://img.example/a.png', 'http://img.example/a.png'],
    ['price', 0, 'free'],
    ['original_price', 10.5, -1],
  ];
  for (const [field, ok, bad] of boundaries) {
    test(`${field}: ${String(ok).length} chars/value accepted, ${String(bad).slice(0, 20)}… refused`, async () => {
      const good = await api.post('/offers', field === 'url' ? { title: 'Boundary', url: ok } : offer({ [field]: ok }));
      assert.equal(good.status, 201, good.text);
      assert.equal(good.body.data[field], ok);
      const refused = await api.post('/offers', field === 'url' ? { title: 'Boundary', url: bad } : offer({ [field]: bad }));
      assert.equal(refused.status, 400);
      assert.equal(refused.body.code, 'validation_failed');
      assert.ok(
        refused.body.details.some((d: any) => d.location === 'body' && d.field === field),
        refused.text,
      );
    });
  }

  test('url must be HTTPS and title and url are required', async () => {
    const res = await api.post('/offers', { url: 'http://shop.example/p' });
    assert.equal(res.status, 400);
    const fields = res.body.details.map((d: any) => `${d.field}:${d.rule}`).sort();
    assert.deepEqual(fields, ['title:required', 'url:pattern']);
  });

  test('unknown properties are refused and nothing is written', async () => {
    const u = url();
    const res = await api.post('/offers', { url: u, title: 'Valid title', colour: 'red' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.details, [{ location: 'body', field: 'colour', rule: 'additionalProperties', message: 'is not a known field' }]);
    assert.equal(await app.db.collection('offers').countDocuments({ url: u }), 0);
  });

  test('a missing body is a 400, not a crash', async () => {
    const res = await api.post('/offers');
    assert.equal(res.status, 400);
    assert.equal(res.body.details[0].rule, 'required');
  });
});

describe('GET /offers', () => {
  let mine: ApiClient;
  before(async () => {
    mine = new ApiClient(app.baseUrl, (await seedTenant(app.db)).apiKey);
    await mine.post('/offers', offer({ title: 'Fone Bluetooth JBL', store: 'Magalu', marketplace: 'magalu' }));
    await mine.post('/offers', offer({ title: 'Air Fryer Mondial', store: 'Amazon BR', marketplace: 'amazon' }));
    await mine.post('/offers', offer({ title: 'Cafeteira (Oster)', store: 'amazon outlet', marketplace: 'amazon' }));
    const archived = await mine.post('/offers', offer({ title: 'Old TV', marketplace: 'amazon' }));
    await mine.delete(`/offers/${archived.body.data.id}`);
  });

  test('lists newest first, without archived offers', async () => {
    const res = await mine.get('/offers');
    assert.deepEqual(
      res.body.data.map((o: any) => o.title),
      ['Cafeteira (Oster)', 'Air Fryer Mondial', 'Fone Bluetooth JBL'],
    );
    assert.deepEqual(res.body.pagination, { total: 3, limit: 30, offset: 0, has_more: false });
  });

  test('filters by status, marketplace and a case-insensitive query over title or store', async () => {
    assert.deepEqual(
      (await mine.get('/offers?status=archived')).body.data.map((o: any) => o.title),
      ['Old TV'],
    );
    assert.equal((await mine.get('/offers?marketplace=amazon')).body.pagination.total, 2);
    assert.deepEqual(
      (await mine.get('/offers?query=AMAZON')).body.data.map((o: any) => o.title),
      ['Cafeteira (Oster)', 'Air Fryer Mondial'],
    );
    assert.deepEqual(
      (await mine.get('/offers?query=fone')).body.data.map((o: any) => o.title),
      ['Fone Bluetooth JBL'],
    );
    // Regex characters in the query are text, not patterns.
    assert.deepEqual(
      (await mine.get(`/offers?query=${encodeURIComponent('(oster)')}`)).body.data.map((o: any) => o.title),
      ['Cafeteira (Oster)'],
    );
    assert.equal((await mine.get('/offers?query=.*')).body.pagination.total, 0);
  });

  test('paginates with limit and offset', async () => {
    const page = await mine.get('/offers?limit=2&offset=1');
    assert.equal(page.body.data.length, 2);
    assert.deepEqual(page.body.pagination, { total: 3, limit: 2, offset: 1, has_more: false });
    assert.equal((await mine.get('/offers?limit=1')).body.pagination.has_more, true);
    assert.equal((await mine.get('/offers?limit=100')).status, 200);
    assert.equal((await mine.get('/offers?offset=0')).status, 200);
  });

  for (const bad of ['limit=0', 'limit=101', 'limit=abc', 'limit=1.5', 'offset=-1', 'status=lost', 'colour=red']) {
    test(`refuses ${bad}`, async () => {
      const res = await mine.get(`/offers?${bad}`);
      assert.equal(res.status, 400);
      assert.equal(res.body.details[0].location, 'query');
    });
  }
});

describe('PATCH /offers/{id}', () => {
  test('changes only the fields sent and records the move', async () => {
    const created = (await api.post('/offers', offer({ price: 100, store: 'Loja' }))).body.data;
    const res = await api.patch(`/offers/${created.id}`, { price: 80, status: 'approved' });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.price, 80);
    assert.equal(res.body.data.store, 'Loja');
    assert.equal(res.body.data.title, created.title);
    assert.equal(res.body.data.status, 'approved');
    assert.deepEqual(
      res.body.data.status_history.map((h: any) => h.status),
      ['pending', 'approved'],
    );
    assert.deepEqual((await api.get(`/offers/${created.id}`)).body.data, res.body.data);
  });

  test('an empty body changes nothing', async () => {
    const created = (await api.post('/offers', offer())).body.data;
    const res = await api.patch(`/offers/${created.id}`);
    assert.deepEqual(res.body.data, created);
  });

  test('curation moves follow the documented graph', async () => {
    const id = (await api.post('/offers', offer())).body.data.id;
    const move = (status: string) => api.patch(`/offers/${id}`, { status });
    assert.equal((await move('rejected')).status, 200);
    assert.equal((await move('approved')).status, 200);
    assert.equal((await move('pending')).status, 200);
    const archive = await move('archived');
    assert.equal(archive.status, 400);
    assert.equal(archive.body.code, 'validation_failed', 'archived is reached through DELETE only: not a PATCH state');
    assert.equal((await api.get(`/offers/${id}`)).body.data.status, 'pending');
  });

  test('an archived offer refuses changes (409) until restored to pending', async () => {
    const id = (await api.post('/offers', offer())).body.data.id;
    await api.delete(`/offers/${id}`);
    const refused = await api.patch(`/offers/${id}`, { title: 'New title' });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'offer_archived');
    assert.equal((await api.patch(`/offers/${id}`, { status: 'approved' })).status, 400);
    const restored = await api.patch(`/offers/${id}`, { status: 'pending', title: 'New title' });
    assert.equal(restored.status, 200);
    assert.equal(restored.body.data.archived_at, null);
    assert.equal(restored.body.data.title, 'New title');
  });

  test('a URL taken by another offer is a 409', async () => {
    const a = (await api.post('/offers', offer())).body.data;
    const b = (await api.post('/offers', offer())).body.data;
    const res = await api.patch(`/offers/${b.id}`, { url: a.url });
    assert.equal(res.status, 409);
    assert.equal(res.body.message, `Offer ${a.id} already has this url.`);
    assert.equal((await api.get(`/offers/${b.id}`)).body.data.url, b.url);
  });

  test('invalid fields are refused and nothing changes', async () => {
    const created = (await api.post('/offers', offer())).body.data;
    const res = await api.patch(`/offers/${created.id}`, { title: 'ok title', copy: 'x'.repeat(6001) });
    assert.equal(res.status, 400);
    assert.deepEqual((await api.get(`/offers/${created.id}`)).body.data, created);
  });
});

describe('DELETE /offers/{id}', () => {
  test('archives: the archive envelope, history kept, reachable with status=archived', async () => {
    const created = (await api.post('/offers', offer())).body.data;
    const res = await api.delete(`/offers/${created.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual({ ...res.body, request_id: undefined }, { deleted: true, archived: true, id: created.id, request_id: undefined });
    const got = (await api.get(`/offers/${created.id}`)).body.data;
    assert.equal(got.status, 'archived');
    assert.ok(got.archived_at);
    assert.deepEqual(
      got.status_history.map((h: any) => h.status),
      ['pending', 'archived'],
    );
    // Archiving again is harmless.
    assert.equal((await api.delete(`/offers/${created.id}`)).status, 200);
    assert.equal((await api.get(`/offers/${created.id}`)).body.data.status_history.length, 2);
  });
});

describe('POST /offers/{id}/preview', () => {
  test('assembles the message with the segment presentation, records an event, changes nothing', async () => {
    const created = (
      await api.post(
        '/offers',
        offer({ title: 'Air Fryer', price: 299.9, original_price: 499.9, coupon: 'FRY10', store: 'Loja Y', copy: 'Só hoje!' }),
      )
    ).body.data;
    const segment = (await api.post('/segments', { name: 'Cozinha', store_name: 'Cozinha Top', store_tagline: 'Ofertas quentes' })).body.data;
    const res = await api.post(`/offers/${created.id}/preview`, { segment_id: segment.id });
    assert.equal(res.status, 200);
    const text: string = res.body.data.text;
    for (const part of ['Cozinha Top', '*Air Fryer*', 'R$ 299,90', 'R$ 499,90', '-40%', 'FRY10', 'Só hoje!', created.url, 'Ofertas quentes']) {
      assert.ok(text.includes(part), `${part} in ${text}`);
    }
    assert.equal(res.body.data.segment_id, segment.id);
    const event = await app.db.collection('events').findOne({ _id: res.body.event_id });
    assert.equal(event?.kind, 'offer.previewed');
    assert.deepEqual((await api.get(`/offers/${created.id}`)).body.data, created);
  });

  test('works without a body; an unknown segment is a 400', async () => {
    const created = (await api.post('/offers', offer())).body.data;
    const plain = await api.post(`/offers/${created.id}/preview`);
    assert.equal(plain.status, 200);
    assert.equal(plain.body.data.segment_id, null);
    const bad = await api.post(`/offers/${created.id}/preview`, { segment_id: 'seg_0000000000000000000000' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'unknown_reference');
  });
});

test('an unknown offer id is a 404 on every by-id operation', async () => {
  const id = 'off_0000000000000000000000';
  for (const [method, path] of [
    ['GET', `/offers/${id}`],
    ['PATCH', `/offers/${id}`],
    ['DELETE', `/offers/${id}`],
    ['POST', `/offers/${id}/preview`],
  ] as const) {
    const res = await api.call(method, path);
    assert.equal(res.status, 404, `${method} ${path}`);
    assert.equal(res.body.code, 'not_found');
  }
});

test('every mutation emitted a schema-valid event', async () => {
  const kinds = await app.db.collection('events').distinct('kind');
  for (const kind of ['offer.created', 'offer.updated', 'offer.archived', 'offer.previewed']) assert.ok(kinds.includes(kind), kind);
});
