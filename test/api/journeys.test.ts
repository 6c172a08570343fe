/**
 * Journeys over real HTTP: create as a draft, the graph rules as 400s naming the block and the rule, templates and
 * http destinations checked, PATCH (a new graph checked again), activate and pause, list filters, delete only while
 * never executed, tenancy, events.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EVENT_KINDS } from '../../schemas/events/index';
import { ApiClient } from '../helpers/client';
import { seedTenant, startTestApp, Tenant, TestApp } from '../helpers/stack';

let app: TestApp;

before(async () => {
  app = await startTestApp({ webhookAllow: ['127.0.0.1'] });
});
after(() => app.close());

async function tenant(): Promise<{ t: Tenant; api: ApiClient }> {
  const t = await seedTenant(app.db);
  return { t, api: new ApiClient(app.baseUrl, t.apiKey) };
}

const BLOCKS = [
  { id: 'start', type: 'trigger', config: {}, next: ['hello'] },
  { id: 'hello', type: 'message', name: 'Boas-vindas', config: { text: 'Olá!' }, next: ['pause'] },
  { id: 'pause', type: 'wait', config: { minutes: 60 }, next: ['check'] },
  { id: 'check', type: 'condition', config: { field: 'event.data.offer.price', operator: 'lt', value: 100 }, next: ['done', 'hello'] },
  { id: 'done', type: 'end', config: {} },
];

const BODY = { name: 'Boas-vindas', trigger: 'offer.created', blocks: BLOCKS };

const detailsOf = (res: { body: { details?: { field: string; rule: string }[] } }) =>
  (res.body.details ?? []).map((d) => `${d.field} ${d.rule}`).sort();

describe('POST /journeys', () => {
  test('201: a draft (active 0, no executions) with the blocks as stored, and its journey.created event', async () => {
    const { t, api } = await tenant();
    const res = await api.post('/journeys', { ...BODY, filter: [{ field: 'event.data.offer.price', operator: 'gt', value: 10 }] });
    assert.equal(res.status, 201, res.text);
    const j = res.body.data;
    assert.match(j.id, /^jrn_[0-9a-z]+$/);
    assert.equal(j.active, 0);
    assert.equal(j.executions, 0);
    assert.equal(j.trigger, 'offer.created');
    assert.deepEqual(j.filter, [{ field: 'event.data.offer.price', operator: 'gt', value: 10 }]);
    assert.equal(j.activated_at, null);
    assert.deepEqual(j.metrics, { running: 0, completed: 0, failed: 0, completion_rate: null, last_execution_at: null });
    assert.deepEqual(
      j.blocks.map((b: { id: string; name: string | null; next: string[]; position: unknown }) => [b.id, b.name, b.next, b.position]),
      [
        ['start', null, ['hello'], null],
        ['hello', 'Boas-vindas', ['pause'], null],
        ['pause', null, ['check'], null],
        ['check', null, ['done', 'hello'], null],
        ['done', null, [], null],
      ],
    );
    assert.deepEqual((await api.get(`/journeys/${j.id}`)).body.data, j);
    const event = await app.db.collection('events').findOne({ account_id: t.accountId, kind: 'journey.created', 'data.journey.id': j.id });
    assert.ok(event, 'journey.created event');
  });

  test('a broken graph: 400 validation_failed, each detail naming the block and the rule; nothing stored', async () => {
    const { t, api } = await tenant();
    const blocks = [
      { id: 'start', type: 'trigger', config: {}, next: ['a'] },
      { id: 'a', type: 'message', config: { text: 'x' }, next: ['b'] },
      { id: 'b', type: 'condition', config: { field: 'event.data.x', operator: 'exists' }, next: ['a', 'ghost'] },
      { id: 'lost', type: 'end', config: {} },
    ];
    const res = await api.post('/journeys', { ...BODY, blocks });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'validation_failed');
    assert.deepEqual(detailsOf(res), ['blocks[a] cycle_without_wait', 'blocks[b].next dangling_edge', 'blocks[lost] unreachable']);
    assert.match(res.body.message, /blocks\[b\]\.next dangling_edge/);
    assert.equal(await app.db.collection('journeys').countDocuments({ account_id: t.accountId }), 0);
  });

  test('a template that does not exist (or is another account’s): 400 naming the block; one of the account’s is accepted', async () => {
    const { api } = await tenant();
    const other = await tenant();
    const foreign = (await other.api.post('/templates', { name: 'T', body: '{title}' })).body.data.id;
    const mine = (await api.post('/templates', { name: 'T', body: '{title}' })).body.data.id;
    const withTemplate = (id: string) => BLOCKS.map((b) => (b.id === 'hello' ? { ...b, config: { template_id: id } } : b));
    const res = await api.post('/journeys', { ...BODY, blocks: withTemplate(foreign) });
    assert.equal(res.status, 400, res.text);
    assert.deepEqual(detailsOf(res), ['blocks[hello].config.template_id exists']);
    assert.equal((await api.post('/journeys', { ...BODY, blocks: withTemplate(mine) })).status, 201);
  });

  test('an http block to a refused destination: 400 destination on its url; an allowed one is accepted', async () => {
    const { api } = await tenant();
    const withUrl = (url: string) => [
      { id: 'start', type: 'trigger', config: {}, next: ['call'] },
      { id: 'call', type: 'http', config: { url, timeout_ms: 2000 }, next: ['c'] },
      { id: 'c', type: 'condition', config: { field: 'http.call.status', operator: 'eq', value: 200 }, next: ['e', 'e'] },
      { id: 'e', type: 'end', config: {} },
    ];
    const refused = await api.post('/journeys', { ...BODY, blocks: withUrl('https://10.1.2.3/hook') });
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(detailsOf(refused), ['blocks[call].config.url destination']);
    const plain = await api.post('/journeys', { ...BODY, blocks: withUrl('http://127.0.0.1/hook') });
    assert.equal(plain.status, 400);
    assert.equal((await api.post('/journeys', { ...BODY, blocks: withUrl('https://127.0.0.1:9/hook') })).status, 201);
  });

  test('the document lists the catalogue as the trigger enum, so a trigger it declares valid is accepted', async () => {
    const { api } = await tenant();
    const doc = (await fetch(`${app.baseUrl}/openapi.json`).then((r) => r.json())) as any;
    const kinds = doc.components.schemas.JourneyCreate.properties.trigger.enum;
    assert.deepEqual(kinds, EVENT_KINDS);
    const last = await api.post('/journeys', { ...BODY, trigger: kinds.at(-1) });
    assert.equal(last.status, 201, last.text);
  });

  test('a trigger outside the catalogue, a block config of the wrong shape, an unknown block type: 400', async () => {
    const { api } = await tenant();
    const unknownKind = await api.post('/journeys', { ...BODY, trigger: 'offer.exploded' });
    assert.equal(unknownKind.status, 400);
    assert.deepEqual(detailsOf(unknownKind), ['trigger enum']);
    const badWait = BLOCKS.map((b) => (b.id === 'pause' ? { ...b, config: { until: '25:00', timezone: 'UTC' } } : b));
    assert.equal((await api.post('/journeys', { ...BODY, blocks: badWait })).status, 400);
    const badType = [...BLOCKS, { id: 'x', type: 'teleport', config: {} }];
    assert.equal((await api.post('/journeys', { ...BODY, blocks: badType })).status, 400);
  });
});

describe('PATCH, activate, list, delete', () => {
  test('PATCH changes the fields sent; a new graph is checked again', async () => {
    const { t, api } = await tenant();
    const id = (await api.post('/journeys', BODY)).body.data.id;
    const renamed = await api.patch(`/journeys/${id}`, { name: 'Novo nome' });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.data.name, 'Novo nome');
    assert.equal(renamed.body.data.blocks.length, 5);
    const broken = await api.patch(`/journeys/${id}`, { blocks: BLOCKS.filter((b) => b.id !== 'start') });
    assert.equal(broken.status, 400);
    assert.deepEqual(detailsOf(broken), ['blocks[hello] single_entry']);
    const shorter = [
      { id: 'start', type: 'trigger', config: {}, next: ['done'] },
      { id: 'done', type: 'end', config: {} },
    ];
    const ok = await api.patch(`/journeys/${id}`, { blocks: shorter });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(
      ok.body.data.blocks.map((b: { id: string }) => b.id),
      ['start', 'done'],
    );
    const event = await app.db.collection('events').findOne({ account_id: t.accountId, kind: 'journey.updated', 'data.changed': 'blocks' });
    assert.ok(event, 'journey.updated event with changed blocks');
  });

  test('activate (no body, or active true), pause (active false); the list filters on active and trigger', async () => {
    const { api } = await tenant();
    const a = (await api.post('/journeys', BODY)).body.data.id;
    const b = (await api.post('/journeys', { ...BODY, trigger: 'offer.updated' })).body.data.id;
    const on = await api.post(`/journeys/${a}/activate`);
    assert.equal(on.status, 200, on.text);
    assert.equal(on.body.data.active, 1);
    assert.ok(on.body.data.activated_at);
    const again = await api.post(`/journeys/${a}/activate`, { active: true });
    assert.equal(again.body.data.updated_at, on.body.data.updated_at, 'the state it has changes nothing');
    const ids = async (q: string) => (await api.get(`/journeys${q}`)).body.data.map((j: { id: string }) => j.id).sort();
    assert.deepEqual(await ids('?active=true'), [a]);
    assert.deepEqual(await ids('?active=false'), [b]);
    assert.deepEqual(await ids('?trigger=offer.updated'), [b]);
    assert.deepEqual(await ids(''), [a, b].sort());
    const off = await api.post(`/journeys/${a}/activate`, { active: false });
    assert.equal(off.body.data.active, 0);
    assert.deepEqual(await ids('?active=true'), []);
  });

  test('DELETE removes a journey that never executed (then 404); another account cannot see or touch it', async () => {
    const { api } = await tenant();
    const other = await tenant();
    const id = (await api.post('/journeys', BODY)).body.data.id;
    assert.equal((await other.api.get(`/journeys/${id}`)).status, 404);
    assert.equal((await other.api.delete(`/journeys/${id}`)).status, 404);
    assert.equal((await other.api.post(`/journeys/${id}/activate`)).status, 404);
    const res = await api.delete(`/journeys/${id}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.deleted, true);
    assert.equal((await api.get(`/journeys/${id}`)).status, 404);
  });
});
