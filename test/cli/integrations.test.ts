/** `offerops admin integration set|list|delete`: per account and environment, sealed at rest, secrets never printed. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cliEnv, ok, runCli, usage } from '../helpers/cli';
import { seedTenant, stackEnv, startTestApp, TestApp } from '../helpers/stack';

let app: TestApp;
let tmp: string;
let account: string;

before(async () => {
  app = await startTestApp();
  tmp = mkdtempSync(join(tmpdir(), 'offerops-cli-'));
  account = (await seedTenant(app.db)).accountId;
});
after(async () => {
  rmSync(tmp, { recursive: true, force: true });
  await app.close();
});

const cli = (...args: string[]) => runCli(args, cliEnv({ MONGODB_URI: stackEnv().mongodbUri, MONGODB_DB: app.dbName }), tmp);

describe('admin integration', () => {
  test('set creates then replaces; list shows identifiers, never the secret; the stored document is sealed', async () => {
    const first = ok(await cli('admin', 'integration', 'set', '--account', account, '--marketplace', 'amazon', '--tag', 'loja-20'));
    assert.match(first.integration_id, /^int_/);
    assert.deepEqual({ ...first, integration_id: 0 }, { integration_id: 0, marketplace: 'amazon', created: true });
    const again = ok(await cli('admin', 'integration', 'set', '--account', account, '--marketplace', 'amazon', '--tag', 'loja2-20'));
    assert.equal(again.created, false);
    assert.equal(again.integration_id, first.integration_id);
    const shopee = ok(
      await cli(
        'admin',
        'integration',
        'set',
        '--account',
        account,
        '--marketplace',
        'shopee',
        '--affiliate-id',
        '1234567',
        '--app-id',
        '99',
        '--app-secret',
        'TOPSECRET',
      ),
    );
    const listed = ok(await cli('admin', 'integration', 'list', '--account', account));
    const text = JSON.stringify(listed);
    assert.ok(!text.includes('TOPSECRET'), text);
    const byMarket = Object.fromEntries(listed.integrations.map((i: { marketplace: string }) => [i.marketplace, i]));
    assert.equal(byMarket.amazon.tag, 'loja2-20');
    assert.equal(byMarket.shopee.id, shopee.integration_id);
    assert.equal(byMarket.shopee.affiliate_id, '1234567');
    assert.equal(byMarket.shopee.has_api_credentials, true);
    const doc = await app.db.collection('integrations').findOne({ _id: shopee.integration_id } as object);
    assert.ok(doc);
    assert.ok(!JSON.stringify(doc).includes('TOPSECRET') && !JSON.stringify(doc).includes('1234567'));
  });

  test('per environment: the test environment has its own integrations', async () => {
    const listed = ok(await cli('admin', 'integration', 'list', '--account', account, '--env', 'test'));
    assert.deepEqual(listed.integrations, []);
  });

  test('each marketplace checks its fields', async () => {
    const set = (...args: string[]) => cli('admin', 'integration', 'set', '--account', account, ...args);
    assert.match(usage(await set('--marketplace', 'ebay')), /--marketplace must be one of/);
    assert.match(usage(await set('--marketplace', 'amazon')), /--tag is required/);
    assert.match(usage(await set('--marketplace', 'mercadolivre', '--tool', '123')), /--word is required/);
    assert.match(usage(await set('--marketplace', 'shopee', '--affiliate-id', '1', '--app-id', '2')), /together/);
    assert.match(usage(await set('--marketplace', 'aliexpress', '--params', 'aff_fcid')), /not name=value/);
    assert.match(usage(await set('--marketplace', 'magalu', '--store', 'Bad Store')), /--store must be/);
    assert.match(usage(await set('--marketplace', 'other', '--template', 'https://x.example/?u=', '--hosts', 'a.com')), /\{url\}/);
    assert.match(usage(await set('--marketplace', 'other', '--template', 'https://x.example/?u={url}', '--hosts', 'not a host')), /--hosts/);
    assert.match(usage(await set('--marketplace', 'amazon', '--tag', 'x', '--sub-id-param', '1bad')), /--sub-id-param/);
    ok(await set('--marketplace', 'aliexpress', '--params', 'aff_fcid=abc,sk=_dDx,aff_platform=portals-tool'));
  });

  test('delete removes one; deleting again is a usage error naming it', async () => {
    ok(await cli('admin', 'integration', 'set', '--account', account, '--marketplace', 'magalu', '--store', 'magazinetest'));
    assert.deepEqual(ok(await cli('admin', 'integration', 'delete', '--account', account, '--marketplace', 'magalu')), {
      deleted: true,
      marketplace: 'magalu',
    });
    assert.match(usage(await cli('admin', 'integration', 'delete', '--account', account, '--marketplace', 'magalu')), /integration/);
  });
});
