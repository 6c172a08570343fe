/**
 * The production shape on one machine: two API processes and two workers
 * (`offerops api`, `offerops worker`, each its own process) on the test
 * stack's Temporal and database. Whichever process a request reaches, the
 * rate limit is one, an Idempotency-Key is one, each event reaches a webhook
 * once, and a publication reaches each group once — with a worker SIGKILLed
 * in the middle of its fan-out.
 */
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { MongoClient } from 'mongodb';
import { setAccountRateLimit } from '../../domain/accounts/store';
import { createChannel } from '../../domain/channels/store';
import { createGroup } from '../../domain/groups/store';
import { secretKeyFromEnv } from '../../domain/sealing';
import { freePorts } from '../../tools/stack/processes';
import { ApiClient } from '../helpers/client';
import { FakeGateway, startFakeGateway } from '../helpers/fake-gateway';
import { HttpsReceiver, startHttpsReceiver } from '../helpers/https-receiver';
import { parsePrometheus, total } from '../helpers/prometheus';
import { seedTenant, stackEnv } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { deliveriesState, publicationState, receivedState } from '../helpers/states';

const CLI = resolve(__dirname, '../../tools/cli/offerops.js');
const GROUPS = 30;
const TOKEN = 'scale-out-token';
const dbName = `t_${randomBytes(6).toString('hex')}`;
const taskQueue = `test-scale-${randomBytes(4).toString('hex')}`;
const dir = mkdtempSync(join(tmpdir(), 'offerops-scale-'));

let mongo: MongoClient;
let gateway: FakeGateway;
let receiver: HttpsReceiver;
let env: NodeJS.ProcessEnv;
const processes: ChildProcess[] = [];
let apis: ApiClient[] = [];
let workerMetrics: string;

function start(what: 'api' | 'worker', port?: number, extra: NodeJS.ProcessEnv = {}): ChildProcess {
  const child = spawn(process.execPath, [CLI, what, ...(port ? ['--port', String(port)] : [])], {
    env: { ...env, ...extra },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  processes.push(child);
  return child;
}

/** The exit of each started process that is gone (their stderr is the test's). */
const exits = () => processes.map((p, i) => `process ${i}: ${p.exitCode ?? p.signalCode ?? 'running'}`).join(', ');

before(async () => {
  const stack = stackEnv();
  mongo = await MongoClient.connect(stack.mongodbUri);
  gateway = await startFakeGateway({ token: TOKEN });
  receiver = await startHttpsReceiver();
  const ca = join(dir, 'receiver.pem');
  writeFileSync(ca, receiver.ca);
  env = {
    ...process.env,
    MONGODB_URI: stack.mongodbUri,
    MONGODB_DB: dbName,
    TEMPORAL_ADDRESS: stack.temporalAddress,
    TEMPORAL_NAMESPACE: stack.temporalNamespace,
    OFFEROPS_TASK_QUEUE: taskQueue,
    OFFEROPS_WEBHOOK_ALLOW: '127.0.0.1',
    NODE_EXTRA_CA_CERTS: ca,
    LOG_LEVEL: 'warn',
  };
  const [apiA, apiB, metricsPort] = (await freePorts(3)) as [number, number, number];
  const ports = [apiA, apiB];
  for (const port of ports) start('api', port);
  start('worker');
  // The second worker serves its Prometheus metrics (the first is the one a test kills).
  workerMetrics = `http://127.0.0.1:${metricsPort}/metrics`;
  start('worker', undefined, { OFFEROPS_WORKER_METRICS_ADDRESS: `127.0.0.1:${metricsPort}` });
  const origins = ports.map((port) => `http://127.0.0.1:${port}`);
  let states: (number | string)[] = [];
  await waitFor(
    'both API processes to be ready',
    async () => {
      states = await Promise.all(
        origins.map((o) =>
          fetch(`${o}/readyz`).then(
            (r) => r.status,
            (err: Error) => err.message,
          ),
        ),
      );
      return states.every((s) => s === 200) ? true : undefined;
    },
    60_000,
    () => `/readyz answered ${states.join(', ')}; ${exits()}`,
  );
  apis = origins.map((origin) => new ApiClient(`${origin}/api/v1`, ''));
});

after(async () => {
  const running = processes.filter((child) => child.exitCode === null && child.signalCode === null);
  for (const child of running) child.kill('SIGTERM');
  await Promise.all(running.map((child) => once(child, 'exit')));
  await mongo.db(dbName).dropDatabase();
  await mongo.close();
  await gateway.close();
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

const db = () => mongo.db(dbName);
/** The same credential on both API processes. */
const both = (apiKey: string) => apis.map((api) => api.withKey(apiKey));

test('the rate limit is one across API processes: together they never serve more than the limit', async () => {
  const tenant = await seedTenant(db());
  await setAccountRateLimit(db(), tenant.accountId, 24);
  const [a, b] = both(tenant.apiKey) as [ApiClient, ApiClient];
  const statuses: number[] = [];
  for (let i = 0; i < 40; i++) statuses.push((await (i % 2 ? b : a).get('/me')).status);
  const served = statuses.filter((s) => s === 200).length;
  assert.ok(served <= 24, `served ${served} of a limit of 24`);
  assert.ok(served >= 12, `served ${served}: the processes share the window, they do not each refuse it`);
  assert.deepEqual(statuses.slice(-4), [429, 429, 429, 429], 'both processes refuse once the window is spent');
});

test('an Idempotency-Key is one across API processes: the other replays the answer, or refuses another body', async () => {
  const tenant = await seedTenant(db());
  const [a, b] = both(tenant.apiKey) as [ApiClient, ApiClient];
  const headers = { 'Idempotency-Key': `scale-${Date.now()}` };
  const first = await a.post('/offers', { url: 'https://shop.example/scale/1', title: 'Scaled offer' }, { headers });
  assert.equal(first.status, 201);
  const replayed = await b.post('/offers', { url: 'https://shop.example/scale/1', title: 'Scaled offer' }, { headers });
  assert.equal(replayed.status, 201);
  assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
  assert.equal(replayed.body.data.id, first.body.data.id);
  const other = await b.post('/offers', { url: 'https://shop.example/scale/2', title: 'Another offer' }, { headers });
  assert.equal(other.status, 409);
  assert.equal(other.body.code, 'idempotency_key_reused');
});

test('each event reaches a webhook once, whichever process wrote it and whichever worker delivers it', async () => {
  const tenant = await seedTenant(db());
  const [a, b] = both(tenant.apiKey) as [ApiClient, ApiClient];
  const hook = await a.post('/webhooks', { url: `${receiver.url}/scale`, events: ['offer.created'] });
  assert.equal(hook.status, 201, hook.text);
  for (let i = 0; i < 10; i++)
    await (i % 2 ? b : a).post('/offers', { url: `https://shop.example/scale/hook/${i}`, title: `Hooked offer ${i}` });
  await waitFor(
    'ten deliveries',
    async () => (receiver.on('/scale').length >= 10 ? true : undefined),
    60_000,
    async () =>
      `${receivedState(
        'the receiver',
        receiver.on('/scale').map((r) => r.headers['webhook-id']),
        10,
      )}\n${await deliveriesState(a, hook.body.data.id, '?limit=100')}`,
  );
  // Each event's delivery workflow has ended: a second send of one would have come before its end.
  const deliveries = () => a.get(`/webhooks/${hook.body.data.id}/deliveries?limit=100`);
  await waitFor(
    'the ten deliveries listed as succeeded',
    async () => {
      const list = (await deliveries()).body.data as { state: string }[] | undefined;
      return list?.length === 10 && list.every((d) => d.state === 'succeeded') ? true : undefined;
    },
    60_000,
    () => deliveriesState(a, hook.body.data.id, '?limit=100'),
  );
  const ids = receiver.on('/scale').map((r) => r.headers['webhook-id']);
  assert.equal(ids.length, 10, 'ten deliveries');
  assert.equal(new Set(ids).size, 10, 'each event once');
});

test('a publication reaches each group once with a worker SIGKILLed mid-fan-out; the other worker finishes it', async () => {
  const tenant = await seedTenant(db());
  await setAccountRateLimit(db(), tenant.accountId, 100_000);
  const [a, b] = both(tenant.apiKey) as [ApiClient, ApiClient];
  const secretKey = secretKeyFromEnv();
  const channel = await createChannel(
    db(),
    { accountId: tenant.accountId, env: 'live' },
    { type: 'http', url: gateway.url, token: TOKEN, minIntervalMs: 200 },
    secretKey,
  );
  const segment = (await a.post('/segments', { name: 'Scaled segment' })).body.data;
  const addresses: string[] = [];
  for (let i = 0; i < GROUPS; i++) {
    const address = `5511${800000000 + i}@g.us`;
    addresses.push(address);
    await createGroup(
      db(),
      { accountId: tenant.accountId, env: 'live' },
      {
        name: `Scaled ${i}`,
        segment_id: segment.id,
        channel: { id: channel._id, type: 'http', address },
        minIntervalMs: 0,
      },
    );
  }
  const offer = (await b.post('/offers', { url: 'https://shop.example/scale/fan-out', title: 'Scaled fan-out' })).body.data;
  const scrape = async () => parsePrometheus(await (await fetch(workerMetrics)).text());
  const before = await scrape();
  const publication = (await a.post(`/offers/${offer.id}/publish`, { segment_id: segment.id })).body.data.publications[0];
  await waitFor(
    'a third of the groups to be reached',
    async () => (gateway.messages().length >= GROUPS / 3 ? true : undefined),
    60_000,
    () => publicationState(b, publication.id).then((p) => `the gateway has ${gateway.messages().length} messages; ${p}`),
  );
  const [victim] = processes.filter((p) => p.spawnargs.includes('worker'));
  victim!.kill('SIGKILL');
  await once(victim!, 'exit');
  const done = await waitFor(
    'the publication to finish on the other worker',
    async () => {
      const p = (await b.get(`/publications/${publication.id}`)).body.data;
      return p.completed_at !== null && p.status !== 'sending' ? p : undefined;
    },
    150_000,
    () => publicationState(b, publication.id),
  );
  assert.equal(done.status, 'sent');
  for (const address of addresses) assert.equal(gateway.messages(address).length, 1, `${address} received exactly one message`);
  // The surviving worker's metrics (the SDK's exporter) parse and move with the work it did; the
  // publication's status is written before its workflow's last task, so the count may follow.
  const moved = async (name: string) => total(await scrape(), name) - total(before, name);
  await waitFor(
    'the worker that serves its metrics to count a completed workflow',
    async () => ((await moved('temporal_workflow_completed_total')) >= 1 ? true : undefined),
    30_000,
    async () => `temporal_workflow_completed_total moved by ${await moved('temporal_workflow_completed_total')}; ${exits()}`,
  );
  assert.ok((await moved('temporal_activity_execution_latency_count')) >= 1, 'activities ran there');
});
