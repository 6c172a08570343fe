/**
 * Applications and the token exchange (spec 5.6, RFC 6749 §4.4):
 * `POST /api/developer/oauth/token` with JSON, form or HTTP Basic client
 * credentials; the token as a bearer credential on the v1 API within its
 * scopes and environment; expiry, revocation, and every error of §5.2.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createApplication, revokeApplication } from '../../domain/developer/applications';
import { RequestLogDoc } from '../../domain/developer/request-logs';
import { exchangeClientCredentials, TOKEN_LIFETIME_MS } from '../../domain/developer/tokens';
import { Environment } from '../../domain/db';
import { oauthDocument } from '../../schemas/openapi/oauth';
import { validatorFor } from '../../schemas/validator';
import { ApiClient } from '../helpers/client';
import { seedTenant, startTestApp, TestApp } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { requestLogsState } from '../helpers/states';

let app: TestApp;

before(async () => {
  app = await startTestApp();
});
after(async () => {
  await app.close();
});

interface Exchange {
  status: number;
  headers: Headers;
  body: any;
}

const responses = (oauthDocument as any).paths['/api/developer/oauth/token'].post.responses;

/** POSTs to the token endpoint and checks the answer against its document (status, shape, no-store). */
async function exchange(
  params: Record<string, unknown> | string | null,
  opts: { form?: boolean; basic?: [string, string]; headers?: Record<string, string>; method?: string; base?: string } = {},
): Promise<Exchange> {
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | undefined;
  if (typeof params === 'string') body = params;
  else if (params && opts.form) {
    body = new URLSearchParams(params as Record<string, string>).toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  } else if (params) {
    body = JSON.stringify(params);
    headers['content-type'] ??= 'application/json';
  }
  if (opts.basic) {
    const [id, secret] = opts.basic.map((s) => encodeURIComponent(s));
    headers.authorization = `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  }
  const res = await fetch(`${opts.base ?? app.origin}/api/developer/oauth/token`, { method: opts.method ?? 'POST', headers, body });
  const reply = { status: res.status, headers: res.headers, body: await res.json() };
  assert.equal(reply.headers.get('cache-control'), 'no-store', 'Cache-Control: no-store');
  const documented = responses[String(reply.status)];
  assert.ok(documented, `status ${reply.status} is documented`);
  const validate = validatorFor(documented.content['application/json'].schema);
  assert.ok(validate(reply.body), `${reply.status} ${JSON.stringify(reply.body)}: ${JSON.stringify(validate.errors)}`);
  return reply;
}

async function application(scopes: string[] = ['account:read', 'offers:read', 'segments:read', 'segments:write'], env: Environment = 'live') {
  const tenant = await seedTenant(app.db);
  const made = await createApplication(app.db, { accountId: tenant.accountId, env }, { name: 'Integração', scopes });
  return { tenant, clientId: made.application.client_id, clientSecret: made.clientSecret };
}

function assertError(reply: Exchange, status: number, error: string): void {
  assert.equal(reply.status, status, JSON.stringify(reply.body));
  assert.equal(reply.body.error, error);
  assert.equal(typeof reply.body.error_description, 'string');
}

describe('the exchange', () => {
  test('a JSON body gives a Bearer token for an hour with every scope of the application; it calls the API as the application', async () => {
    const { tenant, clientId, clientSecret } = await application();
    const reply = await exchange({ client_id: clientId, client_secret: clientSecret });
    assert.equal(reply.status, 200);
    assert.deepEqual(
      { ...reply.body, access_token: typeof reply.body.access_token },
      { access_token: 'string', token_type: 'Bearer', expires_in: 3600, scope: 'account:read offers:read segments:read segments:write' },
    );
    const api = new ApiClient(app.baseUrl, reply.body.access_token);
    const me = await api.get('/me');
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.data.account.id, tenant.accountId);
    assert.equal(me.body.data.account.environment, 'live');
    assert.equal(me.body.data.actor.type, 'application');
    assert.equal(me.body.data.actor.application_id, clientId);
    const expires = Date.parse(me.body.data.actor.expires_at) - Date.now();
    assert.ok(expires > TOKEN_LIFETIME_MS - 120_000 && expires <= TOKEN_LIFETIME_MS, `expires in ${expires} ms`);
    assert.ok(!me.text.includes(reply.body.access_token));
    const segment = await api.post('/segments', { name: 'Via token' });
    assert.equal(segment.status, 201, segment.text);
    // The account's own key sees what the token made: same account and environment.
    assert.equal((await new ApiClient(app.baseUrl, tenant.apiKey).get(`/segments/${segment.body.data.id}`)).status, 200);
  });

  test('form-urlencoded body, and HTTP Basic client authentication (with grant_type client_credentials)', async () => {
    const { clientId, clientSecret } = await application();
    const form = await exchange(
      { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, scope: 'offers:read' },
      { form: true },
    );
    assert.equal(form.status, 200, JSON.stringify(form.body));
    assert.equal(form.body.scope, 'offers:read');
    const basic = await exchange({ grant_type: 'client_credentials' }, { form: true, basic: [clientId, clientSecret] });
    assert.equal(basic.status, 200, JSON.stringify(basic.body));
    const basicJson = await exchange({ scope: 'offers:read segments:read' }, { basic: [clientId, clientSecret] });
    assert.equal(basicJson.status, 200, JSON.stringify(basicJson.body));
    const empty = await exchange(null, { basic: [clientId, clientSecret] });
    assert.equal(empty.status, 200, JSON.stringify(empty.body));
    for (const token of [form, basic, basicJson, empty].map((r) => r.body.access_token)) {
      assert.equal((await new ApiClient(app.baseUrl, token).get('/offers')).status, 200);
    }
  });

  test('a token has only the scopes asked for (403 beyond), and acts only on its environment', async () => {
    const { clientId, clientSecret } = await application();
    const reply = await exchange({ client_id: clientId, client_secret: clientSecret, scope: 'offers:read  segments:read' });
    assert.equal(reply.body.scope, 'offers:read segments:read');
    const api = new ApiClient(app.baseUrl, reply.body.access_token);
    assert.equal((await api.get('/segments')).status, 200);
    const refused = await api.post('/segments', { name: 'Not allowed' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'insufficient_scope');

    const sandbox = await application(['segments:read', 'segments:write'], 'test');
    const testToken = (await exchange({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret })).body.access_token;
    const made = await new ApiClient(app.baseUrl, testToken).post('/segments', { name: 'Sandbox only' });
    assert.equal(made.status, 201);
    const live = new ApiClient(app.baseUrl, sandbox.tenant.apiKey);
    assert.equal((await live.get(`/segments/${made.body.data.id}`)).status, 404);
    assert.equal((await live.get('/segments')).body.pagination.total, 0);
  });
});

describe('errors (RFC 6749 §5.2), each with Cache-Control: no-store', () => {
  test('invalid_client (401): wrong secret, unknown client, the secret of another application, no credentials; a Basic challenge when Basic was used', async () => {
    const { clientId, clientSecret } = await application();
    const other = await application();
    const wrong = `${clientSecret.slice(0, -1)}${clientSecret.endsWith('x') ? 'y' : 'x'}`;
    const cases: [string, Exchange][] = [
      ['wrong secret', await exchange({ client_id: clientId, client_secret: wrong })],
      ['unknown client', await exchange({ client_id: 'app_0000000000000000000000zz', client_secret: clientSecret })],
      ['another application', await exchange({ client_id: clientId, client_secret: other.clientSecret })],
      ['no secret', await exchange({ client_id: clientId })],
      ['nothing', await exchange({})],
    ];
    for (const [what, reply] of cases) {
      assertError(reply, 401, 'invalid_client');
      assert.equal(reply.headers.get('www-authenticate'), null, what);
    }
    const basic = await exchange(null, { basic: [clientId, wrong] });
    assertError(basic, 401, 'invalid_client');
    assert.match(basic.headers.get('www-authenticate') ?? '', /^Basic realm="offerops"/);
    assert.ok(!JSON.stringify(cases.map(([, r]) => r.body)).includes(clientSecret));
  });

  test("invalid_scope (400): a scope outside the application's, an unknown one, an empty one", async () => {
    const { clientId, clientSecret } = await application(['offers:read']);
    for (const scope of ['offers:read webhooks:write', 'offers:delete', '', '   ']) {
      assertError(await exchange({ client_id: clientId, client_secret: clientSecret, scope }), 400, 'invalid_scope');
    }
  });

  test('invalid_request (400): a body neither JSON nor form, bad JSON, a non-string field, a parameter twice, two client authentications, another scheme', async () => {
    const { clientId, clientSecret } = await application();
    const creds = { client_id: clientId, client_secret: clientSecret };
    assertError(await exchange(JSON.stringify(creds), { headers: { 'content-type': 'text/plain' } }), 400, 'invalid_request');
    assertError(await exchange('{"client_id":', { headers: { 'content-type': 'application/json' } }), 400, 'invalid_request');
    assertError(await exchange('[1]', { headers: { 'content-type': 'application/json' } }), 400, 'invalid_request');
    assertError(await exchange({ client_id: clientId, client_secret: 42 }), 400, 'invalid_request');
    assertError(
      await exchange(`client_id=${clientId}&client_secret=${clientSecret}&scope=offers:read&scope=segments:read`, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      400,
      'invalid_request',
    );
    assertError(await exchange(creds, { basic: [clientId, clientSecret] }), 400, 'invalid_request');
    assertError(await exchange(creds, { headers: { authorization: `Bearer ${clientSecret}` } }), 400, 'invalid_request');
    assertError(await exchange('x'.repeat(9000), { headers: { 'content-type': 'application/json' } }), 400, 'invalid_request');
  });

  test('unsupported_grant_type (400) when grant_type is given and is not client_credentials; 405 for another method', async () => {
    const { clientId, clientSecret } = await application();
    for (const grant_type of ['password', 'authorization_code', '']) {
      assertError(
        await exchange({ grant_type, client_id: clientId, client_secret: clientSecret }, { form: true }),
        400,
        'unsupported_grant_type',
      );
    }
    const get = await exchange(null, { method: 'GET' });
    assertError(get, 405, 'invalid_request');
    assert.equal(get.headers.get('allow'), 'POST');
  });
});

describe('the token on the API', () => {
  test('revoking the application makes its tokens fail at once (401 revoked_token) and its credentials stop exchanging', async () => {
    const { tenant, clientId, clientSecret } = await application();
    const token = (await exchange({ client_id: clientId, client_secret: clientSecret })).body.access_token;
    const api = new ApiClient(app.baseUrl, token);
    assert.equal((await api.get('/offers')).status, 200);
    assert.equal(await revokeApplication(app.db, { accountId: tenant.accountId, env: 'live' }, clientId), true);
    const refused = await api.get('/offers');
    assert.equal(refused.status, 401);
    assert.equal(refused.body.code, 'revoked_token');
    assert.match(refused.headers.get('www-authenticate') ?? '', /invalid_token/);
    assertError(await exchange({ client_id: clientId, client_secret: clientSecret }), 401, 'invalid_client');
    // Another account cannot revoke it (nor see it): false, nothing changed.
    const { tenant: stranger, clientId: theirs } = await application();
    assert.equal(await revokeApplication(app.db, { accountId: tenant.accountId, env: 'live' }, theirs), false);
    assert.equal(await revokeApplication(app.db, { accountId: stranger.accountId, env: 'test' }, theirs), false);
  });

  test('an expired token is a 401 expired_token; a token-shaped bearer that is none of ours is a 401 invalid_api_key', async () => {
    const { clientId, clientSecret } = await application();
    const issued = await exchangeClientCredentials(app.db, { clientId, clientSecret }, new Date(Date.now() - TOKEN_LIFETIME_MS - 1_000));
    assert.ok(issued.ok);
    if (!issued.ok) return;
    const expired = await new ApiClient(app.baseUrl, issued.token.access_token).get('/me');
    assert.equal(expired.status, 401);
    assert.equal(expired.body.code, 'expired_token');
    const forged = await new ApiClient(app.baseUrl, `oo_at_${'A'.repeat(40)}`).get('/me');
    assert.equal(forged.status, 401);
    assert.equal(forged.body.code, 'invalid_api_key');
  });

  test("a token's requests are logged under its application, without the token", async () => {
    const { clientId, clientSecret } = await application();
    const token = (await exchange({ client_id: clientId, client_secret: clientSecret })).body.access_token;
    const res = await new ApiClient(app.baseUrl, token).get('/offers');
    const entry = await waitFor(
      'the request log',
      async () => (await app.db.collection<RequestLogDoc>('request_logs').findOne({ request_id: res.body.request_id })) ?? undefined,
      30_000,
      () => requestLogsState(app.db, [res.body.request_id]),
    );
    assert.equal(entry.credential_id, clientId);
    assert.equal(entry.route, '/offers');
    const text = JSON.stringify(await app.db.collection('request_logs').find({ credential_id: clientId }).toArray());
    assert.ok(!text.includes(token) && !text.includes(clientSecret));
  });

  test('the rate limit is per credential: the tokens of one application share a window; a key of the account has its own', async () => {
    const limited = await startTestApp({ dbName: app.dbName, rateLimit: { limit: 3, windowMs: 60_000 } });
    try {
      const { tenant, clientId, clientSecret } = await application();
      const tokens = [
        (await exchange({ client_id: clientId, client_secret: clientSecret }, { base: limited.origin })).body.access_token,
        (await exchange({ client_id: clientId, client_secret: clientSecret }, { base: limited.origin })).body.access_token,
      ];
      const statuses = [];
      for (const token of [tokens[0], tokens[1], tokens[0], tokens[1]])
        statuses.push((await new ApiClient(limited.baseUrl, token).get('/offers')).status);
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      assert.equal((await new ApiClient(limited.baseUrl, tenant.apiKey).get('/offers')).status, 200);
    } finally {
      await limited.close();
    }
  });

  test('the exchange is documented at /api/developer/openapi.json; the v1 document names it and stays at its 73 operations', async () => {
    const doc = (await fetch(`${app.origin}/api/developer/openapi.json`).then((r) => r.json())) as any;
    assert.deepEqual(Object.keys(doc.paths), ['/api/developer/oauth/token']);
    assert.deepEqual(doc, JSON.parse(JSON.stringify(oauthDocument)));
    const v1 = (await fetch(`${app.baseUrl}/openapi.json`).then((r) => r.json())) as any;
    assert.match(v1.info.description, /\/api\/developer\/openapi\.json/);
    assert.ok(!Object.keys(v1.paths).some((p) => p.startsWith('/api/')));
  });
});
