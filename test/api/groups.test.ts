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

/** A fresh account with its own client, so counts and lists are exact. */
async function tenant(): Promise<{ t: Tenant; api: ApiClient }> {
  const t = await seedTenant(app.db);
  return { t, api: new ApiClient(app.baseUrl, t.apiKey) };
}

let n = 0;
const channel = () => {
  n += 1;
  return { id: `chan_wa_5511999990${String(n).padStart(3, '0')}`, type: 'whatsapp', address: `1203630251${String(n).padStart(8, '0')}@g.us` };
};

const group = (t: Tenant, name = 'Promo Group', extra: { segment_id?: string | null } = {}) =>
  createGroup(app.db, t, { name, channel: channel(), ...extra });

const newSegment = async (api: ApiClient, name = 'Eletrônicos'): Promise<string> => {
  const res = await api.post('/segments', { name });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
};

const without = (o: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

describe('GET /groups', () => {
  test('lists the account groups with the full list envelope, paginated', async () => {
    const { t, api } = await tenant();
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await group(t, `Group ${i}`));
    // Another account's group never shows up.
    await group((await tenant()).t, 'Foreign group');

    const all = await api.get('/groups');
    assert.equal(all.status, 200);
    assert.deepEqual(all.body.pagination, { total: 5, limit: 30, offset: 0, has_more: false });
    assert.deepEqual(all.body.data.map((g: any) => g.id).sort(), created.map((g) => g._id).sort());

    const seen: string[] = [];
    for (const [offset, hasMore] of [
      [0, true],
      [2, true],
      [4, false],
    ] as const) {
      const page = await api.get(`/groups?limit=2&offset=${offset}`);
      assert.deepEqual(page.body.pagination, { total: 5, limit: 2, offset, has_more: hasMore });
      assert.equal(page.body.data.length, offset === 4 ? 1 : 2);
      seen.push(...page.body.data.map((g: any) => g.id));
    }
    // Pages follow the same order as the full list, with no overlap or gap.
    assert.deepEqual(
      seen,
      all.body.data.map((g: any) => g.id),
    );
    const beyond = await api.get('/groups?offset=10');
    assert.deepEqual(beyond.body.data, []);
    assert.deepEqual(beyond.body.pagination, { total: 5, limit: 30, offset: 10, has_more: false });
  });

  test('a new group has the documented defaults', async () => {
    const { t, api } = await tenant();
    const g = await group(t, 'Defaults');
    const res = await api.get(`/groups/${g._id}`);
    assert.equal(res.status, 200);
    const d = res.body.data;
    assert.deepEqual(without(d, 'created_at', 'updated_at'), {
      id: g._id,
      name: 'Defaults',
      role: 'distribution',
      segment_id: null,
      channel_type: 'whatsapp',
      capacity: null,
      automation: false,
      active: true,
    });
    assert.equal(d.created_at, g.created_at.toISOString());
  });

  test('filters by segment_id and by active=true|false', async () => {
    const { t, api } = await tenant();
    const segA = await newSegment(api, 'Segment A');
    const segB = await newSegment(api, 'Segment B');
    const a1 = await group(t, 'A1', { segment_id: segA });
    const a2 = await group(t, 'A2', { segment_id: segA });
    const b1 = await group(t, 'B1', { segment_id: segB });
    const none = await group(t, 'None');
    assert.equal((await api.patch(`/groups/${a2._id}`, { active: false })).status, 200);
    assert.equal((await api.patch(`/groups/${none._id}`, { active: false })).status, 200);

    const ids = async (q: string) => ((await api.get(`/groups?${q}`)).body.data as any[]).map((g) => g.id).sort();
    assert.deepEqual(await ids(`segment_id=${segA}`), [a1._id, a2._id].sort());
    assert.deepEqual(await ids(`segment_id=${segB}`), [b1._id]);
    assert.deepEqual(await ids('active=false'), [a2._id, none._id].sort());
    assert.deepEqual(await ids('active=true'), [a1._id, b1._id].sort());
    assert.deepEqual(await ids(`segment_id=${segA}&active=true`), [a1._id]);
    const filtered = await api.get(`/groups?segment_id=${segA}&limit=1`);
    assert.deepEqual(filtered.body.pagination, { total: 2, limit: 1, offset: 0, has_more: true });
    // A well-formed id of no segment: empty, not an error.
    assert.deepEqual(await ids('segment_id=seg_0000000000000000000000'), []);
  });

  for (const bad of ['active=yes', 'active=1', 'segment_id=nope', 'limit=0', 'offset=-1', 'colour=red']) {
    test(`refuses ${bad}`, async () => {
      const { api } = await tenant();
      const res = await api.get(`/groups?${bad}`);
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'validation_failed');
      assert.equal(res.body.details[0].location, 'query');
      assert.equal(res.body.details[0].field, bad.split('=')[0]);
    });
  }
});

describe('GET /groups/{id}', () => {
  test('another account, the other environment, or an unknown id: 404', async () => {
    const { t, api } = await tenant();
    const mine = await group(t, 'Mine');
    const other = await tenant();
    for (const client of [other.api, api.withKey((await addKey(app.db, t, { env: 'test' })).apiKey)]) {
      for (const res of [await client.get(`/groups/${mine._id}`), await client.patch(`/groups/${mine._id}`, { name: 'Stolen' })]) {
        assert.equal(res.status, 404);
        assert.equal(res.body.code, 'not_found');
      }
    }
    assert.equal((await api.get('/groups/grp_0000000000000000000000')).status, 404);
    assert.equal((await api.get(`/groups/${mine._id}`)).body.data.name, 'Mine');
  });
});

describe('PATCH /groups/{id}', () => {
  let t: Tenant;
  let api: ApiClient;
  let segment: string;
  before(async () => {
    ({ t, api } = await tenant());
    segment = await newSegment(api, 'Casa');
  });

  const cases: [string, unknown][] = [
    ['name', 'Renamed group'],
    ['role', 'vip'],
    ['role', 'test'],
    ['capacity', 250],
    ['capacity', 0],
    ['automation', true],
    ['active', false],
  ];
  for (const [field, value] of cases) {
    test(`changes ${field} to ${JSON.stringify(value)} and nothing else`, async () => {
      const g = await group(t, 'Before');
      const before = (await api.get(`/groups/${g._id}`)).body.data;
      const res = await api.patch(`/groups/${g._id}`, { [field]: value });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data[field], value);
      assert.deepEqual(without(res.body.data, field, 'updated_at'), without(before, field, 'updated_at'));
      assert.ok(res.body.data.updated_at >= before.updated_at);
      assert.deepEqual((await api.get(`/groups/${g._id}`)).body.data, res.body.data);
    });
  }

  test('capacity can be cleared with null', async () => {
    const g = await group(t);
    await api.patch(`/groups/${g._id}`, { capacity: 10 });
    const res = await api.patch(`/groups/${g._id}`, { capacity: null });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.capacity, null);
  });

  test('segment_id links to a segment of the account and null unlinks', async () => {
    const g = await group(t);
    const linked = await api.patch(`/groups/${g._id}`, { segment_id: segment });
    assert.equal(linked.status, 200, linked.text);
    assert.equal(linked.body.data.segment_id, segment);
    assert.equal((await api.get(`/groups/${g._id}`)).body.data.segment_id, segment);
    assert.ok(((await api.get(`/groups?segment_id=${segment}`)).body.data as any[]).some((x) => x.id === g._id));

    const unlinked = await api.patch(`/groups/${g._id}`, { segment_id: null });
    assert.equal(unlinked.status, 200);
    assert.equal(unlinked.body.data.segment_id, null);
    assert.equal((await api.get(`/groups/${g._id}`)).body.data.segment_id, null);
    assert.ok(!((await api.get(`/groups?segment_id=${segment}`)).body.data as any[]).some((x) => x.id === g._id));
  });

  test('several fields at once; the other fields keep their values', async () => {
    const g = await group(t, 'Multi');
    await api.patch(`/groups/${g._id}`, { capacity: 99, automation: true });
    const res = await api.patch(`/groups/${g._id}`, { name: 'Multi 2', role: 'community' });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.name, 'Multi 2');
    assert.equal(res.body.data.role, 'community');
    assert.equal(res.body.data.capacity, 99);
    assert.equal(res.body.data.automation, true);
    assert.equal(res.body.data.active, true);
  });

  test('no body or an empty body changes nothing', async () => {
    const g = await group(t, 'Same');
    const before = (await api.get(`/groups/${g._id}`)).body.data;
    assert.deepEqual((await api.patch(`/groups/${g._id}`)).body.data, before);
    assert.deepEqual((await api.patch(`/groups/${g._id}`, {})).body.data, before);
    assert.deepEqual((await api.get(`/groups/${g._id}`)).body.data, before);
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['an unknown field', { name: 'Ok', address: 'x@g.us' }, 'address'],
    ['an unknown field (colour)', { colour: 'red' }, 'colour'],
    ['an invalid role', { role: 'admin' }, 'role'],
    ['a non-string name', { name: 5 }, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a negative capacity', { capacity: -1 }, 'capacity'],
    ['a fractional capacity', { capacity: 1.5 }, 'capacity'],
    ['a string automation', { automation: 'true' }, 'automation'],
    ['a null active', { active: null }, 'active'],
    ['a malformed segment_id', { segment_id: 'not-a-segment' }, 'segment_id'],
  ];
  for (const [what, body, field] of invalid) {
    test(`${what} is a 400 naming ${field}, and nothing changes`, async () => {
      const g = await group(t, 'Stable');
      const before = (await api.get(`/groups/${g._id}`)).body.data;
      const res = await api.patch(`/groups/${g._id}`, body);
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'validation_failed');
      assert.ok(
        res.body.details.some((d: any) => d.location === 'body' && d.field === field),
        res.text,
      );
      assert.deepEqual((await api.get(`/groups/${g._id}`)).body.data, before);
    });
  }

  test('a segment of another account, of the other environment, or unknown: 400 unknown_reference, nothing changes', async () => {
    const other = await tenant();
    const foreign = await newSegment(other.api, 'Foreign');
    const testEnv = await newSegment(api.withKey((await addKey(app.db, t, { env: 'test' })).apiKey), 'Sandbox');
    const g = await group(t, 'Guarded');
    await api.patch(`/groups/${g._id}`, { segment_id: segment });
    const before = (await api.get(`/groups/${g._id}`)).body.data;
    const eventsBefore = await app.db.collection('events').countDocuments({ kind: 'group.updated', 'data.group.id': g._id });
    for (const id of [foreign, testEnv, 'seg_0000000000000000000000']) {
      const res = await api.patch(`/groups/${g._id}`, { name: 'Should not stick', segment_id: id });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 'unknown_reference');
      assert.ok(
        res.body.details?.some((d: any) => d.field === 'segment_id'),
        res.text,
      );
      assert.deepEqual((await api.get(`/groups/${g._id}`)).body.data, before);
    }
    assert.equal(await app.db.collection('events').countDocuments({ kind: 'group.updated', 'data.group.id': g._id }), eventsBefore);
  });

  test('records a group.updated event naming the changed fields', async () => {
    const g = await group(t, 'Evented');
    const res = await api.patch(`/groups/${g._id}`, { name: 'Evented 2', capacity: 5 });
    const events = await app.db.collection('events').find({ kind: 'group.updated', 'data.group.id': g._id }).toArray();
    assert.equal(events.length, 1);
    assert.deepEqual([...events[0]!.data.changed].sort(), ['capacity', 'name']);
    assert.deepEqual(events[0]!.data.group, res.body.data);
    assert.equal(events[0]!.account_id, t.accountId);
  });
});

describe('disclosure (spec 1): no JID, channel id, session or credential', () => {
  const FORBIDDEN = ['@g.us', 'jid', 'session', 'credential', 'token', 'address'];

  test('list, get, update and the recorded events never carry the channel details', async () => {
    const { t, api } = await tenant();
    const seg = await newSegment(api, 'Disclosure');
    const channels = [
      { id: 'chan_wa_5511987654321', type: 'whatsapp', address: '120363025246125486@g.us' },
      { id: 'chan_wa_5511912345678', type: 'whatsapp', address: '120363111111111111@g.us' },
    ];
    const groups = [];
    for (const [i, ch] of channels.entries()) groups.push(await createGroup(app.db, t, { name: `VIP ${i}`, segment_id: seg, channel: ch }));
    // The store keeps them (so the test would notice if they were simply lost).
    const stored = await app.db.collection('groups').findOne({ _id: groups[0]!._id } as any);
    assert.equal(stored?.address, channels[0]!.address);
    assert.equal(stored?.channel_id, channels[0]!.id);

    const texts: string[] = [];
    texts.push((await api.get('/groups')).text);
    texts.push((await api.get(`/groups?segment_id=${seg}&active=true`)).text);
    for (const g of groups) {
      texts.push((await api.get(`/groups/${g._id}`)).text);
      const upd = await api.patch(`/groups/${g._id}`, { name: `${g.name} renamed`, capacity: 100, automation: true, role: 'vip' });
      assert.equal(upd.status, 200);
      texts.push(upd.text);
    }
    const events = await app.db.collection('events').find({ kind: 'group.updated', account_id: t.accountId }).toArray();
    assert.equal(events.length, groups.length);
    texts.push(...events.map((e) => JSON.stringify(e)));

    const secrets = [...channels.flatMap((c) => [c.address, c.id, c.address.split('@')[0]!]), ...FORBIDDEN];
    for (const text of texts) {
      const lower = text.toLowerCase();
      for (const s of secrets) assert.ok(!lower.includes(s.toLowerCase()), `${s} disclosed in ${text.slice(0, 400)}`);
    }
  });
});
