/**
 * Traces and logs of the production processes: an API and a worker
 * (`offerops api`, `offerops worker`) export their spans over OTLP/HTTP in
 * JSON to a collector (a real HTTP server). A publish to one group is one
 * trace, from the HTTP request through the publication workflow and its
 * activity to the gateway's call, and no span carries a key, a token, the
 * group's address or the message. The processes' log lines carry the
 * request id (the API) and the workflow and run ids (an activity's).
 */
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { MongoClient } from 'mongodb';
import { createChannel } from '../../domain/channels/store';
import { createGroup } from '../../domain/groups/store';
import { secretKeyFromEnv } from '../../domain/sealing';
import { freePorts } from '../../tools/stack/processes';
import { ApiClient } from '../helpers/client';
import { FakeGateway, startFakeGateway } from '../helpers/fake-gateway';
import { CollectedSpan, OtlpCollector, startOtlpCollector } from '../helpers/otlp-collector';
import { seedTenant, stackEnv } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { publicationState, receivedState } from '../helpers/states';

const CLI = resolve(__dirname, '../../tools/cli/offerops.js');
const TOKEN = `gateway-token-${randomBytes(6).toString('hex')}`;
const dbName = `t_${randomBytes(6).toString('hex')}`;
const taskQueue = `test-traces-${randomBytes(4).toString('hex')}`;

let mongo: MongoClient;
let gateway: FakeGateway;
let collector: OtlpCollector;
let api: ApiClient;
const processes: ChildProcess[] = [];
/** Each process's stdout, as JSON log lines. */
const output = { api: '', worker: '' };

function start(what: 'api' | 'worker', env: NodeJS.ProcessEnv, port?: number): void {
  const child = spawn(process.execPath, [CLI, what, ...(port ? ['--port', String(port)] : [])], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output[what] += chunk));
  processes.push(child);
}

const logLines = (what: 'api' | 'worker'): Record<string, unknown>[] =>
  output[what]
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

before(async () => {
  const stack = stackEnv();
  mongo = await MongoClient.connect(stack.mongodbUri);
  gateway = await startFakeGateway({ token: TOKEN });
  collector = await startOtlpCollector();
  const env = {
    ...process.env,
    MONGODB_URI: stack.mongodbUri,
    MONGODB_DB: dbName,
    TEMPORAL_ADDRESS: stack.temporalAddress,
    TEMPORAL_NAMESPACE: stack.temporalNamespace,
    OFFEROPS_TASK_QUEUE: taskQueue,
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    // Export every 200 ms instead of every 5 s.
    OTEL_BSP_SCHEDULE_DELAY: '200',
  };
  const [port] = (await freePorts(1)) as [number];
  start('api', { ...env, LOG_LEVEL: 'info' }, port);
  start('worker', { ...env, LOG_LEVEL: 'debug' });
  const origin = `http://127.0.0.1:${port}`;
  const ready = () =>
    fetch(`${origin}/readyz`).then(
      (r) => (r.status === 200 ? true : undefined),
      () => undefined,
    );
  await waitFor('the API to be ready', ready, 120_000, () => `the API wrote:\n${output.api.slice(-4000)}`);
  api = new ApiClient(`${origin}/api/v1`, '');
});

after(async () => {
  const running = processes.filter((child) => child.exitCode === null && child.signalCode === null);
  for (const child of running) child.kill('SIGTERM');
  await Promise.all(running.map((child) => once(child, 'exit')));
  await mongo.db(dbName).dropDatabase();
  await mongo.close();
  await gateway.close();
  await collector.close();
});

/** The spans from `span` up to its trace's root, root first. */
function ancestry(span: CollectedSpan, spans: CollectedSpan[]): CollectedSpan[] {
  const byId = new Map(spans.filter((s) => s.traceId === span.traceId).map((s) => [s.spanId, s]));
  const chain = [span];
  for (let parent = byId.get(span.parentSpanId); parent; parent = byId.get(parent.parentSpanId)) chain.unshift(parent);
  return chain;
}

test('a publish is one trace from the HTTP request through the workflow and its activity to the gateway call, disclosing nothing', async () => {
  const db = mongo.db(dbName);
  const tenant = await seedTenant(db);
  const scope = { accountId: tenant.accountId, env: 'live' as const };
  const channel = await createChannel(db, scope, { type: 'http', url: gateway.url, token: TOKEN }, secretKeyFromEnv());
  const address = `5511${Math.floor(Math.random() * 1e9)}@g.us`;
  const group = await createGroup(db, scope, { name: 'Traced group', channel: { id: channel._id, type: 'http', address }, minIntervalMs: 0 });
  const title = `Traced offer ${randomBytes(4).toString('hex')}`;
  const client = api.withKey(tenant.apiKey);
  const offer = (await client.post('/offers', { url: 'https://shop.example/traced', title })).body.data;
  const published = await client.post(`/offers/${offer.id}/publish`, { group_id: group._id });
  assert.equal(published.status, 200, published.text);
  const requestId = published.body.request_id as string;
  const publicationId = published.body.data.publications[0].id as string;
  const [message] = await waitFor(
    'the message at the gateway',
    async () => (gateway.messages(address).length ? gateway.messages(address) : undefined),
    60_000,
    async () => `${receivedState('the gateway', gateway.messages())}\n${await publicationState(client, publicationId)}`,
  );

  // The spans of the request up to the gateway's call; the workflow's span ends (and is exported) when it completes.
  const chain = await waitFor(
    'the trace from the request to the gateway call',
    async () => {
      const http = collector.spans.find((s) => s.attributes['offerops.request_id'] === requestId);
      const call = http && collector.spans.find((s) => s.traceId === http.traceId && s.name === 'POST messages');
      const chain = call && ancestry(call, collector.spans);
      return chain?.[0] === http ? chain : undefined;
    },
    60_000,
    () =>
      receivedState(
        'the collector spans',
        collector.spans.map((s) => `${s.service}: ${s.name} ${s.traceId}`),
        10,
      ),
  );
  const names = chain.map((s) => `${s.service}: ${s.name}`);
  const at = (pattern: RegExp) => {
    const i = names.findIndex((name) => pattern.test(name));
    assert.ok(i >= 0, `${pattern} in ${names.join(' → ')}`);
    return i;
  };
  const order = [
    at(/^offerops-api: POST \/offers\/\{id\}\/publish$/),
    at(/^offerops-api: StartWorkflow:publication$/),
    at(/^offerops-worker: RunWorkflow:publication$/),
    at(/^offerops-worker: RunActivity:/),
    at(/^offerops-worker: POST messages$/),
  ];
  assert.deepEqual(
    order,
    [...order].sort((a, b) => a - b),
    `parents in order: ${names.join(' → ')}`,
  );
  const [http, call] = [chain[0]!, chain.at(-1)!];
  assert.equal(http.parentSpanId, '', 'the request starts the trace');
  assert.equal(http.attributes['offerops.operation_id'], 'offer_publish');
  assert.equal(http.attributes['http.response.status_code'], 200);
  assert.equal(call.attributes['server.address'], '127.0.0.1');
  assert.equal(call.attributes['http.response.status_code'], 200);
  const activity = chain.find((s) => s.name.startsWith('RunActivity:'))!;
  assert.equal(activity.attributes.temporalWorkflowId, `publication-${publicationId}`);

  // Disclosure: nothing secret or personal in any span of the run (the API key, the gateway's token, the address, the text).
  assert.deepEqual(collector.refused, []);
  const secrets = [tenant.apiKey, TOKEN, address, message!.text, title];
  for (const span of collector.spans)
    for (const value of span.strings)
      for (const secret of secrets)
        assert.ok(!value.includes(secret), `span ${span.name} discloses ${secret === title ? 'the text' : 'a secret'}`);

  // Logs: the API's lines of the request carry its id; the worker's lines of the activity its workflow's and run's ids.
  const access = await waitFor(
    'the access-log line',
    async () => logLines('api').find((l) => l.msg === 'request' && l.request_id === requestId),
    30_000,
    () => receivedState("the API's log lines", logLines('api'), 3),
  );
  assert.equal(access.trace_id, http.traceId);
  const started = logLines('worker').filter((l) => l.msg === 'Activity started' && l.workflowId === `publication-${publicationId}`);
  assert.ok(started.length > 0, 'the activity of the publication logged');
  for (const line of started) {
    assert.match(String(line.workflowRunId), /^[0-9a-f-]{36}$/);
    assert.equal(line.taskToken, undefined, 'no task token in the log');
  }
  for (const what of ['api', 'worker'] as const) {
    assert.ok(logLines(what).some((l) => l.msg === 'tracing on' && l.exporter === 'otlp'));
    for (const secret of [tenant.apiKey, TOKEN, address]) assert.ok(!output[what].includes(secret), `the ${what} log discloses a secret`);
  }
});
