/**
 * Monitors: the discovery rule (sources, criteria, frequency, automation,
 * state) and the result of its last run. The record is the truth; the
 * Temporal Schedule `monitor-<id>` is made from it (./temporal.ts).
 */
import { Db, Filter } from 'mongodb';
import { MONITOR_AUTOMATION_MODES, MONITOR_STATES } from '../../schemas/openapi/monitors';
import { Schema } from '../../schemas/types';
import { OutboxEvent, Page, PageResult, Tenant, tenantCollection } from '../db';
import { ResourceDoc } from '../resource';
import { SourceResult } from '../../temporal/workflows';

export type MonitorState = (typeof MONITOR_STATES)[number];
export type AutomationMode = (typeof MONITOR_AUTOMATION_MODES)[number];

/** A source, its field mapping and the criteria as the contract declares them. */
export type MonitorSource = Schema<'MonitorSource'>;
export type MappingField = keyof Schema<'MonitorSourceMapping'>;
export type MonitorCriteria = Schema<'MonitorCriteria'>;

export interface MonitorFrequency {
  every_minutes: number | null;
  cron: string | null;
  rrule: string | null;
  timezone: string;
  /** Where a cron or RRULE starts counting (the RRULE's defaults are read from it): when the frequency was set. */
  starts_at: Date;
}

export interface MonitorAutomation {
  mode: AutomationMode;
  segment_id: string | null;
  group_id: string | null;
  with_image: boolean;
}

export interface MonitorResult {
  workflow_id: string;
  run_id: string;
  started_at: string;
  finished_at: string;
  duration_ms: number;
  seen: number;
  matched: number;
  created: number;
  published: number;
  errors: number;
  sources: SourceResult[];
}

export interface MonitorFields {
  name: string;
  sources: MonitorSource[];
  criteria: MonitorCriteria;
  frequency: MonitorFrequency;
  automation: MonitorAutomation;
  state: MonitorState;
}

export interface MonitorDoc extends ResourceDoc, MonitorFields {
  /** The scheduler's next run as last seen (at each change, run and read). */
  next_run_at: Date | null;
  last_run_at: Date | null;
  last_result: MonitorResult | null;
}

const monitors = (db: Db, tenant: Tenant) => tenantCollection<MonitorDoc>(db, 'monitors', tenant);

export interface MonitorQuery {
  state?: MonitorState;
  marketplace?: string;
}

export function listMonitors(db: Db, tenant: Tenant, q: MonitorQuery, page: Page): Promise<PageResult<MonitorDoc>> {
  const filter: Filter<MonitorDoc> = {};
  if (q.state) filter.state = q.state;
  if (q.marketplace) filter['criteria.marketplace'] = q.marketplace;
  return monitors(db, tenant).page(filter, page);
}

export const getMonitor = (db: Db, tenant: Tenant, id: string): Promise<MonitorDoc | null> => monitors(db, tenant).findById(id);

export const insertMonitor = (db: Db, tenant: Tenant, doc: Omit<MonitorDoc, 'account_id' | 'env'>, event: OutboxEvent): Promise<MonitorDoc> =>
  monitors(db, tenant).insert(doc, event);

/** Applies `set` unless the monitor changed since it was read (then null). */
export const updateMonitor = (
  db: Db,
  tenant: Tenant,
  current: MonitorDoc,
  set: Partial<MonitorFields & Pick<MonitorDoc, 'next_run_at'>>,
  describe: (after: MonitorDoc) => OutboxEvent,
): Promise<MonitorDoc | null> => monitors(db, tenant).updateFrom(current, set, describe);

/** Notes the scheduler's next run as a read found it (not a change: no event, `updated_at` stays). */
export async function recordNextRun(db: Db, tenant: Tenant, doc: MonitorDoc, nextRunAt: Date | null): Promise<void> {
  await monitors(db, tenant).updateById(doc._id, { $set: { next_run_at: nextRunAt } }, { updated_at: doc.updated_at });
}

/**
 * Records a run's result with its event (`monitor.ran`, whose id the run
 * derives, so a retried activity stores the event once). False when the
 * monitor is gone.
 */
export async function recordMonitorRun(
  db: Db,
  tenant: Tenant,
  id: string,
  result: MonitorResult,
  nextRunAt: Date | null,
  event: OutboxEvent,
): Promise<boolean> {
  const set = { last_result: result, last_run_at: new Date(result.started_at), next_run_at: nextRunAt };
  return (await monitors(db, tenant).updateById(id, { $set: set }, {}, event)) !== null;
}

export const deleteMonitor = (db: Db, tenant: Tenant, id: string, event: OutboxEvent): Promise<boolean> =>
  monitors(db, tenant).deleteById(id, {}, event);
