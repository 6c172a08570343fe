/**
 * The operator commands of issue 26, run as the compiled `offerops` binary
 * against each WhatsApp gateway's stand-in: `admin channel connect --type
 * evolution|waha --public-url` sets the gateway's webhook and records the
 * session's state; `admin channel groups` lists the groups by hint and
 * imports chosen ones once; `admin channel check` asks the state again.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { secretKeyFromEnv, unseal } from '../../domain/sealing';
import { ApiClient } from '../helpers/client';
import { cliEnv, ok, runCli, usage } from '../helpers/cli';
import { FAKE_API_KEY, FLAVORS, startFakeWhatsApp, WhatsAppGatewayFake } from '../helpers/fake-whatsapp';
import { seedTenant, stackEnv, startTestApp, TestApp } from '../helpers/stack';

let app: TestApp;
let tmp: string;

before(async () => {
  app = await startTestApp();
  tmp = mkdtempSync(join(tmpdir(), 'offerops-cli-whatsapp-'));
});
after(async () => {
  rmSync(tmp, { recursive: true, force: true });
  await app.close();
});

const cli = (args: string[]) => runCli(args, cliEnv({ MONGODB_URI: stackEnv().mongodbUri, MONGODB_DB: app.dbName }), tmp);
const channelDoc = (id: string) => app.db.collection('channels').findOne({ _id: id } as object);

for (const flavor of FLAVORS) {
  describe(`${flavor}: admin channel connect, groups, check`, () => {
    let fake: WhatsAppGatewayFake;
    before(async () => {
      fake = await startFakeWhatsApp(flavor);
      fake.groups = [
        { id: '120363000000000001@g.us', subject: 'Ofertas Cozinha', size: 250 },
        { id: '120363000000000002@g.us', subject: 'Ofertas TV', size: 12 },
        { id: '120363000000000003@g.us', subject: 'Ofertas TV', size: 40 },
      ];
    });
    after(() => fake.close());

    test('connect sets the webhook and records the state; groups are listed by hint and imported once; check reads the state', async () => {
      const tenant = await seedTenant(app.db);
      const account = ['--account', tenant.accountId];
      // WAHA restarts the session when its webhook is set: connect prints the state it settles in, not STARTING's.
      fake.restartMs = 2000;
      const run = await cli([
        'admin',
        'channel',
        'connect',
        ...account,
        '--type',
        flavor,
        '--url',
        fake.url,
        '--token',
        FAKE_API_KEY,
        '--instance',
        fake.session,
        '--public-url',
        app.origin,
      ]);
      assert.ok(!run.stdout.includes(FAKE_API_KEY));
      const out = ok(run);
      assert.equal(out.webhook, `set: ${app.origin}/inbound/${out.channel_id}`);
      assert.equal(out.state, 'connected');
      if (flavor === 'waha') assert.ok(fake.stateChecks.length >= 2, `asked again while the session started (${fake.stateChecks.length} asks)`);
      fake.restartMs = 0;
      assert.deepEqual(fake.webhook, { url: `${app.origin}/inbound/${out.channel_id}`, secret: out.inbound_secret });
      const doc = await channelDoc(out.channel_id);
      assert.deepEqual([doc?.type, doc?.instance, doc?.state, doc?.min_interval_ms], [flavor, fake.session, 'connected', 3000]);
      assert.equal(unseal(doc!.credentials, secretKeyFromEnv()), FAKE_API_KEY);
      assert.ok(!JSON.stringify(doc).includes(out.inbound_secret), 'the inbound secret is never stored in clear');

      const groups = (args: string[] = []) => cli(['admin', 'channel', 'groups', out.channel_id, ...account, ...args]);
      const listed = ok(await groups());
      assert.deepEqual(listed.groups, [
        { name: 'Ofertas Cozinha', size: 250, address_hint: '…0001@g.us', group_id: null },
        { name: 'Ofertas TV', size: 12, address_hint: '…0002@g.us', group_id: null },
        { name: 'Ofertas TV', size: 40, address_hint: '…0003@g.us', group_id: null },
      ]);
      assert.ok(!JSON.stringify(listed).includes('120363000000000001'), 'never the whole JID');

      assert.match(usage(await groups(['--import', 'Ofertas TV'])), /names 2 groups; give the address hint/);
      assert.match(usage(await groups(['--import', 'Nope'])), /names no group/);
      const segment = (await new ApiClient(app.baseUrl, tenant.apiKey).post('/segments', { name: 'Ofertas' })).body.data.id;
      const imported = ok(await groups(['--import', 'Ofertas Cozinha,…0003@g.us', '--segment', segment]));
      assert.deepEqual(
        imported.imported.map((g: any) => [g.name, g.address_hint]),
        [
          ['Ofertas Cozinha', '…0001@g.us'],
          ['Ofertas TV', '…0003@g.us'],
        ],
      );
      assert.deepEqual(imported.existing, []);
      const made = await app.db.collection('groups').findOne({ _id: imported.imported[0].group_id } as object);
      assert.deepEqual(
        [made?.channel_id, made?.channel_type, made?.address, made?.segment_id],
        [out.channel_id, flavor, '120363000000000001@g.us', segment],
      );
      const again = ok(await groups(['--import', 'all']));
      assert.deepEqual(
        again.imported.map((g: any) => g.address_hint),
        ['…0002@g.us'],
      );
      assert.deepEqual(again.existing.map((g: any) => g.address_hint).sort(), ['…0001@g.us', '…0003@g.us']);
      assert.equal(await app.db.collection('groups').countDocuments({ account_id: tenant.accountId, channel_id: out.channel_id }), 3);

      fake.connected = false;
      assert.deepEqual(ok(await cli(['admin', 'channel', 'check', out.channel_id, ...account])), {
        channel_id: out.channel_id,
        state: 'disconnected',
      });
      fake.connected = true;
      const channels = ok(await cli(['admin', 'channel', 'list', ...account])).channels;
      assert.deepEqual([channels[0].state, channels[0].instance, channels[0].groups], ['disconnected', fake.session, 3]);
      assert.ok(!JSON.stringify(channels).includes(FAKE_API_KEY));
    });

    test('a URL, an API key and (Evolution) an instance are required; a gateway refusing the key is said plainly', async () => {
      const tenant = await seedTenant(app.db);
      const base = ['admin', 'channel', 'connect', '--account', tenant.accountId, '--type', flavor];
      assert.match(usage(await cli([...base, '--token', 'k', '--instance', 'x'])), /--url is required/);
      assert.match(usage(await cli([...base, '--url', fake.url, '--instance', 'x'])), /API key/);
      if (flavor === 'evolution') assert.match(usage(await cli([...base, '--url', fake.url, '--token', 'k'])), /--instance/);
      const wrong = ok(await cli([...base, '--url', fake.url, '--token', 'wrong', '--instance', fake.session, '--public-url', app.origin]));
      assert.match(wrong.webhook, /^failed: .*API key \(401\)/);
      const listing = await cli(['admin', 'channel', 'groups', wrong.channel_id, '--account', tenant.accountId]);
      assert.match(usage(listing), /API key \(401\)/);
    });
  });
}

test('group discovery and the session check refuse a channel that is not a WhatsApp gateway, each naming itself', async () => {
  const tenant = await seedTenant(app.db);
  const http = ok(
    await cli([
      'admin',
      'channel',
      'connect',
      '--account',
      tenant.accountId,
      '--type',
      'http',
      '--url',
      'https://gateway.example',
      '--token',
      't',
    ]),
  );
  const run = await cli(['admin', 'channel', 'groups', http.channel_id, '--account', tenant.accountId]);
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /http channel; group discovery needs an evolution or waha channel/);
  const check = await cli(['admin', 'channel', 'check', http.channel_id, '--account', tenant.accountId]);
  assert.equal(check.code, 2, check.stderr);
  assert.match(check.stderr, /http channel; a session check needs an evolution or waha channel/);
});
