import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { closeApp, createApp, flushRequestLog } from '../../api/app';
import { secretKeyFromEnv } from '../../domain/sealing';
import { ApiClient } from '../helpers/client';
import { seedTenant, startTestApp, TestApp } from '../helpers/stack';

// The app under test writes its request log into `lines`.
let base: TestApp;
let lines: string[] = [];
let close: () => Promise<void>;
let baseUrl: string;
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
  const handle = app.callback();
  const server = createServer((req, res) => void handle(req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
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

test('access-log lines are written in their batch without being asked, and a clean stop writes the waiting ones', async () => {
  lines = [];
  const tenant = await seedTenant(base.db);
  const res = await new ApiClient(baseUrl, tenant.apiKey).get('/me');
  const ours = () => lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request' && l.request_id === res.body.request_id);
  // The batch timer writes it (wait on that, not on a duration; the test runner's timeout bounds the wait).
  while (ours().length === 0) await new Promise((r) => setTimeout(r, 20));
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
