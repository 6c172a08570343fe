/**
 * What operator commands (`offerops admin group …`) do to groups: create one
 * connected to a channel, list, change (including attaching a channel to an
 * existing group) and delete. The API never connects or deletes groups.
 *
 * These run in the CLI, which reaches MongoDB only: a change that the API
 * would announce (`group.updated`) is written with its event in the outbox,
 * and the worker's outbox sweep relays it within a minute.
 */
import { Db } from 'mongodb';
import { isDuplicateKey, Tenant } from '../db';
import { conflict, notFound } from '../errors';
import { prepareEvent } from '../events/store';
import { listPublications } from '../publications/store';
import { schedulesHolding } from '../holders';
import { Found, HOLDERS_NAMED, refuseWhileHeld, schedulesThatMayRun } from '../resource';
import { getSegment } from '../segments/store';
import { getChannel } from '../channels/store';
import {
  allGroups,
  createGroup,
  getGroup,
  GroupConnection,
  GroupDoc,
  GroupSettings,
  groupAt,
  deleteGroup,
  saveGroupFrom,
} from '../groups/store';
import { toGroup } from '../groups/service';

/** `…0001@g.us`: enough of an address (a JID, a chat id) to tell groups apart, never the whole of it. */
export function addressHint(address: string | null): string | null {
  if (address === null) return null;
  const at = address.lastIndexOf('@');
  const local = at < 0 ? address : address.slice(0, at);
  const domain = at < 0 ? '' : address.slice(at);
  return `…${local.length > 4 ? local.slice(-4) : ''}${domain}`;
}

/** A group as an operator sees it: the API's view plus its channel, a hint of its address and its pacing. */
export function groupSummary(g: GroupDoc): Record<string, unknown> {
  return {
    ...toGroup(g),
    channel_id: g.channel_id,
    address_hint: addressHint(g.address),
    min_interval_ms: g.min_interval_ms,
  };
}

async function checkSegment(db: Db, tenant: Tenant, id: string | null | undefined): Promise<void> {
  if (id && !(await getSegment(db, tenant, id))) throw notFound('segment', id);
}

const addressTaken = (groupId: string, channelId: string) =>
  conflict('conflict', `Group ${groupId} already sends to that address through ${channelId}; change or delete it instead.`);

/** The channel to connect through, checked: the tenant's, and no other group of it already sends to that address. */
async function connection(db: Db, tenant: Tenant, channel: { id: string; address: string }, self?: string) {
  const doc = await getChannel(db, tenant, channel.id);
  if (!doc) throw notFound('channel', channel.id);
  const taken = await groupAt(db, tenant, doc._id, channel.address);
  if (taken && taken._id !== self) throw addressTaken(taken._id, doc._id);
  return { channel_id: doc._id, channel_type: doc.type, address: channel.address };
}

/**
 * `write`, a group made or moved to `channel`'s address; the conflict
 * connection() reports when another group took that address meanwhile (the
 * unique index caught it).
 */
async function claiming<T>(db: Db, tenant: Tenant, channel: { id: string; address: string } | null | undefined, write: () => Promise<T>) {
  try {
    return await write();
  } catch (err) {
    const taken = channel && isDuplicateKey(err) ? await groupAt(db, tenant, channel.id, channel.address) : null;
    if (taken) throw addressTaken(taken._id, channel!.id);
    throw err;
  }
}

export async function createOperatorGroup(
  db: Db,
  tenant: Tenant,
  input: { name: string; segment_id?: string | null; channel?: { id: string; address: string }; minIntervalMs?: number },
): Promise<GroupDoc> {
  await checkSegment(db, tenant, input.segment_id);
  const linked = input.channel ? await connection(db, tenant, input.channel) : null;
  return claiming(db, tenant, input.channel, () =>
    createGroup(db, tenant, {
      name: input.name,
      segment_id: input.segment_id ?? null,
      ...(linked ? { channel: { id: linked.channel_id, type: linked.channel_type, address: linked.address } } : {}),
      minIntervalMs: input.minIntervalMs,
    }),
  );
}

export const listOperatorGroups = async (db: Db, tenant: Tenant, q: { segment_id?: string }): Promise<Record<string, unknown>[]> =>
  (await allGroups(db, tenant, q)).map(groupSummary);

export interface GroupChange {
  name?: string;
  segment_id?: string | null;
  active?: boolean;
  /** A channel and address to send through; null disconnects the group. */
  channel?: { id: string; address: string } | null;
  minIntervalMs?: number;
}

/** Changes what is given; the group after and the names of the fields that changed. */
export async function changeOperatorGroup(
  db: Db,
  tenant: Tenant,
  id: string,
  input: GroupChange,
): Promise<{ group: GroupDoc; changed: string[] }> {
  const group = await getGroup(db, tenant, id);
  if (!group) throw notFound('group', id);
  if (input.segment_id !== undefined) await checkSegment(db, tenant, input.segment_id);
  const wanted: Partial<GroupSettings & GroupConnection> = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.segment_id !== undefined ? { segment_id: input.segment_id } : {}),
    ...(input.active !== undefined ? { active: input.active } : {}),
    ...(input.minIntervalMs !== undefined ? { min_interval_ms: input.minIntervalMs } : {}),
    ...(input.channel === null ? { channel_id: null, channel_type: null, address: null } : {}),
    ...(input.channel ? await connection(db, tenant, input.channel, group._id) : {}),
  };
  const set = Object.fromEntries(Object.entries(wanted).filter(([k, v]) => group[k as keyof GroupDoc] !== v)) as typeof wanted;
  const changed = Object.keys(set);
  if (!changed.length) return { group, changed };
  // The API's view changes with the settings and the channel type; the address and pacing are internal.
  const shown = Object.keys(toGroup(group)).filter((k) => k in set);
  const describe = shown.length
    ? (after: GroupDoc) => prepareEvent(tenant, 'group.updated', { group: toGroup(after), changed: shown })
    : undefined;
  const after = await claiming(db, tenant, input.channel, () => saveGroupFrom(db, tenant, group, set, describe));
  if (!after) throw conflict('conflict', 'The group changed while this command ran; run it again.');
  return { group: after, changed };
}

/** Publications of the group still queued or sending: the first few ids and how many in all. */
async function inFlight(db: Db, tenant: Tenant, groupId: string): Promise<Found> {
  const page = { limit: HOLDERS_NAMED, offset: 0 };
  const [queued, sending] = await Promise.all(
    (['queued', 'sending'] as const).map((status) => listPublications(db, tenant, { status, group_id: groupId }, page)),
  );
  return { ids: [...sending!.items, ...queued!.items].map((p) => p._id), total: sending!.total + queued!.total };
}

/** Deletes the group unless a publication to it is in flight or a schedule that may still run names it. */
export async function removeOperatorGroup(db: Db, tenant: Tenant, id: string): Promise<void> {
  const group = await getGroup(db, tenant, id);
  if (!group) throw notFound('group', id);
  const [publications, schedules] = await Promise.all([
    inFlight(db, tenant, group._id),
    schedulesHolding(db, tenant, { group_id: group._id }, HOLDERS_NAMED),
  ]);
  refuseWhileHeld(
    [{ found: publications, one: 'publication' }],
    (held) =>
      `The group has ${held} in flight; delete it once ${publications.total === 1 ? 'it has' : 'they have'} finished (GET /publications/{id} shows the status).`,
  );
  refuseWhileHeld([schedulesThatMayRun(schedules)], (held) => `The group is named by ${held}; delete or change them first.`);
  await deleteGroup(db, tenant, group._id);
}
