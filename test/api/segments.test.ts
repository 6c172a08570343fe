import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createGroup } from '../../domain/groups/store';
import { ApiClient } from '../helpers/client';
import { addKey, seedTenant, startTestApp, Tenant, TestApp } from '../helpers/stack';

let app: TestApp;

before(async () => {
  app = await startTestApp();
});
after(() => app.close());

async function tenant(): Promise<{ t: Tenant; api: ApiClient }> {
  const t = await seedTenant(app.db);
  return { t, api: new ApiClient(app.baseUrl, t.apiKey) };
}

const without = (o: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

const countSegments = (t: Tenant) => app.db.collection('segments').countDocuments({ account_id: t.accountId, env: t.env });

describe('POST /segments', () => {
  test('name alone: 201, created true, defaults, slug derived from the name', async () => {
    const { t, api } = await tenant();
    const res = await api.post('/segments', { name: 'Ofertas de Café!' });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.created, true);
    const s = res.body.data;
    assert.match(s.id, /^seg_[0-9a-z]+$/);
    assert.deepEqual(without(s, 'id', 'created_at', 'updated_at'), {
      name: 'Ofertas de Café!',
      slug: 'ofertas-de-cafe',
      description: null,
      store_name: null,
      store_tagline: null,
      store_color: null,
      auto_expand: false,
      distribution: 'broadcast',
      waitlist: false,
      group_count: 0,
    });
    assert.ok(!Number.isNaN(Date.parse(s.created_at)));
    // Persisted before the response: the stored record is the one returned.
    assert.deepEqual((await api.get(`/segments/${s.id}`)).body.data, s);
    assert.equal(await countSegments(t), 1);
    const event = await app.db.collection('events').findOne({ kind: 'segment.created', 'data.segment.id': s.id });
    assert.ok(event, 'segment.created event');
  });

  for (const [name, slug] of [
    ['  Eletrônicos & Games  ', 'eletronicos-games'],
    ['Moda Praia 2024', 'moda-praia-2024'],
    ['ÇÃO---Ñ', 'cao-n'],
  ] as const) {
    test(`derives ${slug} from ${JSON.stringify(name)}`, async () => {
      const { api } = await tenant();
      const res = await api.post('/segments', { name });
      assert.equal(res.status, 201);
      assert.equal(res.body.data.slug, slug);
    });
  }

  test('every field of spec 2.4 is accepted and returned', async () => {
    const { api } = await tenant();
    const body = {
      name: 'Cozinha',
      slug: 'cozinha-top',
      description: 'Utensílios e eletroportáteis',
      store_name: 'Cozinha Top',
      store_tagline: 'Ofertas quentes todo dia',
      store_color: '#A1b2C3',
      auto_expand: true,
      distribution: 'round_robin',
      waitlist: true,
    };
    const res = await api.post('/segments', body);
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(without(res.body.data, 'id', 'created_at', 'updated_at', 'group_count'), body);
    for (const distribution of ['broadcast', 'least_loaded']) {
      const r = await api.post('/segments', { name: `D ${distribution}`, distribution });
      assert.equal(r.status, 201);
      assert.equal(r.body.data.distribution, distribution);
    }
  });

  const wrongTypes: [string, unknown][] = [
    ['name', 123],
    ['name', null],
    ['slug', 5],
    ['description', true],
    ['store_name', 1],
    ['store_tagline', ['a']],
    ['store_color', 0xffffff],
    ['auto_expand', 'yes'],
    ['auto_expand', 1],
    ['distribution', 1],
    ['distribution', 'random'],
    ['waitlist', 'false'],
    ['waitlist', null],
  ];
  for (const [field, value] of wrongTypes) {
    test(`${field}: ${JSON.stringify(value)} is a 400 naming the field, nothing written`, async () => {
      const { t, api } = await tenant();
      const res = await api.post('/segments', { name: 'Typed', [field]: value });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'validation_failed');
      assert.ok(
        res.body.details.some((d: any) => d.location === 'body' && d.field === field),
        res.text,
      );
      assert.equal(await countSegments(t), 0);
    });
  }

  test('name is required; a missing body is a 400', async () => {
    const { t, api } = await tenant();
    const res = await api.post('/segments', { slug: 'no-name' });
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.body.details.map((d: any) => `${d.field}:${d.rule}`),
      ['name:required'],
    );
    const empty = await api.post('/segments');
    assert.equal(empty.status, 400);
    assert.equal(empty.body.details[0].rule, 'required');
    assert.equal(await countSegments(t), 0);
  });

  test('unknown properties are refused and nothing is written', async () => {
    const { t, api } = await tenant();
    const res = await api.post('/segments', { name: 'Extra', colour: 'red' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.details, [{ location: 'body', field: 'colour', rule: 'additionalProperties', message: 'is not a known field' }]);
    assert.equal(await countSegments(t), 0);
  });

  test('store_color must be #RRGGBB', async () => {
    const { api } = await tenant();
    for (const bad of ['red', '#fff', '#12345G', 'A1B2C3']) {
      const res = await api.post('/segments', { name: 'Colour', store_color: bad });
      assert.equal(res.status, 400, bad);
      assert.ok(res.body.details.some((d: any) => d.field === 'store_color'));
    }
  });

  test('an explicit slug must match the slug pattern', async () => {
    const { api } = await tenant();
    for (const good of ['a', 'cafe-2024', 'x1-y2-z3']) {
      const res = await api.post('/segments', { name: `Slug ${good}`, slug: good });
      assert.equal(res.status, 201, `${good}: ${res.text}`);
      assert.equal(res.body.data.slug, good);
    }
    for (const bad of ['', 'My Slug', 'Cafe', '-lead', 'trail-', 'a--b', 'café', 'a_b', 's'.repeat(81)]) {
      const res = await api.post('/segments', { name: 'Bad slug', slug: bad });
      assert.equal(res.status, 400, JSON.stringify(bad));
      assert.ok(
        res.body.details.some((d: any) => d.field === 'slug'),
        res.text,
      );
    }
    assert.equal((await api.post('/segments', { name: 'Long slug', slug: 's'.repeat(80) })).status, 201);
  });

  test('a duplicate explicit slug is a 409 slug_taken and nothing is written', async () => {
    const { t, api } = await tenant();
    assert.equal((await api.post('/segments', { name: 'First', slug: 'promo' })).status, 201);
    const first = (await api.get('/segments')).body.data[0];
    const res = await api.post('/segments', { name: 'Second', slug: 'promo' });
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'slug_taken');
    assert.equal(res.body.message, `Segment ${first.id} already uses the slug "promo"; choose another slug.`);
    assert.equal(await countSegments(t), 1);
    // Slugs are per account: another account may use it.
    assert.equal((await (await tenant()).api.post('/segments', { name: 'Elsewhere', slug: 'promo' })).status, 201);
    // ... and per environment.
    const sandbox = api.withKey((await addKey(app.db, t, { env: 'test' })).apiKey);
    assert.equal((await sandbox.post('/segments', { name: 'Sandbox', slug: 'promo' })).status, 201);
  });

  test('two segments with the same name both succeed with distinct derived slugs', async () => {
    const { t, api } = await tenant();
    const a = await api.post('/segments', { name: 'Games' });
    const b = await api.post('/segments', { name: 'Games' });
    const c = await api.post('/segments', { name: 'Games' });
    for (const r of [a, b, c]) assert.equal(r.status, 201, r.text);
    assert.equal(a.body.data.slug, 'games');
    for (const r of [b, c]) assert.match(r.body.data.slug, /^games-[a-z0-9]+(-[a-z0-9]+)*$/);
    assert.equal(new Set([a, b, c].map((r) => r.body.data.slug)).size, 3);
    assert.equal(await countSegments(t), 3);
  });

  test('a derived slug colliding with an explicit one is made unique too', async () => {
    const { api } = await tenant();
    assert.equal((await api.post('/segments', { name: 'Anything', slug: 'pets' })).status, 201);
    const res = await api.post('/segments', { name: 'Pets' });
    assert.equal(res.status, 201, res.text);
    assert.notEqual(res.body.data.slug, 'pets');
    assert.match(res.body.data.slug, /^pets-/);
  });
});

describe('GET /segments and /segments/{id}', () => {
  test('lists the account segments, paginated, with the list envelope', async () => {
    const { api } = await tenant();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await api.post('/segments', { name: `List ${i}` })).body.data.id);
    await (await tenant()).api.post('/segments', { name: 'Foreign' });

    const all = await api.get('/segments');
    assert.equal(all.status, 200);
    assert.deepEqual(all.body.pagination, { total: 5, limit: 30, offset: 0, has_more: false });
    assert.deepEqual(all.body.data.map((s: any) => s.id).sort(), [...ids].sort());

    const seen: string[] = [];
    for (const [offset, hasMore, size] of [
      [0, true, 2],
      [2, true, 2],
      [4, false, 1],
    ] as const) {
      const page = await api.get(`/segments?limit=2&offset=${offset}`);
      assert.deepEqual(page.body.pagination, { total: 5, limit: 2, offset, has_more: hasMore });
      assert.equal(page.body.data.length, size);
      seen.push(...page.body.data.map((s: any) => s.id));
    }
    assert.deepEqual(
      seen,
      all.body.data.map((s: any) => s.id),
    );
    for (const bad of ['limit=0', 'limit=101', 'offset=-1', 'name=x']) {
      const res = await api.get(`/segments?${bad}`);
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.details[0].location, 'query');
    }
  });

  test('another account, the other environment, or an unknown id: 404 on get, update and delete', async () => {
    const { t, api } = await tenant();
    const s = (await api.post('/segments', { name: 'Private' })).body.data;
    const strangers = [(await tenant()).api, api.withKey((await addKey(app.db, t, { env: 'test' })).apiKey)];
    for (const client of strangers) {
      for (const res of [
        await client.get(`/segments/${s.id}`),
        await client.patch(`/segments/${s.id}`, { name: 'Taken over' }),
        await client.delete(`/segments/${s.id}`),
      ]) {
        assert.equal(res.status, 404);
        assert.equal(res.body.code, 'not_found');
      }
      assert.ok(!((await client.get('/segments')).body.data as any[]).some((x) => x.id === s.id));
    }
    assert.equal((await api.get('/segments/seg_0000000000000000000000')).status, 404);
    assert.deepEqual((await api.get(`/segments/${s.id}`)).body.data, s);
  });

  test('group_count counts the groups linked to the segment', async () => {
    const { t, api } = await tenant();
    const s = (await api.post('/segments', { name: 'Counted' })).body.data;
    const other = (await api.post('/segments', { name: 'Other' })).body.data;
    assert.equal((await api.get(`/segments/${s.id}`)).body.data.group_count, 0);
    const g1 = await createGroup(app.db, t, { name: 'G1', segment_id: s.id });
    await createGroup(app.db, t, { name: 'G2', segment_id: s.id });
    await createGroup(app.db, t, { name: 'G3', segment_id: other.id });
    await createGroup(app.db, t, { name: 'G4' });
    assert.equal((await api.get(`/segments/${s.id}`)).body.data.group_count, 2);
    const listed = (await api.get('/segments')).body.data as any[];
    assert.equal(listed.find((x) => x.id === s.id).group_count, 2);
    assert.equal(listed.find((x) => x.id === other.id).group_count, 1);
    // Moving a group through the API moves the count.
    assert.equal((await api.patch(`/groups/${g1._id}`, { segment_id: other.id })).status, 200);
    assert.equal((await api.get(`/segments/${s.id}`)).body.data.group_count, 1);
    assert.equal((await api.get(`/segments/${other.id}`)).body.data.group_count, 2);
    // The update response carries the count as well.
    assert.equal((await api.patch(`/segments/${other.id}`, { description: 'x' })).body.data.group_count, 2);
  });
});

describe('PATCH /segments/{id}', () => {
  const changes: [string, unknown][] = [
    ['name', 'New name'],
    ['slug', 'new-slug'],
    ['description', 'Described'],
    ['store_name', 'Loja'],
    ['store_tagline', 'Tagline'],
    ['store_color', '#000000'],
    ['auto_expand', true],
    ['distribution', 'least_loaded'],
    ['waitlist', true],
  ];
  for (const [field, value] of changes) {
    test(`changes only ${field}`, async () => {
      const { api } = await tenant();
      const s = (await api.post('/segments', { name: 'Original', description: 'Keep me', store_name: 'Keep' })).body.data;
      const res = await api.patch(`/segments/${s.id}`, { [field]: value });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data[field], value);
      assert.deepEqual(without(res.body.data, field, 'updated_at'), without(s, field, 'updated_at'));
      assert.deepEqual((await api.get(`/segments/${s.id}`)).body.data, res.body.data);
    });
  }

  test('renaming keeps the slug; an empty body changes nothing', async () => {
    const { api } = await tenant();
    const s = (await api.post('/segments', { name: 'Bebês' })).body.data;
    const renamed = await api.patch(`/segments/${s.id}`, { name: 'Bebês e Crianças' });
    assert.equal(renamed.body.data.slug, 'bebes');
    assert.deepEqual((await api.patch(`/segments/${s.id}`, {})).body.data, renamed.body.data);
    assert.deepEqual((await api.patch(`/segments/${s.id}`)).body.data, renamed.body.data);
  });

  test('invalid or unknown fields: 400 and nothing changes', async () => {
    const { api } = await tenant();
    const s = (await api.post('/segments', { name: 'Guarded' })).body.data;
    for (const body of [
      { name: 'ok', colour: 'red' },
      { name: 'ok', waitlist: 'yes' },
      { slug: 'Bad Slug' },
      { distribution: 'random' },
      { name: null },
    ]) {
      const res = await api.patch(`/segments/${s.id}`, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.code, 'validation_failed');
    }
    assert.deepEqual((await api.get(`/segments/${s.id}`)).body.data, s);
  });

  test('a slug taken by another segment is a 409 slug_taken and nothing changes', async () => {
    const { api } = await tenant();
    const a = (await api.post('/segments', { name: 'A', slug: 'alpha' })).body.data;
    const b = (await api.post('/segments', { name: 'B', slug: 'beta' })).body.data;
    const res = await api.patch(`/segments/${b.id}`, { slug: 'alpha', name: 'B renamed' });
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'slug_taken');
    assert.match(res.body.message, new RegExp(`^Segment ${a.id} already uses the slug "alpha"`));
    assert.deepEqual((await api.get(`/segments/${b.id}`)).body.data, b);
    assert.deepEqual((await api.get(`/segments/${a.id}`)).body.data, a);
    // Its own slug is not "taken".
    assert.equal((await api.patch(`/segments/${b.id}`, { slug: 'beta', name: 'B2' })).status, 200);
  });
});

describe('DELETE /segments/{id}', () => {
  test('a refusal names what holds the segment: up to five ids of each kind, and how many in all', async () => {
    const { t, api } = await tenant();
    const s = (await api.post('/segments', { name: 'Crowded' })).body.data;
    const groups = [];
    for (let i = 0; i < 7; i++) groups.push((await createGroup(app.db, t, { name: `G${i}`, segment_id: s.id }))._id);
    const res = await api.delete(`/segments/${s.id}`);
    assert.equal(res.status, 409);
    assert.equal(res.body.message, `The segment is linked to 7 groups (${groups.sort().slice(0, 5).join(', ')} and 2 more); unlink them first.`);
  });

  test('refused with 409 resource_in_use while a group links it; allowed once unlinked', async () => {
    const { t, api } = await tenant();
    const s = (await api.post('/segments', { name: 'Linked' })).body.data;
    const g = await createGroup(app.db, t, { name: 'Linker', segment_id: s.id });
    const res = await api.delete(`/segments/${s.id}`);
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'resource_in_use');
    assert.equal(res.body.message, `The segment is linked to 1 group (${g._id}); unlink them first.`);
    assert.equal((await api.get(`/segments/${s.id}`)).status, 200);
    assert.equal((await api.patch(`/groups/${g._id}`, { segment_id: null })).status, 200);
    assert.equal((await api.delete(`/segments/${s.id}`)).status, 200);
  });

  test('refused with 409 resource_in_use while a schedule links it', async () => {
    const { t, api } = await tenant();
    const s = (await api.post('/segments', { name: 'Scheduled' })).body.data;
    await app.db
      .collection('schedules')
      .insertOne({ _id: `sch_${s.id.slice(4)}`, account_id: t.accountId, env: t.env, segment_id: s.id } as any);
    const res = await api.delete(`/segments/${s.id}`);
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'resource_in_use');
    assert.equal(res.body.message, `The segment is linked to 1 schedule that may still run (sch_${s.id.slice(4)}); unlink them first.`);
    assert.deepEqual((await api.get(`/segments/${s.id}`)).body.data, s);
  });

  test('links of another account or environment do not block the delete', async () => {
    const { t, api } = await tenant();
    const s = (await api.post('/segments', { name: 'Free' })).body.data;
    await app.db
      .collection('schedules')
      .insertOne({ _id: `sch_x${s.id.slice(4)}`, account_id: 'acc_other', env: t.env, segment_id: s.id } as any);
    await app.db
      .collection('schedules')
      .insertOne({ _id: `sch_y${s.id.slice(4)}`, account_id: t.accountId, env: 'test', segment_id: s.id } as any);
    assert.equal((await api.delete(`/segments/${s.id}`)).status, 200);
  });

  test('an unlinked segment: 200 {deleted, id}, then 404 and gone from the list', async () => {
    const { api } = await tenant();
    const s = (await api.post('/segments', { name: 'Doomed', slug: 'doomed' })).body.data;
    const res = await api.delete(`/segments/${s.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual({ ...res.body, request_id: undefined }, { deleted: true, id: s.id, request_id: undefined });
    const gone = await api.get(`/segments/${s.id}`);
    assert.equal(gone.status, 404);
    assert.equal(gone.body.code, 'not_found');
    assert.equal((await api.delete(`/segments/${s.id}`)).status, 404);
    assert.equal((await api.get('/segments')).body.pagination.total, 0);
    // Its slug is free again.
    assert.equal((await api.post('/segments', { name: 'Reborn', slug: 'doomed' })).status, 201);
    const event = await app.db.collection('events').findOne({ kind: 'segment.deleted', 'data.segment_id': s.id });
    assert.ok(event, 'segment.deleted event');
  });
});
