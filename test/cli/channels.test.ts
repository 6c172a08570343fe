/**
 * `admin channel connect` and `admin group create --channel --address`, run as
 * the compiled `offerops` binary against the database the API under test
 * uses: the token is stored sealed, the address never leaves the API.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { newSecretKey, secretKeyFromEnv, unseal } from '../../domain/sealing';
import { ApiClient } from '../helpers/client';
import { startFakeTelegram } from '../helpers/fake-telegram';
import { cliEnv, ok, runCli, usage } from '../helpers/cli';
import { addKey, seedTenant, stackEnv, startTestApp, TestApp } from '../helpers/stack';

const TOKEN = 'gw-cli-S3cr3t-token';

let app: TestApp;
let tmp: string;

before(async () => {
  app = await startTestApp();
  tmp = mkdtempSync(join(tmpdir(), 'offerops-cli-channels-'));
});
after(async () => {
  rmSync(tmp, { recursive: true, force: true });
  await app.close();
});

/** The CLI on the test app's database; `env` adds to (or, with undefined, removes from) the environment. */
const cli = (args: string[], env: Record<string, string | undefined> = {}) =>
  runCli(args, cliEnv({ MONGODB_URI: stackEnv().mongodbUri, MONGODB_DB: app.dbName, ...env }), tmp);

const channelDoc = (id: string) => app.db.collection('channels').findOne({ _id: id } as object);
const groupDoc = (id: string) => app.db.collection('groups').findOne({ _id: id } as object);

async function connect(accountId: string, ...extra: string[]): Promise<string> {
  const out = ok(
    await cli([
      'admin',
      'channel',
      'connect',
      '--account',
      accountId,
      '--type',
      'http',
      '--url',
      'https://gateway.example/wa',
      '--token',
      TOKEN,
      ...extra,
    ]),
  );
  return out.channel_id;
}

describe('admin channel connect', () => {
  test('prints {channel_id} and, once, the inbound secret; the token is stored sealed under the worker key, never in clear', async () => {
    const tenant = await seedTenant(app.db);
    const run = await cli([
      'admin',
      'channel',
      'connect',
      '--account',
      tenant.accountId,
      '--type',
      'http',
      '--url',
      'https://gateway.example/wa',
      '--token',
      TOKEN,
      '--name',
      'WhatsApp 1',
    ]);
    assert.ok(!run.stdout.includes(TOKEN) && !run.stderr.includes(TOKEN));
    const out = ok(run);
    assert.deepEqual(Object.keys(out), ['channel_id', 'inbound_url_path', 'inbound_secret']);
    assert.match(out.channel_id, /^chn_/);
    assert.equal(out.inbound_url_path, `/inbound/${out.channel_id}`);
    assert.match(out.inbound_secret, /^oo_in_[A-Za-z0-9]{40}$/);
    const doc = await channelDoc(out.channel_id);
    assert.ok(doc);
    assert.equal(doc.account_id, tenant.accountId);
    assert.equal(doc.env, 'live');
    assert.equal(doc.type, 'http');
    assert.equal(doc.name, 'WhatsApp 1');
    assert.equal(doc.url, 'https://gateway.example/wa');
    assert.equal(doc.min_interval_ms, 1000);
    assert.ok(!JSON.stringify(doc).includes(TOKEN), 'the token is not in the database in clear');
    assert.equal(unseal(doc.credentials, secretKeyFromEnv()), TOKEN);
    assert.equal(doc.inbound_secret_hash, createHash('sha256').update(out.inbound_secret).digest('hex'));
    assert.ok(!JSON.stringify(doc).includes(out.inbound_secret), 'the inbound secret is stored only as its hash');

    const rotated = ok(await cli(['admin', 'channel', 'update', out.channel_id, '--account', tenant.accountId, '--rotate-inbound-secret']));
    assert.deepEqual(Object.keys(rotated), ['channel_id', 'changed', 'inbound_secret']);
    assert.deepEqual(rotated.changed, ['inbound_secret']);
    assert.notEqual(rotated.inbound_secret, out.inbound_secret);
    assert.equal((await channelDoc(out.channel_id))!.inbound_secret_hash, createHash('sha256').update(rotated.inbound_secret).digest('hex'));
    const listed = ok(await cli(['admin', 'channel', 'list', '--account', tenant.accountId]));
    assert.ok(!JSON.stringify(listed).includes(rotated.inbound_secret));
    assert.equal(listed.channels[0].has_inbound_secret, true);
  });

  test('telegram: the Bot API base by default, a bot token required; test environment and interval', async () => {
    const tenant = await seedTenant(app.db);
    const out = ok(
      await cli([
        'admin',
        'channel',
        'connect',
        '--account',
        tenant.accountId,
        '--type',
        'telegram',
        '--token',
        '123:ABC',
        '--env',
        'test',
        '--min-interval-ms',
        '2500',
      ]),
    );
    const doc = await channelDoc(out.channel_id);
    assert.equal(doc!.url, 'https://api.telegram.org');
    assert.equal(doc!.env, 'test');
    assert.equal(doc!.min_interval_ms, 2500);
    assert.match(usage(await cli(['admin', 'channel', 'connect', '--account', tenant.accountId, '--type', 'telegram'])), /token/);
  });

  test("telegram: with --public-url, connect and a rotation set the bot's webhook with the inbound secret as secret_token", async () => {
    const telegram = await startFakeTelegram();
    try {
      const tenant = await seedTenant(app.db);
      const out = ok(
        await cli([
          'admin',
          'channel',
          'connect',
          '--account',
          tenant.accountId,
          '--type',
          'telegram',
          '--url',
          telegram.url,
          '--token',
          '123:BOT',
          '--public-url',
          'https://ops.example.com',
        ]),
      );
      assert.deepEqual(Object.keys(out), ['channel_id', 'inbound_url_path', 'inbound_secret', 'webhook']);
      assert.equal(out.webhook, `set: https://ops.example.com/inbound/${out.channel_id}`);
      assert.deepEqual(
        telegram.calls.map((c) => [c.path, c.body]),
        [
          [
            '/bot123:BOT/setWebhook',
            { url: `https://ops.example.com/inbound/${out.channel_id}`, secret_token: out.inbound_secret, allowed_updates: ['message'] },
          ],
        ],
      );
      // The secret is a valid secret_token for Telegram: 1-256 characters of A-Z, a-z, 0-9, _ and -.
      assert.match(out.inbound_secret, /^[A-Za-z0-9_-]{1,256}$/);

      const rotated = ok(
        await cli(['admin', 'channel', 'update', out.channel_id, '--account', tenant.accountId, '--rotate-inbound-secret'], {
          OFFEROPS_PUBLIC_URL: 'https://ops2.example.com',
        }),
      );
      assert.equal(rotated.webhook, `set: https://ops2.example.com/inbound/${out.channel_id}`);
      assert.equal(telegram.calls[1]?.body.secret_token, rotated.inbound_secret);

      telegram.answers.push({ status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } });
      const refused = ok(
        await cli([
          'admin',
          'channel',
          'update',
          out.channel_id,
          '--account',
          tenant.accountId,
          '--rotate-inbound-secret',
          '--public-url',
          'https://ops.example.com',
        ]),
      );
      assert.equal(refused.webhook, 'failed: Telegram refused setWebhook (401): Unauthorized');

      const without = ok(
        await cli(
          [
            'admin',
            'channel',
            'connect',
            '--account',
            tenant.accountId,
            '--type',
            'telegram',
            '--url',
            telegram.url,
            '--token',
            '9:X',
            '--name',
            'B',
          ],
          {
            OFFEROPS_PUBLIC_URL: undefined,
          },
        ),
      );
      assert.match(without.webhook, /^not set: give --public-url/);
      assert.equal(telegram.calls.length, 3);
      assert.match(
        usage(
          await cli([
            'admin',
            'channel',
            'update',
            out.channel_id,
            '--account',
            tenant.accountId,
            '--rotate-inbound-secret',
            '--public-url',
            'ftp://x',
          ]),
        ),
        /public-url/,
      );
    } finally {
      await telegram.close();
    }
  });

  test('a sandbox channel needs neither URL nor token', async () => {
    const tenant = await seedTenant(app.db);
    const out = ok(await cli(['admin', 'channel', 'connect', '--account', tenant.accountId, '--type', 'sandbox']));
    const doc = await channelDoc(out.channel_id);
    assert.equal(doc!.type, 'sandbox');
    assert.equal(doc!.credentials, null);
  });

  test('usage errors write nothing', async () => {
    const tenant = await seedTenant(app.db);
    const connectWith = (...args: string[]) => cli(['admin', 'channel', 'connect', ...args]);
    assert.match(usage(await connectWith('--account', tenant.accountId, '--url', 'https://g.example')), /--type/);
    assert.match(usage(await connectWith('--account', tenant.accountId, '--type', 'whatsapp', '--url', 'https://g.example')), /--type/);
    assert.match(usage(await connectWith('--account', tenant.accountId, '--type', 'http')), /--url/);
    assert.match(usage(await connectWith('--account', tenant.accountId, '--type', 'http', '--url', 'ftp://g.example')), /--url/);
    assert.match(
      usage(await connectWith('--account', tenant.accountId, '--type', 'http', '--url', 'https://g.example', '--min-interval-ms', 'soon')),
      /min-interval/,
    );
    assert.match(
      usage(await connectWith('--account', tenant.accountId, '--type', 'http', '--url', 'https://g.example', '--env', 'prod')),
      /--env/,
    );
    assert.match(usage(await connectWith('--account', 'acc_0000000000000000000000', '--type', 'sandbox')), /no account/);
    assert.match(usage(await connectWith('--type', 'sandbox')), /--account/);
    assert.equal(await app.db.collection('channels').countDocuments({ account_id: tenant.accountId }), 0);
  });

  test("without OFFEROPS_SECRET_KEY the token is sealed with the data directory's secret.key (the one npm start made)", async () => {
    const tenant = await seedTenant(app.db);
    const dir = mkdtempSync(join(tmp, 'data-'));
    const key = newSecretKey();
    writeFileSync(join(dir, 'secret.key'), `${key}\n`, { mode: 0o600 });
    const out = ok(
      await cli(['admin', 'channel', 'connect', '--account', tenant.accountId, '--type', 'telegram', '--token', '999:XYZ'], {
        OFFEROPS_SECRET_KEY: undefined,
        OFFEROPS_DATA_DIR: dir,
      }),
    );
    assert.equal(unseal((await channelDoc(out.channel_id))!.credentials, Buffer.from(key, 'base64')), '999:XYZ');
  });

  test('no OFFEROPS_SECRET_KEY and no secret.key: sealing is refused (exit 2, saying what to set), no key is made, nothing written', async () => {
    const tenant = await seedTenant(app.db);
    const dir = mkdtempSync(join(tmp, 'data-'));
    const env = { OFFEROPS_SECRET_KEY: undefined, OFFEROPS_DATA_DIR: dir };
    const error = usage(
      await cli(['admin', 'channel', 'connect', '--account', tenant.accountId, '--type', 'telegram', '--token', '999:XYZ'], env),
    );
    assert.match(error, /OFFEROPS_SECRET_KEY/);
    assert.ok(error.includes(join(dir, 'secret.key')), error);
    assert.ok(!existsSync(join(dir, 'secret.key')), 'no key of its own');
    assert.equal(await app.db.collection('channels').countDocuments({ account_id: tenant.accountId }), 0);
    // A malformed key is refused too; a channel without a token needs no key at all.
    assert.match(
      usage(
        await cli(['admin', 'channel', 'connect', '--account', tenant.accountId, '--type', 'telegram', '--token', '1:A'], {
          OFFEROPS_SECRET_KEY: 'c2hvcnQ=',
        }),
      ),
      /32 bytes/,
    );
    ok(await cli(['admin', 'channel', 'connect', '--account', tenant.accountId, '--type', 'sandbox'], env));
  });
});

describe('admin group create --channel --address', () => {
  test('the group is connected; the address and channel id never appear in API responses or events', async () => {
    const tenant = await seedTenant(app.db);
    const api = new ApiClient(app.baseUrl, tenant.apiKey);
    const channel = await connect(tenant.accountId);
    const address = '120363041234567890@g.us';
    const out = ok(
      await cli([
        'admin',
        'group',
        'create',
        '--account',
        tenant.accountId,
        '--name',
        'Promo SP',
        '--channel',
        channel,
        '--address',
        address,
        '--min-interval-ms',
        '5000',
      ]),
    );
    const doc = await groupDoc(out.group_id);
    assert.equal(doc!.channel_id, channel);
    assert.equal(doc!.channel_type, 'http');
    assert.equal(doc!.address, address);
    assert.equal(doc!.min_interval_ms, 5000);

    const one = await api.get(`/groups/${out.group_id}`);
    assert.equal(one.status, 200, one.text);
    assert.equal(one.body.data.channel_type, 'http');
    assert.equal((await api.patch(`/groups/${out.group_id}`, { name: 'Promo São Paulo' })).status, 200);
    const list = await api.get('/groups');
    assert.equal(list.body.data.length, 1);
    const events = await app.db.collection('events').find({ account_id: tenant.accountId }).toArray();
    assert.ok(
      events.some((e) => e.kind === 'group.updated'),
      'the update emitted an event',
    );
    for (const text of [one.text, list.text, JSON.stringify(events)]) {
      assert.ok(!text.includes(address), 'no address');
      assert.ok(!text.includes(channel), 'no channel id');
      assert.ok(!text.includes('min_interval_ms'), 'no pacing internals');
    }
  });

  test('the group interval defaults to 3000 ms', async () => {
    const tenant = await seedTenant(app.db);
    const channel = await connect(tenant.accountId);
    const out = ok(
      await cli([
        'admin',
        'group',
        'create',
        '--account',
        tenant.accountId,
        '--name',
        'Default pace',
        '--channel',
        channel,
        '--address',
        'a@g.us',
      ]),
    );
    assert.equal((await groupDoc(out.group_id))!.min_interval_ms, 3000);
  });

  test("--channel and --address go together; the channel must be the account's, in the same environment", async () => {
    const tenant = await seedTenant(app.db);
    const other = await seedTenant(app.db);
    const mine = await connect(tenant.accountId);
    const mineInTest = await connect(tenant.accountId, '--env', 'test');
    const theirs = await connect(other.accountId);
    const create = (...args: string[]) => cli(['admin', 'group', 'create', '--account', tenant.accountId, '--name', 'G', ...args]);
    assert.match(usage(await create('--channel', mine)), /together/);
    assert.match(usage(await create('--address', 'a@g.us')), /together/);
    assert.match(usage(await create('--channel', theirs, '--address', 'a@g.us')), /no channel/i);
    assert.match(usage(await create('--channel', mineInTest, '--address', 'a@g.us')), /no channel/i);
    assert.match(usage(await create('--channel', mine, '--address', 'a@g.us', '--env', 'test')), /no channel/i);
    assert.equal(await app.db.collection('groups').countDocuments({ account_id: tenant.accountId }), 0);
    // The test-environment channel serves test-environment groups.
    const testKey = await addKey(app.db, tenant, { env: 'test' });
    const out = ok(await create('--channel', mineInTest, '--address', 'a@g.us', '--env', 'test'));
    assert.equal((await new ApiClient(app.baseUrl, testKey.apiKey).get(`/groups/${out.group_id}`)).status, 200);
  });
});
