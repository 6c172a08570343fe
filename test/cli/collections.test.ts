/** `offerops admin collection set|list|delete` as a child process, seen through GET /store/collections. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ApiClient } from '../helpers/client';
import { cliEnv, ok, runCli, usage } from '../helpers/cli';
import { seedTenant, stackEnv, startTestApp, TestApp } from '../helpers/stack';

let app: TestApp;
let tmp: string;

before(async () => {
  app = await startTestApp();
  tmp = mkdtempSync(join(tmpdir(), 'offerops-cli-'));
});
after(async () => {
  rmSync(tmp, { recursive: true, force: true });
  await app.close();
});

const cli = (...args: string[]) => runCli(args, cliEnv({ MONGODB_URI: stackEnv().mongodbUri, MONGODB_DB: app.dbName }), tmp);

describe('admin collection', () => {
  test('set creates then replaces by slug, in the order given; list and the API agree; delete removes', async () => {
    const t = await seedTenant(app.db);
    const api = new ApiClient(app.baseUrl, t.apiKey);
    const a = (await api.post('/offers', { url: 'https://shop.example/c/a', title: 'Oferta A' })).body.data.id as string;
    const b = (await api.post('/offers', { url: 'https://shop.example/c/b', title: 'Oferta B' })).body.data.id as string;
    const made = ok(
      await cli('admin', 'collection', 'set', '--account', t.accountId, '--title', 'Casa e Cozinha', '--offers', `${b},${a}`, '--position', '3'),
    );
    assert.equal(made.created, true);
    assert.equal(made.collection.slug, 'casa-e-cozinha');
    assert.deepEqual(made.collection.offer_ids, [b, a]);
    const again = ok(
      await cli(
        'admin',
        'collection',
        'set',
        '--account',
        t.accountId,
        '--title',
        'Casa',
        '--slug',
        'casa-e-cozinha',
        '--offers',
        a,
        '--published',
        'false',
      ),
    );
    assert.equal(again.created, false);
    assert.equal(again.collection.id, made.collection.id);
    const listed = ok(await cli('admin', 'collection', 'list', '--account', t.accountId));
    assert.equal(listed.collections.length, 1);
    assert.deepEqual(listed.collections[0], (await api.get('/store/collections')).body.data[0]);
    assert.equal(listed.collections[0].title, 'Casa');
    assert.equal(listed.collections[0].published, false);
    assert.deepEqual(ok(await cli('admin', 'collection', 'delete', 'casa-e-cozinha', '--account', t.accountId)), { deleted: true });
    assert.equal((await api.get('/store/collections')).body.pagination.total, 0);
  });

  test('refusals: no title, a bad position or flag, an offer of another account, an unknown collection', async () => {
    const t = await seedTenant(app.db);
    const other = await seedTenant(app.db);
    const foreign = (await new ApiClient(app.baseUrl, other.apiKey).post('/offers', { url: 'https://shop.example/c/x', title: 'Alheia' })).body
      .data.id as string;
    assert.match(usage(await cli('admin', 'collection', 'set', '--account', t.accountId)), /--title/);
    assert.match(usage(await cli('admin', 'collection', 'set', '--account', t.accountId, '--title', 'X', '--position', '-1')), /--position/);
    assert.match(
      usage(await cli('admin', 'collection', 'set', '--account', t.accountId, '--title', 'X', '--published', 'maybe')),
      /--published/,
    );
    assert.match(usage(await cli('admin', 'collection', 'set', '--account', t.accountId, '--title', 'X', '--offers', foreign)), /no offer/);
    assert.match(usage(await cli('admin', 'collection', 'set', '--account', t.accountId, '--title', 'X', '--slug', 'Não')), /slug/);
    assert.match(usage(await cli('admin', 'collection', 'delete', 'nada', '--account', t.accountId)), /nada/);
    assert.equal((await new ApiClient(app.baseUrl, t.apiKey).get('/store/collections')).body.pagination.total, 0);
  });

  test('admin store verify-domain: refused without a domain; then domain_verified 1', async () => {
    const t = await seedTenant(app.db);
    const api = new ApiClient(app.baseUrl, t.apiKey);
    assert.match(usage(await cli('admin', 'store', 'verify-domain', '--account', t.accountId)), /no domain/);
    const domain = `cli-${process.pid}-${Date.now().toString(36)}.example.com`;
    assert.equal((await api.patch('/store', { domain })).status, 200);
    const out = ok(await cli('admin', 'store', 'verify-domain', '--account', t.accountId));
    assert.deepEqual(out, { store_id: (await api.get('/store')).body.data.id, domain, domain_verified: 1 });
    assert.equal((await api.get('/store')).body.data.domain_verified, 1);
  });
});
