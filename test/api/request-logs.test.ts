/**
 * Request logs per credential: every v1 request of a key lands in the
 * `request_logs` store (batched off the response path) with its route
 * template, status and duration — never the key, a body or a query value —
 * and pages through the domain's keyset listing with its filters.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { listRequestLogs, RequestLogDoc, requestLogCsv } from '../../domain/developer/request-logs';
import { ApiClient } from '../helpers/client';
import { addKey, seedTenant, startTestApp, TestApp } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { requestLogsState } from '../helpers/states';

let app: TestApp;

before(async () => {
  app = await startTestApp();
});
after(async () => {
  await app.close();
});

const stored = (requestId: string) => app.db.collection<RequestLogDoc>('request_logs').findOne({ request_id: requestId });
const waitStored = (requestId: string) =>
  waitFor(
    `request log ${requestId}`,
    async () => (await stored(requestId)) ?? undefined,
    30_000,
    () => requestLogsState(app.db, [requestId]),
  );

test('a v1 request is stored with its route template, status, duration and credential, and no secret, body or query value', async () => {
  const tenant = await seedTenant(app.db);
  const api = new ApiClient(app.baseUrl, tenant.apiKey);
  const created = await api.post('/offers', { url: 'https://shop.example/private-path', title: 'Secret title of the offer' });
  assert.equal(created.status, 201);
  const got = await api.get(`/offers/${created.body.data.id}`);
  const listed = await api.get('/offers?query=private-search-words');
  const entry = await waitStored(got.body.request_id);
  assert.deepEqual(
    { ...entry, _id: undefined, time: undefined, duration_ms: undefined },
    {
      _id: undefined,
      time: undefined,
      duration_ms: undefined,
      request_id: got.body.request_id,
      method: 'GET',
      route: '/offers/{id}',
      status: 200,
      credential_id: tenant.keyId,
      account_id: tenant.accountId,
      env: 'live',
    },
  );
  assert.ok(entry.time instanceof Date);
  assert.equal(typeof entry.duration_ms, 'number');
  const all = await Promise.all([created, listed].map((r) => waitStored(r.body.request_id)));
  assert.deepEqual(
    all.map((e) => [e.method, e.route, e.status]),
    [
      ['POST', '/offers', 201],
      ['GET', '/offers', 200],
    ],
  );
  const text = JSON.stringify(await app.db.collection('request_logs').find({ account_id: tenant.accountId }).toArray());
  for (const secret of [tenant.apiKey, 'Secret title', 'private-path', 'private-search-words', created.body.data.id]) {
    assert.ok(!text.includes(secret), `${secret} is not in the request log`);
  }
});

test('errors after authentication are logged for the credential; requests without a valid credential are not', async () => {
  const tenant = await seedTenant(app.db, { scopes: ['offers:read'] });
  const api = new ApiClient(app.baseUrl, tenant.apiKey);
  const forbidden = await api.post('/segments', { name: 'Nope' });
  assert.equal(forbidden.status, 403);
  const invalid = await api.get('/offers?limit=0');
  assert.equal(invalid.status, 400);
  const anonymous = await api.call('GET', '/offers', { anonymous: true });
  assert.equal(anonymous.status, 401);
  assert.equal((await waitStored(forbidden.body.request_id)).status, 403);
  assert.equal((await waitStored(invalid.body.request_id)).status, 400);
  assert.equal(await stored(anonymous.body.request_id), null);
});

test('listRequestLogs filters by credential, status class and time, newest first, keyset-paged; the CSV streams the same rows', async () => {
  const tenant = await seedTenant(app.db);
  const other = await addKey(app.db, tenant, { scopes: ['offers:read'] });
  const api = new ApiClient(app.baseUrl, tenant.apiKey);
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push((await api.get('/me')).body.request_id);
  const missing = await api.get('/offers/off_nosuchoffer0000000000');
  assert.equal(missing.status, 404);
  const otherId = (await api.withKey(other.apiKey).get('/offers')).body.request_id;
  await Promise.all([...ids, missing.body.request_id, otherId].map(waitStored));

  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<typeof listRequestLogs>> = await listRequestLogs(
      app.db,
      tenant.accountId,
      { credentialId: tenant.keyId, statusClass: 2 },
      { limit: 2, cursor },
    );
    assert.ok(page.items.length <= 2);
    seen.push(...page.items.map((d) => d.request_id));
    cursor = page.next;
  } while (cursor);
  assert.deepEqual(seen, [...ids].reverse(), 'every 2xx of the key, newest first, none twice');

  const errors = await listRequestLogs(app.db, tenant.accountId, { statusClass: 4 }, { limit: 10 });
  assert.deepEqual(
    errors.items.map((d) => d.request_id),
    [missing.body.request_id],
  );
  const ofOther = await listRequestLogs(app.db, tenant.accountId, { credentialId: other.keyId }, { limit: 10 });
  assert.deepEqual(
    ofOther.items.map((d) => d.request_id),
    [otherId],
  );
  const third = (await stored(ids[2]!))!;
  const since = await listRequestLogs(app.db, tenant.accountId, { credentialId: tenant.keyId, since: third.time }, { limit: 10, order: 'asc' });
  assert.ok(since.items.every((d) => d.time >= third.time));
  assert.ok(since.items.some((d) => d.request_id === ids[2]));
  // Another account sees none of them.
  const stranger = await seedTenant(app.db);
  assert.deepEqual((await listRequestLogs(app.db, stranger.accountId, { credentialId: tenant.keyId }, { limit: 10 })).items, []);
  await assert.rejects(listRequestLogs(app.db, tenant.accountId, {}, { limit: 1, cursor: 'bm90IGEgY3Vyc29y' }), RangeError);

  let csv = '';
  for await (const chunk of requestLogCsv(app.db, tenant.accountId, { credentialId: tenant.keyId }, 2)) csv += chunk;
  const lines = csv.trimEnd().split('\n');
  assert.equal(lines[0], 'time,request_id,method,route,status,duration_ms,credential_id,env');
  assert.deepEqual(
    lines.slice(1).map((l) => l.split(',')[1]),
    [...ids, missing.body.request_id],
  );
});
