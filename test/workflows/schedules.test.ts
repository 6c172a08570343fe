/**
 * Schedule runs end to end: the API, the Temporal Schedule, a worker in this
 * process (on its own task queue, with the real activities) running
 * `scheduleRun`, and the normal publications it queues (sandbox tenants, so
 * the sandbox connector records the sends).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { ScheduleNotFoundError, WorkflowExecutionInfo } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { createActivities } from '../../activities/index';
import { secretKeyFromEnv } from '../../domain/sealing';
import { localTime } from '../../domain/recurrence';
import { createTemporalSchedule, syncHash } from '../../domain/schedules/temporal';
import { temporalScheduleId } from '../../temporal/names';
import { createGroup } from '../../domain/groups/store';
import { commitEvents } from '../../domain/events/commit';
import { prepareEvent } from '../../domain/events/store';
import { deleteSchedule, getSchedule, observedFields, ScheduleDoc } from '../../domain/schedules/store';
import { ApiClient } from '../helpers/client';
import { afterRunSecond, oneOffSoon } from '../helpers/schedules';
import { seedTenant, startTestApp, TestApp } from '../helpers/stack';
import { ahead, DAY, HOUR, MINUTE, nextOffsetChange } from '../helpers/time';
import { startTestWorker } from '../helpers/worker';
import { waitFor } from '../helpers/wait';
import { listedState, publicationState, scheduleState } from '../helpers/states';

const taskQueue = `test-schedules-wf-${randomBytes(4).toString('hex')}`;
let app: TestApp;
let worker: { stop(): Promise<void> };

before(async () => {
  app = await startTestApp({ taskQueue, rateLimit: { limit: 100_000, windowMs: 60_000 } });
  worker = await startTestWorker(app, taskQueue);
});
after(async () => {
  await worker.stop();
  await app.close();
});

let n = 0;

async function sandbox() {
  const tenant = await seedTenant(app.db, { env: 'test' });
  const api = new ApiClient(app.baseUrl, tenant.apiKey);
  const offer = (await api.post('/offers', { url: `https://shop.example/run/${++n}`, title: 'Cafeteira', price: 149.9 })).body.data;
  const segment = (await api.post('/segments', { name: `Run ${n}` })).body.data;
  const groups = [];
  for (const name of ['A', 'B']) groups.push(await createGroup(app.db, tenant, { name: `Group ${name}`, segment_id: segment.id }));
  return { tenant, api, offer, segment, groups };
}

async function create(api: ApiClient, body: Record<string, unknown>) {
  const res = await api.post('/schedules', body);
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

const publicationsOf = async (api: ApiClient, scheduleId: string) =>
  (await api.get(`/publications?schedule_id=${scheduleId}`)).body.data as any[];

const finished = (api: ApiClient, id: string) =>
  waitFor(
    `publication ${id} to finish`,
    async () => {
      const p = (await api.get(`/publications/${id}`)).body.data;
      return p.completed_at && p.status !== 'sending' ? p : undefined;
    },
    30_000,
    () => publicationState(api, id, app.temporal.client),
  );

/** A schedule's record, its Temporal Schedule and the runs visibility lists: what a timed-out wait says of it. */
const scheduleRuns = async (api: ApiClient, id: string) =>
  `${await scheduleState(api, id, app.temporal.client)}\n${await listedState(app.temporal.client, `OfferopsKind = 'schedule_run' AND OfferopsResourceId = '${id}'`)}`;

async function runsOf(scheduleId: string): Promise<WorkflowExecutionInfo[]> {
  const out: WorkflowExecutionInfo[] = [];
  for await (const e of app.temporal.client.workflow.list({ query: `OfferopsKind = 'schedule_run' AND OfferopsResourceId = '${scheduleId}'` }))
    out.push(e);
  return out;
}

describe('POST /schedules/{id}/run', () => {
  test('runs the scheduleRun workflow now: a normal publication with schedule_id, sent; next_run_at unmoved', async () => {
    const { api, offer, segment, groups } = await sandbox();
    const s = await create(api, { offer_id: offer.id, segment_id: segment.id, run_at: ahead(HOUR).toISOString() });
    const res = await api.post(`/schedules/${s.id}/run`);
    assert.equal(res.status, 200, res.text);
    const [queued] = res.body.data.publications;
    assert.deepEqual([queued.schedule_id, queued.offer_id, queued.segment_id], [s.id, offer.id, segment.id]);
    assert.deepEqual(queued.deliveries.map((d: any) => d.group_id).sort(), groups.map((g) => g._id).sort());
    const schedule = res.body.data.schedule;
    assert.deepEqual([schedule.run_count, schedule.next_run_at, schedule.status], [1, s.next_run_at, 'active']);
    assert.ok(schedule.last_run_at);

    const event = await app.db.collection('events').findOne({ _id: res.body.event_id });
    assert.deepEqual(
      [event?.kind, event?.data.outcome, event?.data.publication_id, event?.data.schedule_id],
      ['schedule.ran', 'queued', queued.id, s.id],
    );
    const [run] = await waitFor(
      'the run in visibility',
      async () => {
        const runs = await runsOf(s.id);
        return runs.length && runs[0]!.status.name === 'COMPLETED' ? runs : undefined;
      },
      30_000,
      () => scheduleRuns(api, s.id),
    );
    assert.match(run!.workflowId, new RegExp(`^schedule-run-${s.id}-\\d{4}-\\d\\d-\\d\\dT`));
    assert.deepEqual(await app.temporal.client.workflow.getHandle(run!.workflowId).result(), {
      publication_id: queued.id,
      event_id: res.body.event_id,
    });
    // Temporal UI names the run and its activity by the schedule.
    const runHandle = app.temporal.client.workflow.getHandle(run!.workflowId);
    assert.equal(await (await runHandle.describe()).staticSummary(), `Run of schedule ${s.id}: queue its publication`);
    const activities = ((await runHandle.fetchHistory()).events ?? []).filter((e) => e.activityTaskScheduledEventAttributes);
    assert.equal(activities.length, 1);
    assert.match(
      String(defaultPayloadConverter.fromPayload(activities[0]!.userMetadata!.summary!)),
      new RegExp(`^queue the publication of schedule ${s.id} for \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z$`),
    );

    const done = await finished(api, queued.id);
    assert.equal(done.status, 'sent');
    const sends = await app.db.collection('sandbox_messages').countDocuments({ _id: { $regex: `^${queued.id}:` } } as any);
    assert.equal(sends, 2, 'one message per group');

    await afterRunSecond(run!.workflowId); // runs are named by the second: from the next one on, a trigger is another run
    const paused = await api.patch(`/schedules/${s.id}`, { status: 'paused' });
    assert.equal(paused.status, 200, paused.text);
    const again = await api.post(`/schedules/${s.id}/run`);
    assert.equal(again.status, 200, again.text);
    assert.notEqual(again.body.data.publications[0].id, queued.id, 'every run queues its own publication');
    assert.deepEqual([again.body.data.schedule.run_count, again.body.data.schedule.status], [2, 'paused'], 'a paused schedule runs now too');
    assert.equal((await publicationsOf(api, s.id)).length, 2);
  });

  test('a run the destination refuses answers as publish would, and is recorded as a failed run', async () => {
    const { api, offer, groups } = await sandbox();
    const s = await create(api, { offer_id: offer.id, group_id: groups[0]!._id, run_at: ahead(HOUR).toISOString() });
    await api.patch(`/groups/${groups[0]!._id}`, { active: false });
    const res = await api.post(`/schedules/${s.id}/run`);
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.code, 'destination_unavailable');
    const [event] = await app.db.collection('events').find({ kind: 'schedule.ran', 'data.schedule_id': s.id }).toArray();
    assert.deepEqual([event?.data.outcome, event?.data.publication_id, event?.data.error.code], ['failed', null, 'destination_unavailable']);
    assert.deepEqual(await publicationsOf(api, s.id), []);
    const [run] = await runsOf(s.id);
    assert.equal(run?.status.name, 'FAILED', 'the run fails at once (not retried)');
  });
});

test('a one-off a few seconds ahead fires by itself and queues its publication; then it is completed', async () => {
  const { api, groups } = await sandbox();
  const { schedule: s, runAt } = await oneOffSoon(api, { text: 'Hoje só!', group_id: groups[0]!._id });
  const [publication] = await waitFor(
    'the scheduled publication',
    async () => {
      const found = await publicationsOf(api, s.id);
      return found.length ? found : undefined;
    },
    30_000,
    () => scheduleRuns(api, s.id),
  );
  assert.deepEqual([publication.text, publication.schedule_id, publication.group_id], ['Hoje só!', s.id, groups[0]!._id]);
  assert.ok(Date.parse(publication.queued_at) >= runAt.getTime());
  assert.equal((await finished(api, publication.id)).status, 'sent');
  const after = (await api.get(`/schedules/${s.id}`)).body.data;
  assert.deepEqual([after.status, after.run_count, after.next_run_at], ['completed', 1, null]);
  const listed = (await api.get('/schedules?status=completed')).body.data.map((x: any) => x.id);
  assert.deepEqual(listed, [s.id], "the run recorded the scheduler's view for the list");
  assert.equal((await api.delete(`/schedules/${s.id}`)).status, 409);
});

test('a completed schedule holds nothing: its segment and template can go; reviving it then names what is missing', async () => {
  const { api, segment, groups } = await sandbox();
  const template = (await api.post('/templates', { name: `Completed ${++n}`, body: '{copy}' })).body.data;
  const { schedule: s } = await oneOffSoon(api, { text: 'Só hoje', segment_id: segment.id, template_id: template.id });
  assert.equal((await api.delete(`/templates/${template.id}`)).body.code, 'resource_in_use', 'held while it may still run');
  await waitFor(
    'the run to be recorded',
    async () => ((await api.get('/schedules?status=completed')).body.data.length ? true : undefined),
    30_000,
    () => scheduleRuns(api, s.id),
  );
  assert.equal((await api.get(`/templates/${template.id}`)).body.data.schedule_count, 0);
  assert.equal((await api.delete(`/templates/${template.id}`)).status, 200);
  for (const g of groups) await app.db.collection('groups').updateOne({ _id: g._id } as any, { $set: { segment_id: null } });
  assert.equal((await api.delete(`/segments/${segment.id}`)).status, 200);
  const revive = await api.patch(`/schedules/${s.id}`, { run_at: ahead(HOUR).toISOString() });
  assert.equal(revive.status, 400, revive.text);
  assert.equal(revive.body.code, 'unknown_reference');
  assert.equal(revive.body.details[0].field, 'segment_id');
  const fixed = await api.patch(`/schedules/${s.id}`, { run_at: ahead(HOUR).toISOString(), group_id: groups[0]!._id, template_id: null });
  assert.equal(fixed.status, 200, fixed.text);
  assert.equal(fixed.body.data.status, 'active');
});

test('a paused schedule whose DELETE died after the record went: the dispatch of schedule.deleted removes its Temporal Schedule', async () => {
  const { tenant, api, groups } = await sandbox();
  const s = await create(api, { text: 'x', group_id: groups[0]!._id, run_at: ahead(HOUR).toISOString() });
  assert.equal((await api.patch(`/schedules/${s.id}`, { status: 'paused' })).status, 200);
  // What DELETE does before it removes the Temporal Schedule, and no more.
  assert.ok(await deleteSchedule(app.db, tenant, s.id, prepareEvent(tenant, 'schedule.deleted', { schedule_id: s.id })));
  await commitEvents({ db: app.db, temporal: { client: app.temporal.client, taskQueue } }, 'schedules', s.id);
  await waitFor(
    'the Temporal Schedule to be removed',
    async () => {
      try {
        await app.temporal.client.schedule.getHandle(temporalScheduleId(s.id)).describe();
        return undefined;
      } catch (err) {
        if (err instanceof ScheduleNotFoundError) return true;
        throw err;
      }
    },
    30_000,
    () => scheduleRuns(api, s.id),
  );
});

describe('the run activity', () => {
  const activities = () => createActivities({ db: app.db, temporal: app.temporal.client, taskQueue, secretKey: secretKeyFromEnv() });

  test('one publication per wall-clock time: a retried run, and the twice-occurring time of a night the clocks go back', async () => {
    const { tenant, api, offer, groups } = await sandbox();
    const s = await create(api, {
      offer_id: offer.id,
      group_id: groups[0]!._id,
      run_at: ahead(HOUR).toISOString(),
      recurrence: { rrule: 'FREQ=DAILY;BYHOUR=2;BYMINUTE=30', timezone: 'Europe/Berlin' },
    });
    // The next night Berlin's clocks go back (after run_at): it reads 02:30 twice, an hour apart.
    const back = nextOffsetChange('Europe/Berlin', new Date(Date.now() + DAY), (c) => c.after < c.before);
    const first = new Date(back.at.getTime() - 30 * MINUTE);
    const second = new Date(first.getTime() + (back.before - back.after) * MINUTE);
    assert.deepEqual(localTime(first, 'Europe/Berlin'), localTime(second, 'Europe/Berlin'));
    const doc = (await getSchedule(app.db, tenant, s.id))!;
    const input = { schedule_id: s.id, account: tenant.accountId, environment: tenant.env, sync: syncHash(doc) };
    const acts = activities();
    const a = await acts.runSchedule({ ...input, scheduled_at: first.toISOString() });
    const retried = await acts.runSchedule({ ...input, scheduled_at: first.toISOString() });
    const b = await acts.runSchedule({ ...input, scheduled_at: second.toISOString() });
    assert.ok(a.publication_id);
    assert.deepEqual([retried, b], [a, a]);
    assert.equal((await publicationsOf(api, s.id)).length, 1);
    assert.equal(await app.db.collection('events').countDocuments({ kind: 'schedule.ran', 'data.schedule_id': s.id } as any), 1);
    const other = await acts.runSchedule({ ...input, scheduled_at: new Date(second.getTime() + DAY).toISOString() });
    assert.notEqual(other.publication_id, a.publication_id, 'the next day is another run');
  });

  test('a Temporal Schedule without its record deletes itself at its run; a run from an out-of-date one queues nothing and repairs it', async () => {
    const { tenant, api, groups } = await sandbox();
    const now = new Date();
    const orphan: ScheduleDoc = {
      _id: `sch_orphan${randomBytes(8).toString('hex')}`,
      account_id: tenant.accountId,
      env: tenant.env,
      name: null,
      offer_id: null,
      text: 'never sent',
      group_id: groups[0]!._id,
      segment_id: null,
      template_id: null,
      with_image: false,
      run_at: ahead(HOUR),
      recurrence: null,
      paused: false,
      ...observedFields('active', null),
      last_run: null,
      created_at: now,
      updated_at: now,
    };
    await createTemporalSchedule({ client: app.temporal.client, taskQueue }, orphan);

    const stale = await create(api, { text: 'old time', group_id: groups[0]!._id, run_at: ahead(HOUR).toISOString() });
    const moved = ahead(5 * HOUR);
    // What a crash between the two writes of a change leaves: the record says one time, Temporal another.
    await app.db.collection('schedules').updateOne({ _id: stale.id }, { $set: { run_at: moved } });

    await Promise.all([orphan._id, stale.id].map((id) => app.temporal.client.schedule.getHandle(`schedule-${id}`).trigger()));
    const results = await Promise.all(
      [orphan._id, stale.id].map(async (id) => {
        const [run] = await waitFor(
          `the run of ${id}`,
          async () => {
            const runs = await runsOf(id);
            return runs.length ? runs : undefined;
          },
          30_000,
          () => scheduleRuns(api, id),
        );
        return app.temporal.client.workflow.getHandle(run!.workflowId).result();
      }),
    );
    assert.deepEqual(results, [
      { publication_id: null, event_id: null },
      { publication_id: null, event_id: null },
    ]);
    await assert.rejects(app.temporal.client.schedule.getHandle(`schedule-${orphan._id}`).describe(), ScheduleNotFoundError);
    const repaired = await app.temporal.client.schedule.getHandle(`schedule-${stale.id}`).describe();
    assert.deepEqual(repaired.info.nextActionTimes, [moved]);
    assert.equal(repaired.action.memo?.sync, syncHash((await getSchedule(app.db, tenant, stale.id))!));
    assert.deepEqual(await publicationsOf(api, stale.id), []);
  });
});
