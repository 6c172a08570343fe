/** Journeys: the definition (trigger, filter, graph), the active flag and the counters the executions keep. */
import { Db, Filter } from 'mongodb';
import { Schema } from '../../schemas/types';
import { newId } from '../ids';
import { OutboxEvent, Page, PageResult, Tenant } from '../db';
import { ResourceDoc, resourceStore } from '../resource';
import { EXECUTED, triggeredBy } from '../events/awaited';

export type StoredBlock = Schema<'JourneyBlockInput'>;
export type FilterCondition = Schema<'JourneyFilterCondition'>;
export type ChannelType = Schema<'ChannelType'>;

export interface JourneyFields {
  name: string;
  description: string | null;
  trigger: string;
  filter: FilterCondition[];
  channels: ChannelType[] | null;
  blocks: StoredBlock[];
  active: 0 | 1;
  activated_at: Date | null;
}

export interface JourneyDoc extends ResourceDoc, JourneyFields {
  /** Executions ever started (a journey with any cannot be deleted). */
  executions: number;
  completed: number;
  failed: number;
  last_execution_at: Date | null;
  /** Raised by every change of the definition (trigger, filter, blocks); an execution runs the version it started with. Absent: 1. */
  version?: number;
  /** Per block: executions that entered it, went past it, failed in it (kept by the executions' activities). */
  block_metrics?: Record<string, BlockMetrics>;
}

export interface BlockMetrics {
  entered: number;
  completed: number;
  failed: number;
}

const store = resourceStore<JourneyDoc>('journeys');
const journeys = store.coll;

export function listJourneys(db: Db, tenant: Tenant, q: { active?: boolean; trigger?: string }, page: Page): Promise<PageResult<JourneyDoc>> {
  const filter: Filter<JourneyDoc> = {};
  if (q.active !== undefined) filter.active = q.active ? 1 : 0;
  if (q.trigger !== undefined) filter.trigger = q.trigger;
  return journeys(db, tenant).page(filter, page);
}

export const getJourney = store.get;

export async function insertJourney(
  db: Db,
  tenant: Tenant,
  fields: JourneyFields,
  describe: (j: JourneyDoc) => OutboxEvent,
): Promise<JourneyDoc> {
  const now = new Date();
  const doc: JourneyDoc = {
    _id: newId('jrn', now.getTime()),
    account_id: tenant.accountId,
    env: tenant.env,
    ...fields,
    executions: 0,
    completed: 0,
    failed: 0,
    last_execution_at: null,
    version: 1,
    block_metrics: {},
    created_at: now,
    updated_at: now,
  };
  return journeys(db, tenant).insert(doc, describe(doc));
}

export const saveJourney = store.update;

/** Removes the journey unless an execution started meanwhile; false when it was not removed. */
export const deleteUnexecutedJourney = (db: Db, tenant: Tenant, id: string, event: OutboxEvent): Promise<boolean> =>
  journeys(db, tenant).deleteById(id, { executions: 0 }, event);

/**
 * The journeys an event of `kind` concerns: the active ones it triggers and,
 * for an inbound message, whether any journey of the tenant has executed (one
 * of its executions may be waiting for the reply).
 */
export async function journeysConcerned(db: Db, tenant: Tenant, kind: string): Promise<{ triggered: JourneyDoc[]; mayWaitForReply: boolean }> {
  const [triggered, executed] = await Promise.all([
    journeys(db, tenant).all(triggeredBy(kind)),
    kind === 'message.received' ? journeys(db, tenant).count(EXECUTED) : 0,
  ]);
  return { triggered, mayWaitForReply: executed > 0 };
}

/**
 * What steps of an execution change in the counters: blocks entered and
 * completed (a block may come twice: loops), a block failed; the execution
 * started or finished.
 */
export interface ExecutionProgress {
  started?: Date;
  entered?: string[];
  completed?: string[];
  failed?: string;
  finished?: 'completed' | 'failed';
}

/** Adds `p` to the journey's counters (a journey deleted meanwhile has none to keep). */
export async function recordProgress(db: Db, tenant: Tenant, id: string, p: ExecutionProgress): Promise<void> {
  const inc: Record<string, number> = {};
  const add = (key: string) => (inc[key] = (inc[key] ?? 0) + 1);
  // Block ids match ^[a-z0-9_-]+$ (the contract): safe as path segments.
  for (const block of p.entered ?? []) add(`block_metrics.${block}.entered`);
  for (const block of p.completed ?? []) add(`block_metrics.${block}.completed`);
  if (p.failed) add(`block_metrics.${p.failed}.failed`);
  if (p.started) add('executions');
  if (p.finished) add(p.finished);
  if (!Object.keys(inc).length) return;
  await journeys(db, tenant).updateById(id, { $inc: inc, ...(p.started ? { $set: { last_execution_at: p.started } } : {}) });
}
