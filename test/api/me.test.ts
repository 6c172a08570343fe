import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';
import { ApiClient } from '../helpers/client';
import { addKey, seedTenant, startTestApp, TestApp } from '../helpers/stack';
import { SCOPES } from '../../schemas/openapi/common';

let app: TestApp;

before(async () => {
  app = await startTestApp();
});
after(() => app.close());

const DAY = 86_400_000;

/** The secret in any form it could leak: whole, its random part, its stored hash. */
function assertNoSecret(text: string, apiKey: string) {
  const hash = createHash('sha256').update(apiKey).digest('hex');
  for (const s of [apiKey, apiKey.slice(8), hash]) assert.ok(!text.includes(s), `secret material ${s.slice(0, 16)}… in ${text}`);
}

test('GET /me: the account and the live key behind the request', async () => {
  const t = await seedTenant(app.db, { name: 'Loja do Zé', plan: 'business' });
  const res = await new ApiClient(app.baseUrl, t.apiKey).get('/me');
  assert.equal(res.status, 200, res.text);
  const { account, actor } = res.body.data;
  assert.equal(account.id, t.accountId);
  assert.equal(account.name, 'Loja do Zé');
  assert.equal(account.plan, 'business');
  assert.equal(account.api_access, true);
  assert.equal(account.environment, 'live');
  assert.equal(actor.type, 'api_key');
  assert.equal(actor.key_id, t.keyId);
  assert.equal(typeof actor.name, 'string');
  assert.equal(actor.prefix, t.apiKey.slice(0, 12));
  assert.match(actor.prefix, /^oo_live_/);
  assert.deepEqual([...actor.scopes].sort(), [...SCOPES].sort());
  assert.equal(actor.environment, 'live');
  assert.equal(actor.expires_at, null);
  assertNoSecret(res.text, t.apiKey);
});

test('scopes are exactly those granted, no more', async () => {
  const t = await seedTenant(app.db, { scopes: ['account:read', 'offers:read', 'segments:write'] });
  const api = new ApiClient(app.baseUrl, t.apiKey);
  const res = await api.get('/me');
  assert.equal(res.status, 200);
  assert.deepEqual([...res.body.data.actor.scopes].sort(), ['account:read', 'offers:read', 'segments:write']);
  // And they are what the key can actually do.
  assert.equal((await api.get('/offers')).status, 200);
  assert.equal((await api.get('/groups')).status, 403);
  assertNoSecret(res.text, t.apiKey);
});

test('a default test key: test environment, expires about seven days from now', async () => {
  const t = await seedTenant(app.db);
  const key = await addKey(app.db, t, { env: 'test', scopes: ['account:read'] });
  const before = Date.now();
  const res = await new ApiClient(app.baseUrl, key.apiKey).get('/me');
  assert.equal(res.status, 200, res.text);
  const { account, actor } = res.body.data;
  assert.equal(account.id, t.accountId);
  assert.equal(account.environment, 'test');
  assert.equal(actor.key_id, key.keyId);
  assert.equal(actor.environment, 'test');
  assert.equal(actor.prefix, key.apiKey.slice(0, 12));
  assert.match(actor.prefix, /^oo_test_/);
  assert.deepEqual(actor.scopes, ['account:read']);
  assert.match(actor.expires_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  const delta = Date.parse(actor.expires_at) - before;
  assert.ok(Math.abs(delta - 7 * DAY) < 10 * 60_000, `expires_at ${actor.expires_at} is not ~7 days ahead`);
  assertNoSecret(res.text, key.apiKey);
});

test('a live key with an explicit expiry reports it', async () => {
  const t = await seedTenant(app.db);
  const key = await addKey(app.db, t, { expiresInMs: DAY });
  const res = await new ApiClient(app.baseUrl, key.apiKey).get('/me');
  const delta = Date.parse(res.body.data.actor.expires_at) - Date.now();
  assert.ok(Math.abs(delta - DAY) < 10 * 60_000, res.body.data.actor.expires_at);
  assert.equal(res.body.data.actor.environment, 'live');
});

test('/me needs account:read (403), and a free plan gets 402', async () => {
  const t = await seedTenant(app.db, { scopes: ['offers:read'] });
  const denied = await new ApiClient(app.baseUrl, t.apiKey).get('/me');
  assert.equal(denied.status, 403);
  assert.equal(denied.body.code, 'insufficient_scope');
  assertNoSecret(denied.text, t.apiKey);
  const free = await seedTenant(app.db, { plan: 'free' });
  const refused = await new ApiClient(app.baseUrl, free.apiKey).get('/me');
  assert.equal(refused.status, 402);
  assert.equal(refused.body.code, 'plan_required');
});

test('two keys of one account: each sees itself as the actor', async () => {
  const t = await seedTenant(app.db);
  const second = await addKey(app.db, t, { scopes: ['account:read'] });
  const api = new ApiClient(app.baseUrl, t.apiKey);
  const a = (await api.get('/me')).body.data;
  const b = (await api.withKey(second.apiKey).get('/me')).body.data;
  assert.deepEqual(a.account, b.account);
  assert.equal(a.actor.key_id, t.keyId);
  assert.equal(b.actor.key_id, second.keyId);
  assert.notEqual(a.actor.prefix, b.actor.prefix);
});
