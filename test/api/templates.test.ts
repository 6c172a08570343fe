/**
 * Issue 3 section 3: templates CRUD, one default per scope, the delete guard,
 * tenancy, and preview rendering through the template resolution.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ApiClient } from '../helpers/client';
import { addKey, seedTenant, startTestApp, Tenant, TestApp } from '../helpers/stack';

let app: TestApp;
let api: ApiClient;
let me: Tenant;

before(async () => {
  app = await startTestApp();
  me = await seedTenant(app.db);
  api = new ApiClient(app.baseUrl, me.apiKey);
});
after(() => app.close());

let n = 0;
const segment = async (client = api, extra: Record<string, unknown> = {}) => {
  const res = await client.post('/segments', { name: `Segment ${++n}`, ...extra });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id as string;
};
const template = async (body: Record<string, unknown> = {}, client = api) => {
  const res = await client.post('/templates', { name: `Template ${++n}`, body: '*{title}*\n{url}', ...body });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
};
const offer = async (client = api, extra: Record<string, unknown> = {}) => {
  const res = await client.post('/offers', { url: `https://shop.example/tpl/${Date.now()}-${++n}`, title: 'Air Fryer', ...extra });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
};
const eventsOf = (kind: string, accountId = me.accountId) =>
  app.db.collection('events').find({ account_id: accountId, kind }).toArray() as Promise<any[]>;
const templateDocs = (accountId = me.accountId) => app.db.collection('templates').countDocuments({ account_id: accountId });

describe('POST /templates', () => {
  test('creates a template with defaults and returns the persisted record', async () => {
    const res = await api.post('/templates', { name: 'Oferta', body: '{title} por {price}\n{{{coupon}}} {title}' });
    assert.equal(res.status, 201);
    assert.equal(res.body.created, true);
    const t = res.body.data;
    assert.match(t.id, /^tpl_/);
    assert.deepEqual(
      { ...t, id: undefined, created_at: undefined, updated_at: undefined },
      {
        id: undefined,
        name: 'Oferta',
        description: null,
        body: '{title} por {price}\n{{{coupon}}} {title}',
        format: 'plain',
        is_default: false,
        segment_id: null,
        placeholders: ['title', 'price', 'coupon'],
        schedule_count: 0,
        created_at: undefined,
        updated_at: undefined,
      },
    );
    assert.deepEqual((await api.get(`/templates/${t.id}`)).body.data, t);
    const [event] = (await eventsOf('template.created')).filter((e) => e.data.template.id === t.id);
    assert.deepEqual(event?.data, { template: t });
  });

  // Each limit at its boundary: the last valid value passes, the first invalid one fails.
  const boundaries: [string, unknown, unknown][] = [
    ['name', 'n', ''],
    ['name', 'n'.repeat(120), 'n'.repeat(121)],
    ['description', 'd'.repeat(500), 'd'.repeat(501)],
    ['body', 'b', ''],
    ['body', 'b'.repeat(4096), 'b'.repeat(4097)],
    ['format', 'telegram_html', 'html'],
    ['is_default', false, 'yes'],
    ['segment_id', undefined, 'segment-1'],
  ];
  for (const [field, ok, bad] of boundaries) {
    test(`${field}: ${String(ok).slice(0, 15)}${String(ok).length > 15 ? `… (${String(ok).length})` : ''} accepted, ${String(bad).slice(0, 15)} refused`, async () => {
      if (ok !== undefined) {
        const good = await api.post('/templates', { name: 'Boundary', body: 'x', [field]: ok });
        assert.equal(good.status, 201, good.text);
        assert.equal(good.body.data[field], ok);
      }
      const before = await templateDocs();
      const refused = await api.post('/templates', { name: 'Boundary', body: 'x', [field]: bad });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.code, 'validation_failed');
      assert.ok(
        refused.body.details.some((d: any) => d.location === 'body' && d.field === field),
        refused.text,
      );
      assert.equal(await templateDocs(), before);
    });
  }

  test('name and body are required; unknown fields are refused', async () => {
    const res = await api.post('/templates', { colour: 'red' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.details.map((d: any) => `${d.field}:${d.rule}`).sort(), [
      'body:required',
      'colour:additionalProperties',
      'name:required',
    ]);
  });

  test('an unknown placeholder is a 400 naming the field body and the placeholder, and nothing is written', async () => {
    const before = await templateDocs();
    const events = (await eventsOf('template.created')).length;
    const res = await api.post('/templates', { name: 'Typo', body: '{title}\nDe {orginal_price} por {price} {Coupon}' });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validation_failed');
    assert.match(res.body.message, /unknown placeholder \{orginal_price\}/);
    assert.equal(res.body.details.length, 2);
    for (const [i, name] of ['orginal_price', 'Coupon'].entries()) {
      const d = res.body.details[i];
      assert.deepEqual({ location: d.location, field: d.field, rule: d.rule }, { location: 'body', field: 'body', rule: 'placeholder' });
      assert.ok(d.message.startsWith(`unknown placeholder {${name}}; known: {title}, {price}, {original_price}`), d.message);
    }
    assert.equal(await templateDocs(), before);
    assert.equal((await eventsOf('template.created')).length, events);
  });

  test('a lone brace is a 400; doubled braces are literal', async () => {
    const lone = await api.post('/templates', { name: 'Brace', body: 'JSON: {"a": 1}' });
    assert.equal(lone.status, 400);
    assert.deepEqual(
      lone.body.details.map((d: any) => [d.field, d.rule]),
      [['body', 'placeholder']],
    );
    const closing = await api.post('/templates', { name: 'Brace', body: 'só } aqui' });
    assert.equal(closing.status, 400);
    assert.deepEqual(
      closing.body.details.map((d: any) => [d.field, d.rule, d.message]),
      [['body', 'brace', 'line 1 has a lone }; write }} for a literal brace']],
    );
    const literal = await api.post('/templates', { name: 'Brace', body: 'JSON: {{"a": 1}}' });
    assert.equal(literal.status, 201, literal.text);
    assert.deepEqual(literal.body.data.placeholders, []);
  });

  test("a segment_id this account does not have is a 400 unknown_reference (another account's too)", async () => {
    const theirs = await segment(api.withKey((await seedTenant(app.db)).apiKey));
    const before = await templateDocs();
    for (const id of ['seg_0000000000000000000000', theirs]) {
      const res = await api.post('/templates', { name: 'Elsewhere', body: 'x', segment_id: id });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'unknown_reference');
      assert.deepEqual(
        res.body.details.map((d: any) => d.field),
        ['segment_id'],
      );
    }
    assert.equal(await templateDocs(), before);
  });
});

describe('defaults: one per segment and one per account', () => {
  test('a new account default clears the previous one, with its own event; segment defaults are separate', async () => {
    const tenant = await seedTenant(app.db);
    const client = api.withKey(tenant.apiKey);
    const seg = await segment(client);
    const a = await template({ is_default: true }, client);
    const s = await template({ is_default: true, segment_id: seg }, client);
    assert.equal(a.is_default, true);
    assert.equal(s.is_default, true);

    const b = await template({ is_default: true }, client);
    assert.equal((await client.get(`/templates/${a.id}`)).body.data.is_default, false);
    assert.equal((await client.get(`/templates/${s.id}`)).body.data.is_default, true, 'the segment default is another scope');
    const cleared = (await eventsOf('template.updated', tenant.accountId)).filter((e) => e.data.template.id === a.id);
    assert.equal(cleared.length, 1);
    assert.deepEqual(cleared[0].data.changed, ['is_default']);
    assert.equal(cleared[0].data.template.is_default, false);

    const defaults = (await client.get('/templates?is_default=true')).body.data.map((t: any) => t.id).sort();
    assert.deepEqual(defaults, [b.id, s.id].sort());
  });

  test("PATCH is_default: true on a segment template clears that segment's default only", async () => {
    const tenant = await seedTenant(app.db);
    const client = api.withKey(tenant.apiKey);
    const [seg1, seg2] = [await segment(client), await segment(client)];
    const d1 = await template({ is_default: true, segment_id: seg1 }, client);
    const d2 = await template({ is_default: true, segment_id: seg2 }, client);
    const next = await template({ segment_id: seg1 }, client);
    const res = await client.patch(`/templates/${next.id}`, { is_default: true });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.is_default, true);
    assert.equal((await client.get(`/templates/${d1.id}`)).body.data.is_default, false);
    assert.equal((await client.get(`/templates/${d2.id}`)).body.data.is_default, true);
    // Setting it again changes nothing and clears nothing.
    const again = await client.patch(`/templates/${next.id}`, { is_default: true });
    assert.deepEqual(again.body.data, res.body.data);
    assert.equal((await client.get(`/templates/${d2.id}`)).body.data.is_default, true);
  });

  test("moving a default template to another scope clears that scope's default", async () => {
    const tenant = await seedTenant(app.db);
    const client = api.withKey(tenant.apiKey);
    const seg = await segment(client);
    const account = await template({ is_default: true }, client);
    const moving = await template({ is_default: true, segment_id: seg }, client);
    const res = await client.patch(`/templates/${moving.id}`, { segment_id: null });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.data.segment_id, res.body.data.is_default], [null, true]);
    assert.equal((await client.get(`/templates/${account.id}`)).body.data.is_default, false);
    assert.deepEqual(
      (await client.get('/templates?is_default=true')).body.data.map((t: any) => t.id),
      [moving.id],
    );
    // The segment it left has no default now; giving it one clears nothing else.
    const segDefault = await template({ is_default: true, segment_id: seg }, client);
    assert.deepEqual((await client.get('/templates?is_default=true')).body.data.map((t: any) => t.id).sort(), [moving.id, segDefault.id].sort());
  });

  test('concurrent defaults of one scope leave exactly one', async () => {
    const tenant = await seedTenant(app.db);
    const client = api.withKey(tenant.apiKey);
    const results = await Promise.all([1, 2, 3, 4].map(() => client.post('/templates', { name: 'Race', body: 'x', is_default: true })));
    for (const r of results) assert.ok(r.status === 201 || (r.status === 409 && r.body.code === 'conflict'), r.text);
    assert.equal((await client.get('/templates?is_default=true')).body.pagination.total, 1);
  });
});

describe('GET /templates', () => {
  test('filters by segment_id, format and is_default, newest first, paginated', async () => {
    const tenant = await seedTenant(app.db);
    const client = api.withKey(tenant.apiKey);
    const seg = await segment(client);
    const t1 = await template({ format: 'whatsapp' }, client);
    const t2 = await template({ format: 'telegram_html', segment_id: seg }, client);
    const t3 = await template({ format: 'whatsapp', segment_id: seg, is_default: true }, client);
    const ids = async (q: string) => (await client.get(`/templates${q}`)).body.data.map((t: any) => t.id);
    assert.deepEqual(await ids(''), [t3.id, t2.id, t1.id]);
    assert.deepEqual(await ids(`?segment_id=${seg}`), [t3.id, t2.id]);
    assert.deepEqual(await ids('?format=whatsapp'), [t3.id, t1.id]);
    assert.deepEqual(await ids('?is_default=false'), [t2.id, t1.id]);
    assert.deepEqual(await ids(`?is_default=true&segment_id=${seg}`), [t3.id]);
    const page = await client.get('/templates?limit=1&offset=1');
    assert.deepEqual(
      page.body.data.map((t: any) => t.id),
      [t2.id],
    );
    assert.deepEqual(page.body.pagination, { total: 3, limit: 1, offset: 1, has_more: true });
    for (const bad of ['format=html', 'is_default=yes', 'segment_id=x', 'limit=101']) {
      assert.equal((await client.get(`/templates?${bad}`)).status, 400, bad);
    }
  });
});

describe('PATCH /templates/{id}', () => {
  test('changes only the fields sent; null clears description and segment', async () => {
    const seg = await segment();
    const t = await template({ description: 'old', segment_id: seg });
    const res = await api.patch(`/templates/${t.id}`, { name: 'Renamed', body: '{coupon} {store}', format: 'markdown', description: null });
    assert.equal(res.status, 200);
    const u = res.body.data;
    assert.deepEqual(
      [u.name, u.body, u.format, u.description, u.segment_id, u.placeholders],
      ['Renamed', '{coupon} {store}', 'markdown', null, seg, ['coupon', 'store']],
    );
    assert.equal(u.created_at, t.created_at);
    assert.deepEqual((await api.get(`/templates/${t.id}`)).body.data, u);
    const [event] = (await eventsOf('template.updated')).filter((e) => e.data.template.id === t.id);
    assert.deepEqual(event?.data.changed.sort(), ['body', 'description', 'format', 'name']);
    assert.equal((await api.patch(`/templates/${t.id}`, { segment_id: null })).body.data.segment_id, null);
  });

  test('an empty body or the same values change nothing', async () => {
    const t = await template();
    assert.deepEqual((await api.patch(`/templates/${t.id}`)).body.data, t);
    assert.deepEqual((await api.patch(`/templates/${t.id}`, { name: t.name, body: t.body })).body.data, t);
  });

  test('an unknown placeholder or segment is refused and nothing changes', async () => {
    const t = await template();
    const typo = await api.patch(`/templates/${t.id}`, { name: 'Changed', body: '{title} {discount}' });
    assert.equal(typo.status, 400);
    assert.deepEqual(
      typo.body.details.map((d: any) => [d.field, d.rule]),
      [['body', 'placeholder']],
    );
    assert.match(typo.body.details[0].message, /\{discount\}/);
    const ref = await api.patch(`/templates/${t.id}`, { name: 'Changed', segment_id: 'seg_0000000000000000000000' });
    assert.equal(ref.status, 400);
    assert.equal(ref.body.code, 'unknown_reference');
    for (const bad of [{ name: '' }, { body: 'b'.repeat(4097) }, { format: null }, { is_default: null }, { colour: 'red' }]) {
      assert.equal((await api.patch(`/templates/${t.id}`, bad)).status, 400, JSON.stringify(bad));
    }
    assert.deepEqual((await api.get(`/templates/${t.id}`)).body.data, t);
  });
});

describe('DELETE /templates/{id}', () => {
  test('409 resource_in_use while a schedule that may still run names it; once that one is completed, deleted with its event', async () => {
    const t = await template();
    const schedule = { _id: `sch_${Date.now()}tpl`, account_id: me.accountId, env: me.env, template_id: t.id, status: 'paused' };
    await app.db.collection('schedules').insertOne(schedule as any);
    assert.equal((await api.get(`/templates/${t.id}`)).body.data.schedule_count, 1);
    assert.equal((await api.get('/templates?limit=100')).body.data.find((x: any) => x.id === t.id).schedule_count, 1);
    const refused = await api.delete(`/templates/${t.id}`);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'resource_in_use');
    assert.equal(
      refused.body.message,
      `The template is used by 1 schedule that may still run (${schedule._id}); give them another template or delete them first.`,
    );
    assert.equal((await api.get(`/templates/${t.id}`)).status, 200);

    await app.db.collection('schedules').updateOne({ _id: schedule._id } as any, { $set: { status: 'completed' } });
    assert.equal((await api.get(`/templates/${t.id}`)).body.data.schedule_count, 0);
    const res = await api.delete(`/templates/${t.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual({ deleted: res.body.deleted, id: res.body.id }, { deleted: true, id: t.id });
    assert.equal((await api.get(`/templates/${t.id}`)).status, 404);
    assert.equal((await api.delete(`/templates/${t.id}`)).status, 404);
    assert.equal(await app.db.collection('templates').countDocuments({ _id: t.id } as any), 0, 'the tombstone was relayed and removed');
    const events = (await eventsOf('template.deleted')).filter((e) => e.data.template_id === t.id);
    assert.deepEqual(
      events.map((e) => e.data),
      [{ template_id: t.id }],
    );
  });

  test('a schedule of another account or environment does not hold it', async () => {
    const t = await template();
    await app.db.collection('schedules').insertMany([
      { _id: `sch_${Date.now()}other1`, account_id: 'acc_someoneelse', env: me.env, template_id: t.id },
      { _id: `sch_${Date.now()}other2`, account_id: me.accountId, env: 'test', template_id: t.id },
    ] as any[]);
    assert.equal((await api.get(`/templates/${t.id}`)).body.data.schedule_count, 0);
    assert.equal((await api.delete(`/templates/${t.id}`)).status, 200);
  });

  test('deleting the default leaves the scope without one', async () => {
    const tenant = await seedTenant(app.db);
    const client = api.withKey(tenant.apiKey);
    const d = await template({ is_default: true }, client);
    assert.equal((await client.delete(`/templates/${d.id}`)).status, 200);
    assert.equal((await client.get('/templates?is_default=true')).body.pagination.total, 0);
    const next = await template({ is_default: true }, client);
    assert.equal(next.is_default, true);
  });
});

describe('tenancy', () => {
  test("another account's template is a 404 everywhere, invisible in lists, and unchanged", async () => {
    const owner = api.withKey((await seedTenant(app.db)).apiKey);
    const t = await template({ name: 'Secret template', is_default: true }, owner);
    const stranger = api.withKey((await seedTenant(app.db)).apiKey);
    for (const [method, body] of [['GET'], ['PATCH', { name: 'Hijacked', is_default: false }], ['DELETE']] as const) {
      const res = await stranger.call(method, `/templates/${t.id}`, body ? { body } : {});
      assert.equal(res.status, 404, `${method}: ${res.text}`);
      assert.equal(res.body.code, 'not_found');
      assert.ok(!res.text.includes('Secret'));
    }
    assert.equal((await stranger.get('/templates')).body.pagination.total, 0);
    assert.equal((await stranger.get('/templates?is_default=true')).body.pagination.total, 0);
    // Its default is not the stranger's default either.
    await template({ is_default: true }, stranger);
    assert.deepEqual((await owner.get(`/templates/${t.id}`)).body.data, t);
  });

  test('live and test templates are separate, defaults included', async () => {
    const live = await seedTenant(app.db);
    const liveApi = api.withKey(live.apiKey);
    const testApi = api.withKey((await addKey(app.db, live, { env: 'test', expiresInMs: 3_600_000 })).apiKey);
    const lt = await template({ is_default: true, body: 'LIVE {title}' }, liveApi);
    assert.equal((await testApi.get(`/templates/${lt.id}`)).status, 404);
    assert.equal((await testApi.get('/templates')).body.pagination.total, 0);
    const tt = await template({ is_default: true, body: 'TEST {title}' }, testApi);
    assert.equal((await liveApi.get(`/templates/${lt.id}`)).body.data.is_default, true, 'a test default does not clear the live one');
    assert.equal((await liveApi.get(`/templates/${tt.id}`)).status, 404);
    const liveOffer = await offer(liveApi);
    const testOffer = await offer(testApi);
    assert.equal((await liveApi.post(`/offers/${liveOffer.id}/preview`)).body.data.text, 'LIVE Air Fryer');
    assert.equal((await testApi.post(`/offers/${testOffer.id}/preview`)).body.data.text, 'TEST Air Fryer');
    const cross = await testApi.post(`/offers/${testOffer.id}/preview`, { template_id: lt.id });
    assert.equal(cross.status, 400);
    assert.equal(cross.body.code, 'unknown_reference');
  });
});

describe('POST /offers/{id}/preview with templates', () => {
  test('explicit template, else the segment default, else the account default, else the built-in layout', async () => {
    const tenant = await seedTenant(app.db);
    const client = api.withKey(tenant.apiKey);
    const o = await offer(client, { price: 299.9, original_price: 499.9, coupon: 'FRY10', store: 'Loja <Y>' });
    const [withDefault, withoutDefault] = [await segment(client, { store_name: 'Cozinha Top' }), await segment(client)];
    const preview = async (body?: Record<string, unknown>) => {
      const res = await client.post(`/offers/${o.id}/preview`, body);
      assert.equal(res.status, 200, res.text);
      return res.body;
    };

    const builtIn = await preview({ segment_id: withDefault });
    assert.equal(builtIn.data.template_id, null);
    assert.ok(builtIn.data.text.startsWith('🏷️ Cozinha Top\n\n*Air Fryer*'), builtIn.data.text);

    const account = await template({ is_default: true, body: 'Conta: {title} -{discount_pct}%', format: 'plain' }, client);
    const segDefault = await template(
      { is_default: true, segment_id: withDefault, body: '<b>{title}</b> {store}\nCupom: {coupon}\n{copy}', format: 'telegram_html' },
      client,
    );
    const explicit = await template({ body: '*{title}* por ~{original_price}~ *{price}*', format: 'whatsapp' }, client);

    const seg = await preview({ segment_id: withDefault });
    assert.deepEqual([seg.data.template_id, seg.data.text], [segDefault.id, '<b>Air Fryer</b> Loja &lt;Y&gt;\nCupom: FRY10']);
    assert.equal(seg.data.length, [...seg.data.text].length);
    const event = await app.db.collection('events').findOne({ _id: seg.event_id });
    assert.deepEqual(event?.data.preview, seg.data);

    for (const body of [undefined, { segment_id: withoutDefault }]) {
      const res = await preview(body);
      assert.deepEqual([res.data.template_id, res.data.text], [account.id, 'Conta: Air Fryer -40%'], JSON.stringify(body));
    }
    const named = await preview({ segment_id: withDefault, template_id: explicit.id });
    assert.deepEqual(
      [named.data.template_id, named.data.text, named.data.segment_id],
      [explicit.id, '*Air Fryer* por ~R$ 499,90~ *R$ 299,90*', withDefault],
    );

    // Without any default the built-in layout comes back.
    assert.equal((await client.patch(`/templates/${account.id}`, { is_default: false })).status, 200);
    assert.equal((await preview()).data.template_id, null);
  });

  test('an unknown template_id is a 400 unknown_reference naming the field', async () => {
    const o = await offer();
    const res = await api.post(`/offers/${o.id}/preview`, { template_id: 'tpl_0000000000000000000000' });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'unknown_reference');
    assert.deepEqual(
      res.body.details.map((d: any) => d.field),
      ['template_id'],
    );
    assert.equal((await api.post(`/offers/${o.id}/preview`, { template_id: 'nope' })).status, 400);
  });
});
