/** Journeys: the definition (trigger, filter, graph), the active flag and the counters the executions keep. */
import { Db, Filter } from 'mongodb';
import { Schema } from '../../schemas/types';
import { newId } from '../ids';
import { OutboxEvent, Page, PageResult, Tenant } from '../db';
import { ResourceDoc, resourceStore } from '../resource';

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
    created_at: now,
    updated_at: now,
  };
  return journeys(db, tenant).insert(doc, describe(doc));
}

export const saveJourney = store.update;

/** Removes the journey unless an execution started meanwhile; false when it was not removed. */
export const deleteUnexecutedJourney = (db: Db, tenant: Tenant, id: string, event: OutboxEvent): Promise<boolean> =>
  journeys(db, tenant).deleteById(id, { executions: 0 }, event);
