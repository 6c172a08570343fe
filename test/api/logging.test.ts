import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { closeApp, createApp, flushRequestLog, requestListener } from '../../api/app';
import { secretKeyFromEnv } from '../../domain/sealing';
import { ApiClient } from '../helpers/client';
import { seedTenant, startTestApp, TestApp } from '../helpers/stack';
import { waitFor } from '../helpers/wait';

// The app under test writes its request log into `lines`.
let base: TestApp;
let lines: string[] = [];
let close: () => Promise<void>;
let baseUrl: string;
let origin: string;
let app: ReturnType<typeof createApp>;

before(async () => {
  base = await startTestApp();
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  app = createApp({ db: base.db, secretKey: secretKeyFromEnv(), temporal: base.temporal, logger: pino({ level: 'info' }, sink) });
  const server = createServer(requestListener(app));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  baseUrl = `${origin}/api/v1`;
  close = async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await closeApp(app);
  };
});
after(async () => {
  await close();
  await base.close();
});

test('request logs carry ids, route, status and duration, and never the key or the body', async () => {
  lines = [];
  const tenant = await seedTenant(base.db);
  const api = new ApiClient(baseUrl, tenant.apiKey);
  const created = await api.post('/offers', { url: 'https://shop.example/secret-path', title: 'Top secret title' });
  await api.get(`/offers/${created.body.data.id}`);
  // A wrong key: the real one with its last character changed.
  const wrong = `${tenant.apiKey.slice(0, -1)}${tenant.apiKey.endsWith('x') ? 'y' : 'x'}`;
  await api.withKey(wrong).get('/me');
  // Access-log lines are written in batches, off the response path: write this batch now.
  await flushRequestLog(app);
  const text = lines.join('\n');
  assert.ok(!text.includes(tenant.apiKey), 'the key is not logged');
  assert.ok(!text.includes(tenant.apiKey.slice(0, -1)), 'not even a wrong key');
  assert.ok(!text.includes('Top secret title') && !text.includes('secret-path'), 'bodies are not logged');
  const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
  assert.equal(requests.length, 3);
  assert.deepEqual(
    requests.map((r) => [r.method, r.route, r.operation, r.status]),
    [
      ['POST', '/offers', 'offer_create', 201],
      ['GET', '/offers/{id}', 'offer_get', 200],
      ['GET', '/me', 'account_get', 401],
    ],
  );
  assert.equal(requests[0].key_id, tenant.keyId);
  for (const r of requests) {
    assert.match(r.request_id, /^req_/);
    assert.equal(typeof r.duration_ms, 'number');
  }
});

test('a 500 hides its cause from the client and logs it with the request id', async () => {
  lines = [];
  const tenant = await seedTenant(base.db);
  // A corrupt document (a date that is not a date) makes serialisation throw inside the handler.
  await base.db.collection('offers').insertOne({
    _id: 'off_broken00000000000000' as any,
    account_id: tenant.accountId,
    env: 'live',
    url: 'https://shop.example/broken',
    title: 'Broken',
    currency: 'BRL',
    status: 'pending',
    status_history: [],
    created_at: 'not a date',
    updated_at: 'not a date',
    archived_at: null,
  });
  const res = await new ApiClient(baseUrl, tenant.apiKey).get('/offers/off_broken00000000000000');
  assert.equal(res.status, 500);
  assert.equal(res.body.code, 'internal_error');
  assert.ok(!res.text.includes('toISOString'), 'no internals in the response');
  const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'request failed');
  assert.equal(logged?.request_id, res.body.request_id);
  assert.match(JSON.stringify(logged.err), /toISOString/);
});

test('the tracked-link redirect (answered ahead of Koa): its request id, access-log line, 405 and 500 in the error shape', async () => {
  lines = [];
  const logged = () => lines.map((l) => JSON.parse(l));
  const missing = await fetch(`${origin}/l/abcdefghjkmn?p=x`, { redirect: 'manual' });
  assert.equal(missing.status, 404);
  assert.equal(missing.headers.get('cache-control'), 'no-store');
  const missingId = missing.headers.get('x-request-id')!;
  assert.match(missingId, /^req_/);

  const post = await fetch(`${origin}/l/abcdefghjkmn`, { method: 'POST', body: 'x' });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get('allow'), 'GET, HEAD');
  const refused = (await post.json()) as Record<string, string>;
  assert.deepEqual(Object.keys(refused), ['code', 'message', 'request_id']);
  assert.equal(refused.code, 'method_not_allowed');
  assert.equal(refused.request_id, post.headers.get('x-request-id'));

  // A corrupt link (its target not a string) makes the redirect throw after the link is read.
  const tenant = await seedTenant(base.db);
  await base.db.collection('links').insertOne({
    _id: 'lnk_brokenbroken',
    code: 'brokenbroken',
    account_id: tenant.accountId,
    env: 'live',
    marketplace: 'amazon',
    target: 42,
  } as object);
  const broken = await fetch(`${origin}/l/brokenbroken`, { redirect: 'manual' });
  assert.equal(broken.status, 500);
  const failure = (await broken.json()) as Record<string, string>;
  assert.equal(failure.code, 'internal_error');
  assert.equal(failure.request_id, broken.headers.get('x-request-id'));
  assert.ok(!JSON.stringify(failure).includes('replace'), 'no internals in the response');
  assert.equal(logged().find((l) => l.msg === 'request failed')?.request_id, failure.request_id);

  // Other paths under /l/ are Koa's: no such route.
  const nested = await fetch(`${origin}/l/abcdefghjkmn/x`, { redirect: 'manual' });
  assert.equal(nested.status, 404);
  assert.equal(((await nested.json()) as Record<string, string>).code, 'route_not_found');

  await flushRequestLog(app);
  assert.deepEqual(
    logged()
      .filter((l) => l.msg === 'request' && l.route.startsWith('/l/'))
      .map((l) => [l.method, l.route, l.status, l.request_id, typeof l.duration_ms]),
    [
      ['GET', '/l/abcdefghjkmn', 404, missingId, 'number'],
      ['POST', '/l/abcdefghjkmn', 405, refused.request_id, 'number'],
      ['GET', '/l/brokenbroken', 500, failure.request_id, 'number'],
      ['GET', '/l/abcdefghjkmn/x', 404, nested.headers.get('x-request-id'), 'number'],
    ],
  );
});

test('access-log lines are written in their batch without being asked, and a clean stop writes the waiting ones', async () => {
  lines = [];
  const tenant = await seedTenant(base.db);
  const res = await new ApiClient(baseUrl, tenant.apiKey).get('/me');
  const ours = () => lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request' && l.request_id === res.body.request_id);
  // The batch timer writes it (wait on that, not on a duration).
  await waitFor(
    `the access-log line of ${res.body.request_id}`,
    async () => (ours().length ? true : undefined),
    30_000,
    () => `the log has ${lines.length} lines; the last: ${lines.slice(-3).join(' | ')}`,
  );
  assert.equal(ours().length, 1);

  // A second app with its own log: closeApp (the API's stop) writes the line still waiting for its batch.
  const own: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      own.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const second = createApp({ db: base.db, secretKey: secretKeyFromEnv(), temporal: base.temporal, logger: pino({ level: 'info' }, sink) });
  const server = createServer((req, res) => void second.callback()(req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const reply = await new ApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, tenant.apiKey).get('/me');
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await closeApp(second);
  assert.deepEqual(
    own.map((l) => JSON.parse(l)).map((l) => [l.msg, l.request_id]),
    [['request', reply.body.request_id]],
  );
});
