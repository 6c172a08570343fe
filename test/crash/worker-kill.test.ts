/**
 * Durability: a publication to many groups, the worker process killed with
 * SIGKILL in the middle of the fan-out and started again. Every group ends
 * with exactly one message and the publication ends `sent`: paced sends
 * (each written by its activity), and unpaced ones (recorded by the workflow in batches).
 */
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { secretKeyFromEnv } from '../../domain/sealing';
import { localDayHour, readBuckets } from '../../domain/analytics/buckets';
import { createChannel } from '../../domain/channels/store';
import { createGroup } from '../../domain/groups/store';
import { ApiClient } from '../helpers/client';
import { FakeGateway, startFakeGateway } from '../helpers/fake-gateway';
import { seedTenant, stackEnv, startTestApp, TestApp } from '../helpers/stack';
import { waitFor } from '../helpers/worker';

const GROUPS = 12;
const TOKEN = 'crash-gateway-token';
const taskQueue = `test-crash-${randomBytes(4).toString('hex')}`;
let app: TestApp;
let gateway: FakeGateway;

before(async () => {
  // The test polls the API until the restarted worker finishes: no rate limit should cut that short.
  app = await startTestApp({ taskQueue, rateLimit: { limit: 100_000, windowMs: 60_000 } });
  gateway = await startFakeGateway({ token: TOKEN });
});
after(async () => {
  await gateway.close();
  await app.close();
});

function startWorker(): ChildProcess {
  const env = stackEnv();
  return spawn(process.execPath, [resolve(__dirname, '../../worker/main.js')], {
    env: {
      ...process.env,
      MONGODB_URI: env.mongodbUri,
      MONGODB_DB: app.dbName,
      TEMPORAL_ADDRESS: env.temporalAddress,
      TEMPORAL_NAMESPACE: env.temporalNamespace,
      OFFEROPS_TASK_QUEUE: taskQueue,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Waits until `probe` holds (a worker restarting and resuming the fan-out takes a while on a busy machine). */
const until = (what: string, probe: () => Promise<boolean> | boolean): Promise<true> =>
  waitFor(what, async () => ((await probe()) ? true : undefined), 90_000);

/** A tenant with an http channel (`minIntervalMs` between its sends), a segment of GROUPS groups on it and an offer to publish to them. */
async function fanOut(name: string, prefix: string, minIntervalMs: number) {
  const tenant = await seedTenant(app.db);
  const api = new ApiClient(app.baseUrl, tenant.apiKey);
  const channel = await createChannel(app.db, tenant, { type: 'http', url: gateway.url, token: TOKEN, minIntervalMs }, secretKeyFromEnv());
  const segment = (await api.post('/segments', { name: `${name} segment` })).body.data;
  const addresses: string[] = [];
  for (let i = 0; i < GROUPS; i++) {
    const address = `${prefix}${String(i).padStart(4, '0')}@g.us`;
    addresses.push(address);
    await createGroup(app.db, tenant, {
      name: `${name} ${i}`,
      segment_id: segment.id,
      channel: { id: channel._id, type: 'http', address },
      minIntervalMs: 0,
    });
  }
  const offer = (await api.post('/offers', { url: `https://shop.example/${prefix}`, title: `${name}-proof offer` })).body.data;
  return { tenant, api, segment, addresses, offer };
}

/** Starts a worker again after the kill and waits for the publication to finish; its final record. */
async function finishAfterRestart(api: ApiClient, publicationId: string) {
  const worker = startWorker();
  try {
    await until('the publication to finish', async () => {
      const p = (await api.get(`/publications/${publicationId}`)).body.data;
      return p.completed_at !== null && p.status !== 'sending';
    });
  } finally {
    worker.kill('SIGTERM');
    await once(worker, 'exit');
  }
  return (await api.get(`/publications/${publicationId}`)).body.data;
}

test('SIGKILL of the worker mid-fan-out: every group gets exactly one message, the publication ends sent', async () => {
  // The channel's pacing spreads the fan-out over a few seconds, so the kill lands in the middle of it.
  const { api, segment, addresses, offer } = await fanOut('Crash', '55119', 400);
  gateway.delayMs = 150;

  const worker = startWorker();
  const queued = (await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id })).body.data.publications[0];
  await until('a third of the groups to be reached', () => gateway.messages().length >= GROUPS / 3);
  worker.kill('SIGKILL');
  await once(worker, 'exit');
  const atKill = gateway.messages().length;
  assert.ok(atKill < GROUPS, `killed mid-fan-out (${atKill} of ${GROUPS} delivered)`);

  const done = await finishAfterRestart(api, queued.id);
  assert.equal(done.status, 'sent');
  for (const address of addresses) assert.equal(gateway.messages(address).length, 1, `${address} received exactly one message`);
  // A send cut by the kill may have reached the gateway twice: always under the same idempotency key.
  const keys = new Set(gateway.requests.map((r) => r.idempotency_key));
  assert.equal(keys.size, GROUPS);
});

test('SIGKILL of the worker with unpaced sends under way (recorded in batches): each group one message, each send counted once', async () => {
  const { tenant, api, segment, addresses, offer } = await fanOut('Unpaced crash', '55129', 0);
  // A slow gateway: every send is under way (reached the gateway, not answered) when the worker dies.
  gateway.delayMs = 1500;
  const sentTo = (address: string) => gateway.requests.filter((r) => r.to === address).length;
  const before = addresses.map(sentTo);

  const worker = startWorker();
  const queued = (await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id })).body.data.publications[0];
  await until('every send to reach the gateway', () => addresses.every((a, i) => sentTo(a) > before[i]!));
  worker.kill('SIGKILL');
  await once(worker, 'exit');

  const done = await finishAfterRestart(api, queued.id);
  assert.equal(done.status, 'sent');
  assert.ok(done.deliveries.every((d: { status: string }) => d.status === 'sent'));
  for (const address of addresses) assert.equal(gateway.messages(address).length, 1, `${address} received exactly one message`);
  // The sends recorded by the workflow are counted once each, whatever the kill repeated.
  const day = localDayHour(new Date(queued.queued_at), 'UTC').day;
  const [totals] = await readBuckets(app.db, tenant, 'totals', [day]);
  assert.equal(totals?.c.deliveries_sent, GROUPS);
});
