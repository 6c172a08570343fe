import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RouteTable } from '../../api/routes';

const table = new RouteTable([
  { method: 'get', path: '/api/v1/commissions/summary', target: 'summary' },
  { method: 'get', path: '/api/v1/offers', target: 'list' },
  { method: 'post', path: '/api/v1/offers', target: 'create' },
  { method: 'get', path: '/api/v1/commissions/{id}', target: 'commission' },
  { method: 'get', path: '/api/v1/offers/{id}', target: 'get' },
  { method: 'patch', path: '/api/v1/offers/{id}', target: 'update' },
  { method: 'post', path: '/api/v1/offers/{id}/preview', target: 'preview' },
]);

test('a route by method and path, with its parameters percent-decoded', () => {
  assert.deepEqual(table.match('/api/v1/offers', 'GET'), { target: 'list', params: {} });
  assert.deepEqual(table.match('/api/v1/offers', 'POST'), { target: 'create', params: {} });
  assert.deepEqual(table.match('/api/v1/offers/off_1', 'PATCH'), { target: 'update', params: { id: 'off_1' } });
  assert.deepEqual(table.match('/api/v1/offers/a%20b', 'GET'), { target: 'get', params: { id: 'a b' } });
  assert.deepEqual(table.match('/api/v1/offers/a%2Fb/preview', 'POST'), { target: 'preview', params: { id: 'a/b' } });
  // Not decodable: kept as sent (validation then refuses it).
  assert.deepEqual(table.match('/api/v1/offers/%E0%A4%A', 'GET'), { target: 'get', params: { id: '%E0%A4%A' } });
});

test('as the router matched: static segments regardless of case, one trailing slash, HEAD answered by GET', () => {
  assert.deepEqual(table.match('/API/V1/Offers/off_1', 'GET'), { target: 'get', params: { id: 'off_1' } });
  assert.deepEqual(table.match('/api/v1/offers/', 'GET'), { target: 'list', params: {} });
  assert.deepEqual(table.match('/api/v1/offers/off_1/', 'GET'), { target: 'get', params: { id: 'off_1' } });
  assert.deepEqual(table.match('/api/v1/offers/off_1', 'HEAD'), { target: 'get', params: { id: 'off_1' } });
  assert.equal(table.match('/api/v1/offers//', 'GET'), null);
  assert.equal(table.match('/api/v1//offers', 'GET'), null);
});

test('the first route that fits wins: a static path before a parameter', () => {
  assert.deepEqual(table.match('/api/v1/commissions/summary', 'GET'), { target: 'summary', params: {} });
  assert.deepEqual(table.match('/api/v1/commissions/com_1', 'GET'), { target: 'commission', params: { id: 'com_1' } });
});

test('a known path under another method: the methods it takes; an unknown path: null', () => {
  assert.deepEqual(table.match('/api/v1/offers', 'PUT'), { allowed: ['GET', 'POST'] });
  assert.deepEqual(table.match('/api/v1/offers/off_1', 'DELETE'), { allowed: ['GET', 'PATCH'] });
  assert.deepEqual(table.match('/api/v1/offers/off_1/preview', 'GET'), { allowed: ['POST'] });
  assert.deepEqual(table.match('/api/v1/offers/off_1/preview', 'HEAD'), { allowed: ['POST'] });
  // Every route that fits the path counts: the static one and the parameter's.
  assert.deepEqual(table.match('/api/v1/commissions/summary', 'POST'), { allowed: ['GET'] });
  assert.equal(table.match('/api/v1/offers/off_1/other', 'GET'), null);
  assert.equal(table.match('/api/v1/nothing', 'GET'), null);
  assert.equal(table.match('', 'GET'), null);
});
