/**
 * `offerops admin logs export`: a key's request log as CSV on stdout,
 * streamed by the compiled CLI in a child process from the database the API
 * under test writes to.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { RequestLogDoc } from '../../domain/developer/request-logs';
import { ApiClient } from '../helpers/client';
import { cliEnv, runCli, usage } from '../helpers/cli';
import { addKey, seedTenant, stackEnv, startTestApp, TestApp } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { requestLogsState } from '../helpers/states';

let app: TestApp;
let tmp: string;

before(async () => {
  app = await startTestApp();
  tmp = mkdtempSync(join(tmpdir(), 'offerops-logs-'));
});
after(async () => {
  rmSync(tmp, { recursive: true, force: true });
  await app.close();
});

const cli = (...args: string[]) => runCli(args, cliEnv({ MONGODB_URI: stackEnv().mongodbUri, MONGODB_DB: app.dbName }), tmp);
const HEADER = 'time,request_id,method,route,status,duration_ms,credential_id,env';

async function loggedRequests(): Promise<{ keyId: string; apiKey: string; requestIds: string[]; otherKeyId: string }> {
  const tenant = await seedTenant(app.db);
  const other = await addKey(app.db, tenant, { env: 'test', expiresInMs: 3_600_000 });
  const api = new ApiClient(app.baseUrl, tenant.apiKey);
  const requestIds = [
    (await api.post('/segments', { name: 'Logged segment' })).body.request_id,
    (await api.get('/me')).body.request_id,
    (await api.get('/offers/off_nosuchoffer0000000000')).body.request_id,
  ];
  const otherId = (await api.withKey(other.apiKey).get('/me')).body.request_id;
  const logs = app.db.collection<RequestLogDoc>('request_logs');
  await waitFor(
    'the request logs',
    async () => ((await logs.countDocuments({ request_id: { $in: [...requestIds, otherId] } })) === 4 ? true : undefined),
    30_000,
    () => requestLogsState(app.db, [...requestIds, otherId]),
  );
  return { keyId: tenant.keyId, apiKey: tenant.apiKey, requestIds, otherKeyId: other.keyId };
}

test('export --key prints the CSV of that key only, oldest first, with route templates and no secret', async () => {
  const { keyId, apiKey, requestIds, otherKeyId } = await loggedRequests();
  const run = await cli('admin', 'logs', 'export', '--key', keyId);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, '');
  assert.ok(!run.stdout.includes(apiKey));
  const [header, ...rows] = run.stdout.trimEnd().split('\n');
  assert.equal(header, HEADER);
  const cells = rows.map((r) => r.split(','));
  assert.deepEqual(
    cells.map((c) => [c[1], c[2], c[3], c[4], c[6], c[7]]),
    [
      [requestIds[0], 'POST', '/segments', '201', keyId, 'live'],
      [requestIds[1], 'GET', '/me', '200', keyId, 'live'],
      [requestIds[2], 'GET', '/offers/{id}', '404', keyId, 'live'],
    ],
  );
  for (const c of cells) {
    assert.ok(!Number.isNaN(Date.parse(c[0]!)));
    assert.ok(Number(c[5]) >= 0);
  }
  const other = await cli('admin', 'logs', 'export', '--key', otherKeyId);
  assert.equal(other.code, 0, other.stderr);
  const otherRows = other.stdout.trimEnd().split('\n').slice(1);
  assert.equal(otherRows.length, 1);
  assert.match(otherRows[0]!, /,test$/);
});

test('--since and --until bound the export by time', async () => {
  const { keyId, requestIds } = await loggedRequests();
  const times = await Promise.all(
    requestIds.map(async (id) => (await app.db.collection<RequestLogDoc>('request_logs').findOne({ request_id: id }))!.time),
  );
  const run = await cli('admin', 'logs', 'export', '--key', keyId, '--since', times[1]!.toISOString(), '--until', times[2]!.toISOString());
  assert.equal(run.code, 0, run.stderr);
  const ids = run.stdout
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((r) => r.split(',')[1]);
  // [since, until): the second request (and the first only should it share the second's millisecond); never the third.
  assert.deepEqual(
    ids.filter((id) => id !== requestIds[0] || times[0]!.getTime() !== times[1]!.getTime()),
    [requestIds[1]],
  );
  const future = await cli('admin', 'logs', 'export', '--key', keyId, '--since', '2999-01-01');
  assert.equal(future.stdout, `${HEADER}\n`);
});

test('a missing or unknown key, a malformed or reversed time span: usage errors, no output', async () => {
  const { keyId } = await loggedRequests();
  assert.match(usage(await cli('admin', 'logs', 'export')), /--key/);
  assert.match(usage(await cli('admin', 'logs', 'export', '--key', 'key_nosuchkey00000000000000')), /no key/);
  assert.match(usage(await cli('admin', 'logs', 'export', '--key', keyId, '--since', 'yesterday')), /--since/);
  assert.match(usage(await cli('admin', 'logs', 'export', '--key', keyId, '--since', '2026-02-01', '--until', '2026-01-01')), /before/);
});

test('--help describes the columns', async () => {
  const run = await cli('admin', 'logs', 'export', '--help');
  assert.equal(run.code, 0);
  assert.match(run.stdout, /time,request_id,method,route,status,duration_ms,credential_id,env/);
});
