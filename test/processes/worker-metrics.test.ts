/**
 * What the workflows count, as the worker's Prometheus exporter serves it
 * (docs/operations/observability.md): a worker process (`offerops worker`) on
 * a task queue of its own, joined to the stack through the data directory's
 * stack.json (its webhooks reach the receiver only with the allow-list and
 * certificate trust the stack's own worker has), scraped before and after
 * sends that go, wait for their slot, fail and are tried again, and webhook
 * attempts that fail and then succeed.
 */
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { createChannel } from '../../domain/channels/store';
import { createGroup } from '../../domain/groups/store';
import { secretKeyFromEnv } from '../../domain/sealing';
import { freePorts } from '../../tools/stack/processes';
import { ApiClient } from '../helpers/client';
import { FakeGateway, startFakeGateway } from '../helpers/fake-gateway';
import { HttpsReceiver, startHttpsReceiver } from '../helpers/https-receiver';
import { parsePrometheus, Sample, total } from '../helpers/prometheus';
import type { StackInfo } from '../../tools/cli/stack-config';
import { seedTenant, stackEnv, startTestApp, terminateRunning, TestApp } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { publicationState, receivedState } from '../helpers/states';

const CLI = resolve(__dirname, '../../tools/cli/offerops.js');
const TOKEN = 'metrics-token';
const taskQueue = `test-metrics-${randomBytes(4).toString('hex')}`;
const dir = mkdtempSync(join(tmpdir(), 'offerops-metrics-'));

let app: TestApp;
let gateway: FakeGateway;
let receiver: HttpsReceiver;
let worker: ChildProcess;
let metrics: string;

before(async () => {
  app = await startTestApp({ taskQueue, webhookAllow: ['127.0.0.1'] });
  gateway = await startFakeGateway({ token: TOKEN });
  receiver = await startHttpsReceiver();
  const ca = join(dir, 'receiver.pem');
  writeFileSync(ca, receiver.ca);
  const [port] = (await freePorts(1)) as [number];
  metrics = `http://127.0.0.1:${port}/metrics`;
  // The worker joins the stack as `offerops worker` beside `npm start` does: from the data directory's stack.json, its
  // addresses and what the stack's own worker was given (the allow-list, the receiver's certificate), nothing by env.
  const stack = stackEnv();
  const joined: StackInfo = {
    mongodb_uri: stack.mongodbUri,
    mongodb_db: app.db.databaseName,
    temporal_address: stack.temporalAddress,
    temporal_namespace: stack.temporalNamespace,
    webhook_allow: '127.0.0.1',
    ca_file: ca,
  };
  writeFileSync(join(dir, 'stack.json'), JSON.stringify(joined));
  const {
    MONGODB_URI: _uri,
    MONGODB_DB: _db,
    TEMPORAL_ADDRESS: _address,
    TEMPORAL_NAMESPACE: _namespace,
    OFFEROPS_WEBHOOK_ALLOW: _allow,
    NODE_EXTRA_CA_CERTS: _ca,
    ...env
  } = process.env;
  worker = spawn(process.execPath, [CLI, 'worker'], {
    env: {
      ...env,
      OFFEROPS_DATA_DIR: dir,
      OFFEROPS_TASK_QUEUE: taskQueue,
      OFFEROPS_WORKER_METRICS_ADDRESS: `127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let refused = '';
  await waitFor(
    'the worker to serve its metrics',
    () =>
      scrape().catch((err: Error) => {
        refused = err.message;
        return undefined;
      }),
    60_000,
    () =>
      `the last scrape: ${refused}; the worker ${worker.exitCode === null && worker.signalCode === null ? 'runs' : `exited (${worker.exitCode ?? worker.signalCode})`}`,
  );
});

after(async () => {
  if (worker.exitCode === null && worker.signalCode === null) {
    worker.kill('SIGTERM');
    await once(worker, 'exit');
  }
  // The worker's sweeps would go on running on a queue nobody polls any more.
  await terminateRunning(app, taskQueue);
  await app.close();
  await gateway.close();
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

async function scrape(): Promise<Sample[]> {
  const res = await fetch(metrics);
  if (res.status !== 200) throw new Error(`metrics answered ${res.status}`);
  return parsePrometheus(await res.text());
}

test('sends by outcome, pacing waits and webhook attempts by outcome move with the work the workflows did', async () => {
  const before = await scrape();
  const tenant = await seedTenant(app.db);
  const api = new ApiClient(app.baseUrl, tenant.apiKey);
  const channel = await createChannel(app.db, tenant, { type: 'http', url: gateway.url, token: TOKEN, minIntervalMs: 0 }, secretKeyFromEnv());
  const group = async (name: string, minIntervalMs: number) => {
    const address = `5511${700000000 + Math.floor(Math.random() * 1e6)}@g.us`;
    const created = await createGroup(app.db, tenant, { name, channel: { id: channel._id, type: 'http', address }, minIntervalMs });
    return { id: created._id, address };
  };
  const paced = await group('Paced', 3000);
  const flaky = await group('Flaky', 0);
  const refused = await group('Refused', 0);
  gateway.failTo(refused.address, 400);
  const offer = (await api.post('/offers', { url: 'https://shop.example/metrics/1', title: 'Counted offer' })).body.data;
  const publish = async (groupId: string) => {
    const res = await api.post(`/offers/${offer.id}/publish`, { group_id: groupId });
    assert.equal(res.status, 200, res.text);
    const id = res.body.data.publications[0].id;
    return waitFor(
      `publication ${id} to finish`,
      async () => {
        const p = (await api.get(`/publications/${id}`)).body.data;
        return p.completed_at && p.status !== 'sending' ? p.status : undefined;
      },
      60_000,
      () => publicationState(api, id, app.temporal.client),
    );
  };
  // Two publications to the paced group: the second waits for its slot, 3 s after the first.
  assert.equal(await publish(paced.id), 'sent');
  assert.equal(await publish(paced.id), 'sent');
  // The gateway answers the next request 503: the send is tried again, and goes.
  gateway.failNext(1, 503);
  assert.equal(await publish(flaky.id), 'sent');
  assert.equal(await publish(refused.id), 'failed');
  // A webhook answered 500 once: its first attempt fails, the next (5 s later) succeeds.
  receiver.scripts.set('/counted', [500]);
  assert.equal((await api.post('/webhooks', { url: `${receiver.url}/counted`, events: ['offer.created'] })).status, 201);
  await api.post('/offers', { url: 'https://shop.example/metrics/2', title: 'Hooked offer' });
  await waitFor(
    'the webhook to succeed on its second attempt',
    async () => (receiver.on('/counted').length >= 2 ? true : undefined),
    60_000,
    () =>
      receivedState(
        'the receiver',
        receiver.on('/counted').map((r) => r.headers['webhook-id']),
      ),
  );

  const moved = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
    total(samples, name, labels) - total(before, name, labels);
  const expected = (samples: Sample[]) => ({
    sent: moved(samples, 'offerops_sends_total', { outcome: 'sent' }) >= 3,
    retried: moved(samples, 'offerops_sends_total', { outcome: 'retried' }) >= 1,
    failed: moved(samples, 'offerops_sends_total', { outcome: 'failed' }) >= 1,
    waits: moved(samples, 'offerops_pacing_wait_seconds_count') >= 1,
    // The wait is what is left of the 3 s interval once the second publish arrives: less than a second when the
    // first publication took over 2 s to finish on a loaded machine; more than nothing, still.
    waited: moved(samples, 'offerops_pacing_wait_seconds_sum') > 0,
    webhookFailed: moved(samples, 'offerops_webhook_attempts_total', { outcome: 'failed' }) >= 1,
    webhookSucceeded: moved(samples, 'offerops_webhook_attempts_total', { outcome: 'succeeded' }) >= 1,
  });
  let last: Sample[] = [];
  await waitFor(
    'the counts to reach the scrape',
    async () => {
      last = await scrape();
      return Object.values(expected(last)).every(Boolean) ? true : undefined;
    },
    undefined,
    () => {
      const ours = last.filter((s) => s.name.startsWith('offerops_')).map((s) => `${s.name}${JSON.stringify(s.labels)} ${s.value}`);
      return `${JSON.stringify(expected(last))}\n${ours.join('\n')}`;
    },
  );
  // Each sample names the task queue and the workflow type that counted it.
  const sends = last.filter((s) => s.name === 'offerops_sends_total');
  for (const s of sends) assert.deepEqual([s.labels.taskQueue, s.labels.workflowType], [taskQueue, 'publication'], JSON.stringify(s.labels));
});
