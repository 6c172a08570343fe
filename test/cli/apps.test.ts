/**
 * `offerops admin app create | list | revoke`, run as the compiled CLI in a
 * child process against the database of the API under test, and the
 * credentials they print exchanged for a token on that API.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ApiClient } from '../helpers/client';
import { cliEnv, ok, runCli, usage } from '../helpers/cli';
import { seedTenant, stackEnv, startTestApp, TestApp } from '../helpers/stack';

let app: TestApp;
let tmp: string;

before(async () => {
  app = await startTestApp();
  tmp = mkdtempSync(join(tmpdir(), 'offerops-apps-'));
});
after(async () => {
  rmSync(tmp, { recursive: true, force: true });
  await app.close();
});

const cli = (...args: string[]) => runCli(args, cliEnv({ MONGODB_URI: stackEnv().mongodbUri, MONGODB_DB: app.dbName }), tmp);

async function token(clientId: string, clientSecret: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${app.origin}/api/developer/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: clientId, client_secret: clientSecret }),
  });
  return { status: res.status, body: await res.json() };
}

test('app create prints the client credentials once; list shows the application without them; revoke stops its tokens', async () => {
  const tenant = await seedTenant(app.db);
  const made = ok(
    await cli(
      'admin',
      'app',
      'create',
      '--account',
      tenant.accountId,
      '--name',
      'Painel externo',
      '--scopes',
      'offers:read,segments:read',
      '--env',
      'test',
    ),
  );
  assert.deepEqual(Object.keys(made).sort(), ['application_id', 'client_id', 'client_secret', 'env', 'scopes']);
  assert.match(made.client_id, /^app_[0-9a-z]{24}$/);
  assert.equal(made.application_id, made.client_id);
  assert.match(made.client_secret, /^oo_cs_[A-Za-z0-9]{40}$/);
  assert.equal(made.env, 'test');
  assert.deepEqual(made.scopes, ['offers:read', 'segments:read']);

  const exchanged = await token(made.client_id, made.client_secret);
  assert.equal(exchanged.status, 200);
  const api = new ApiClient(app.baseUrl, exchanged.body.access_token);
  assert.equal((await api.get('/offers')).status, 200);

  const listed = ok(await cli('admin', 'app', 'list', '--account', tenant.accountId));
  assert.equal(listed.applications.length, 1);
  const [entry] = listed.applications;
  assert.deepEqual(
    { ...entry, created_at: typeof entry.created_at },
    {
      id: made.client_id,
      client_id: made.client_id,
      name: 'Painel externo',
      env: 'test',
      scopes: ['offers:read', 'segments:read'],
      state: 'active',
      created_at: 'string',
      revoked_at: null,
    },
  );
  assert.ok(!JSON.stringify(listed).includes(made.client_secret));
  assert.deepEqual(ok(await cli('admin', 'app', 'list', '--account', tenant.accountId, '--env', 'live')).applications, []);
  // The secret is stored only as a hash.
  assert.ok(!JSON.stringify(await app.db.collection('applications').find({}).toArray()).includes(made.client_secret));

  assert.deepEqual(ok(await cli('admin', 'app', 'revoke', '--app', made.client_id)), { revoked: true });
  assert.deepEqual(ok(await cli('admin', 'app', 'revoke', '--app', made.client_id)), { revoked: true });
  const refused = await api.get('/offers');
  assert.equal(refused.status, 401);
  assert.equal(refused.body.code, 'revoked_token');
  assert.equal((await token(made.client_id, made.client_secret)).status, 401);
  const after = ok(await cli('admin', 'app', 'list', '--account', tenant.accountId)).applications[0];
  assert.equal(after.state, 'revoked');
  assert.ok(after.revoked_at);
  // Creation and revocation are events in the application's outbox (the worker's sweep relays them).
  const doc = await app.db.collection('applications').findOne({ _id: made.client_id });
  assert.deepEqual(
    (doc?._outbox ?? []).map((e: any) => e.kind),
    ['application.created', 'application.revoked'],
  );
  assert.ok(!JSON.stringify(doc?._outbox).includes(made.client_secret));
});

test('bad input is a usage error and makes nothing', async () => {
  const tenant = await seedTenant(app.db);
  const base = ['admin', 'app', 'create', '--account', tenant.accountId, '--name', 'X'];
  assert.match(usage(await cli(...base, '--scopes', 'offers:read')), /--env/);
  assert.match(usage(await cli(...base, '--env', 'live')), /--scopes/);
  assert.match(usage(await cli(...base, '--scopes', 'offers:read,offers:destroy', '--env', 'live')), /offers:destroy/);
  assert.match(usage(await cli(...base, '--scopes', 'offers:read', '--env', 'staging')), /--env/);
  assert.match(
    usage(await cli('admin', 'app', 'create', '--account', 'acc_nosuchaccount000000000', '--name', 'X', '--scopes', 'all', '--env', 'live')),
    /no account/,
  );
  assert.match(usage(await cli('admin', 'app', 'list')), /--account/);
  assert.match(usage(await cli('admin', 'app', 'revoke', '--app', 'app_nosuchapp00000000000000')), /no application/);
  assert.equal(await app.db.collection('applications').countDocuments({ account_id: tenant.accountId }), 0);
});
