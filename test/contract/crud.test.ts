import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resource } from '../../schemas/openapi/crud';

const journeys = resource({ tag: 'Journeys', area: 'journeys', path: '/journeys', name: 'journey', schema: 'Journey' });
const route = (op: { method: string; path: string; operationId: string; scope: string }) =>
  `${op.method} ${op.path} ${op.operationId} ${op.scope}`;

test('the builder names, routes and scopes the common operations by convention', () => {
  assert.deepEqual(
    [
      journeys.list({ summary: 's' }),
      journeys.create({ summary: 's' }),
      journeys.get({ summary: 's' }),
      journeys.update({ summary: 's' }),
      journeys.delete({ summary: 's' }),
      journeys.nested({ name: 'execution', schema: 'JourneyExecution' }).list({ summary: 's' }),
      resource({ tag: 'Store', area: 'store', path: '/store', name: 'store', schema: 'Store', singleton: true })
        .nested({ name: 'page', schema: 'StorePage' })
        .create({ summary: 's' }),
    ].map(route),
    [
      'get /journeys journeys_list journeys:read',
      'post /journeys journey_create journeys:write',
      'get /journeys/{id} journey_get journeys:read',
      'patch /journeys/{id} journey_update journeys:write',
      'delete /journeys/{id} journey_delete journeys:write',
      'get /journeys/{id}/executions journey_executions_list journeys:read',
      'post /store/pages store_page_create store:write',
    ],
  );
  assert.deepEqual(journeys.create({ summary: 's' }).body, { schema: { $ref: '#/components/schemas/JourneyCreate' }, required: true });
  assert.deepEqual(journeys.delete({ summary: 's' }).success.schema, { $ref: '#/components/schemas/JourneyDeletion' });
});

test('a change operation on an area without a write scope is refused when the document is built', () => {
  const commissions = resource({ tag: 'Commissions', area: 'commissions', path: '/commissions', name: 'commission', schema: 'Commission' });
  assert.throws(() => commissions.create({ summary: 's' }), /there is no scope commissions:write/);
});
