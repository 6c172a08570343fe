/**
 * Schedules: what to publish, where, and when. The record here is the truth
 * for all of it; the Temporal Schedule `schedule-<id>` is derived from it
 * (temporal.ts). `segment_id` and `template_id` are what segments and
 * templates look at before they let themselves be deleted (../holders.ts).
 */
import { Db, Filter } from 'mongodb';
import { SCHEDULE_STATUSES } from '../../schemas/openapi/schedules';
import { Recurrence } from '../recurrence';
import { OutboxEvent, Page, PageResult, Tenant, tenantCollection, TenantDoc } from '../db';

export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

export interface ScheduleFields {
  name: string | null;
  offer_id: string | null;
  text: string | null;
  group_id: string | null;
  segment_id: string | null;
  template_id: string | null;
  with_image: boolean;
  run_at: Date;
  recurrence: Recurrence | null;
  /** Wanted state: true after PATCH status=paused. */
  paused: boolean;
}

/**
 * The scheduler's view as last seen (at each change, each run and each read
 * of the one schedule that found it changed): what lists show, order and
 * filter by without asking Temporal once per row.
 */
export interface ScheduleObserved {
  status: ScheduleStatus;
  next_run_at: Date | null;
  /** `next_run_at`, or the end of time when there is none, so an ascending sort puts those last. */
  order_at: Date;
  /** When the last run was taken, and how many runs were (absent on records observed before they were kept). */
  last_run_at?: Date | null;
  run_count?: number;
}

/** The outcome of the last run, by the scheduler or run-now. */
export interface ScheduleRunRecord {
  /** `<schedule>:<wall-clock time>`: the run's idempotency key (see ./run.ts). */
  key: string;
  scheduled_at: Date;
  publication_id: string | null;
  error: { status: number; code: string; message: string } | null;
  event_id: string;
  at: Date;
}

export interface ScheduleDoc extends TenantDoc, ScheduleFields, ScheduleObserved {
  last_run: ScheduleRunRecord | null;
  created_at: Date;
  updated_at: Date;
}

const END_OF_TIME = new Date(8_640_000_000_000_000);

export const observedFields = (
  status: ScheduleStatus,
  nextRunAt: Date | null,
  lastRunAt: Date | null = null,
  runCount = 0,
): ScheduleObserved => ({
  status,
  next_run_at: nextRunAt,
  order_at: nextRunAt ?? END_OF_TIME,
  last_run_at: lastRunAt,
  run_count: runCount,
});

/** True when two observations of the scheduler differ in anything a list shows. */
export const observedDiffers = (a: ScheduleObserved, b: ScheduleObserved): boolean =>
  a.status !== b.status ||
  a.order_at.getTime() !== b.order_at.getTime() ||
  (a.last_run_at?.getTime() ?? null) !== (b.last_run_at?.getTime() ?? null) ||
  (a.run_count ?? 0) !== (b.run_count ?? 0);

const schedules = (db: Db, tenant: Tenant) => tenantCollection<ScheduleDoc>(db, 'schedules', tenant);

export interface ScheduleQuery {
  status?: ScheduleStatus;
  group_id?: string;
  segment_id?: string;
  offer_id?: string;
}

/** Soonest next run first; schedules without one last. */
export function listSchedules(db: Db, tenant: Tenant, q: ScheduleQuery, page: Page): Promise<PageResult<ScheduleDoc>> {
  const filter: Filter<ScheduleDoc> = {};
  if (q.status) filter.status = q.status;
  if (q.group_id) filter.group_id = q.group_id;
  if (q.segment_id) filter.segment_id = q.segment_id;
  if (q.offer_id) filter.offer_id = q.offer_id;
  return schedules(db, tenant).page(filter, page, { order_at: 1, _id: 1 });
}

export const getSchedule = (db: Db, tenant: Tenant, id: string): Promise<ScheduleDoc | null> => schedules(db, tenant).findById(id);

export const insertSchedule = (db: Db, tenant: Tenant, doc: Omit<ScheduleDoc, 'account_id' | 'env'>, event: OutboxEvent): Promise<ScheduleDoc> =>
  schedules(db, tenant).insert(doc, event);

/** Applies `set` unless the schedule changed since it was read (then null). */
export const updateSchedule = (
  db: Db,
  tenant: Tenant,
  current: ScheduleDoc,
  set: Partial<ScheduleFields & ScheduleObserved>,
  describe: (after: ScheduleDoc) => OutboxEvent,
): Promise<ScheduleDoc | null> => schedules(db, tenant).updateFrom(current, set, describe);

/**
 * Notes the scheduler's view as a read found it, unless the schedule changed
 * since `doc` was read. Not a change of the schedule: no event, and
 * `updated_at` stays (so no concurrent PATCH conflicts with it).
 */
export async function recordObserved(db: Db, tenant: Tenant, doc: ScheduleDoc, observed: ScheduleObserved): Promise<void> {
  await schedules(db, tenant).updateById(doc._id, { $set: observed }, { updated_at: doc.updated_at });
}

/** Records a run and the scheduler's view after it, with the run's event. False when the schedule is gone. */
export async function recordScheduleRun(
  db: Db,
  tenant: Tenant,
  id: string,
  run: ScheduleRunRecord,
  observed: ScheduleObserved,
  event: OutboxEvent,
): Promise<boolean> {
  return (await schedules(db, tenant).updateById(id, { $set: { last_run: run, ...observed } }, {}, event)) !== null;
}

export const deleteSchedule = (db: Db, tenant: Tenant, id: string, event: OutboxEvent): Promise<boolean> =>
  schedules(db, tenant).deleteById(id, {}, event);
