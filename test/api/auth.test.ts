/**
 * Spec 2.1, 5, 7: authentication (401), plan (402), scope (403) on every
 * operation of the table, the public endpoints, request ids, unknown routes
 * and methods, and secrets that never leave.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { revokeApiKey } from '../../domain/accounts/store';
import { SCOPES } from '../../schemas/openapi/common';
import { Operation, operations } from '../../schemas/operations';
import { ApiClient, Reply } from '../helpers/client';
import { addKey, seedTenant, startTestApp, TestApp } from '../helpers/stack';

let app: TestApp;
let api: ApiClient;

before(async () => {
  app = await startTestApp();
  api = new ApiClient(app.baseUrl, (await seedTenant(app.db)).apiKey);
});
after(() => app.close());

function assertUnauthorized(res: Reply, code: string, secret?: string): void {
  assert.equal(res.status, 401, res.text);
  assert.equal(res.body.code, code, res.text);
  assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer\b/, 'WWW-Authenticate header');
  if (secret) {
    assert.ok(!res.text.includes(secret), '401 body must not echo the key');
    for (const [name, value] of res.headers) assert.ok(!value.includes(secret), `header ${name} must not echo the key`);
  }
}

describe('401: missing, malformed, unknown, expired and revoked keys', () => {
  test('no Authorization header → missing_api_key', async () => {
    assertUnauthorized(await api.get('/me', { anonymous: true }), 'missing_api_key');
    assertUnauthorized(await api.get('/offers', { anonymous: true }), 'missing_api_key');
  });

  test('malformed headers → missing_api_key', async () => {
    const tenant = await seedTenant(app.db);
    const basic = `Basic ${Buffer.from(`user:${tenant.apiKey}`).toString('base64')}`;
    for (const authorization of [
      basic,
      `Basic ${tenant.apiKey}`,
      'Bearer',
      'Bearer ',
      `Token ${tenant.apiKey}`,
      tenant.apiKey,
      `Bearer ${tenant.apiKey} extra`,
    ]) {
      const res = await api.get('/me', { headers: { authorization } });
      assertUnauthorized(res, 'missing_api_key', tenant.apiKey);
    }
  });

  test('a well-formed but unknown key → invalid_api_key', async () => {
    const tenant = await seedTenant(app.db);
    // Same shape as a real key, one character changed.
    const last = tenant.apiKey.at(-1) === 'a' ? 'b' : 'a';
    const unknown = tenant.apiKey.slice(0, -1) + last;
    assertUnauthorized(await api.withKey(unknown).get('/me'), 'invalid_api_key', unknown);
    for (const bad of ['oo_live_short', `oo_prod_${'a'.repeat(40)}`, 'not-a-key']) {
      assertUnauthorized(await api.withKey(bad).get('/me'), 'invalid_api_key', bad);
    }
    // The real key still works.
    assert.equal((await api.withKey(tenant.apiKey).get('/me')).status, 200);
  });

  test('an expired live key → expired_api_key', async () => {
    const tenant = await seedTenant(app.db);
    const key = await addKey(app.db, tenant, { expiresInMs: 3_600_000 });
    // Moved back before its first use: a key in use is trusted from this process's cache for KEY_CACHE_MS.
    await app.db.collection('api_keys').updateOne({ _id: key.keyId } as any, { $set: { expires_at: new Date(Date.now() - 1000) } });
    assertUnauthorized(await api.withKey(key.apiKey).get('/me'), 'expired_api_key', key.apiKey);
    assertUnauthorized(
      await api.withKey(key.apiKey).post('/offers', { url: 'https://shop.example/expired', title: 'Expired' }),
      'expired_api_key',
      key.apiKey,
    );
    assert.equal(await app.db.collection('offers').countDocuments({ url: 'https://shop.example/expired' }), 0);
    // The account's other key is unaffected.
    assert.equal((await api.withKey(tenant.apiKey).get('/me')).status, 200);
  });

  test('an expired test key (1h, moved back) → expired_api_key', async () => {
    const tenant = await seedTenant(app.db);
    const key = await addKey(app.db, tenant, { env: 'test', expiresInMs: 3_600_000 });
    // Moved back before its first use: a key in use is trusted from this process's cache for KEY_CACHE_MS.
    await app.db.collection('api_keys').updateOne({ _id: key.keyId } as any, { $set: { expires_at: new Date(Date.now() - 60_000) } });
    assertUnauthorized(await api.withKey(key.apiKey).get('/me'), 'expired_api_key', key.apiKey);
  });

  test('a revoked key → revoked_api_key', async () => {
    const tenant = await seedTenant(app.db);
    const key = await addKey(app.db, tenant);
    assert.equal((await api.withKey(key.apiKey).get('/me')).status, 200);
    assert.equal(await revokeApiKey(app.db, key.keyId), true);
    assertUnauthorized(await api.withKey(key.apiKey).get('/me'), 'revoked_api_key', key.apiKey);
    assertUnauthorized(await api.withKey(key.apiKey).delete('/offers/off_0000000000000000000000'), 'revoked_api_key', key.apiKey);
    assert.equal((await api.withKey(tenant.apiKey).get('/me')).status, 200);
  });

  test('401 comes before validation and routing to the handler', async () => {
    // An invalid body without a key is still a 401, not a 400.
    assertUnauthorized(await api.post('/offers', { colour: 'red' }, { anonymous: true }), 'missing_api_key');
    assertUnauthorized(await api.get('/offers?limit=0', { anonymous: true }), 'missing_api_key');
  });
});

test('402 plan_required for an account on the free plan, on every kind of operation', async () => {
  const free = await seedTenant(app.db, { plan: 'free' });
  const client = api.withKey(free.apiKey);
  for (const [method, path, body] of [
    ['GET', '/me', undefined],
    ['GET', '/offers', undefined],
    ['POST', '/offers', { url: 'https://shop.example/free-plan', title: 'Free plan' }],
    ['GET', '/segments', undefined],
  ] as const) {
    const res = await client.call(method, path, body ? { body } : {});
    assert.equal(res.status, 402, `${method} ${path}: ${res.text}`);
    assert.equal(res.body.code, 'plan_required');
  }
  assert.equal(await app.db.collection('offers').countDocuments({ url: 'https://shop.example/free-plan' }), 0);
});

/** A request for `op` built from its path template: `{id}` → a plausible id, `{}` as the body of POST/PATCH. */
function requestFor(op: Operation): { method: string; path: string; body: unknown } {
  return {
    method: op.method.toUpperCase(),
    path: op.path.replace(/\{\w+\}/g, 'x_1'),
    body: op.method === 'post' || op.method === 'patch' ? {} : undefined,
  };
}

describe('403 insufficient_scope on every operation of the table', () => {
  let accountId: string;
  before(async () => {
    accountId = (await seedTenant(app.db)).accountId;
  });

  test('the table is not empty and every scope is a known one', () => {
    assert.ok(operations.length > 0);
    for (const op of operations) assert.ok((SCOPES as readonly string[]).includes(op.scope), `${op.operationId}: ${op.scope}`);
  });

  for (const op of operations) {
    test(`${op.operationId} (${op.method.toUpperCase()} ${op.path}) needs ${op.scope}`, async () => {
      const { method, path, body } = requestFor(op);
      const allButScope = SCOPES.filter((s) => s !== op.scope);
      const lacking = await addKey(app.db, { accountId }, { scopes: allButScope });
      const refused = await api.withKey(lacking.apiKey).call(method, path, body === undefined ? {} : { body });
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body.code, 'insufficient_scope');
      assert.ok(refused.body.message.includes(op.scope), `the message names ${op.scope}: ${refused.body.message}`);

      const only = await addKey(app.db, { accountId }, { scopes: [op.scope] });
      const allowed = await api.withKey(only.apiKey).call(method, path, body === undefined ? {} : { body });
      assert.ok([200, 201, 400, 404, 409, 501].includes(allowed.status), `with only ${op.scope}: ${allowed.status} ${allowed.text}`);
    });
  }
});

describe('public endpoints', () => {
  test('GET /api/v1/openapi.json needs no key', async () => {
    const res = await fetch(`${app.baseUrl}/openapi.json`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    assert.match(res.headers.get('x-request-id') ?? '', /^req_[0-9a-z]+$/);
    const doc: any = await res.json();
    assert.equal(doc.openapi, '3.1.2');
    assert.equal(doc.info.version, '1.1.0');
    assert.match(doc.servers[0].url, /\/api\/v1$/);
    // Every operation of the table is in the served document.
    for (const op of operations) assert.equal(doc.paths[op.path]?.[op.method]?.operationId, op.operationId, op.operationId);
  });

  test('GET /healthz answers ok with both dependencies up', async () => {
    const res = await fetch(`${app.origin}/healthz`);
    assert.equal(res.status, 200);
    const body: any = await res.json();
    assert.equal(body.status, 'ok');
    assert.equal(body.mongodb, true);
    assert.equal(body.temporal, true);
    assert.equal(body.request_id, res.headers.get('x-request-id'));
  });
});

describe('request ids, unknown routes and methods', () => {
  test('X-Request-Id matches the body request_id on a success and on an error, and differs per request', async () => {
    const ok = await api.get('/me');
    assert.equal(ok.status, 200);
    assert.match(ok.body.request_id, /^req_[0-9a-z]+$/);
    assert.equal(ok.headers.get('x-request-id'), ok.body.request_id);
    const err = await api.get('/offers/off_0000000000000000000000');
    assert.equal(err.status, 404);
    assert.match(err.body.request_id, /^req_[0-9a-z]+$/);
    assert.equal(err.headers.get('x-request-id'), err.body.request_id);
    const anon = await api.get('/me', { anonymous: true });
    assert.equal(anon.headers.get('x-request-id'), anon.body.request_id);
    assert.equal(new Set([ok.body.request_id, err.body.request_id, anon.body.request_id]).size, 3);
  });

  test('an unknown route is 404 route_not_found, with or without a key', async () => {
    for (const path of ['/nothing-here', '/offers/x_1/unknown', '/v2/offers']) {
      for (const anonymous of [false, true]) {
        const res = await api.get(path, { anonymous });
        assert.equal(res.status, 404, `${path}: ${res.text}`);
        assert.equal(res.body.code, 'route_not_found');
        assert.equal(res.headers.get('x-request-id'), res.body.request_id);
      }
    }
    const outside = await fetch(`${app.origin}/not-the-api`);
    assert.equal(outside.status, 404);
    assert.equal(((await outside.json()) as any).code, 'route_not_found');
  });

  test('a known path with the wrong method is 405 method_not_allowed with Allow', async () => {
    const cases: [string, string, string[]][] = [
      ['PUT', '/offers', ['GET', 'POST']],
      ['DELETE', '/offers', ['GET', 'POST']],
      ['PUT', '/offers/x_1', ['DELETE', 'GET', 'PATCH']],
      ['GET', '/offers/x_1/preview', ['POST']],
      ['POST', '/me', ['GET']],
      ['POST', '/openapi.json', ['GET']],
    ];
    for (const [method, path, allowed] of cases) {
      const res = await api.call(method, path);
      assert.equal(res.status, 405, `${method} ${path}: ${res.text}`);
      assert.equal(res.body.code, 'method_not_allowed');
      const allow = (res.headers.get('allow') ?? '')
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean)
        .sort();
      assert.deepEqual(allow, allowed, `${method} ${path}`);
    }
  });

  test('405 Allow lists exactly the methods the table declares for a path', async () => {
    const byPath = new Map<string, Set<string>>();
    for (const op of operations) {
      const path = op.path.replace(/\{\w+\}/g, 'x_1');
      if (!byPath.has(path)) byPath.set(path, new Set());
      byPath.get(path)!.add(op.method.toUpperCase());
    }
    for (const [path, methods] of byPath) {
      const missing = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT'].find((m) => !methods.has(m))!;
      const res = await api.call(missing, path);
      assert.equal(res.status, 405, `${missing} ${path}: ${res.text}`);
      const allow = (res.headers.get('allow') ?? '')
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean)
        .sort();
      assert.deepEqual(allow, [...methods].sort(), path);
    }
  });
});

describe('secrets never leave', () => {
  test('GET /me describes the key (id, prefix, scopes, environment, expiry) without the secret', async () => {
    const tenant = await seedTenant(app.db, { scopes: ['account:read', 'offers:read'] });
    const res = await api.withKey(tenant.apiKey).get('/me');
    assert.equal(res.status, 200);
    assert.ok(!res.text.includes(tenant.apiKey), 'the body contains the key');
    assert.ok(!res.text.includes(tenant.apiKey.slice(12)), 'the body contains the secret part of the key');
    const { account, actor } = res.body.data;
    assert.equal(account.id, tenant.accountId);
    assert.equal(account.plan, 'pro');
    assert.equal(account.environment, 'live');
    assert.equal(actor.key_id, tenant.keyId);
    assert.ok(tenant.apiKey.startsWith(actor.prefix), 'prefix is the start of the key');
    assert.ok(actor.prefix.length < tenant.apiKey.length / 2, `prefix ${actor.prefix} is short`);
    assert.deepEqual([...actor.scopes].sort(), ['account:read', 'offers:read']);
    assert.equal(actor.environment, 'live');
    assert.equal(actor.expires_at, null);
  });

  test('GET /me of an expiring test key gives its expiry', async () => {
    const tenant = await seedTenant(app.db);
    const key = await addKey(app.db, tenant, { env: 'test', expiresInMs: 86_400_000 });
    const res = await api.withKey(key.apiKey).get('/me');
    assert.equal(res.status, 200);
    assert.ok(!res.text.includes(key.apiKey));
    const stored: any = await app.db.collection('api_keys').findOne({ _id: key.keyId } as any);
    assert.equal(res.body.data.actor.expires_at, stored.expires_at.toISOString());
    assert.equal(res.body.data.actor.environment, 'test');
  });

  test('only a hash of the key is stored', async () => {
    const tenant = await seedTenant(app.db);
    const stored = await app.db.collection('api_keys').findOne({ _id: tenant.keyId } as any);
    assert.ok(stored);
    assert.ok(!JSON.stringify(stored).includes(tenant.apiKey.slice(12)), 'the stored key document contains the secret');
  });
});
