/**
 * Issue 3 section 4: schedules over real HTTP and the real Temporal Schedules
 * behind them. No worker polls this file's task queue, so runs started here
 * stay under way (and are terminated at the end); test/workflows/schedules
 * runs them.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { ScheduleDescription, ScheduleNotFoundError } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import { localTime } from '../../domain/recurrence';
import { createGroup } from '../../domain/groups/store';
import { OfferopsKind, OfferopsResourceId } from '../../temporal/names';
import { ApiClient } from '../helpers/client';
import { afterRunSecond, oneOffSoon } from '../helpers/schedules';
import { seedTenant, startTestApp, terminateRunning, Tenant, TestApp } from '../helpers/stack';
import { ahead, DAY, HOUR, nextOffsetChange } from '../helpers/time';
import { waitFor } from '../helpers/wait';
import { listedState, temporalScheduleState } from '../helpers/states';

const taskQueue = `test-schedules-api-${randomBytes(4).toString('hex')}`;
const RUN_WAIT_MS = 1500;
let app: TestApp;
let me: Tenant;
let api: ApiClient;

before(async () => {
  app = await startTestApp({ taskQueue, scheduleRunWaitMs: RUN_WAIT_MS, rateLimit: { limit: 100_000, windowMs: 60_000 } });
  me = await seedTenant(app.db);
  api = new ApiClient(app.baseUrl, me.apiKey);
});
after(async () => {
  await terminateRunning(app, taskQueue);
  await app.close();
});

let n = 0;
/** A year always ahead, for times written with their offset. */
const YEAR = new Date().getUTCFullYear() + 2;

async function world(client = api, tenant = me) {
  const offer = (await client.post('/offers', { url: `https://shop.example/sch/${++n}-${Date.now()}`, title: 'Air Fryer', price: 299.9 })).body
    .data;
  const segment = (await client.post('/segments', { name: `Segment ${++n}` })).body.data;
  const template = (await client.post('/templates', { name: `Template ${++n}`, body: '{title} {url}' })).body.data;
  const group = await createGroup(app.db, tenant, { name: `Group ${++n}`, segment_id: segment.id });
  return { offer, segment, template, group: { id: group._id } };
}

async function schedule(body: Record<string, unknown>, client = api) {
  const res = await client.post('/schedules', body);
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

const handleOf = (id: string) => app.temporal.client.schedule.getHandle(`schedule-${id}`);
const describeOf = (id: string): Promise<ScheduleDescription> => handleOf(id).describe();
/**
 * Waits until the Temporal Schedule shows `paused`: the scheduler applies a pause asynchronously, and on a loaded
 * machine after the API's own 5 s wait (domain/schedules/temporal.ts settled); past 30 s it fails.
 */
const pausedInTemporal = (id: string, paused: boolean) =>
  waitFor(
    `schedule ${id} paused: ${paused} in Temporal`,
    async () => ((await describeOf(id)).state.paused === paused ? true : undefined),
    30_000,
    () => temporalScheduleState(app.temporal.client, `schedule-${id}`),
  );
const eventsOf = (kind: string, id: string) =>
  app.db
    .collection('events')
    .find({ kind, $or: [{ 'data.schedule.id': id }, { 'data.schedule_id': id }] })
    .toArray();

/** 400 validation_failed naming `field` with `rule`. */
function refused(res: { status: number; body: any; text: string }, field: string, rule?: string) {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.code, 'validation_failed');
  const detail = res.body.details.find((d: any) => d.field === field && (rule === undefined || d.rule === rule));
  assert.ok(detail, `a detail for ${field}${rule ? ` (${rule})` : ''}: ${res.text}`);
}

describe('POST /schedules', () => {
  test('a one-off: 201, the record, a Temporal Schedule at that instant starting scheduleRun, and its event', async () => {
    const w = await world();
    const runAt = ahead(HOUR);
    const s = await schedule({
      name: 'Launch',
      offer_id: w.offer.id,
      group_id: w.group.id,
      run_at: new Date(runAt.getTime() + 750).toISOString(),
    });
    assert.match(s.id, /^sch_[0-9a-z]+$/);
    assert.deepEqual(
      { ...s, id: undefined, created_at: undefined, updated_at: undefined },
      {
        id: undefined,
        name: 'Launch',
        offer_id: w.offer.id,
        text: null,
        group_id: w.group.id,
        segment_id: null,
        template_id: null,
        with_image: true,
        run_at: runAt.toISOString(), // kept to the second
        recurrence: null,
        status: 'active',
        next_run_at: runAt.toISOString(),
        last_run_at: null,
        run_count: 0,
        created_at: undefined,
        updated_at: undefined,
      },
    );
    const desc = await describeOf(s.id);
    assert.deepEqual(desc.info.nextActionTimes, [runAt]);
    assert.equal(desc.action.workflowType, 'scheduleRun');
    assert.equal(desc.action.taskQueue, taskQueue);
    assert.deepEqual(desc.action.args, [{ schedule_id: s.id, account: me.accountId, environment: 'live' }]);
    const attributes = desc.action.typedSearchAttributes as TypedSearchAttributes;
    assert.equal(attributes.get(OfferopsKind), 'schedule_run');
    assert.equal(attributes.get(OfferopsResourceId), s.id);
    assert.equal(desc.policies.overlap, 'ALLOW_ALL');
    const [event] = await eventsOf('schedule.created', s.id);
    assert.deepEqual(event?.data.schedule, s);
    assert.deepEqual((await api.get(`/schedules/${s.id}`)).body.data, s);
  });

  test('a text to a segment with a template; run_at is read with its offset', async () => {
    const w = await world();
    const s = await schedule({
      text: 'Bom dia!',
      segment_id: w.segment.id,
      template_id: w.template.id,
      with_image: false,
      run_at: `${YEAR}-01-01T09:00:00-03:00`,
    });
    assert.equal(s.run_at, `${YEAR}-01-01T12:00:00.000Z`);
    assert.deepEqual(
      [s.text, s.offer_id, s.segment_id, s.group_id, s.template_id, s.with_image],
      ['Bom dia!', null, w.segment.id, null, w.template.id, false],
    );
    assert.equal(s.next_run_at, `${YEAR}-01-01T12:00:00.000Z`);
  });

  test('exactly one content and exactly one destination, else 400 naming both fields', async () => {
    const w = await world();
    const run_at = ahead(HOUR).toISOString();
    for (const body of [{ group_id: w.group.id }, { offer_id: w.offer.id, text: 'x', group_id: w.group.id }]) {
      const res = await api.post('/schedules', { ...body, run_at });
      refused(res, 'offer_id', 'oneOf');
      refused(res, 'text', 'oneOf');
    }
    for (const body of [{ offer_id: w.offer.id }, { offer_id: w.offer.id, group_id: w.group.id, segment_id: w.segment.id }]) {
      const res = await api.post('/schedules', { ...body, run_at });
      refused(res, 'group_id', 'oneOf');
      refused(res, 'segment_id', 'oneOf');
    }
    assert.equal(await app.db.collection('schedules').countDocuments({ account_id: me.accountId, offer_id: w.offer.id }), 0);
  });

  test('ids of another account are 400 unknown_reference; an archived offer is 409 offer_not_publishable', async () => {
    const mine = await world();
    const other = await seedTenant(app.db);
    const theirs = await world(new ApiClient(app.baseUrl, other.apiKey), other);
    const run_at = ahead(HOUR).toISOString();
    for (const [field, body] of [
      ['offer_id', { offer_id: theirs.offer.id, group_id: mine.group.id }],
      ['group_id', { offer_id: mine.offer.id, group_id: theirs.group.id }],
      ['segment_id', { offer_id: mine.offer.id, segment_id: theirs.segment.id }],
      ['template_id', { offer_id: mine.offer.id, group_id: mine.group.id, template_id: theirs.template.id }],
    ] as const) {
      const res = await api.post('/schedules', { ...body, run_at });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 'unknown_reference');
      assert.equal(res.body.details[0].field, field);
    }
    await api.delete(`/offers/${mine.offer.id}`);
    const archived = await api.post('/schedules', { offer_id: mine.offer.id, group_id: mine.group.id, run_at });
    assert.equal(archived.status, 409);
    assert.equal(archived.body.code, 'offer_not_publishable');
  });

  test('run_at: without an offset, invalid, or not in the future is a 400 that says which', async () => {
    const w = await world();
    const base = { text: 'x', group_id: w.group.id };
    const local = await api.post('/schedules', { ...base, run_at: `${YEAR}-01-01T09:00:00` });
    refused(local, 'run_at', 'pattern');
    assert.match(local.body.message, /with a UTC offset/);
    refused(await api.post('/schedules', { ...base, run_at: `${YEAR}-02-30T09:00:00Z` }), 'run_at', 'format');
    refused(await api.post('/schedules', { ...base, run_at: new Date(Date.now() - 1000).toISOString() }), 'run_at', 'future');
    refused(await api.post('/schedules', { ...base, run_at: 'tomorrow' }), 'run_at', 'pattern');
  });
});

/** `n` times of the Temporal Schedule, as wall-clock readings in `tz`. */
const localRuns = (desc: ScheduleDescription, tz: string) => desc.info.nextActionTimes.map((t) => localTime(t, tz));

describe('recurrence: RRULE subset and cron, read in a time zone', () => {
  const w = () => world();

  test('RRULE WEEKLY;BYDAY;BYHOUR;BYMINUTE maps to those weekdays at that local time', async () => {
    const { group } = await w();
    const s = await schedule({
      text: 'x',
      group_id: group.id,
      run_at: ahead(HOUR).toISOString(),
      recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=9;BYMINUTE=30', timezone: 'America/Sao_Paulo' },
    });
    assert.deepEqual(s.recurrence, {
      rrule: 'FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=9;BYMINUTE=30',
      cron: null,
      timezone: 'America/Sao_Paulo',
      ends_at: null,
    });
    const runs = localRuns(await describeOf(s.id), 'America/Sao_Paulo');
    assert.ok(runs.length >= 4);
    for (const r of runs) assert.deepEqual([r.hour, r.minute, r.second, [1, 3].includes(r.weekday)], [9, 30, 0, true]);
    assert.equal(s.next_run_at, (await describeOf(s.id)).info.nextActionTimes[0]!.toISOString());
  });

  test('parts left out come from run_at in the time zone; MONTHLY INTERVAL steps months from run_at', async () => {
    const { group } = await w();
    const runAt = ahead(2 * HOUR);
    const tokyo = localTime(runAt, 'Asia/Tokyo');
    const daily = await schedule({
      text: 'x',
      group_id: group.id,
      run_at: runAt.toISOString(),
      recurrence: { rrule: 'FREQ=DAILY', timezone: 'Asia/Tokyo' },
    });
    const days = localRuns(await describeOf(daily.id), 'Asia/Tokyo');
    for (const r of days) assert.deepEqual([r.hour, r.minute, r.second], [tokyo.hour, tokyo.minute, tokyo.second]);
    assert.equal(daily.next_run_at, runAt.toISOString(), 'run_at itself is the first occurrence');

    const quarterly = await schedule({
      text: 'x',
      group_id: group.id,
      run_at: runAt.toISOString(),
      recurrence: { rrule: 'FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=15;BYHOUR=8;BYMINUTE=0' },
    });
    assert.equal(quarterly.recurrence.timezone, 'UTC');
    const months = (await describeOf(quarterly.id)).info.nextActionTimes.map((t) => t.getUTCMonth());
    for (const m of months) assert.equal((m - runAt.getUTCMonth() + 12) % 3, 0, `month ${m + 1}`);
    for (const t of (await describeOf(quarterly.id)).info.nextActionTimes) assert.deepEqual([t.getUTCDate(), t.getUTCHours()], [15, 8]);
  });

  // Which rules the parser refuses, and why, is test/unit/recurrence.test.ts, and that the contract's pattern admits exactly
  // what it takes is test/unit/recurrence-patterns.test.ts; here, the boundaries as a client meets them.
  test('an RRULE outside the subset or denser than 15 minutes, an unknown zone or a bad ends_at is a 400 naming the part', async () => {
    const { group } = await w();
    const run_at = ahead(HOUR).toISOString();
    const post = (recurrence: Record<string, unknown>) => api.post('/schedules', { text: 'x', group_id: group.id, run_at, recurrence });
    for (const rrule of [
      'FREQ=HOURLY',
      'FREQ=DAILY;BYHOUR=24',
      'FREQ=DAILY;BYMINUTE=60',
      'FREQ=WEEKLY;INTERVAL=2',
      'FREQ=MONTHLY;INTERVAL=5',
      'FREQ=DAILY;BYMONTHDAY=1',
      'FREQ=DAILY;BYHOUR=9;BYHOUR=10',
      'FREQ=DAILY;COUNT=5',
      'EZKS=0W4K6QRhePupBl;ABQ=81Uq3aL8',
    ]) {
      const res = await post({ rrule });
      refused(res, 'recurrence.rrule', 'pattern');
      assert.match(res.body.message, /supported subset/, rrule);
    }
    for (const rrule of ['BYHOUR=23;FREQ=DAILY;BYMINUTE=59', 'FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=31;BYHOUR=0;BYMINUTE=0']) {
      assert.equal((await post({ rrule })).status, 201, rrule);
    }
    const dense = await post({ rrule: 'FREQ=DAILY;BYHOUR=9;BYMINUTE=0,14' });
    refused(dense, 'recurrence.rrule', 'frequency');
    assert.match(dense.body.message, /14 minutes apart/);
    refused(await post({ rrule: 'FREQ=DAILY', timezone: 'Mars/Olympus_Mons' }), 'recurrence.timezone', 'timezone');
    refused(await post({ rrule: 'FREQ=DAILY', ends_at: run_at }), 'recurrence.ends_at', 'after_run_at');
    refused(await post({ rrule: 'FREQ=DAILY', ends_at: `${YEAR}-01-01T00:00:00` }), 'recurrence.ends_at', 'pattern');
    refused(await post({ rrule: 'FREQ=DAILY', cron: '0 9 * * *' }), 'recurrence');
  });

  test('cron maps to the times it names in its time zone; outside the grammar or denser than 15 minutes is a 400', async () => {
    const { group } = await w();
    const run_at = ahead(HOUR).toISOString();
    const s = await schedule({ text: 'x', group_id: group.id, run_at, recurrence: { cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' } });
    assert.equal(s.recurrence.cron, '0 9 * * 1-5');
    for (const r of localRuns(await describeOf(s.id), 'Europe/Berlin'))
      assert.deepEqual([r.hour, r.minute, r.weekday >= 1 && r.weekday <= 5], [9, 0, true]);
    const names = await schedule({ text: 'x', group_id: group.id, run_at, recurrence: { cron: '30 18 * jan-dec sun' } });
    for (const t of (await describeOf(names.id)).info.nextActionTimes)
      assert.deepEqual([t.getUTCDay(), t.getUTCHours(), t.getUTCMinutes()], [0, 18, 30]);
    assert.equal((await api.post('/schedules', { text: 'x', group_id: group.id, run_at, recurrence: { cron: '*/15 9-17 * * *' } })).status, 201);

    const post = (cron: string) => api.post('/schedules', { text: 'x', group_id: group.id, run_at, recurrence: { cron } });
    for (const [cron, rule, says] of [
      ['*/10 * * * *', 'frequency', /10 minutes apart/],
      ['0 9-7 * * *', 'range', /runs backwards/],
      ['0 9 1 * 1', 'pattern', /not both/],
      ['0 24 * * *', 'pattern', /five-field cron/],
    ] as const) {
      const res = await post(cron);
      refused(res, 'recurrence.cron', rule);
      assert.match(res.body.message, says, cron);
    }
    refused(await post('@daily'), 'recurrence.cron', 'pattern');
    assert.equal((await post('59 23 31 dec *')).status, 201);
  });
});

describe('daylight saving', () => {
  for (const [tz, recurrence] of [
    ['Europe/Berlin', { rrule: 'FREQ=DAILY;BYHOUR=9;BYMINUTE=0', timezone: 'Europe/Berlin' }],
    ['America/New_York', { cron: '0 9 * * *', timezone: 'America/New_York' }],
  ] as const) {
    test(`daily 09:00 ${tz} (${'rrule' in recurrence ? 'RRULE' : 'cron'}) stays 09:00 local across the next offset change`, async () => {
      const { group } = await world();
      // Four days before a change at least five days away, so run_at is ahead on any day of the year.
      const change = nextOffsetChange(tz, new Date(Date.now() + 5 * DAY));
      const s = await schedule({ text: 'x', group_id: group.id, run_at: new Date(change.at.getTime() - 4 * DAY).toISOString(), recurrence });
      const times = (await describeOf(s.id)).info.nextActionTimes;
      assert.ok(times[0]! < change.at && change.at < times[times.length - 1]!, 'the next actions span the change');
      assert.equal(s.next_run_at, times[0]!.toISOString());
      for (const r of times.map((t) => localTime(t, tz))) assert.deepEqual([r.hour, r.minute], [9, 0]);
      assert.equal(new Set(times.map((t) => t.getUTCHours())).size, 2, 'the UTC hour moves with the offset');
    });
  }
});

describe('GET /schedules and /schedules/{id}', () => {
  test('soonest next run first, schedules without one last; filters status, group_id, segment_id, offer_id', async () => {
    const other = await seedTenant(app.db);
    const client = new ApiClient(app.baseUrl, other.apiKey);
    const w = await world(client, other);
    const late = await schedule({ offer_id: w.offer.id, group_id: w.group.id, run_at: ahead(3 * HOUR).toISOString() }, client);
    const soon = await schedule({ text: 'x', segment_id: w.segment.id, run_at: ahead(HOUR).toISOString() }, client);
    const paused = await schedule({ text: 'y', group_id: w.group.id, run_at: ahead(2 * HOUR).toISOString() }, client);
    await client.patch(`/schedules/${paused.id}`, { status: 'paused' });
    const ids = async (q = '') => (await client.get(`/schedules${q}`)).body.data.map((s: any) => s.id);
    assert.deepEqual(await ids(), [soon.id, late.id, paused.id]);
    assert.deepEqual(await ids('?status=paused'), [paused.id]);
    assert.deepEqual(await ids('?status=active'), [soon.id, late.id]);
    assert.deepEqual(await ids(`?group_id=${w.group.id}`), [late.id, paused.id]);
    assert.deepEqual(await ids(`?segment_id=${w.segment.id}`), [soon.id]);
    assert.deepEqual(await ids(`?offer_id=${w.offer.id}`), [late.id]);
    const page = await client.get('/schedules?limit=1&offset=1');
    assert.deepEqual([page.body.data[0].id, page.body.pagination.total, page.body.pagination.has_more], [late.id, 3, true]);
    assert.equal((await client.get('/schedules')).body.data[2].status, 'paused');
  });

  test("another account's schedule is 404 everywhere and absent from its list", async () => {
    const w = await world();
    const s = await schedule({ text: 'x', group_id: w.group.id, run_at: ahead(HOUR).toISOString() });
    const stranger = new ApiClient(app.baseUrl, (await seedTenant(app.db)).apiKey);
    assert.equal((await stranger.get(`/schedules/${s.id}`)).status, 404);
    assert.equal((await stranger.patch(`/schedules/${s.id}`, { status: 'paused' })).status, 404);
    assert.equal((await stranger.delete(`/schedules/${s.id}`)).status, 404);
    assert.equal((await stranger.post(`/schedules/${s.id}/run`)).status, 404);
    assert.deepEqual((await stranger.get('/schedules')).body.data, []);
    assert.equal((await describeOf(s.id)).state.paused, false);
    const test = new ApiClient(app.baseUrl, (await seedTenant(app.db, { env: 'test' })).apiKey);
    assert.equal((await test.get(`/schedules/${s.id}`)).status, 404);
  });

  test('a Temporal Schedule removed outside the API is made again from the record on read', async () => {
    const w = await world();
    const s = await schedule({ text: 'x', group_id: w.group.id, run_at: ahead(HOUR).toISOString() });
    await handleOf(s.id).delete();
    const got = (await api.get(`/schedules/${s.id}`)).body.data;
    assert.equal(got.next_run_at, s.next_run_at);
    assert.deepEqual((await describeOf(s.id)).info.nextActionTimes, [new Date(s.run_at)]);
  });

  test('the list answers from the records: it neither asks Temporal per row nor repairs nor writes', async () => {
    const w = await world();
    const s = await schedule({ text: 'x', group_id: w.group.id, run_at: ahead(HOUR).toISOString() });
    await handleOf(s.id).delete();
    const stored = await app.db.collection('schedules').findOne({ _id: s.id });
    const listed = (await api.get(`/schedules?group_id=${w.group.id}`)).body.data;
    assert.deepEqual(listed, [s]);
    await assert.rejects(describeOf(s.id), ScheduleNotFoundError);
    assert.deepEqual(await app.db.collection('schedules').findOne({ _id: s.id } as any), stored);
    assert.equal((await api.get(`/schedules/${s.id}`)).body.data.next_run_at, s.next_run_at);
    assert.deepEqual((await describeOf(s.id)).info.nextActionTimes, [new Date(s.run_at)]);
  });
});

describe('PATCH /schedules/{id}', () => {
  test('status paused ↔ active pauses and unpauses the Temporal Schedule', async () => {
    const w = await world();
    const s = await schedule({ text: 'x', group_id: w.group.id, run_at: ahead(HOUR).toISOString() });
    const paused = await api.patch(`/schedules/${s.id}`, { status: 'paused' });
    assert.equal(paused.status, 200);
    assert.deepEqual([paused.body.data.status, paused.body.data.next_run_at], ['paused', null]);
    await pausedInTemporal(s.id, true);
    const [event] = await eventsOf('schedule.updated', s.id);
    assert.deepEqual(event?.data.changed, ['status']);
    assert.deepEqual(event?.data.schedule, paused.body.data);
    const active = (await api.patch(`/schedules/${s.id}`, { status: 'active' })).body.data;
    assert.deepEqual([active.status, active.next_run_at], ['active', s.next_run_at]);
    await pausedInTemporal(s.id, false);
  });

  test('only the fields sent change; time, destination, content, template and recurrence', async () => {
    const w = await world();
    const s = await schedule({ name: 'Keep', offer_id: w.offer.id, group_id: w.group.id, run_at: ahead(HOUR).toISOString() });
    const before = await describeOf(s.id);
    const renamed = (await api.patch(`/schedules/${s.id}`, { with_image: false })).body.data;
    assert.deepEqual({ ...renamed, updated_at: undefined }, { ...s, with_image: false, updated_at: undefined });
    assert.equal((await describeOf(s.id)).action.memo?.sync, before.action.memo?.sync, 'Temporal untouched');

    const later = ahead(5 * HOUR);
    const moved = (await api.patch(`/schedules/${s.id}`, { run_at: later.toISOString() })).body.data;
    assert.deepEqual(
      [moved.run_at, moved.next_run_at, moved.name, moved.offer_id],
      [later.toISOString(), later.toISOString(), 'Keep', w.offer.id],
    );
    assert.deepEqual((await describeOf(s.id)).info.nextActionTimes, [later]);

    const retargeted = (await api.patch(`/schedules/${s.id}`, { segment_id: w.segment.id, text: 'Novo', template_id: w.template.id })).body.data;
    assert.deepEqual(
      [retargeted.segment_id, retargeted.group_id, retargeted.text, retargeted.offer_id, retargeted.template_id],
      [w.segment.id, null, 'Novo', null, w.template.id],
    );
    const [event] = (await eventsOf('schedule.updated', s.id)).slice(-1);
    assert.deepEqual([...event!.data.changed].sort(), ['group_id', 'offer_id', 'segment_id', 'template_id', 'text']);

    const recurring = (await api.patch(`/schedules/${s.id}`, { recurrence: { cron: '0 12 * * *' }, template_id: null })).body.data;
    assert.deepEqual([recurring.recurrence.cron, recurring.template_id], ['0 12 * * *', null]);
    assert.equal((await describeOf(s.id)).info.nextActionTimes[0]!.getUTCHours(), 12);
    const oneOff = (await api.patch(`/schedules/${s.id}`, { recurrence: null })).body.data;
    assert.deepEqual([oneOff.recurrence, oneOff.next_run_at], [null, later.toISOString()]);

    const both = await api.patch(`/schedules/${s.id}`, { offer_id: w.offer.id, text: 'x' });
    refused(both, 'offer_id', 'oneOf');
    refused(await api.patch(`/schedules/${s.id}`, { group_id: w.group.id, segment_id: w.segment.id }), 'segment_id', 'oneOf');
    refused(await api.patch(`/schedules/${s.id}`, { run_at: `${YEAR}-01-01T09:00:00` }), 'run_at', 'pattern');
    const unchanged = await api.patch(`/schedules/${s.id}`, {});
    assert.deepEqual(unchanged.body.data, oneOff);
  });

  test('a new run_at is checked against the kept recurrence', async () => {
    const w = await world();
    const runAt = ahead(HOUR);
    const s = await schedule({
      text: 'x',
      group_id: w.group.id,
      run_at: runAt.toISOString(),
      recurrence: { rrule: 'FREQ=DAILY', ends_at: ahead(3 * DAY).toISOString() },
    });
    refused(await api.patch(`/schedules/${s.id}`, { run_at: ahead(4 * DAY).toISOString() }), 'recurrence.ends_at', 'after_run_at');
  });
});

describe('far-future dates', () => {
  const FAR = '4071-02-12T03:35:45Z';
  /** The 400 of a run_at past the horizon: the field, the rule and the last instant accepted, about 10 years from now. */
  function beyondHorizon(res: { status: number; body: any; text: string }) {
    refused(res, 'run_at', 'horizon');
    const detail = res.body.details.find((d: any) => d.rule === 'horizon');
    const bound = /^must be at most 10 years ahead, not after (\S+)$/.exec(detail.message)?.[1];
    assert.ok(bound, detail.message);
    assert.equal(new Date(bound).getUTCFullYear(), new Date().getUTCFullYear() + 10, detail.message);
  }

  test('a run_at beyond 10 years is a 400 naming run_at and its bound, one-off or recurring; within it, 201', async () => {
    const w = await world();
    beyondHorizon(await api.post('/schedules', { text: 'example', run_at: FAR, segment_id: w.segment.id }));
    beyondHorizon(await api.post('/schedules', { text: 'example', run_at: '2101-01-01T00:00:00Z', group_id: w.group.id }));
    beyondHorizon(await api.post('/schedules', { text: 'x', run_at: FAR, group_id: w.group.id, recurrence: { cron: '0 9 * * *' } }));
    beyondHorizon(await api.post('/schedules', { text: 'x', run_at: FAR, group_id: w.group.id, recurrence: { rrule: 'FREQ=DAILY' } }));
    const nineYears = `${new Date().getUTCFullYear() + 9}-06-01T12:00:00Z`;
    const inside = await schedule({ text: 'example', run_at: nineYears, segment_id: w.segment.id });
    assert.deepEqual([inside.status, inside.next_run_at], ['active', new Date(nineYears).toISOString()]);
  });

  test('PATCH run_at beyond 10 years: 400 naming it, the schedule unchanged', async () => {
    const w = await world();
    const s = await schedule({ text: 'example', run_at: ahead(HOUR).toISOString(), group_id: w.group.id });
    beyondHorizon(await api.patch(`/schedules/${s.id}`, { run_at: FAR }));
    const kept = (await api.get(`/schedules/${s.id}`)).body.data;
    assert.deepEqual([kept.run_at, kept.next_run_at, kept.status], [s.run_at, s.next_run_at, 'active']);
  });

  test('a recurrence ends_at far ahead is accepted: the recurrence runs, with that end', async () => {
    const w = await world();
    for (const rule of [{ cron: '0 9 * * *' }, { rrule: 'FREQ=DAILY' }]) {
      const s = await schedule({
        text: 'example',
        run_at: ahead(HOUR).toISOString(),
        group_id: w.group.id,
        recurrence: { ...rule, ends_at: FAR },
      });
      assert.equal(s.recurrence.ends_at, '4071-02-12T03:35:45.000Z');
      assert.equal(s.status, 'active');
      assert.ok(Date.parse(s.next_run_at) > Date.now(), s.next_run_at);
      const patched = await api.patch(`/schedules/${s.id}`, { recurrence: { ...rule, ends_at: '9999-12-31T23:59:59Z' } });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(patched.body.data.recurrence.ends_at, '9999-12-31T23:59:59.000Z');
    }
  });
});

describe('DELETE /schedules/{id}', () => {
  test('a future schedule: 200 {deleted, id}, the Temporal Schedule is gone, its event recorded', async () => {
    const w = await world();
    const s = await schedule({ text: 'x', group_id: w.group.id, run_at: ahead(HOUR).toISOString() });
    const res = await api.delete(`/schedules/${s.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual([res.body.deleted, res.body.id], [true, s.id]);
    await assert.rejects(describeOf(s.id), ScheduleNotFoundError);
    assert.equal((await api.get(`/schedules/${s.id}`)).status, 404);
    assert.equal((await eventsOf('schedule.deleted', s.id)).length, 1);
    assert.equal((await api.delete(`/schedules/${s.id}`)).status, 404);
  });

  test('a one-off that already ran: 409, and so is run-now; a new future run_at makes it active again', async () => {
    const w = await world();
    const { schedule: s, runAt } = await oneOffSoon(api, { text: 'x', group_id: w.group.id });
    await waitFor(
      'the one-off to be taken',
      async () => ((await describeOf(s.id)).info.nextActionTimes.length ? undefined : true),
      15_000,
      () => temporalScheduleState(app.temporal.client, `schedule-${s.id}`),
    );
    const got = (await api.get(`/schedules/${s.id}`)).body.data;
    assert.deepEqual([got.status, got.next_run_at, got.run_count], ['completed', null, 1]);
    // No worker recorded the run here: the read brought the record up to date, so the list filter follows it.
    const listed = (await api.get('/schedules?status=completed&limit=100')).body.data.map((x: any) => x.id);
    assert.ok(listed.includes(s.id), 'listed as completed after the read');
    assert.equal((await api.get(`/schedules/${s.id}`)).body.data.updated_at, s.updated_at, 'not a change of the schedule');
    assert.ok(Date.parse(got.last_run_at) >= runAt.getTime());
    const del = await api.delete(`/schedules/${s.id}`);
    assert.equal(del.status, 409);
    assert.equal(del.body.code, 'conflict');
    assert.equal((await api.post(`/schedules/${s.id}/run`)).status, 409);
    const pause = await api.patch(`/schedules/${s.id}`, { status: 'paused' });
    assert.equal(pause.status, 400);
    assert.equal(pause.body.code, 'invalid_transition');
    assert.equal((await api.patch(`/schedules/${s.id}`, { status: 'active' })).body.code, 'invalid_transition');
    refused(await api.patch(`/schedules/${s.id}`, { run_at: new Date(Date.now() - 1000).toISOString() }), 'run_at', 'future');
    const again = ahead(HOUR);
    const revived = (await api.patch(`/schedules/${s.id}`, { run_at: again.toISOString() })).body.data;
    assert.deepEqual([revived.status, revived.next_run_at, revived.run_count], ['active', again.toISOString(), 1]);
  });

  test('segments and templates a schedule links stay undeletable (409) until the schedule is deleted', async () => {
    const w = await world();
    const s = await schedule({ text: 'x', segment_id: w.segment.id, template_id: w.template.id, run_at: ahead(HOUR).toISOString() });
    for (const path of [`/segments/${w.segment.id}`, `/templates/${w.template.id}`]) {
      const res = await api.delete(path);
      assert.equal(res.status, 409, path);
      assert.equal(res.body.code, 'resource_in_use');
    }
    assert.equal((await api.get(`/templates/${w.template.id}`)).body.data.schedule_count, 1);
    assert.equal((await api.delete(`/schedules/${s.id}`)).status, 200);
    await app.db.collection('groups').updateOne({ _id: w.group.id } as any, { $set: { segment_id: null } });
    assert.equal((await api.delete(`/templates/${w.template.id}`)).status, 200);
    assert.equal((await api.delete(`/segments/${w.segment.id}`)).status, 200);
  });
});

describe('POST /schedules/{id}/run without a worker', () => {
  test('503 after the wait, and a repeated request waits for the same run instead of starting another', async () => {
    const w = await world();
    const s = await schedule({ text: 'x', group_id: w.group.id, run_at: ahead(HOUR).toISOString() });
    const first = await api.post(`/schedules/${s.id}/run`);
    assert.equal(first.status, 503);
    assert.equal(first.body.code, 'service_unavailable');
    assert.match(first.body.message, /repeating this request waits for that same run/);
    const running = `OfferopsResourceId = '${s.id}' AND OfferopsKind = 'schedule_run' AND ExecutionStatus = 'Running'`;
    const run = await waitFor(
      'the run to be visible',
      async () => {
        for await (const wf of app.temporal.client.workflow.list({ query: running })) return wf;
        return undefined;
      },
      30_000,
      async () =>
        `${await temporalScheduleState(app.temporal.client, `schedule-${s.id}`)}\n${await listedState(app.temporal.client, `OfferopsResourceId = '${s.id}'`)}`,
    );
    await afterRunSecond(run.workflowId); // a trigger now would be a new run
    assert.equal((await api.post(`/schedules/${s.id}/run`)).status, 503);
    const desc = await describeOf(s.id);
    assert.equal(desc.info.numActionsTaken, 1, 'one run, not two');
    assert.deepEqual(desc.info.nextActionTimes, [new Date(s.run_at)], 'run-now does not move the next run');
    const got = (await api.get(`/schedules/${s.id}`)).body.data;
    assert.deepEqual([got.run_count, got.next_run_at], [1, s.next_run_at]);
  });
});
