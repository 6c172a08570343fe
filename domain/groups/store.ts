import { Db, Filter } from 'mongodb';
import { GROUP_ROLES } from '../../schemas/openapi/groups';
import { newId } from '../ids';
import { OutboxEvent, Page, PageResult, Tenant } from '../db';
import { ResourceDoc, resourceStore } from '../resource';
import { groupAddressKey } from '../address-key';

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
  /** Its channel and a hash of its address, or its id when not connected: unique per tenant (../address-key.ts). */
  address_key: string;
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

/** Every active group of a segment (whose `_id` is within `ids`, when given), in batches, `_id` ascending (one query: see cursorBatches). */
export const activeGroupBatches = (db: Db, tenant: Tenant, segmentId: string, ids?: { from: string; to: string }): AsyncGenerator<GroupDoc[]> =>
  groups(db, tenant).cursorBatches(
    { segment_id: segmentId, active: true, ...(ids ? { _id: { $gte: ids.from, $lte: ids.to } } : {}) },
    SEGMENT_BATCH,
  );

export const getGroup = store.get;

/** These groups (those that exist), by id. */
export async function getGroups(db: Db, tenant: Tenant, ids: string[]): Promise<Map<string, GroupDoc>> {
  return new Map((await groups(db, tenant).findByIds(ids)).map((g) => [g._id, g]));
}

/** Applies `set` unless the group changed since it was read (then null). */
export const saveGroup = store.update;

/** What operator commands change besides the settings: the connection and the pacing (internal; no event of their own). */
export type GroupConnection = Pick<GroupDoc, 'channel_id' | 'channel_type' | 'address' | 'min_interval_ms'>;

/**
 * Applies `set` unless the group changed since it was read (then null), with
 * the event `describe` makes, if any. A group already at the address it is
 * moved to makes it throw a duplicate-key error (isDuplicateKey).
 */
export const saveGroupFrom = (
  db: Db,
  tenant: Tenant,
  current: GroupDoc,
  set: Partial<GroupSettings & GroupConnection>,
  describe?: (after: GroupDoc) => OutboxEvent,
): Promise<GroupDoc | null> =>
  groups(db, tenant).updateFrom(current, { ...set, address_key: groupAddressKey({ ...current, ...set }) }, describe);

/** Every group of the tenant (optionally of one segment), oldest first, for operator listings. */
export const allGroups = (db: Db, tenant: Tenant, q: { segment_id?: string }): Promise<GroupDoc[]> =>
  groups(db, tenant)
    .all(q.segment_id === undefined ? {} : { segment_id: q.segment_id })
    .then((all) => all.sort((a, b) => a._id.localeCompare(b._id)));

/** The group that already sends to `address` through channel `channelId`, if any (by its unique key). */
export const groupAt = (db: Db, tenant: Tenant, channelId: string, address: string): Promise<GroupDoc | null> =>
  groups(db, tenant).findOne({ address_key: groupAddressKey({ _id: '', channel_id: channelId, address }) });

/** The groups connected through channel `channelId`: the first `limit` ids, and how many in all. */
export const groupsOnChannel = (db: Db, tenant: Tenant, channelId: string, limit: number): Promise<{ ids: string[]; total: number }> =>
  groups(db, tenant).holders({ channel_id: channelId }, limit);

/** How many groups each of these channels connects. */
export const countGroupsByChannel = (db: Db, tenant: Tenant, channelIds: string[]): Promise<Map<string, number>> =>
  groups(db, tenant).countBy('channel_id', channelIds);

/** Removes the group (the event catalogue has no `group.deleted`); false when it was gone already. */
export const deleteGroup = (db: Db, tenant: Tenant, id: string): Promise<boolean> => groups(db, tenant).deleteById(id);

/** Makes a group; one already at its channel and address makes it throw a duplicate-key error (isDuplicateKey). */
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
  const _id = newId('grp', now.getTime());
  const connection = { channel_id: input.channel?.id ?? null, address: input.channel?.address ?? null };
  return groups(db, tenant).insert({
    _id,
    name: input.name,
    role: 'distribution',
    segment_id: input.segment_id ?? null,
    capacity: null,
    automation: false,
    active: true,
    ...connection,
    channel_type: input.channel?.type ?? null,
    address_key: groupAddressKey({ _id, ...connection }),
    min_interval_ms: input.minIntervalMs ?? 3000,
    created_at: now,
    updated_at: now,
  });
}
