/**
 * Schedules: CRUD over the record and its Temporal Schedule, and run-now.
 * See ./temporal.ts for how the two are kept together.
 */
import { ScheduleDescription, ScheduleOverlapPolicy, WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { Logger } from 'pino';
import { ErrorCode } from '../../schemas/openapi/common';
import { SCHEDULE_HORIZON_YEARS } from '../../schemas/openapi/schedules';
import { Schema } from '../../schemas/types';
import { Page, PageResult, Tenant } from '../db';
import { conflict, DomainError, invalid, unknownReference } from '../errors';
import { commitEvents } from '../events/commit';
import { prepareEvent } from '../events/store';
import { getGroup } from '../groups/store';
import { newId } from '../ids';
import { checkPublishable } from '../offers/service';
import { getOffer } from '../offers/store';
import { getPublication, PublicationDoc } from '../publications/store';
import { DomainDeps, found } from '../resource';
import { getSegment } from '../segments/store';
import { runWorkflowId, temporalScheduleId } from '../../temporal/names';
import { getTemplate } from '../templates/store';
import { checkRecurrence, Recurrence, RecurrenceError } from '../recurrence';
import {
  deleteSchedule,
  getSchedule,
  insertSchedule,
  listSchedules,
  observedDiffers,
  observedFields,
  recordObserved,
  ScheduleDoc,
  ScheduleFields,
  ScheduleObserved,
  ScheduleQuery,
  updateSchedule,
} from './store';
import {
  createTemporalSchedule,
  observedOf,
  observeSchedule,
  RUN_REFUSED,
  RunError,
  statusOf,
  syncTemporalSchedule,
  toSchedule,
  triggerAndFind,
} from './temporal';
import { deleteTemporalSchedule } from '../schedule-handle';

/** What schedule operations need besides the database and Temporal. */
export interface ScheduleDeps extends DomainDeps {
  /** Where repairs left to a later read or run are noted. */
  logger: Logger;
  /** How long run-now waits for its run to queue the publication (default RUN_WAIT_MS). */
  scheduleRunWaitMs?: number;
}

/** How long run-now waits for its run to queue the publication, unless told otherwise: inside the API's 10 s request deadline. */
export const RUN_WAIT_MS = 8_000;

export const mustGetSchedule = async (deps: DomainDeps, tenant: Tenant, id: string): Promise<ScheduleDoc> =>
  found(await getSchedule(deps.db, tenant, id), 'schedule', id);

/**
 * The Temporal Schedule of `doc` as it is now (repaired from the record if
 * out of date), as the scheduler's view. When it differs from what the record
 * last noted (a run no worker recorded yet, an end reached), the record is
 * brought up to date, so lists, their filters and the links segments and
 * templates check follow what was read.
 */
async function observe(deps: DomainDeps, tenant: Tenant, doc: ScheduleDoc): Promise<{ desc: ScheduleDescription; seen: ScheduleObserved }> {
  const desc = await observeSchedule(deps.temporal, doc);
  const seen = observedOf(desc);
  if (observedDiffers(seen, doc)) await recordObserved(deps.db, tenant, doc, seen);
  return { desc, seen };
}

// --- checks -------------------------------------------------------------------

/** An RFC 3339 date-time with an offset (the schema's `offsetDateTime` says so), to the second. */
function instant(value: string): Date {
  return new Date(Math.floor(Date.parse(value) / 1000) * 1000);
}

function mustBeFuture(field: string, at: Date, why = 'must be in the future'): void {
  if (at.getTime() <= Date.now()) {
    throw invalid('validation_failed', `Invalid body field ${field}: ${why}.`, [{ location: 'body', field, rule: 'future', message: why }]);
  }
}

/**
 * A run at most SCHEDULE_HORIZON_YEARS ahead: Temporal's calendar specs stop at the year 2100 (a one-off
 * later than that failed its Schedule's creation, a recurrence started then never ran), and no offer
 * is planned decades ahead.
 */
function mustBeWithinHorizon(field: string, at: Date): void {
  const bound = new Date();
  bound.setUTCFullYear(bound.getUTCFullYear() + SCHEDULE_HORIZON_YEARS);
  if (at.getTime() > bound.getTime()) {
    const why = `must be at most ${SCHEDULE_HORIZON_YEARS} years ahead, not after ${bound.toISOString().replace(/\.\d+Z$/, 'Z')}`;
    throw invalid('validation_failed', `Invalid body field ${field}: ${why}.`, [{ location: 'body', field, rule: 'horizon', message: why }]);
  }
}

type RecurrenceInput = { rrule?: string; cron?: string; timezone?: string; ends_at?: string };

function recurrence(input: { rrule?: string; cron?: string; timezone?: string; ends_at: Date | null }, runAt: Date): Recurrence {
  try {
    return checkRecurrence(input, runAt);
  } catch (err) {
    if (!(err instanceof RecurrenceError)) throw err;
    throw invalid('validation_failed', `Invalid body field ${err.field}: ${err.message}.`, [
      { location: 'body', field: err.field, rule: err.rule, message: err.message },
    ]);
  }
}

const recurrenceFromBody = (input: RecurrenceInput, runAt: Date): Recurrence =>
  recurrence({ ...input, ends_at: input.ends_at === undefined ? null : instant(input.ends_at) }, runAt);

/** Every id the fields name must be this tenant's; an offer must be publishable (as publish requires). */
async function checkReferences(deps: DomainDeps, tenant: Tenant, f: Partial<ScheduleFields>): Promise<void> {
  if (f.offer_id) {
    const offer = await getOffer(deps.db, tenant, f.offer_id);
    if (!offer) throw unknownReference('offer_id', 'offer', f.offer_id);
    checkPublishable(offer, 'scheduled');
  }
  if (f.group_id && !(await getGroup(deps.db, tenant, f.group_id))) throw unknownReference('group_id', 'group', f.group_id);
  if (f.segment_id && !(await getSegment(deps.db, tenant, f.segment_id))) throw unknownReference('segment_id', 'segment', f.segment_id);
  if (f.template_id && !(await getTemplate(deps.db, tenant, f.template_id))) throw unknownReference('template_id', 'template', f.template_id);
}

// --- CRUD ---------------------------------------------------------------------

/**
 * A page of schedules as the records last noted the scheduler's view: a list
 * neither asks Temporal once per row nor writes (GET of one schedule, and
 * every change and run, bring a record up to date).
 */
export async function listScheduleRecords(deps: DomainDeps, tenant: Tenant, q: ScheduleQuery, page: Page): Promise<PageResult<ScheduleDoc>> {
  return listSchedules(deps.db, tenant, q, page);
}

/** One schedule and the scheduler's view of it now. */
export async function readSchedule(deps: DomainDeps, tenant: Tenant, id: string): Promise<{ doc: ScheduleDoc; seen: ScheduleObserved }> {
  const doc = await mustGetSchedule(deps, tenant, id);
  return { doc, seen: (await observe(deps, tenant, doc)).seen };
}

export async function createSchedule(
  deps: ScheduleDeps,
  tenant: Tenant,
  body: Schema<'ScheduleCreate'>,
): Promise<{ doc: ScheduleDoc; seen: ScheduleObserved }> {
  const runAt = instant(body.run_at);
  mustBeFuture('run_at', runAt);
  mustBeWithinHorizon('run_at', runAt);
  const fields: ScheduleFields = {
    name: body.name ?? null,
    offer_id: body.offer_id ?? null,
    text: body.text ?? null,
    group_id: body.group_id ?? null,
    segment_id: body.segment_id ?? null,
    template_id: body.template_id ?? null,
    with_image: body.with_image,
    run_at: runAt,
    recurrence: body.recurrence ? recurrenceFromBody(body.recurrence, runAt) : null,
    paused: false,
  };
  await checkReferences(deps, tenant, fields);
  const now = new Date();
  const draft: ScheduleDoc = {
    _id: newId('sch', now.getTime()),
    account_id: tenant.accountId,
    env: tenant.env,
    ...fields,
    ...observedFields('active', null),
    last_run: null,
    created_at: now,
    updated_at: now,
  };
  // The Temporal Schedule first, then the record (with its event). If the
  // record cannot be written, the Temporal Schedule is deleted again. If this
  // process dies in between, a Temporal Schedule without a record is left:
  // it publishes nothing (a run reads the record) and its first run deletes
  // it (./run.ts) — while the client, which got no answer,
  // creates it again. The other order would leave a record (and its event)
  // whose schedule never runs, beside the one the client creates again.
  const desc = await createTemporalSchedule(deps.temporal, draft);
  const seen = observedOf(desc);
  const doc: ScheduleDoc = { ...draft, ...seen };
  try {
    await insertSchedule(deps.db, tenant, doc, prepareEvent(tenant, 'schedule.created', { schedule: toSchedule(doc, seen) }));
  } catch (err) {
    await deleteTemporalSchedule(deps.temporal, doc._id).catch((cleanup: unknown) =>
      deps.logger.warn(
        { err: cleanup, schedule_id: doc._id },
        'schedule create: the record failed and so did removing its Temporal Schedule; its first run removes it',
      ),
    );
    throw err;
  }
  await commitEvents(deps, 'schedules', doc._id);
  return { doc, seen };
}

/** Body fields → record fields; the API names `paused` `status`. */
const apiName = (field: string): string => (field === 'paused' ? 'status' : field);
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export async function updateScheduleFields(
  deps: ScheduleDeps,
  tenant: Tenant,
  id: string,
  body: Schema<'ScheduleUpdate'> | undefined = {},
): Promise<{ doc: ScheduleDoc; seen: ScheduleObserved }> {
  const current = await mustGetSchedule(deps, tenant, id);
  const { desc, seen } = await observe(deps, tenant, current);

  const sent: Partial<ScheduleFields> = {};
  if (body.offer_id !== undefined) Object.assign(sent, { offer_id: body.offer_id, text: null });
  if (body.text !== undefined) Object.assign(sent, { text: body.text, offer_id: null });
  if (body.group_id !== undefined) Object.assign(sent, { group_id: body.group_id, segment_id: null });
  if (body.segment_id !== undefined) Object.assign(sent, { segment_id: body.segment_id, group_id: null });
  if (body.template_id !== undefined) sent.template_id = body.template_id;
  if (body.name !== undefined) sent.name = body.name;
  if (body.with_image !== undefined) sent.with_image = body.with_image;
  if (body.run_at !== undefined) {
    sent.run_at = instant(body.run_at);
    mustBeFuture('run_at', sent.run_at);
    mustBeWithinHorizon('run_at', sent.run_at);
  }
  const runAt = sent.run_at ?? current.run_at;
  if (body.recurrence !== undefined) {
    sent.recurrence = body.recurrence === null ? null : recurrenceFromBody(body.recurrence, runAt);
  } else if (sent.run_at && current.recurrence) {
    // The kept recurrence, read from the new start (its defaults and ends_at depend on it).
    const r = current.recurrence;
    recurrence({ ...(r.cron ? { cron: r.cron } : { rrule: r.rrule! }), timezone: r.timezone, ends_at: r.ends_at }, runAt);
  }
  if (body.status !== undefined) sent.paused = body.status === 'paused';

  const set = Object.fromEntries(
    Object.entries(sent).filter(([k, v]) => !same(v, current[k as keyof ScheduleFields])),
  ) as Partial<ScheduleFields>;
  const timing = 'run_at' in set || 'recurrence' in set;
  if (body.status !== undefined && statusOf(desc) === 'completed' && !timing) {
    throw invalid(
      'invalid_transition',
      'The schedule is completed: it has no run ahead. Send a new future run_at (or recurrence) to make it active again.',
      [{ location: 'body', field: 'status', rule: 'transition', message: 'a completed schedule moves to active only with a new future run_at' }],
    );
  }
  const next: ScheduleDoc = { ...current, ...set };
  if (timing && !next.recurrence) mustBeFuture('run_at', next.run_at, 'a one-off schedule needs a run_at in the future');
  // A completed schedule links nothing (./store.ts): reviving it checks everything it names again.
  await checkReferences(deps, tenant, statusOf(desc) === 'completed' ? next : set);
  const changed = [...new Set(Object.keys(set).map(apiName))];
  if (!changed.length) return { doc: current, seen };

  // Temporal first (so the record and its event can say what the scheduler
  // now does), then the record. If the record cannot be written, Temporal is
  // put back from the record as it stands; if this process dies in between,
  // readers and runs find Temporal ahead of the record and put it back
  // (./temporal.ts).
  const retimed = timing || 'paused' in set;
  const after = observedOf(retimed ? await syncTemporalSchedule(deps.temporal, next) : desc);
  let updated: ScheduleDoc | null = null;
  try {
    updated = await updateSchedule(deps.db, tenant, current, { ...set, ...after }, (a) =>
      prepareEvent(tenant, 'schedule.updated', { schedule: toSchedule(a, after), changed }),
    );
  } finally {
    if (!updated && retimed) await restoreTemporal(deps, tenant, current._id);
  }
  if (!updated) throw conflict('conflict', 'The schedule changed while this request ran; read it again and retry.');
  await commitEvents(deps, 'schedules', current._id);
  return { doc: updated, seen: after };
}

/** Puts the Temporal Schedule back to what the record says (after a failed write); readers and runs repair it too if this fails. */
async function restoreTemporal(deps: ScheduleDeps, tenant: Tenant, id: string): Promise<void> {
  try {
    const doc = await getSchedule(deps.db, tenant, id);
    if (doc) await syncTemporalSchedule(deps.temporal, doc);
  } catch (err) {
    deps.logger.warn({ err, schedule_id: id }, 'schedule update: putting the Temporal Schedule back failed; the next read or run repairs it');
  }
}

const noRunAhead = (what: string) =>
  conflict('conflict', `The schedule is completed (it ran, or its recurrence ended): it has no run ahead and ${what}.`);

export async function removeSchedule(deps: DomainDeps, tenant: Tenant, id: string): Promise<void> {
  const doc = await mustGetSchedule(deps, tenant, id);
  if ((await observe(deps, tenant, doc)).seen.status === 'completed') throw noRunAhead('is kept as history');
  // The record first: without it no run publishes anything. A Temporal
  // Schedule a crash leaves behind here is removed by the dispatch of
  // `schedule.deleted` (domain/events/follow-ups.ts), or by its own next run.
  if (await deleteSchedule(deps.db, tenant, doc._id, prepareEvent(tenant, 'schedule.deleted', { schedule_id: doc._id }))) {
    await commitEvents(deps, 'schedules', doc._id);
  }
  await deleteTemporalSchedule(deps.temporal, doc._id);
}

// --- run now --------------------------------------------------------------------

interface RunResult {
  publication_id: string | null;
  event_id: string | null;
}

const stillUnderWay = (waitMs: number) =>
  new DomainError(
    'service_unavailable',
    `The run started but has not queued its publication within ${Math.round(waitMs / 1000)} s (no worker has taken it yet). ` +
      'It stays under way and queues when a worker takes it; repeating this request waits for that same run instead of starting another.',
  );

/** The visibility query of this schedule's runs that are still under way. */
const runningRunsQuery = (tenant: Tenant, id: string): string =>
  `OfferopsKind = 'schedule_run' AND OfferopsResourceId = '${id}' AND OfferopsAccountId = '${tenant.accountId}' AND ` +
  `OfferopsEnvironment = '${tenant.env}' AND ExecutionStatus = 'Running'`;

/**
 * Triggers the Temporal Schedule — the run is the very `scheduleRun` workflow
 * the scheduler starts — and finds that workflow in the schedule's recent
 * actions. A run of this schedule already under way (a repeated request after
 * a 503, or the scheduler's own run at this moment) is joined instead, so a
 * retry never queues a second publication; so is a run started in the same second.
 */
async function startOrJoinRun(
  deps: DomainDeps,
  tenant: Tenant,
  id: string,
  desc: ScheduleDescription,
  deadline: number,
  waitMs: number,
): Promise<WorkflowHandle> {
  const { client } = deps.temporal;
  for await (const running of client.workflow.list({ query: runningRunsQuery(tenant, id), pageSize: 1 })) {
    return client.workflow.getHandle(running.workflowId, running.runId);
  }
  // Temporal names a run by its second and drops a second start under the same
  // name: a request in the same second as the last run (a double click) is that run.
  const sameSecond = `${runWorkflowId(id)}-${new Date().toISOString().slice(0, 19)}Z`;
  const twin = desc.info.recentActions.find((a) => a.action.workflow.workflowId === sameSecond);
  if (twin) return client.workflow.getHandle(twin.action.workflow.workflowId, twin.action.workflow.firstExecutionRunId);
  const started = await triggerAndFind(client.schedule.getHandle(temporalScheduleId(id)), desc, deadline, ScheduleOverlapPolicy.ALLOW_ALL);
  if (!started) throw stillUnderWay(waitMs);
  return client.workflow.getHandle(started.workflowId, started.firstExecutionRunId);
}

/** The error a run was refused with (recorded as a failed run by the activity), if that is why it failed. */
function refusal(err: unknown): RunError | null {
  for (let e: unknown = err; e instanceof Error; e = (e as { cause?: unknown }).cause) {
    if (e instanceof ApplicationFailure && e.type === RUN_REFUSED) return (e.details?.[0] as RunError | undefined) ?? null;
  }
  return null;
}

/** Waits (until the deadline) for the run's result; a refused run becomes the error publish would answer. */
async function runResult(deps: DomainDeps, run: WorkflowHandle, deadline: number, waitMs: number): Promise<RunResult> {
  const signal = AbortSignal.timeout(Math.max(deadline - Date.now(), 1));
  try {
    return (await deps.temporal.client.withAbortSignal(signal, () => run.result())) as RunResult;
  } catch (err) {
    const refused = refusal(err);
    if (refused) throw new DomainError(refused.code as ErrorCode, refused.message);
    if (signal.aborted) throw stillUnderWay(waitMs);
    throw err;
  }
}

/**
 * Runs the schedule now (its very `scheduleRun` workflow) and answers once
 * the run queued its publication: the schedule after, the publication and
 * the `schedule.ran` event id; or the refusal publish would answer, or a 503
 * when no worker took the run within the wait (a repeat joins that run).
 */
export async function runScheduleNow(
  deps: ScheduleDeps,
  tenant: Tenant,
  id: string,
): Promise<{ doc: ScheduleDoc; seen: ScheduleObserved; publication: PublicationDoc; eventId: string }> {
  const doc = await mustGetSchedule(deps, tenant, id);
  const { desc, seen } = await observe(deps, tenant, doc);
  if (seen.status === 'completed') throw noRunAhead('cannot run');
  const waitMs = deps.scheduleRunWaitMs ?? RUN_WAIT_MS;
  const deadline = Date.now() + waitMs;
  const run = await startOrJoinRun(deps, tenant, doc._id, desc, deadline, waitMs);
  const result = await runResult(deps, run, deadline, waitMs);
  const publication = result.publication_id ? await getPublication(deps.db, tenant, result.publication_id) : null;
  if (!publication || !result.event_id) {
    throw conflict('conflict', 'The schedule changed while it ran, so the run queued nothing; read it again and run it again.');
  }
  const fresh = await readSchedule(deps, tenant, id);
  return { ...fresh, publication, eventId: result.event_id };
}
