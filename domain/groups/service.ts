/**
 * Groups as the API shows and changes them: never their channel, address
 * (JID), session or credentials. Groups are made by channel connections and
 * operator commands; the API reads them and changes their settings.
 */
import { Schema } from '../../schemas/types';
import { Tenant } from '../db';
import { commitEvents } from '../events/commit';
import { prepareEvent } from '../events/store';
import { changedFields, DomainDeps, found, written } from '../resource';
import { referencedSegment } from '../segments/service';
import { getGroup, GroupDoc, GroupSettings, listGroups, saveGroup } from './store';

export { listGroups };

const SETTINGS = ['name', 'role', 'segment_id', 'capacity', 'automation', 'active'] as const satisfies readonly (keyof GroupSettings)[];

/** The whole of what a group discloses: never its channel, address (JID), session or credentials. */
export function toGroup(g: GroupDoc): Schema<'Group'> {
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

export const mustGetGroup = async (deps: DomainDeps, tenant: Tenant, id: string): Promise<GroupDoc> =>
  found(await getGroup(deps.db, tenant, id), 'group', id);

/** Changes the settings sent (a segment named must be this tenant's). */
export async function updateGroup(deps: DomainDeps, tenant: Tenant, id: string, input: Schema<'GroupUpdate'> | undefined): Promise<GroupDoc> {
  const group = await mustGetGroup(deps, tenant, id);
  const set = changedFields<GroupSettings, (typeof SETTINGS)[number]>(group, input ?? {}, SETTINGS);
  if (typeof set.segment_id === 'string') await referencedSegment(deps, tenant, set.segment_id);
  const changed = Object.keys(set);
  if (!changed.length) return group;
  const updated = written(
    await saveGroup(deps.db, tenant, group, set, (after) => prepareEvent(tenant, 'group.updated', { group: toGroup(after), changed })),
    'group',
  );
  await commitEvents(deps, 'groups', group._id);
  return updated;
}
