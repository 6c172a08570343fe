import { bool, dateTime, filter, idOf, int, JsonSchema, nullable, object, OperationDef, record, ref, str } from './common';
import { resource } from './crud';

export const GROUP_ROLES = ['distribution', 'vip', 'community', 'support', 'test'] as const;

/**
 * A group is a chat destination that comes from a channel connection. Its
 * address (JID, chat id), session and credentials never leave the API: the
 * Group record below is the whole of what is disclosed.
 */
export const schemas: Record<string, JsonSchema> = {
  GroupRole: str({ enum: [...GROUP_ROLES], description: 'what the group is used for' }),
  Group: record({
    id: idOf('grp'),
    name: str(),
    role: ref('GroupRole'),
    segment_id: nullable(idOf('seg')),
    channel_type: nullable(str({ description: 'kind of channel the group belongs to (never its address or session)' })),
    capacity: nullable(int({ minimum: 0, description: 'maximum members the team wants in the group' })),
    automation: bool({ description: 'whether automations may post to the group' }),
    active: bool({ description: 'inactive groups receive no publication' }),
    created_at: dateTime('creation time'),
    updated_at: dateTime('last change'),
  }),
  GroupUpdate: object(
    {
      name: str({ minLength: 1, maxLength: 120 }),
      role: ref('GroupRole'),
      segment_id: nullable(idOf('seg', 'link to a segment of this account; null unlinks')),
      capacity: nullable(int({ minimum: 0, maximum: 1000000 })),
      automation: bool(),
      active: bool(),
    },
    [],
    { description: 'Only the fields sent change.' },
  ),
};

const groups = resource({ tag: 'Groups', area: 'groups', path: '/groups', name: 'group', schema: 'Group' });

export const operations: OperationDef[] = [
  groups.list({
    summary: 'List groups (no JIDs, sessions or credentials)',
    filters: [
      filter('segment_id', 'Only groups linked to this segment.', idOf('seg')),
      filter('active', 'Only active (true) or inactive (false) groups.', bool()),
    ],
  }),
  groups.get({ summary: 'Safe operational configuration of a group' }),
  groups.update({ summary: 'Update name, role, segment, capacity, automation, active' }),
];
