import { notFound } from '../../domain/errors';
import { commitEvents } from '../../domain/events/commit';
import { conflict } from '../../domain/errors';
import { prepareEvent } from '../../domain/events/store';
import { getGroup, GroupDoc, GroupSettings, listGroups, updateGroup } from '../../domain/groups/store';
import { referencedSegment } from './offers';
import { Handler, listReply, pageOf } from './types';

const SETTINGS = ['name', 'role', 'segment_id', 'capacity', 'automation', 'active'] as const satisfies readonly (keyof GroupSettings)[];

/** The whole of what a group discloses: never its channel, address (JID), session or credentials. */
export function toGroup(g: GroupDoc): Record<string, unknown> {
  return {
    id: g._id,
    name: g.name,
    role: g.role,
    segment_id: g.segment_id,
    channel_type: g.channel_type,
    capacity: g.capacity,
    automation: g.automation,
    active: g.active,
    created_at: g.created_at.toISOString(),
    updated_at: g.updated_at.toISOString(),
  };
}

export const groupsList: Handler = async (req, deps) => {
  const page = pageOf(req.query);
  const { segment_id, active } = req.query as { segment_id?: string; active?: boolean };
  const { items, total } = await listGroups(deps.db, req.tenant, { segment_id, active }, page);
  return listReply(items.map(toGroup), total, page);
};

export const groupGet: Handler = async (req, deps) => {
  const group = await getGroup(deps.db, req.tenant, req.params.id!);
  if (!group) throw notFound('group', req.params.id!);
  return { body: { data: toGroup(group) } };
};

export const groupUpdate: Handler = async (req, deps) => {
  const group = await getGroup(deps.db, req.tenant, req.params.id!);
  if (!group) throw notFound('group', req.params.id!);
  const body = req.body ?? {};
  const set = Object.fromEntries(SETTINGS.filter((k) => k in body && body[k] !== group[k]).map((k) => [k, body[k]])) as Partial<GroupSettings>;
  if (typeof set.segment_id === 'string') await referencedSegment(deps, req, set.segment_id);
  const changed = Object.keys(set);
  if (!changed.length) return { body: { data: toGroup(group) } };
  const updated = await updateGroup(deps.db, req.tenant, group, set, (after) =>
    prepareEvent(req.tenant, 'group.updated', { group: toGroup(after), changed }),
  );
  if (!updated) throw conflict('conflict', 'The group changed while this request ran; read it again and retry.');
  await commitEvents(deps, 'groups', group._id);
  return { body: { data: toGroup(updated) } };
};
