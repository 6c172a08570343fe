/**
 * Monitors: CRUD over the rule and its Temporal Schedule (./temporal.ts).
 * Runs are the `monitorRun` workflow (./run.ts).
 */
import { Schema } from '../../schemas/types';
import { Page, PageResult, Tenant } from '../db';
import { conflict, invalid, unknownReference } from '../errors';
import { commitEvents } from '../events/commit';
import { prepareEvent } from '../events/store';
import { getGroup } from '../groups/store';
import { newId } from '../ids';
import { DomainDeps, found, iso } from '../resource';
import { checkRecurrence, RecurrenceError } from '../recurrence';
import { getSegment } from '../segments/store';
import { checkSourceUrl, SourceError } from '../webhooks/sources';
import {
  deleteMonitor,
  getMonitor,
  insertMonitor,
  listMonitors,
  MonitorAutomation,
  MonitorCriteria,
  MonitorDoc,
  MonitorFields,
  MonitorFrequency,
  MonitorQuery,
  MonitorSource,
  recordNextRun,
  updateMonitor,
} from './store';
import {
  createMonitorSchedule,
  deleteMonitorSchedule,
  describeMonitorSchedule,
  nextRunOf,
  syncMonitorSchedule,
  triggerMonitorRun,
} from './temporal';

/** What monitor operations need besides the database and Temporal. */
export interface MonitorDeps extends DomainDeps {
  /** Hosts or addresses sources may be at although private or loopback, and over plain http (OFFEROPS_WEBHOOK_ALLOW). */
  webhookAllow?: readonly string[];
}

/** The API record. */
export function toMonitor(doc: MonitorDoc): Schema<'Monitor'> {
  const f = doc.frequency;
  return {
    id: doc._id,
    name: doc.name,
    sources: doc.sources,
    criteria: doc.criteria,
    frequency: { every_minutes: f.every_minutes, cron: f.cron, rrule: f.rrule, timezone: f.timezone },
    automation: doc.automation,
    state: doc.state,
    next_run_at: iso(doc.next_run_at),
    last_run_at: iso(doc.last_run_at),
    last_result: doc.last_result,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

const refuse = (field: string, rule: string, message: string) =>
  invalid('validation_failed', `Invalid body field ${field}: ${message}.`, [{ location: 'body', field, rule, message }]);

// --- checks -------------------------------------------------------------------

async function checkSources(deps: MonitorDeps, sources: Schema<'MonitorSource'>[]): Promise<MonitorSource[]> {
  const out: MonitorSource[] = [];
  for (const [i, s] of sources.entries()) {
    try {
      await checkSourceUrl(s.url, deps.webhookAllow ?? []);
    } catch (err) {
      if (!(err instanceof SourceError)) throw err;
      throw refuse(`sources.${i}.url`, 'destination', `not an allowed source: ${err.message}`);
    }
    out.push(s);
  }
  return out;
}

function checkCriteria(c: Schema<'MonitorCriteria'> | undefined): MonitorCriteria {
  const criteria: MonitorCriteria = c ?? {};
  if (criteria.min_price !== undefined && criteria.max_price !== undefined && criteria.max_price < criteria.min_price) {
    throw refuse('criteria.max_price', 'range', 'must not be below min_price');
  }
  return criteria;
}

function frequencyOf(input: Schema<'MonitorFrequency'>, now: Date): MonitorFrequency {
  const f = input as { every_minutes?: number; cron?: string; rrule?: string; timezone?: string };
  if (f.every_minutes !== undefined) return { every_minutes: f.every_minutes, cron: null, rrule: null, timezone: 'UTC', starts_at: now };
  try {
    const r = checkRecurrence({ ...(f.cron !== undefined ? { cron: f.cron } : { rrule: f.rrule! }), timezone: f.timezone, ends_at: null }, now);
    return { every_minutes: null, cron: r.cron, rrule: r.rrule, timezone: r.timezone, starts_at: now };
  } catch (err) {
    if (!(err instanceof RecurrenceError)) throw err;
    throw refuse(err.field.replace(/^recurrence\./, 'frequency.'), err.rule, err.message);
  }
}

async function automationOf(deps: MonitorDeps, tenant: Tenant, a: Schema<'MonitorAutomation'> | undefined): Promise<MonitorAutomation> {
  const automation: MonitorAutomation = {
    mode: a?.mode ?? 'none',
    segment_id: a?.segment_id ?? null,
    group_id: a?.group_id ?? null,
    with_image: a?.with_image ?? true,
  };
  if (automation.segment_id && !(await getSegment(deps.db, tenant, automation.segment_id))) {
    throw unknownReference('automation.segment_id', 'segment', automation.segment_id);
  }
  if (automation.group_id && !(await getGroup(deps.db, tenant, automation.group_id))) {
    throw unknownReference('automation.group_id', 'group', automation.group_id);
  }
  return automation;
}

// --- CRUD ---------------------------------------------------------------------

export const mustGetMonitor = async (deps: DomainDeps, tenant: Tenant, id: string): Promise<MonitorDoc> =>
  found(await getMonitor(deps.db, tenant, id), 'monitor', id);

/**
 * Runs the monitor now, as its schedule would: the started run's workflow id, or why none started:
 * `paused` (a paused monitor's run reads nothing) or `busy` (a run still under way).
 */
export async function runMonitorNow(
  deps: DomainDeps,
  tenant: Tenant,
  id: string,
): Promise<{ workflowId: string } | { refused: 'paused' | 'busy' }> {
  const doc = await mustGetMonitor(deps, tenant, id);
  if (doc.state === 'paused') return { refused: 'paused' };
  const workflowId = await triggerMonitorRun(deps.temporal, doc);
  return workflowId === null ? { refused: 'busy' } : { workflowId };
}

/** A page of monitors, `next_run_at` as last seen (a list does not ask Temporal once per row). */
export const listMonitorRecords = (deps: DomainDeps, tenant: Tenant, q: MonitorQuery, page: Page): Promise<PageResult<MonitorDoc>> =>
  listMonitors(deps.db, tenant, q, page);

/** One monitor, with the scheduler's next run now. */
export async function readMonitor(deps: DomainDeps, tenant: Tenant, id: string): Promise<MonitorDoc> {
  const doc = await mustGetMonitor(deps, tenant, id);
  const next = nextRunOf(await describeMonitorSchedule(deps.temporal, id));
  if ((next?.getTime() ?? null) !== (doc.next_run_at?.getTime() ?? null)) await recordNextRun(deps.db, tenant, doc, next);
  return { ...doc, next_run_at: next };
}

export async function createMonitor(deps: MonitorDeps, tenant: Tenant, body: Schema<'MonitorCreate'>): Promise<MonitorDoc> {
  const now = new Date();
  const fields: MonitorFields = {
    name: body.name,
    sources: await checkSources(deps, body.sources),
    criteria: checkCriteria(body.criteria),
    frequency: frequencyOf(body.frequency, now),
    automation: await automationOf(deps, tenant, body.automation),
    state: body.state ?? 'active',
  };
  const draft: MonitorDoc = {
    _id: newId('mon', now.getTime()),
    account_id: tenant.accountId,
    env: tenant.env,
    ...fields,
    next_run_at: null,
    last_run_at: null,
    last_result: null,
    created_at: now,
    updated_at: now,
  };
  // The Temporal Schedule first, then the record: a run of a schedule without
  // its record does nothing and removes the schedule (./run.ts).
  const doc: MonitorDoc = { ...draft, next_run_at: nextRunOf(await createMonitorSchedule(deps.temporal, draft)) };
  try {
    await insertMonitor(deps.db, tenant, doc, prepareEvent(tenant, 'monitor.created', { monitor: toMonitor(doc) }));
  } catch (err) {
    await deleteMonitorSchedule(deps.temporal, doc._id).catch(() => undefined);
    throw err;
  }
  await commitEvents(deps, 'monitors', doc._id);
  return doc;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export async function updateMonitorFields(
  deps: MonitorDeps,
  tenant: Tenant,
  id: string,
  body: Schema<'MonitorUpdate'> | undefined = {},
): Promise<MonitorDoc> {
  const current = await mustGetMonitor(deps, tenant, id);
  const sent: Partial<MonitorFields> = {};
  if (body.name !== undefined) sent.name = body.name;
  if (body.sources !== undefined) sent.sources = await checkSources(deps, body.sources);
  if (body.criteria !== undefined) sent.criteria = checkCriteria(body.criteria);
  if (body.automation !== undefined) sent.automation = await automationOf(deps, tenant, body.automation);
  if (body.state !== undefined) sent.state = body.state;
  if (body.frequency !== undefined) {
    const next = frequencyOf(body.frequency, new Date());
    if (!same({ ...current.frequency, starts_at: null }, { ...next, starts_at: null })) sent.frequency = next;
  }
  const set = Object.fromEntries(Object.entries(sent).filter(([k, v]) => !same(v, current[k as keyof MonitorFields]))) as Partial<MonitorFields>;
  const changed = Object.keys(set);
  if (!changed.length) return readMonitor(deps, tenant, id);

  // Temporal first (the event then says what the scheduler does), then the
  // record; a failed write puts Temporal back as the record stands.
  const next: MonitorDoc = { ...current, ...set };
  const retimed = 'frequency' in set || 'state' in set || 'name' in set;
  const nextRunAt = retimed
    ? nextRunOf(await syncMonitorSchedule(deps.temporal, next))
    : nextRunOf(await describeMonitorSchedule(deps.temporal, id));
  let updated: MonitorDoc | null = null;
  try {
    updated = await updateMonitor(deps.db, tenant, current, { ...set, next_run_at: nextRunAt }, (after) =>
      prepareEvent(tenant, 'monitor.updated', { monitor: toMonitor(after), changed }),
    );
  } finally {
    if (!updated && retimed) await syncMonitorSchedule(deps.temporal, (await getMonitor(deps.db, tenant, id)) ?? current).catch(() => undefined);
  }
  if (!updated) throw conflict('conflict', 'The monitor changed while this request ran; read it again and retry.');
  await commitEvents(deps, 'monitors', id);
  return updated;
}

/** Removes the rule (with `monitor.deleted`), then its Temporal Schedule; offers it created stay. */
export async function removeMonitor(deps: DomainDeps, tenant: Tenant, id: string): Promise<void> {
  await mustGetMonitor(deps, tenant, id);
  // The record first: without it a run does nothing (and removes a schedule left behind).
  const removed = await deleteMonitor(deps.db, tenant, id, prepareEvent(tenant, 'monitor.deleted', { monitor_id: id }));
  if (!removed) throw conflict('conflict', 'The monitor was removed while this request ran.');
  await deleteMonitorSchedule(deps.temporal, id);
  await commitEvents(deps, 'monitors', id);
}
