import { Db, Filter } from 'mongodb';
import { GROUP_ROLES } from '../../schemas/openapi/groups';
import { newId } from '../ids';
import { Page, PageResult, Tenant } from '../db';
import { ResourceDoc, resourceStore } from '../resource';

export type GroupRole = (typeof GROUP_ROLES)[number];

export interface GroupSettings {
  name: string;
  role: GroupRole;
  segment_id: string | null;
  capacity: number | null;
  automation: boolean;
  active: boolean;
}

/**
 * A chat destination. `channel_id` and `address` (the JID or chat id) are
 * internal: they never appear in an API response or an event.
 */
export interface GroupDoc extends ResourceDoc, GroupSettings {
  channel_id: string | null;
  channel_type: string | null;
  address: string | null;
  /** Minimum time between two sends to this group (pacing). */
  min_interval_ms: number;
}

const store = resourceStore<GroupDoc>('groups');
const groups = store.coll;

export function listGroups(db: Db, tenant: Tenant, q: { segment_id?: string; active?: boolean }, page: Page): Promise<PageResult<GroupDoc>> {
  const filter: Filter<GroupDoc> = {};
  if (q.segment_id !== undefined) filter.segment_id = q.segment_id;
  if (q.active !== undefined) filter.active = q.active;
  return groups(db, tenant).page(filter, page);
}

/** Groups read per round trip by `activeGroupBatches`. */
const SEGMENT_BATCH = 500;

/** Every active group of a segment, however many, in batches, `_id` ascending. */
export const activeGroupBatches = (db: Db, tenant: Tenant, segmentId: string): AsyncGenerator<GroupDoc[]> =>
  groups(db, tenant).inBatches({ segment_id: segmentId, active: true }, SEGMENT_BATCH);

export const getGroup = store.get;

/** Applies `set` unless the group changed since it was read (then null). */
export const saveGroup = store.update;

export function createGroup(
  db: Db,
  tenant: Tenant,
  input: {
    name: string;
    segment_id?: string | null;
    channel?: { id: string; type: string; address: string };
    minIntervalMs?: number;
  },
): Promise<GroupDoc> {
  const now = new Date();
  return groups(db, tenant).insert({
    _id: newId('grp', now.getTime()),
    name: input.name,
    role: 'distribution',
    segment_id: input.segment_id ?? null,
    capacity: null,
    automation: false,
    active: true,
    channel_id: input.channel?.id ?? null,
    channel_type: input.channel?.type ?? null,
    address: input.channel?.address ?? null,
    min_interval_ms: input.minIntervalMs ?? 3000,
    created_at: now,
    updated_at: now,
  });
}

export const countGroupsBySegment = (db: Db, tenant: Tenant, segmentIds: string[]): Promise<Map<string, number>> =>
  groups(db, tenant).countBy('segment_id', segmentIds);

/** The groups linked to segment `id`: the first `limit` ids, and how many in all. */
export const groupsHolding = (db: Db, tenant: Tenant, segmentId: string, limit: number): Promise<{ ids: string[]; total: number }> =>
  groups(db, tenant).holders({ segment_id: segmentId }, limit);
