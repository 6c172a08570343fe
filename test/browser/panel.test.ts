/**
 * The developer panel in a real browser (Debian's Chromium through
 * playwright-core, as the storefront test): sign in with a panel link, create
 * a key with two scopes and use it on the API, reset the sandbox, read the
 * channels and the state of their gateways' sessions; screenshots
 * of each page in test-output/browser/. Then the refusals over plain HTTP:
 * forged, reused and expired links, missing or wrong CSRF tokens, another
 * account's session — each refused with nothing changed.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Browser } from 'playwright-core';
import { connectChannel, recordChannelState } from '../../domain/channels/service';
import { createApplication } from '../../domain/developer/applications';
import { createGroup } from '../../domain/groups/store';
import { createPanelLink } from '../../domain/panel/auth';
import { secretKeyFromEnv } from '../../domain/sealing';
import { SCOPES } from '../../schemas/openapi/common';
import { createSeededAccount, sandboxSeedOf } from '../../domain/sandbox/seed';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { ApiClient } from '../helpers/client';
import { cliEnv, ok, runCli } from '../helpers/cli';
import { addKey, stackEnv, startTestApp, terminateRunning, TestApp } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { requestLogsState } from '../helpers/states';

const taskQueue = `test-panel-${randomBytes(4).toString('hex')}`;

let app: TestApp;
let browser: Browser;
let tmp: string;

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'offerops-panel-'));
  app = await startTestApp({ taskQueue });
});
after(async () => {
  await browser?.close();
  await terminateRunning(app, taskQueue);
  await app?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const cli = (...args: string[]) =>
  runCli(args, cliEnv({ MONGODB_URI: stackEnv().mongodbUri, MONGODB_DB: app.dbName, OFFEROPS_PUBLIC_URL: app.origin }), tmp);

async function newAccount(name: string): Promise<string> {
  const { account } = await createSeededAccount({ db: app.db, temporal: { client: app.temporal.client, taskQueue } }, { name, plan: 'pro' });
  return account._id;
}

const panelLink = async (account: string): Promise<string> => ok(await cli('admin', 'panel-link', '--account', account)).url;

/** Signs in over HTTP: the session cookie (name=value) and the page's CSRF token. */
async function signInHttp(link: string): Promise<{ cookie: string; csrf: string }> {
  const token = new URL(link).searchParams.get('token')!;
  const res = await post('/panel/login', { token });
  assert.equal(res.status, 303);
  const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  const page = await fetch(`${app.origin}/panel/keys`, { headers: { cookie } });
  assert.equal(page.status, 200);
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!;
  return { cookie, csrf };
}

function post(path: string, fields: Record<string, string | string[]>, cookie?: string) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
  return fetch(`${app.origin}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body,
  });
}

const countKeys = (account: string) => app.db.collection('api_keys').countDocuments({ account_id: account });
const countSessions = () => app.db.collection('panel_sessions').countDocuments();

describe('the panel in a browser', () => {
  before(async () => {
    browser = await launchBrowser();
  });

  test('sign in with a link, create a key with two scopes and use it, find its request in the logs and the CSV, create and revoke an application, reset the sandbox', async () => {
    const account = await newAccount('Panel account');
    const link = await panelLink(account);
    assert.match(link, new RegExp(`^${app.origin}/panel/login\\?token=opl_`));
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(link);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${app.origin}/panel/keys`);
      const [cookie] = await context.cookies();
      assert.equal(cookie?.httpOnly, true);
      assert.equal(cookie?.sameSite, 'Strict');
      await page.screenshot({ path: screenshotPath('panel-keys'), fullPage: true });
      // The account by its name; the icon the browser asks for is there.
      assert.match(await page.locator('.account').innerText(), new RegExp(`^Account Panel account ${account}$`));
      const icon = await page.request.get(`${app.origin}/favicon.ico`);
      assert.equal(icon.status(), 200);
      assert.equal(icon.headers()['content-type'], 'image/svg+xml');

      // A test key with two scopes, expiring in an hour; the keyboard reaches every control.
      await page.getByLabel('Name').fill('browser key');
      await page.getByLabel('test (sandbox)').check();
      await page.getByLabel('Expires after').selectOption('1h');
      await page.getByLabel('offers:read').check();
      await page.getByLabel('segments:read').check();
      await page.getByRole('button', { name: 'Create key' }).click();
      const secret = await page.locator('#new-secret').inputValue();
      assert.match(secret, /^oo_test_[A-Za-z0-9]{40}$/);
      await page.screenshot({ path: screenshotPath('panel-key-created'), fullPage: true });

      const api = new ApiClient(app.baseUrl, secret);
      const offers = await api.get('/offers');
      assert.equal(offers.status, 200);
      assert.equal(offers.body.data[0].url, 'https://shop.example/sandbox/air-fryer');
      assert.equal((await api.get('/segments')).status, 200);
      assert.equal((await api.post('/segments', { name: 'No' })).status, 403);
      const me = await app.db.collection('api_keys').findOne({ account_id: account, name: 'browser key' });
      assert.deepEqual(me?.scopes, ['offers:read', 'segments:read']);
      assert.equal(me?.env, 'test');
      // The table says the scopes by area, and "all scopes" for a key that has every one.
      await page.goto(`${app.origin}/panel/keys`);
      assert.ok(await page.getByRole('row').filter({ hasText: 'browser key' }).getByText('offers: read; segments: read').count());
      await page.getByLabel('Name').fill('every scope');
      await page.getByLabel('all scopes').check();
      await page.getByRole('button', { name: 'Create key' }).click();
      const every = await app.db.collection('api_keys').findOne({ account_id: account, name: 'every scope' });
      assert.deepEqual(every?.scopes, [...SCOPES]);
      assert.ok(await page.getByRole('row').filter({ hasText: 'every scope' }).getByText('all scopes', { exact: true }).count());
      // Shown once: the page reloaded shows no secret.
      await page.goto(`${app.origin}/panel/keys`);
      assert.equal(await page.locator('#new-secret').count(), 0);
      assert.ok(!(await page.content()).includes(secret));

      // Its request in the logs: filtered by the key, the row of the GET /offers (logs are written in batches: reload until it is stored).
      await page.getByRole('link', { name: 'Request logs' }).click();
      await page.getByLabel('Credential').selectOption({ label: 'key browser key (test)' });
      await page.getByLabel('Status').selectOption('2');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/\/panel\/logs\?credential=key_/);
      const filtered = page.url();
      await waitFor(
        `request ${offers.body.request_id} in the panel`,
        async () => {
          await page.goto(filtered);
          return (await page.getByText(offers.body.request_id).count()) ? true : undefined;
        },
        30_000,
        () => requestLogsState(app.db, [offers.body.request_id]),
      );
      const row = page.getByRole('row').filter({ hasText: offers.body.request_id });
      // Its duration in ms, or in s when the request took a second or more (a loaded machine).
      assert.match(await row.innerText(), /GET\s+\/offers\s+200\s+[\d.]+ m?s\s+key browser key \(test\)\s+test/);
      // The 403 of the POST is not a 2xx.
      assert.equal(await page.getByRole('cell', { name: '403', exact: true }).count(), 0);
      await page.screenshot({ path: screenshotPath('panel-logs'), fullPage: true });

      // The CSV with the same filters: its header and the request's row.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
      assert.equal(download.suggestedFilename(), 'request-logs.csv');
      const lines = readFileSync(await download.path(), 'utf8')
        .trimEnd()
        .split('\n');
      assert.equal(lines[0], 'time,request_id,method,route,status,duration_ms,credential_id,env');
      const csvRow = lines.find((l) => l.includes(offers.body.request_id))?.split(',');
      assert.deepEqual(csvRow?.slice(1, 5), [offers.body.request_id, 'GET', '/offers', '200']);
      assert.deepEqual(csvRow?.slice(6), [me._id, 'test']);
      assert.ok(
        lines.slice(1).every((l) => l.split(',')[4]!.startsWith('2')),
        'only 2xx',
      );

      // An application with two scopes: its client secret shown once, exchanged for a token that works until it is revoked.
      await page.getByRole('link', { name: 'Applications' }).click();
      assert.equal(await page.getByRole('cell', { name: 'None yet.' }).count(), 1);
      await page.getByLabel('Name').fill('browser app');
      await page.getByLabel('test (sandbox)').check();
      await page.getByLabel('offers:read').check();
      await page.getByLabel('segments:read').check();
      await page.getByRole('button', { name: 'Create application' }).click();
      const clientSecret = await page.locator('#new-secret').inputValue();
      assert.match(clientSecret, /^oo_cs_[A-Za-z0-9]{40}$/);
      const clientId = await page.locator('#new-client-id').innerText();
      await page.screenshot({ path: screenshotPath('panel-application-created'), fullPage: true });
      const token = await fetch(`${app.origin}/api/developer/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: clientId, client_secret: clientSecret }),
      });
      assert.equal(token.status, 200);
      const { access_token: accessToken, scope } = (await token.json()) as { access_token: string; scope: string };
      assert.equal(scope, 'offers:read segments:read');
      const appApi = new ApiClient(app.baseUrl, accessToken);
      assert.equal((await appApi.get('/offers')).status, 200);
      await page.goto(`${app.origin}/panel/applications`);
      assert.ok(!(await page.content()).includes(clientSecret));
      const appRow = page.getByRole('row').filter({ hasText: clientId });
      assert.match(await appRow.innerText(), /browser app\s+app_\w+\s+offers: read; segments: read\s+test\s+[\d-]+ [\d:]+\s+no/);
      await page.screenshot({ path: screenshotPath('panel-applications'), fullPage: true });
      // Revoking asks first; the token works until the answer.
      await page.getByRole('button', { name: 'Revoke application browser app' }).click();
      assert.equal((await appApi.get('/offers')).status, 200);
      await page.screenshot({ path: screenshotPath('panel-application-revoke'), fullPage: true });
      await page.getByRole('button', { name: 'Yes, revoke browser app' }).click();
      await page.getByRole('status').filter({ hasText: 'revoked' }).waitFor();
      assert.equal((await appApi.get('/offers')).status, 401);
      assert.equal(await page.getByRole('button', { name: 'Revoke application browser app' }).count(), 0);

      // Reset the sandbox: the extra data goes, the seed comes back with new ids.
      const before = await sandboxSeedOf(app.db, account);
      await addKey(app.db, { accountId: account }, { env: 'test' }).then(async ({ apiKey }) => {
        assert.equal((await new ApiClient(app.baseUrl, apiKey).post('/segments', { name: 'Extra' })).status, 201);
      });
      await page.getByRole('link', { name: 'Sandbox' }).click();
      await page.screenshot({ path: screenshotPath('panel-sandbox'), fullPage: true });
      await page.getByRole('button', { name: 'Reset the sandbox' }).click();
      await page.getByRole('status').filter({ hasText: 'Sandbox reset' }).waitFor();
      const afterSeed = await sandboxSeedOf(app.db, account);
      assert.notEqual(afterSeed?.offer_id, before?.offer_id);
      assert.equal(await app.db.collection('segments').countDocuments({ account_id: account, env: 'test' }), 1);
      await page.screenshot({ path: screenshotPath('panel-sandbox-reset'), fullPage: true });

      await page.getByRole('link', { name: 'Contract tests' }).click();
      await page.screenshot({ path: screenshotPath('panel-contract-tests'), fullPage: true });
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.screenshot({ path: screenshotPath('panel-webhooks'), fullPage: true });
      assert.equal(await page.getByRole('link', { name: 'API reference' }).getAttribute('href'), '/docs');

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.goto(`${app.origin}/panel/keys`);
      assert.ok((await page.content()).includes('panel-link'));
    } finally {
      await context.close();
    }
  });
});

describe('panel refusals', () => {
  test('the channels page shows each channel with its state and since when; never a gateway URL, session, address or key', async () => {
    const account = await newAccount('Channels account');
    const tenant = { accountId: account, env: 'live' as const };
    const connect = (input: Parameters<typeof connectChannel>[2]) => connectChannel(app.db, tenant, input, secretKeyFromEnv);
    const { channel: whatsapp } = await connect({
      type: 'evolution',
      url: 'http://127.0.0.1:9/evolution',
      token: 'evolution-key-s3cr3t',
      instance: 'vendas-instance',
      name: 'WhatsApp vendas',
    });
    const { channel: own } = await connect({
      type: 'http',
      url: 'https://user:pw@gateway.example/x',
      token: 'http-token-s3cr3t',
      name: 'Gateway',
    });
    await createGroup(app.db, tenant, { name: 'Ofertas', channel: { id: whatsapp._id, type: 'evolution', address: '120363000000000077@g.us' } });
    await recordChannelState(app.db, tenant, whatsapp._id, 'connected');
    const down = await recordChannelState(app.db, tenant, whatsapp._id, 'disconnected');

    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(await panelLink(account));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${app.origin}/panel/keys`);
      await page.getByRole('link', { name: 'Channels' }).click();
      await page.waitForURL(`${app.origin}/panel/channels`);
      const cells = async (name: string) =>
        (await page.getByRole('row').filter({ hasText: name }).getByRole('cell').allInnerTexts()).map((t) => t.trim());
      const since = down.state_changed_at!.toISOString().slice(0, 19).replace('T', ' ');
      assert.deepEqual(await cells('WhatsApp vendas'), ['WhatsApp vendas', whatsapp._id, 'evolution', 'disconnected', since, '1', '3000 ms']);
      assert.deepEqual(await cells(own._id), ['Gateway', own._id, 'http', 'unknown', '—', '0', '1000 ms']);
      await page.screenshot({ path: screenshotPath('panel-channels'), fullPage: true });
      const text = await page.content();
      for (const secret of [
        '127.0.0.1:9',
        'vendas-instance',
        'evolution-key-s3cr3t',
        '120363000000000077',
        'gateway.example',
        'http-token-s3cr3t',
      ]) {
        assert.ok(!text.includes(secret), `the page shows ${secret}`);
      }
    } finally {
      await context.close();
    }
  });

  test('on a phone (390 px): the page never scrolls sideways; a wide table scrolls in its own region, its buttons reachable', async () => {
    const account = await newAccount('Phone account');
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    try {
      await page.goto(await panelLink(account));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${app.origin}/panel/keys`);
      await page.getByLabel('Name').fill('phone key');
      await page.getByLabel('offers:read').check();
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.locator('#new-secret').waitFor();
      for (const path of ['/panel/keys', '/panel/applications', '/panel/logs', '/panel/channels']) {
        await page.goto(`${app.origin}${path}`);
        assert.ok((await page.evaluate<number>('document.documentElement.scrollWidth')) <= 390, `${path}: no sideways scroll of the page`);
      }
      await page.goto(`${app.origin}/panel/keys`);
      const region = page.getByRole('region', { name: 'Keys of this account' });
      const revoke = region.getByRole('button', { name: 'Revoke key phone key' });
      await revoke.scrollIntoViewIfNeeded();
      const [shown, frame] = await Promise.all([revoke.boundingBox(), region.boundingBox()]);
      assert.ok(shown!.x >= frame!.x && shown!.x + shown!.width <= frame!.x + frame!.width + 1, 'the button scrolled into the region');
      await page.screenshot({ path: screenshotPath('panel-keys-phone'), fullPage: true });
    } finally {
      await context.close();
    }
  });

  test('forged, reused and expired links are refused and open no session', async () => {
    const account = await newAccount('Links');
    const sessions = await countSessions();
    const forged = await post('/panel/login', { token: `opl_${randomBytes(32).toString('base64url')}` });
    assert.equal(forged.status, 403);
    assert.match(await forged.text(), /not valid/);
    assert.equal((await post('/panel/login', { token: 'nonsense' })).status, 403);

    const link = await panelLink(account);
    await signInHttp(link);
    const reused = await post('/panel/login', { token: new URL(link).searchParams.get('token')! });
    assert.equal(reused.status, 403);
    assert.match(await reused.text(), /used already/);

    const old = await createPanelLink(app.db, account, new Date(Date.now() - 16 * 60_000));
    const expired = await post('/panel/login', { token: old.token });
    assert.equal(expired.status, 403);
    assert.match(await expired.text(), /expired/);
    assert.equal(expired.headers.get('set-cookie'), null);
    assert.equal(await countSessions(), sessions + 1);
    // Links are stored hashed.
    assert.equal(await app.db.collection('panel_links').countDocuments({ _id: old.token } as never), 0);
  });

  test('a form without its CSRF token, or with a wrong one, is refused with 403 and changes nothing', async () => {
    const account = await newAccount('Csrf');
    const { cookie, csrf } = await signInHttp(await panelLink(account));
    const keys = await countKeys(account);
    const fields = { env: 'test', expires: '1h', scopes: ['offers:read'] };
    assert.equal((await post('/panel/keys/create', fields, cookie)).status, 403);
    assert.equal((await post('/panel/keys/create', { ...fields, csrf: `${csrf}x` }, cookie)).status, 403);
    assert.equal((await post('/panel/sandbox/reset', {}, cookie)).status, 403);
    assert.equal((await post('/panel/logout', {}, cookie)).status, 403);
    assert.equal(await countKeys(account), keys);
    // With it, the same form works; without a session nothing does.
    assert.equal((await post('/panel/keys/create', { ...fields, csrf }, cookie)).status, 201);
    assert.equal(await countKeys(account), keys + 1);
    assert.equal((await post('/panel/keys/create', { ...fields, csrf })).status, 401);
    assert.equal(await countKeys(account), keys + 1);
  });

  test("another account's session cannot act on this account; a signed-out session is refused", async () => {
    const a = await newAccount('A');
    const b = await newAccount('B');
    const keyOfA = await addKey(app.db, { accountId: a }, { env: 'live' });
    const sa = await signInHttp(await panelLink(a));
    const sb = await signInHttp(await panelLink(b));
    // B's session with A's CSRF token: refused.
    assert.equal((await post('/panel/keys/revoke', { key_id: keyOfA.keyId, csrf: sa.csrf }, sb.cookie)).status, 403);
    // B's session revoking A's key: no such key for B.
    assert.equal((await post('/panel/keys/revoke', { key_id: keyOfA.keyId, csrf: sb.csrf }, sb.cookie)).status, 404);
    const key = await app.db.collection('api_keys').findOne({ _id: keyOfA.keyId } as never);
    assert.equal(key?.revoked_at, null);
    // B's pages show B's keys only.
    const page = await (await fetch(`${app.origin}/panel/keys`, { headers: { cookie: sb.cookie } })).text();
    assert.ok(!page.includes(keyOfA.keyId));
    // Signed out: the cookie no longer works.
    assert.equal((await post('/panel/logout', { csrf: sa.csrf }, sa.cookie)).status, 200);
    assert.equal((await fetch(`${app.origin}/panel/keys`, { headers: { cookie: sa.cookie } })).status, 401);
    assert.equal((await post('/panel/keys/revoke', { key_id: keyOfA.keyId, csrf: sa.csrf }, sa.cookie)).status, 401);
  });

  test('an application form without its CSRF token is refused and changes nothing; revoking asks first', async () => {
    const account = await newAccount('Apps csrf');
    const { cookie, csrf } = await signInHttp(await panelLink(account));
    const countApps = () => app.db.collection('applications').countDocuments({ account_id: account });
    const fields = { name: 'forged', env: 'test', scopes: ['offers:read'] };
    assert.equal((await post('/panel/applications/create', fields, cookie)).status, 403);
    assert.equal((await post('/panel/applications/create', { ...fields, csrf: `${csrf}x` }, cookie)).status, 403);
    assert.equal(await countApps(), 0);
    const created = await post('/panel/applications/create', { ...fields, csrf }, cookie);
    assert.equal(created.status, 201);
    const id = /id="new-client-id">(app_\w+)</.exec(await created.text())![1]!;
    const state = async () => (await app.db.collection('applications').findOne({ _id: id } as never))?.revoked_at;
    assert.equal((await post('/panel/applications/revoke', { application_id: id, confirm: 'yes' }, cookie)).status, 403);
    assert.equal(await state(), null);
    // With the token but not confirmed: the question, nothing revoked.
    const asked = await post('/panel/applications/revoke', { application_id: id, csrf }, cookie);
    assert.equal(asked.status, 200);
    assert.match(await asked.text(), /Yes, revoke forged/);
    assert.equal(await state(), null);
    assert.equal((await post('/panel/applications/revoke', { application_id: id, csrf, confirm: 'yes' }, cookie)).status, 200);
    assert.ok((await state()) instanceof Date);
    // Bad input: no scope, an unknown scope, no name — 400, nothing made.
    assert.equal((await post('/panel/applications/create', { name: 'x', env: 'test', csrf }, cookie)).status, 400);
    assert.equal((await post('/panel/applications/create', { name: 'x', env: 'test', scopes: 'root', csrf }, cookie)).status, 400);
    assert.equal((await post('/panel/applications/create', { name: ' ', env: 'test', scopes: 'offers:read', csrf }, cookie)).status, 400);
    assert.equal(await countApps(), 1);
  });

  test("another account's session sees none of this account's request logs or applications", async () => {
    const a = await newAccount('Logs A');
    const b = await newAccount('Logs B');
    const keyOfA = await addKey(app.db, { accountId: a }, { env: 'test', scopes: ['offers:read'] });
    const request = (await new ApiClient(app.baseUrl, keyOfA.apiKey).get('/offers')).body.request_id as string;
    await waitFor(
      `request log ${request}`,
      async () => (await app.db.collection('request_logs').findOne({ request_id: request })) ?? undefined,
      30_000,
      () => requestLogsState(app.db, [request]),
    );
    const appOfA = (await createApplication(app.db, { accountId: a, env: 'test' }, { name: 'A app', scopes: ['offers:read'] })).application;
    const sa = await signInHttp(await panelLink(a));
    const sb = await signInHttp(await panelLink(b));
    const get = async (path: string, cookie?: string) => {
      const res = await fetch(`${app.origin}${path}`, { headers: cookie ? { cookie } : {} });
      return { status: res.status, text: await res.text() };
    };
    const byKey = `credential=${keyOfA.keyId}`;

    // A sees its request, on the page and in the CSV, and its application; a time span after it hides it.
    assert.ok((await get(`/panel/logs?${byKey}`, sa.cookie)).text.includes(request));
    const csv = await get(`/panel/logs/export.csv?${byKey}&status=2`, sa.cookie);
    assert.equal(csv.status, 200);
    assert.ok(csv.text.includes(request));
    const later = new Date(Date.now() + 60_000).toISOString().slice(0, 16);
    assert.ok(!(await get(`/panel/logs?${byKey}&since=${later}`, sa.cookie)).text.includes(request));
    assert.equal((await get('/panel/logs?since=yesterday', sa.cookie)).status, 400);
    assert.equal((await get(`/panel/logs?since=${later}&until=${later}`, sa.cookie)).status, 400);
    assert.equal((await get('/panel/logs?status=3', sa.cookie)).status, 400);
    assert.equal((await get('/panel/logs?cursor=nonsense', sa.cookie)).status, 400);
    assert.ok((await get('/panel/applications', sa.cookie)).text.includes(appOfA.id));

    // B: not on its pages, not in its CSV; naming A's key is refused.
    const page = await get('/panel/logs', sb.cookie);
    assert.equal(page.status, 200);
    assert.ok(!page.text.includes(request) && !page.text.includes(keyOfA.keyId));
    const refused = await get(`/panel/logs?${byKey}`, sb.cookie);
    assert.equal(refused.status, 400);
    assert.ok(!refused.text.includes(request));
    assert.equal((await get(`/panel/logs/export.csv?${byKey}`, sb.cookie)).status, 400);
    const own = await get('/panel/logs/export.csv', sb.cookie);
    assert.equal(own.status, 200);
    assert.equal(own.text, 'time,request_id,method,route,status,duration_ms,credential_id,env\n');
    assert.ok(!(await get('/panel/applications', sb.cookie)).text.includes(appOfA.id));
    assert.equal(
      (await post('/panel/applications/revoke', { application_id: appOfA.id, csrf: sb.csrf, confirm: 'yes' }, sb.cookie)).status,
      404,
    );
    assert.equal((await app.db.collection('applications').findOne({ _id: appOfA.id } as never))?.revoked_at, null);
    // Without a session: nothing.
    assert.equal((await get('/panel/logs')).status, 401);
    assert.equal((await get(`/panel/logs/export.csv?${byKey}`)).status, 401);
  });
});
