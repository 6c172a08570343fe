/**
 * `offerops admin postback secret` and `offerops admin commissions import`,
 * run as the compiled binary against the test app's database.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { IMPORT_MAX_BYTES } from '../../domain/commissions/import';
import { ApiClient } from '../helpers/client';
import { recordClick } from '../helpers/clicks';
import { cliEnv, ok, runCli, usage } from '../helpers/cli';
import { seedTenant, stackEnv, startTestApp, Tenant, TestApp } from '../helpers/stack';

let app: TestApp;
let tmp: string;
let me: Tenant;
let api: ApiClient;

before(async () => {
  app = await startTestApp();
  tmp = mkdtempSync(join(tmpdir(), 'offerops-cli-commissions-'));
  me = await seedTenant(app.db);
  api = new ApiClient(app.baseUrl, me.apiKey);
});
after(async () => {
  rmSync(tmp, { recursive: true, force: true });
  await app.close();
});

const cli = (...args: string[]) => runCli(args, cliEnv({ MONGODB_URI: stackEnv().mongodbUri, MONGODB_DB: app.dbName }), tmp);
let n = 0;
const file = (content: string | Buffer) => {
  const path = join(tmp, `report-${++n}.csv`);
  writeFileSync(path, content);
  return path;
};
const importFile = (path: string, marketplace = 'mercadolivre') =>
  cli('admin', 'commissions', 'import', '--account', me.accountId, '--marketplace', marketplace, path);

describe('admin postback secret', () => {
  test('prints the endpoint and its secret once; postbacks signed with it are accepted', async () => {
    const out = ok(await cli('admin', 'postback', 'secret', '--account', me.accountId, '--marketplace', 'magalu'));
    assert.match(out.integration_id, /^pbk_/);
    assert.equal(out.path, `/postbacks/${out.integration_id}`);
    assert.match(out.secret, /^oo_pb_[A-Za-z0-9]{40}$/);
    const stored = JSON.stringify(await app.db.collection('postback_endpoints').findOne({ _id: out.integration_id }));
    assert.ok(!stored.includes(out.secret), 'the secret is stored sealed');
    const body = JSON.stringify({
      transaction_id: 'MG-1',
      status: 'pending',
      commission: '1.00',
      currency: 'BRL',
      occurred_at: '2026-11-20T10:00:00Z',
    });
    const post = (secret: string) =>
      fetch(`${app.origin}${out.path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-offerops-signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
        },
        body,
      });
    assert.equal((await post(out.secret)).status, 201);
    const rotated = ok(await cli('admin', 'postback', 'secret', '--account', me.accountId, '--marketplace', 'magalu'));
    assert.equal(rotated.integration_id, out.integration_id, 'rotating keeps the URL');
    assert.equal((await post(out.secret)).status, 401, 'the old secret stops working');
    assert.equal((await post(rotated.secret)).status, 200);
  });

  test('refuses a missing or bad marketplace and an unknown account', async () => {
    assert.match(usage(await cli('admin', 'postback', 'secret', '--account', me.accountId)), /--marketplace is required/);
    assert.match(
      usage(await cli('admin', 'postback', 'secret', '--account', me.accountId, '--marketplace', 'Bad Name')),
      /--marketplace must be/,
    );
    assert.match(usage(await cli('admin', 'postback', 'secret', '--account', 'acc_nothere', '--marketplace', 'amazon')), /no account/);
  });
});

describe('admin commissions import', () => {
  test('applies good rows, reports bad ones by row, and is idempotent per row', async () => {
    const clk = await recordClick(
      app.db,
      { accountId: me.accountId, env: 'live' },
      { offer_id: 'off_0000000000importoffer', group_id: 'grp_0000000000importgrp', marketplace: 'mercadolivre' },
      new Date('2026-11-19T00:00:00Z'),
    );
    const csv = [
      'transaction_id,status,commission,currency,occurred_at,updated_at,sub_id',
      `ML-1,approved,10.50,BRL,2026-11-20T10:00:00Z,,${clk}`,
      'ML-2,pending,3,BRL,2026-11-20T11:00:00Z,,',
      'ML-3,pending,1.234,BRL,2026-11-20T12:00:00Z,,',
      'ML-4,lost,1,BRL,2026-11-20T12:00:00Z,,',
      ',pending,1,BRL,2026-11-20T12:00:00Z,,',
      'ML-5,pending,2,USD,2026-11-20T13:00:00Z,,',
    ].join('\n');
    const out = ok(await importFile(file(csv)));
    assert.deepEqual(
      { ...out, errors: out.errors.map((e: any) => [e.row, e.transaction_id]) },
      {
        rows: 6,
        created: 3,
        updated: 0,
        late: 0,
        unchanged: 0,
        unmatched: 2,
        errors: [
          [4, 'ML-3'],
          [5, 'ML-4'],
          [6, null],
        ],
      },
    );
    assert.match(out.errors[0].message, /commission/);
    assert.match(out.errors[1].message, /status/);

    // ML-2 approved later; ML-1 pending at a time before its approval: kept in its history, not applied.
    const again = ok(
      await importFile(
        file(`${csv}\nML-2,approved,3,BRL,2026-11-20T11:00:00Z,2026-11-22T00:00:00Z,\nML-1,pending,10.50,BRL,2026-11-19T10:00:00Z,,`),
      ),
    );
    assert.deepEqual([again.created, again.updated, again.late, again.unchanged], [0, 1, 1, 3]);

    const list = (await api.get('/commissions?marketplace=mercadolivre')).body.data;
    const ml1 = list.find((c: any) => c.transaction_id === 'ML-1');
    assert.equal(ml1.amount_minor, 1050);
    assert.deepEqual([ml1.attribution.method, ml1.attribution.click_id, ml1.attribution.offer_id], ['click', clk, 'off_0000000000importoffer']);
    assert.equal(ml1.history[0].source, 'import');
    const ml2 = list.find((c: any) => c.transaction_id === 'ML-2');
    assert.equal(ml2.status, 'approved');
    const summary = (await api.get('/commissions/summary?marketplace=mercadolivre')).body.data.totals;
    assert.deepEqual(summary, [
      { currency: 'BRL', status: 'approved', count: 2, amount_minor: 1350, amount: '13.50' },
      { currency: 'USD', status: 'pending', count: 1, amount_minor: 200, amount: '2.00' },
    ]);
    // Events wait in the outbox for the worker's sweep (the CLI reaches MongoDB only).
    const doc = await app.db.collection('commissions').findOne({ account_id: me.accountId, transaction_id: 'ML-1' });
    assert.deepEqual(
      doc?._outbox.map((e: any) => e.kind),
      ['commission.created', 'commission.approved'],
    );
  });

  test('refuses a file that is not CSV, has no header, is too large or cannot be read', async () => {
    const refused = async (path: string, pattern: RegExp) => assert.match(usage(await importFile(path)), pattern);
    await refused(file(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3])), /not CSV/);
    await refused(file('ML-9,pending,1,BRL,2026-11-20T10:00:00Z\n'), /header/);
    await refused(file('transaction_id,status,commission,currency,occurred_at,email\n'), /unknown columns: email/);
    await refused(file('transaction_id,status\n"unterminated,pending\n'), /not valid CSV|header/);
    await refused(file(Buffer.alloc(IMPORT_MAX_BYTES + 1, 'a')), /limit is 5242880/);
    await refused(join(tmp, 'missing.csv'), /cannot read/);
    assert.match(usage(await cli('admin', 'commissions', 'import', '--account', me.accountId, file('x'))), /--marketplace is required/);
  });
});
