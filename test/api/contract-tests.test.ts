/**
 * Contract-test runs on the real stack: `admin contract-test` checks the API
 * under test over HTTP in the account's sandbox (with the dev receiver's
 * certificate, which this test's worker trusts, for the signed delivery),
 * records the run, lists it; a service that breaks its contract fails the run.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ApiClient } from '../helpers/client';
import { cliEnv, ok, runCli, usage } from '../helpers/cli';
import { stackEnv, startTestApp, terminateRunning, TestApp } from '../helpers/stack';
import { startTestWorker } from '../helpers/worker';
import { receiverCertificate } from '../../tools/cli/dev-receiver';
import { CHECKS } from '../../domain/contract-tests/runner';

const taskQueue = `test-contract-runs-${randomBytes(4).toString('hex')}`;
let app: TestApp;
let worker: { stop(): Promise<void> };
let tmp: string;
let broken: Server;

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'offerops-contract-'));
  const { cert } = receiverCertificate(join(tmp, 'dev-receiver'));
  app = await startTestApp({ taskQueue, webhookAllow: ['127.0.0.1'] });
  worker = await startTestWorker(app, taskQueue, { webhookAllow: ['127.0.0.1'], webhookCa: cert });
  // A service that knows no route.
  broken = createServer((_req, res) => {
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ code: 'route_not_found', message: 'no', request_id: 'req_x' }));
  });
  broken.listen(0, '127.0.0.1');
  await once(broken, 'listening');
});
after(async () => {
  broken.close();
  await terminateRunning(app, taskQueue);
  await worker.stop();
  await app.close();
  rmSync(tmp, { recursive: true, force: true });
});

const cli = (...args: string[]) =>
  runCli(
    args,
    cliEnv({ MONGODB_URI: stackEnv().mongodbUri, MONGODB_DB: app.dbName, OFFEROPS_TASK_QUEUE: taskQueue, OFFEROPS_DATA_DIR: tmp }),
    tmp,
  );

describe('admin contract-test', () => {
  let account: string;
  let liveKey: string;

  before(async () => {
    const out = ok(await cli('admin', 'account', 'create', '--name', 'Contract account'));
    account = out.account_id;
    liveKey = out.api_key;
    // Live data the sandbox must never show.
    const live = new ApiClient(app.baseUrl, liveKey);
    assert.equal((await live.post('/offers', { url: 'https://shop.example/live/ct', title: 'Live', price: 5 })).status, 201);
    assert.equal((await live.post('/segments', { name: 'Live segment' })).status, 201);
  });

  test('a run against the API under test passes every check and is recorded; its keys are revoked', async () => {
    const run = ok(await cli('admin', 'contract-test', '--account', account, '--base-url', app.baseUrl));
    assert.match(run.id, /^ctr_/);
    assert.deepEqual(
      run.checks.map((c: { name: string }) => c.name),
      CHECKS.map((c) => c.name),
    );
    for (const check of run.checks) {
      assert.equal(check.result, 'passed', `${check.name}: ${JSON.stringify(check.failures)} ${check.note ?? ''}`);
      assert.ok(check.assertions > 0, check.name);
    }
    assert.equal(run.result, 'passed');
    assert.ok(run.duration_ms > 0);

    const doc = await app.db.collection('contract_test_runs').findOne({ _id: run.id } as never);
    assert.equal(doc?.account_id, account);
    assert.equal(doc?.checks.length, CHECKS.length);
    const keys = await app.db.collection('api_keys').find({ account_id: account, name: 'contract test run' }).toArray();
    assert.ok(keys.length >= 5);
    for (const k of keys) {
      assert.equal(k.env, 'test');
      assert.ok(k.revoked_at instanceof Date, `key ${String(k._id)} revoked`);
    }
    const event = await app.db.collection('events').findOne({ account_id: account, env: 'test', kind: 'contract_test.completed' });
    assert.equal(event?.data.run_id, run.id);
    // The live offer was not touched.
    assert.equal((await new ApiClient(app.baseUrl, liveKey).get('/offers')).body.pagination.total, 1);

    const listed = ok(await cli('admin', 'contract-test', '--account', account, '--list'));
    assert.equal(listed.runs[0].id, run.id);
    assert.equal(listed.runs[0].result, 'passed');
  });

  test('a service without the routes fails the run, which is recorded as failed with what failed', async () => {
    const url = `http://127.0.0.1:${(broken.address() as AddressInfo).port}/api/v1`;
    const run = ok(await cli('admin', 'contract-test', '--account', account, '--base-url', url));
    assert.equal(run.result, 'failed');
    const routes = run.checks.find((c: { name: string }) => c.name === 'routes');
    assert.equal(routes.result, 'failed');
    assert.match(routes.failures[0], /no route \(404\)/);
    const listed = ok(await cli('admin', 'contract-test', '--account', account, '--list'));
    assert.deepEqual(
      listed.runs.map((r: { result: string }) => r.result),
      ['failed', 'passed'],
    );
  });

  test('an unknown account or a bad --base-url is a usage error, and nothing is recorded', async () => {
    const before = await app.db.collection('contract_test_runs').countDocuments();
    assert.match(usage(await cli('admin', 'contract-test', '--account', 'acc_nobody', '--base-url', app.baseUrl)), /no account/);
    assert.match(usage(await cli('admin', 'contract-test', '--account', account, '--base-url', 'ftp://x')), /base-url/);
    assert.equal(await app.db.collection('contract_test_runs').countDocuments(), before);
  });
});
