/**
 * Issue 11 section 1: monitors over real HTTP and the real Temporal
 * Schedules behind them (creation, PATCH making the schedule follow, DELETE
 * removing it), listing, tenancy and bad input. No worker polls this file's
 * task queue; test/workflows/monitors runs monitors.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { ScheduleNotFoundError } from '@temporalio/client';
import { createGroup } from '../../domain/groups/store';
import { localTime } from '../../domain/recurrence';
import { OfferopsKind, OfferopsResourceId } from '../../temporal/names';
import { ApiClient } from '../helpers/client';
import { seedTenant, startTestApp, terminateRunning, Tenant, TestApp } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { temporalScheduleState } from '../helpers/states';

const taskQueue = `test-monitors-api-${randomBytes(4).toString('hex')}`;
let app: TestApp;
let me: Tenant;
let api: ApiClient;

before(async () => {
  app = await startTestApp({ taskQueue, webhookAllow: ['127.0.0.1'], rateLimit: { limit: 100_000, windowMs: 60_000 } });
  me = await seedTenant(app.db);
  api = new ApiClient(app.baseUrl, me.apiKey);
});
after(async () => {
  await terminateRunning(app, taskQueue);
  await app.close();
});

/** No DNS here: sources name the allow-listed loopback address (nothing is fetched in this file). */
const FEED = 'https://127.0.0.1:9/merchant.xml';
const handleOf = (id: string) => app.temporal.client.schedule.getHandle(`monitor-${id}`);
/** Waits until the monitor's Temporal Schedule shows `paused` (the scheduler applies a pause asynchronously); fails past 30 s. */
const pausedInTemporal = (id: string, paused: boolean) =>
  waitFor(
    `monitor ${id} paused: ${paused} in Temporal`,
    async () => ((await handleOf(id).describe()).state.paused === paused ? true : undefined),
    30_000,
    () => temporalScheduleState(app.temporal.client, `monitor-${id}`),
  );
const eventsOf = (kind: string, id: string) =>
  app.db
    .collection('events')
    .find({ kind, $or: [{ 'data.monitor.id': id }, { 'data.monitor_id': id }] })
    .toArray();

let n = 0;
async function monitor(body: Record<string, unknown> = {}, client = api) {
  const res = await client.post('/monitors', {
    name: `Monitor ${++n}`,
    sources: [{ type: 'merchant_xml', url: FEED }],
    frequency: { every_minutes: 60 },
    ...body,
  });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

test('create: the rule, its Temporal Schedule every N minutes with search attributes, and monitor.created', async () => {
  const m = await monitor({
    criteria: { keywords_include: ['fryer'], min_discount_pct: 20, max_price: 500, marketplace: 'loja' },
    sources: [
      { type: 'csv', url: 'http://127.0.0.1:9/f.csv', name: 'Network CSV', mapping: { title: 'Nome', price: 'Preço' } },
      { type: 'search', url: 'http://127.0.0.1:9/search?q=fryer', mapping: { items: 'data.results' } },
    ],
  });
  assert.match(m.id, /^mon_/);
  assert.deepEqual(m.frequency, { every_minutes: 60, cron: null, rrule: null, timezone: 'UTC' });
  assert.deepEqual(m.automation, { mode: 'none', segment_id: null, group_id: null, with_image: true });
  assert.equal(m.state, 'active');
  assert.equal(m.last_result, null);
  assert.equal(m.sources[0].name, 'Network CSV');
  const desc = await handleOf(m.id).describe();
  assert.equal(desc.spec.intervals?.[0]?.every, 60 * 60_000);
  assert.equal(desc.state.paused, false);
  assert.equal(m.next_run_at, desc.info.nextActionTimes[0]!.toISOString());
  const attrs = desc.typedSearchAttributes;
  assert.equal(attrs.get(OfferopsResourceId), m.id);
  assert.equal(attrs.get(OfferopsKind), 'monitor');
  assert.equal(desc.action.type, 'startWorkflow');
  assert.equal(desc.action.workflowType, 'monitorRun');
  assert.equal(desc.action.workflowId, `monitor-run-${m.id}`);
  assert.equal((await eventsOf('monitor.created', m.id)).length, 1);
  assert.deepEqual((await api.get(`/monitors/${m.id}`)).body.data.criteria, m.criteria);
});

describe('PATCH: the Temporal Schedule follows', () => {
  test('a cron in a time zone, then an RRULE, then every N minutes again', async () => {
    const m = await monitor();
    let res = await api.patch(`/monitors/${m.id}`, { frequency: { cron: '30 9 * * 1-5', timezone: 'America/Sao_Paulo' } });
    assert.equal(res.status, 200, res.text);
    let desc = await handleOf(m.id).describe();
    assert.equal(res.body.data.next_run_at, desc.info.nextActionTimes[0]!.toISOString());
    for (const at of desc.info.nextActionTimes) {
      const local = localTime(at, 'America/Sao_Paulo');
      assert.deepEqual([local.hour, local.minute], [9, 30]);
      assert.ok(local.weekday >= 1 && local.weekday <= 5, at.toISOString());
    }
    res = await api.patch(`/monitors/${m.id}`, { frequency: { rrule: 'FREQ=DAILY;BYHOUR=8,20;BYMINUTE=15', timezone: 'Europe/Lisbon' } });
    assert.equal(res.status, 200, res.text);
    desc = await handleOf(m.id).describe();
    for (const at of desc.info.nextActionTimes) {
      const local = localTime(at, 'Europe/Lisbon');
      assert.ok([8, 20].includes(local.hour) && local.minute === 15, at.toISOString());
    }
    res = await api.patch(`/monitors/${m.id}`, { frequency: { every_minutes: 15 } });
    desc = await handleOf(m.id).describe();
    assert.equal(desc.spec.intervals?.[0]?.every, 15 * 60_000);
    assert.deepEqual(res.body.data.frequency, { every_minutes: 15, cron: null, rrule: null, timezone: 'UTC' });
    const updates = await eventsOf('monitor.updated', m.id);
    assert.deepEqual(
      updates.map((e) => e.data.changed),
      [['frequency'], ['frequency'], ['frequency']],
    );
  });

  test('paused: the schedule pauses and there is no next run; active again resumes it', async () => {
    const m = await monitor();
    let res = await api.patch(`/monitors/${m.id}`, { state: 'paused' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.state, 'paused');
    assert.equal(res.body.data.next_run_at, null);
    await pausedInTemporal(m.id, true);
    assert.equal((await api.get(`/monitors?state=paused`)).body.data.filter((x: any) => x.id === m.id).length, 1);
    res = await api.patch(`/monitors/${m.id}`, { state: 'active' });
    await pausedInTemporal(m.id, false);
    assert.notEqual(res.body.data.next_run_at, null);
  });

  test('criteria and automation change the record only; the same body again changes nothing', async () => {
    const m = await monitor();
    const before = await handleOf(m.id).describe();
    const segment = (await api.post('/segments', { name: `Seg ${++n}` })).body.data;
    const body = { criteria: { stores_deny: ['Loja X'] }, automation: { mode: 'publish', segment_id: segment.id, with_image: false } };
    let res = await api.patch(`/monitors/${m.id}`, body);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data.automation, { mode: 'publish', segment_id: segment.id, group_id: null, with_image: false });
    assert.deepEqual((await eventsOf('monitor.updated', m.id)).at(-1)!.data.changed, ['criteria', 'automation']);
    assert.equal((await handleOf(m.id).describe()).info.lastUpdatedAt?.getTime(), before.info.lastUpdatedAt?.getTime());
    res = await api.patch(`/monitors/${m.id}`, body);
    assert.equal(res.status, 200);
    assert.equal((await eventsOf('monitor.updated', m.id)).length, 1);
  });
});

test('DELETE removes the rule and its Temporal Schedule', async () => {
  const m = await monitor();
  const res = await api.delete(`/monitors/${m.id}`);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.deleted, true);
  await assert.rejects(handleOf(m.id).describe(), ScheduleNotFoundError);
  assert.equal((await api.get(`/monitors/${m.id}`)).status, 404);
  assert.equal((await api.delete(`/monitors/${m.id}`)).status, 404);
  assert.equal((await eventsOf('monitor.deleted', m.id)).length, 1);
});

test('list: filters by state and marketplace; another tenant sees nothing', async () => {
  const other = await seedTenant(app.db);
  const theirs = new ApiClient(app.baseUrl, other.apiKey);
  const a = await monitor({ criteria: { marketplace: 'mkt-a' } }, theirs);
  const b = await monitor({ criteria: { marketplace: 'mkt-b' }, state: 'paused' }, theirs);
  assert.deepEqual(
    (await theirs.get('/monitors?marketplace=mkt-a')).body.data.map((x: any) => x.id),
    [a.id],
  );
  assert.deepEqual(
    (await theirs.get('/monitors?state=paused')).body.data.map((x: any) => x.id),
    [b.id],
  );
  assert.equal((await handleOf(b.id).describe()).state.paused, true);
  assert.equal((await theirs.get('/monitors')).body.pagination.total, 2);
  assert.equal((await api.get(`/monitors/${a.id}`)).status, 404);
  assert.equal((await api.patch(`/monitors/${a.id}`, { name: 'mine' })).status, 404);
  assert.equal((await api.delete(`/monitors/${a.id}`)).status, 404);
});

describe('bad input is a 4xx with the contract error shape', () => {
  const src = [{ type: 'json', url: 'http://127.0.0.1:9/f.json' }];
  const cases: [string, Record<string, unknown>, number, string, string?][] = [
    ['every 14 minutes', { frequency: { every_minutes: 14 } }, 400, 'validation_failed'],
    ['every 10081 minutes', { frequency: { every_minutes: 10081 } }, 400, 'validation_failed'],
    ['two frequencies', { frequency: { every_minutes: 60, cron: '0 9 * * *' } }, 400, 'validation_failed'],
    ['a cron too dense', { frequency: { cron: '*/5 * * * *' } }, 400, 'validation_failed', 'frequency.cron'],
    ['an unknown time zone', { frequency: { cron: '0 9 * * *', timezone: 'Mars/Olympus' } }, 400, 'validation_failed', 'frequency.timezone'],
    ['no sources', { sources: [] }, 400, 'validation_failed'],
    ['eleven sources', { sources: Array.from({ length: 11 }, () => src[0]) }, 400, 'validation_failed'],
    ['an unknown source type', { sources: [{ type: 'xlsx', url: 'https://f.example/x' }] }, 400, 'validation_failed'],
    ['an ftp URL', { sources: [{ type: 'csv', url: 'ftp://f.example/x.csv' }] }, 400, 'validation_failed'],
    [
      'plain http to a host not allowed',
      { sources: [{ type: 'csv', url: 'http://feeds.example/x.csv' }] },
      400,
      'validation_failed',
      'sources.0.url',
    ],
    [
      'a loopback address not allowed',
      { sources: [{ type: 'csv', url: 'https://127.0.0.2/x.csv' }] },
      400,
      'validation_failed',
      'sources.0.url',
    ],
    ['a private address', { sources: [{ type: 'csv', url: 'https://10.1.2.3/x.csv' }] }, 400, 'validation_failed', 'sources.0.url'],
    [
      'the metadata address in NAT64 form',
      { sources: [{ type: 'csv', url: 'https://[64:ff9b::a9fe:a9fe]/x.csv' }] },
      400,
      'validation_failed',
      'sources.0.url',
    ],
    [
      'the metadata address in 6to4 form',
      { sources: [{ type: 'csv', url: 'https://[2002:a9fe:a9fe::1]/x.csv' }] },
      400,
      'validation_failed',
      'sources.0.url',
    ],
    ['search without a mapping', { sources: [{ type: 'search', url: 'https://api.example/s' }] }, 400, 'validation_failed', 'sources.0.mapping'],
    [
      'search without items',
      { sources: [{ type: 'search', url: 'https://api.example/s', mapping: { title: 'name' } }] },
      400,
      'validation_failed',
      'sources.0.mapping.items',
    ],
    [
      'items on a CSV',
      { sources: [{ type: 'csv', url: 'https://f.example/x.csv', mapping: { items: 'x' } }] },
      400,
      'validation_failed',
      'sources.0.mapping.items',
    ],
    [
      'an unknown mapping field',
      { sources: [{ type: 'csv', url: 'https://f.example/x.csv', mapping: { sku: 'x' } }] },
      400,
      'validation_failed',
    ],
    ['max below min price', { criteria: { min_price: 10, max_price: 5 } }, 400, 'validation_failed', 'criteria.max_price'],
    ['discount above 100', { criteria: { min_discount_pct: 101 } }, 400, 'validation_failed'],
    ['a negative price', { criteria: { min_price: -1 } }, 400, 'validation_failed'],
    ['an unknown criterion', { criteria: { color: 'red' } }, 400, 'validation_failed'],
    ['publish without a target', { automation: { mode: 'publish' } }, 400, 'validation_failed', 'automation.segment_id'],
    [
      'publish to both',
      { automation: { mode: 'publish', segment_id: 'seg_0123456789abcdef', group_id: 'grp_0123456789abcdef' } },
      400,
      'validation_failed',
    ],
    [
      'a target without publish',
      { automation: { mode: 'create', segment_id: 'seg_0123456789abcdef' } },
      400,
      'validation_failed',
      'automation.segment_id',
    ],
    ['an unknown segment', { automation: { mode: 'publish', segment_id: 'seg_0123456789abcdefghij' } }, 400, 'unknown_reference'],
    ['an unknown state', { state: 'stopped' }, 400, 'validation_failed'],
    ['a name too long', { name: 'x'.repeat(121) }, 400, 'validation_failed'],
    ['an unknown field', { query: 'fryer' }, 400, 'validation_failed'],
  ];
  for (const [name, change, status, code, field] of cases) {
    test(name, async () => {
      const res = await api.post('/monitors', { name: 'Bad', sources: src, frequency: { every_minutes: 60 }, ...change });
      assert.equal(res.status, status, res.text);
      assert.equal(res.body.code, code, res.text);
      if (field)
        assert.ok(
          res.body.details?.some((d: any) => d.field === field),
          res.text,
        );
    });
  }

  test('mapping.items: required of a search source and refused on the other types, each said in words', async () => {
    const post = (source: Record<string, unknown>) =>
      api.post('/monitors', { name: 'Bad', sources: [source], frequency: { every_minutes: 60 } });
    const csv = await post({ type: 'csv', url: 'https://f.example/x.csv', mapping: { items: 'x' } });
    assert.deepEqual(csv.body.details, [
      { location: 'body', field: 'sources.0.mapping.items', rule: 'not', message: 'is taken only when type is "search"' },
    ]);
    const search = await post({ type: 'search', url: 'https://api.example/s', mapping: { title: 'name' } });
    assert.deepEqual(search.body.details, [{ location: 'body', field: 'sources.0.mapping.items', rule: 'required', message: 'is required' }]);
  });

  test('PATCH: the same checks, and an unknown monitor is a 404', async () => {
    const m = await monitor();
    assert.equal((await api.patch(`/monitors/${m.id}`, { frequency: { every_minutes: 5 } })).status, 400);
    assert.equal((await api.patch(`/monitors/${m.id}`, { automation: { mode: 'publish' } })).status, 400);
    assert.equal((await api.patch(`/monitors/${m.id}`, { sources: [{ type: 'csv', url: 'https://192.168.0.1/f.csv' }] })).status, 400);
    assert.equal((await api.patch('/monitors/mon_0123456789abcdefghij', { name: 'x' })).status, 404);
    assert.equal((await api.get('/monitors?state=running')).status, 400);
    const unchanged = (await api.get(`/monitors/${m.id}`)).body.data;
    assert.deepEqual(unchanged.frequency, m.frequency);
  });

  test('a group of another tenant is an unknown reference', async () => {
    const other = await seedTenant(app.db);
    const group = await createGroup(app.db, other, { name: 'Theirs' });
    const res = await api.post('/monitors', {
      name: 'Bad',
      sources: src,
      frequency: { every_minutes: 60 },
      automation: { mode: 'publish', group_id: group._id },
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'unknown_reference');
  });
});
