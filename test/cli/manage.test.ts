/**
 * Listing, changing and removing what operators made — accounts, keys,
 * channels, groups — with the compiled `offerops` binary against the
 * database the API under test uses; and the CLI's help and usage errors.
 * The app's task queue has no worker, so a publication stays in flight.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { secretKeyFromEnv, unseal } from '../../domain/sealing';
import { publicationWorkflowId } from '../../temporal/names';
import { ApiClient } from '../helpers/client';
import { CliRun, cliEnv, ok, runCli, usage } from '../helpers/cli';
import { seedTenant, stackEnv, startTestApp, TestApp } from '../helpers/stack';

const taskQueue = `test-cli-manage-${randomBytes(4).toString('hex')}`;
let app: TestApp;
let tmp: string;
const started: string[] = [];

before(async () => {
  app = await startTestApp({ taskQueue });
  tmp = mkdtempSync(join(tmpdir(), 'offerops-cli-manage-'));
});
after(async () => {
  for (const id of started) {
    await app.temporal.client.workflow
      .getHandle(publicationWorkflowId(id))
      .terminate('test over')
      .catch(() => undefined);
  }
  rmSync(tmp, { recursive: true, force: true });
  await app.close();
});

const cli = (...args: string[]) => runCli(args, cliEnv({ MONGODB_URI: stackEnv().mongodbUri, MONGODB_DB: app.dbName }), tmp);
const api = (key: string) => new ApiClient(app.baseUrl, key);
const doc = (collection: string, id: string) => app.db.collection(collection).findOne({ _id: id } as object);

/** Exit 2 with a DomainError's `{error, code}`: the code and the message. */
function refused(run: CliRun): { code: string; error: string } {
  usage(run);
  return JSON.parse(run.stderr.trim()) as { code: string; error: string };
}

describe('help and usage', () => {
  const CLI = resolve(__dirname, '../../tools/cli/offerops.js');

  for (const args of [
    ['--help'],
    ['-h'],
    ['admin', '--help'],
    ['admin', 'key', '-h'],
    ['admin', 'key', 'create', '--help'],
    ['--help', 'admin', 'group', 'update'],
    ['dev', '--help'],
    ['dev', 'receiver', '-h'],
  ]) {
    test(`offerops ${args.join(' ')}: plain text help on stdout, exit 0`, async () => {
      const run = await cli(...args);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stderr, '');
      assert.match(run.stdout, /usage: offerops/);
      assert.throws(() => JSON.parse(run.stdout) as unknown);
    });
  }

  test('each level lists what is below it; a command shows its options and what it prints', async () => {
    assert.match((await cli('--help')).stdout, /admin[\s\S]*dev/);
    const area = (await cli('admin', '--help')).stdout;
    for (const line of ['account list', 'key list', 'channel update CHANNEL_ID', 'group delete GROUP_ID']) assert.ok(area.includes(line), line);
    const noun = (await cli('admin', 'channel', '--help')).stdout;
    assert.ok(noun.includes('delete CHANNEL_ID') && !noun.includes('revoke'), noun);
    const one = (await cli('admin', 'key', 'revoke', '--help')).stdout;
    assert.match(one, /usage: offerops admin key revoke KEY_ID/);
    assert.match(one, /prints: \{"revoked": true\}/);
  });

  test('extra arguments are errors: admin key revoke a b revokes nothing', async () => {
    const tenant = await seedTenant(app.db);
    assert.match(usage(await cli('admin', 'key', 'revoke', tenant.keyId, 'b')), /unexpected argument: b/);
    assert.equal((await doc('api_keys', tenant.keyId))!.revoked_at, null);
    assert.equal((await api(tenant.apiKey).get('/me')).status, 200);
    assert.match(usage(await cli('admin', 'account', 'list', 'extra')), /unexpected argument: extra/);
    assert.match(usage(await cli('admin', 'key', 'revoke')), /missing KEY_ID/);
    assert.match(usage(await cli('admin', 'account', 'list', '--name', 'x')), /--name/);
    assert.match(usage(await cli('admin')), /needs a command/);
    assert.match(usage(await cli()), /no command/);
  });

  // `script` runs the CLI on a pseudo-terminal, as an operator's shell does.
  const hasScript = (() => {
    try {
      execFileSync('script', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  test('on a terminal a usage error is text with the usage; --json makes it JSON', { skip: !hasScript && 'no script(1)' }, () => {
    const onTty = (...args: string[]): { code: number; out: string } => {
      const command = [process.execPath, CLI, ...args].map((a) => `'${a}'`).join(' ');
      try {
        return { code: 0, out: execFileSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', env: cliEnv({}) }) };
      } catch (err) {
        const e = err as { status: number; stdout: string };
        return { code: e.status, out: e.stdout };
      }
    };
    const text = onTty('admin', 'key', 'revoke', 'a', 'b');
    assert.equal(text.code, 2);
    assert.match(text.out, /^offerops: unexpected argument: b/);
    assert.match(text.out, /usage: offerops admin key revoke KEY_ID/);
    const json = onTty('admin', 'key', 'revoke', 'a', 'b', '--json');
    assert.equal(json.code, 2);
    assert.deepEqual(JSON.parse(json.out.trim()), { error: 'unexpected argument: b' });
    const help = onTty('admin', '--help');
    assert.equal(help.code, 0);
    assert.match(help.out, /usage: offerops admin <command>/);
  });
});

describe('admin account list, admin key list', () => {
  test('accounts: id, name, plan, created_at — and no key', async () => {
    const a = ok(await cli('admin', 'account', 'create', '--name', 'Lista A'));
    const b = ok(await cli('admin', 'account', 'create', '--name', 'Lista B', '--plan', 'business'));
    const run = await cli('admin', 'account', 'list');
    const { accounts } = ok(run);
    const ours = accounts.filter((x: any) => x.id === a.account_id || x.id === b.account_id);
    assert.deepEqual(
      ours.map((x: any) => [x.name, x.plan]),
      [
        ['Lista A', 'pro'],
        ['Lista B', 'business'],
      ],
    );
    assert.deepEqual(Object.keys(ours[0]).sort(), ['created_at', 'id', 'name', 'plan']);
    assert.ok(!run.stdout.includes(a.api_key) && !run.stdout.includes('oo_live_'));
  });

  test('keys: each with its state, never the secret, hash or prefix; --env filters; an unknown account is refused', async () => {
    const { account_id, api_key } = ok(await cli('admin', 'account', 'create', '--name', 'Keys'));
    const test = ok(await cli('admin', 'key', 'create', '--account', account_id, '--scopes', 'offers:read', '--env', 'test', '--name', 'ci'));
    const gone = ok(await cli('admin', 'key', 'create', '--account', account_id, '--scopes', 'all', '--name', 'old'));
    ok(await cli('admin', 'key', 'revoke', gone.key_id));
    const run = await cli('admin', 'key', 'list', '--account', account_id);
    const { keys } = ok(run);
    assert.deepEqual(
      keys.map((k: any) => [k.name, k.env, k.state]),
      [
        ['owner key', 'live', 'active'],
        ['ci', 'test', 'active'],
        ['old', 'live', 'revoked'],
      ],
    );
    assert.deepEqual(keys[1].scopes, ['offers:read']);
    assert.ok(keys[1].expires_at && keys[2].revoked_at && keys[0].expires_at === null);
    assert.deepEqual(Object.keys(keys[0]).sort(), ['created_at', 'env', 'expires_at', 'id', 'name', 'revoked_at', 'scopes', 'state']);
    for (const secret of [api_key, test.api_key, gone.api_key]) {
      assert.ok(!run.stdout.includes(secret));
      assert.ok(!run.stdout.includes(secret.slice(0, 12)), 'no prefix');
      assert.ok(!run.stdout.includes(createHash('sha256').update(secret).digest('hex')), 'no hash');
    }
    assert.deepEqual(
      ok(await cli('admin', 'key', 'list', '--account', account_id, '--env', 'test')).keys.map((k: any) => k.id),
      [test.key_id],
    );
    assert.equal(refused(await cli('admin', 'key', 'list', '--account', 'acc_0000000000000000000000')).code, 'not_found');
    assert.match(usage(await cli('admin', 'key', 'list')), /--account/);
  });
});

const TOKEN = 'manage-S3cret-gateway-token';

async function connect(accountId: string, ...extra: string[]): Promise<string> {
  return ok(
    await cli(
      'admin',
      'channel',
      'connect',
      '--account',
      accountId,
      '--type',
      'http',
      '--url',
      'http://127.0.0.1:9/gw',
      '--token',
      TOKEN,
      ...extra,
    ),
  ).channel_id as string;
}

describe('admin channel list / update / delete', () => {
  test('list shows each channel with its group count, never the token nor a password in its URL', async () => {
    const tenant = await seedTenant(app.db);
    const first = await connect(tenant.accountId, '--name', 'WhatsApp 1');
    const second = ok(
      await cli('admin', 'channel', 'connect', '--account', tenant.accountId, '--type', 'http', '--url', 'https://bot:pa55word@gw.example/x'),
    ).channel_id;
    ok(await cli('admin', 'group', 'create', '--account', tenant.accountId, '--name', 'G', '--channel', first, '--address', 'a@g.us'));
    const run = await cli('admin', 'channel', 'list', '--account', tenant.accountId);
    const { channels } = ok(run);
    assert.deepEqual(
      channels.map((c: any) => [c.id, c.name, c.has_token, c.groups]),
      [
        [first, 'WhatsApp 1', true, 1],
        [second, 'http channel', false, 0],
      ],
    );
    assert.equal(channels[1].url, 'https://bot:***@gw.example/x');
    assert.ok(!run.stdout.includes(TOKEN) && !run.stdout.includes('pa55word') && !run.stdout.includes('credentials'));
    // The test environment has its own channels.
    assert.deepEqual(ok(await cli('admin', 'channel', 'list', '--account', tenant.accountId, '--env', 'test')).channels, []);
  });

  test('a channel name is unique in the account and environment: connecting twice is refused, not doubled', async () => {
    const tenant = await seedTenant(app.db);
    const id = await connect(tenant.accountId, '--name', 'Gateway');
    const again = refused(await cli('admin', 'channel', 'connect', '--account', tenant.accountId, '--type', 'sandbox', '--name', 'Gateway'));
    assert.equal(again.code, 'conflict');
    assert.ok(again.error.includes(id), again.error);
    assert.equal(await app.db.collection('channels').countDocuments({ account_id: tenant.accountId }), 1);
    ok(await cli('admin', 'channel', 'connect', '--account', tenant.accountId, '--type', 'sandbox', '--name', 'Gateway', '--env', 'test'));
  });

  test('update changes what is given; a new token is sealed under the worker key', async () => {
    const tenant = await seedTenant(app.db);
    const id = await connect(tenant.accountId, '--name', 'Old');
    const other = await connect(tenant.accountId, '--name', 'Other');
    const out = ok(
      await cli(
        'admin',
        'channel',
        'update',
        id,
        '--account',
        tenant.accountId,
        '--name',
        'New',
        '--url',
        'http://127.0.0.1:9911',
        '--token',
        'fresh-token',
        '--min-interval-ms',
        '250',
      ),
    );
    assert.deepEqual(out, { channel_id: id, changed: ['name', 'url', 'min_interval_ms', 'token'] });
    const after = await doc('channels', id);
    assert.equal(after!.name, 'New');
    assert.equal(after!.url, 'http://127.0.0.1:9911');
    assert.equal(after!.min_interval_ms, 250);
    assert.equal(unseal(after!.credentials, secretKeyFromEnv()), 'fresh-token');
    assert.deepEqual(ok(await cli('admin', 'channel', 'update', id, '--account', tenant.accountId, '--name', 'New')).changed, []);
    assert.equal(refused(await cli('admin', 'channel', 'update', id, '--account', tenant.accountId, '--name', 'Other')).code, 'conflict');
    assert.equal((await doc('channels', other))!.name, 'Other');
    assert.match(usage(await cli('admin', 'channel', 'update', id, '--account', tenant.accountId)), /nothing to change/);
    assert.match(usage(await cli('admin', 'channel', 'update', id, '--account', tenant.accountId, '--url', 'ftp://x')), /--url/);
    assert.equal(
      refused(await cli('admin', 'channel', 'update', 'chn_0000000000000000000000', '--account', tenant.accountId, '--name', 'X')).code,
      'not_found',
    );
  });

  test('delete refuses while a group is connected through it (naming the group), then deletes', async () => {
    const tenant = await seedTenant(app.db);
    const id = await connect(tenant.accountId);
    const group = ok(
      await cli('admin', 'group', 'create', '--account', tenant.accountId, '--name', 'On it', '--channel', id, '--address', 'x@g.us'),
    );
    const held = refused(await cli('admin', 'channel', 'delete', id, '--account', tenant.accountId));
    assert.equal(held.code, 'resource_in_use');
    assert.match(held.error, new RegExp(`1 group \\(${group.group_id}\\)`));
    assert.ok(await doc('channels', id));
    ok(await cli('admin', 'group', 'update', group.group_id, '--account', tenant.accountId, '--disconnect'));
    assert.deepEqual(ok(await cli('admin', 'channel', 'delete', id, '--account', tenant.accountId)), { deleted: true });
    assert.equal(await doc('channels', id), null);
    assert.equal(refused(await cli('admin', 'channel', 'delete', id, '--account', tenant.accountId)).code, 'not_found');
  });
});

describe('admin group list / update / delete', () => {
  test('update attaches a channel to an existing group; list shows its channel and only a hint of its address', async () => {
    const tenant = await seedTenant(app.db);
    const channel = await connect(tenant.accountId);
    const { group_id } = ok(await cli('admin', 'group', 'create', '--account', tenant.accountId, '--name', 'Later'));
    const address = '5511999990001@g.us';
    const out = ok(await cli('admin', 'group', 'update', group_id, '--account', tenant.accountId, '--channel', channel, '--address', address));
    assert.deepEqual(out, { group_id, changed: ['channel_id', 'channel_type', 'address'] });
    const stored = await doc('groups', group_id);
    assert.equal(stored!.channel_id, channel);
    assert.equal(stored!.address, address);
    // The API shows the channel type, so the change is announced (the outbox sweep relays it); without the address.
    const events = stored!._outbox as { kind: string; data: { changed: string[] } }[];
    assert.deepEqual(
      events.map((e) => [e.kind, e.data.changed]),
      [['group.updated', ['channel_type']]],
    );
    assert.ok(!JSON.stringify(events).includes(address));
    assert.equal((await api(tenant.apiKey).get(`/groups/${group_id}`)).body.data.channel_type, 'http');

    const run = await cli('admin', 'group', 'list', '--account', tenant.accountId);
    const [listed] = ok(run).groups;
    assert.equal(listed.id, group_id);
    assert.equal(listed.channel_id, channel);
    assert.equal(listed.address_hint, '…0001@g.us');
    assert.ok(!run.stdout.includes(address));

    // One group per channel and address: a second one is refused, naming the first.
    const twin = refused(
      await cli('admin', 'group', 'create', '--account', tenant.accountId, '--name', 'Twin', '--channel', channel, '--address', address),
    );
    assert.equal(twin.code, 'conflict');
    assert.ok(twin.error.includes(group_id));
    assert.equal(await app.db.collection('groups').countDocuments({ account_id: tenant.accountId }), 1);
  });

  test('update: name, segment (and none), active, pacing; --segment filters the list; bad input is refused', async () => {
    const tenant = await seedTenant(app.db);
    const seg = (await api(tenant.apiKey).post('/segments', { name: 'Casa', slug: 'casa' })).body.data.id;
    const { group_id } = ok(await cli('admin', 'group', 'create', '--account', tenant.accountId, '--name', 'G1'));
    const out = ok(
      await cli(
        'admin',
        'group',
        'update',
        group_id,
        '--account',
        tenant.accountId,
        '--name',
        'Grupo 1',
        '--segment',
        seg,
        '--active',
        'false',
        '--min-interval-ms',
        '4000',
      ),
    );
    assert.deepEqual(out.changed, ['name', 'segment_id', 'active', 'min_interval_ms']);
    const shown = (await api(tenant.apiKey).get(`/groups/${group_id}`)).body.data;
    assert.deepEqual([shown.name, shown.segment_id, shown.active], ['Grupo 1', seg, false]);
    assert.deepEqual(
      ok(await cli('admin', 'group', 'list', '--account', tenant.accountId, '--segment', seg)).groups.map((g: any) => g.id),
      [group_id],
    );
    ok(await cli('admin', 'group', 'update', group_id, '--account', tenant.accountId, '--segment', 'none'));
    assert.equal((await doc('groups', group_id))!.segment_id, null);
    const update = (...args: string[]) => cli('admin', 'group', 'update', group_id, '--account', tenant.accountId, ...args);
    assert.match(usage(await update()), /nothing to change/);
    assert.match(usage(await update('--active', 'maybe')), /--active/);
    assert.match(usage(await update('--channel', 'chn_x')), /together/);
    assert.match(usage(await update('--channel', 'chn_x', '--address', 'a', '--disconnect')), /--disconnect/);
    assert.equal(refused(await update('--segment', 'seg_0000000000000000000000')).code, 'not_found');
    assert.equal(refused(await update('--channel', 'chn_0000000000000000000000', '--address', 'a@g.us')).code, 'not_found');
    assert.equal(
      refused(await cli('admin', 'group', 'update', 'grp_0000000000000000000000', '--account', tenant.accountId, '--name', 'x')).code,
      'not_found',
    );
  });

  test('delete: refused while a publication to the group is in flight or a schedule names it; otherwise gone', async () => {
    const tenant = await seedTenant(app.db);
    const client = api(tenant.apiKey);
    const channel = ok(await cli('admin', 'channel', 'connect', '--account', tenant.accountId, '--type', 'sandbox')).channel_id;
    const busy = ok(
      await cli('admin', 'group', 'create', '--account', tenant.accountId, '--name', 'Busy', '--channel', channel, '--address', 'b@g.us'),
    );
    const offer = (await client.post('/offers', { url: 'https://shop.example/manage/1', title: 'Cafeteira', price: 149.9 })).body.data;
    const published = await client.post(`/offers/${offer.id}/publish`, { group_id: busy.group_id });
    assert.equal(published.status, 200, published.text);
    const pub = published.body.data.publications[0].id as string;
    started.push(pub);
    const inFlight = refused(await cli('admin', 'group', 'delete', busy.group_id, '--account', tenant.accountId));
    assert.equal(inFlight.code, 'resource_in_use');
    assert.match(inFlight.error, new RegExp(`1 publication \\(${pub}\\) in flight`));
    assert.ok(await doc('groups', busy.group_id));

    const planned = ok(await cli('admin', 'group', 'create', '--account', tenant.accountId, '--name', 'Planned')).group_id;
    const schedule = await client.post('/schedules', { text: 'Bom dia', group_id: planned, run_at: '2030-01-06T09:00:00-03:00' });
    assert.equal(schedule.status, 201, schedule.text);
    const named = refused(await cli('admin', 'group', 'delete', planned, '--account', tenant.accountId));
    assert.equal(named.code, 'resource_in_use');
    assert.ok(named.error.includes(schedule.body.data.id), named.error);

    const idle = ok(await cli('admin', 'group', 'create', '--account', tenant.accountId, '--name', 'Idle')).group_id;
    assert.deepEqual(ok(await cli('admin', 'group', 'delete', idle, '--account', tenant.accountId)), { deleted: true });
    assert.equal((await client.get(`/groups/${idle}`)).status, 404);
    assert.equal(refused(await cli('admin', 'group', 'delete', idle, '--account', tenant.accountId)).code, 'not_found');
    assert.match(usage(await cli('admin', 'group', 'delete', idle, 'extra', '--account', tenant.accountId)), /unexpected argument/);
  });
});
