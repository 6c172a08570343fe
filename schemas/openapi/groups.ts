import {
  bool,
  dateTime,
  filter,
  idOf,
  int,
  JsonSchema,
  listEnvelope,
  nullable,
  object,
  OperationDef,
  PAGINATION_PARAMS,
  record,
  ref,
  singleEnvelope,
  str,
} from './common';

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

export const operations: OperationDef[] = [
  {
    operationId: 'groups_list',
    method: 'get',
    path: '/groups',
    scope: 'groups:read',
    tag: 'Groups',
    summary: 'List groups (no JIDs, sessions or credentials)',
    query: [
      ...PAGINATION_PARAMS,
      filter('segment_id', 'Only groups linked to this segment.', idOf('seg')),
      filter('active', 'Only active (true) or inactive (false) groups.', bool()),
    ],
    success: { status: 200, description: 'A page of groups.', schema: listEnvelope(ref('Group')) },
  },
  {
    operationId: 'group_get',
    method: 'get',
    path: '/groups/{id}',
    scope: 'groups:read',
    tag: 'Groups',
    summary: 'Safe operational configuration of a group',
    success: { status: 200, description: 'The group.', schema: singleEnvelope(ref('Group')) },
  },
  {
    operationId: 'group_update',
    method: 'patch',
    path: '/groups/{id}',
    scope: 'groups:write',
    tag: 'Groups',
    summary: 'Update name, role, segment, capacity, automation, active',
    body: { schema: ref('GroupUpdate'), required: false },
    success: { status: 200, description: 'The group after the change.', schema: singleEnvelope(ref('Group')) },
  },
];
