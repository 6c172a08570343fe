/**
 * Webhooks CRUD and its disclosure rules: HTTPS only, event kinds from the
 * catalogue, a secret shown once and stored sealed (never listed, never in
 * events, never changed by PATCH), and SSRF refusals of private destinations.
 * Delivery itself is in test/workflows/webhook-delivery.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { secretKeyFromEnv, unseal } from '../../domain/sealing';
import { EVENT_KINDS } from '../../schemas/events/index';
import { ApiClient } from '../helpers/client';
import { seedTenant, startTestApp, TestApp } from '../helpers/stack';

let app: TestApp;
/** A second API on the same database without the allow-list: the production default. */
let strict: TestApp;

before(async () => {
  app = await startTestApp({ webhookAllow: ['127.0.0.1'] });
  strict = await startTestApp({ dbName: app.dbName });
});
after(async () => {
  await strict.close();
  await app.close();
});

const HOOK = 'https://127.0.0.1:8443/hook';

async function tenant(on: TestApp = app) {
  return new ApiClient(on.baseUrl, (await seedTenant(on.db)).apiKey);
}

const rawWebhook = (id: string) => app.db.collection('webhooks').findOne({ _id: id } as any);
const webhookEvents = (id: string) =>
  app.db
    .collection('events')
    .find({ kind: /^webhook\./, 'data.webhook.id': id }, { sort: { _id: 1 } })
    .toArray();

describe('the signing secret', () => {
  test('is shown once at creation, stored sealed, and never listed, read back or put in an event', async () => {
    const api = await tenant();
    const created = await api.post('/webhooks', { url: HOOK, events: ['offer.created'], description: 'CRM' });
    assert.equal(created.status, 201);
    const { secret, id } = created.body.data;
    assert.match(secret, /^whsec_[A-Za-z0-9+/]+={0,2}$/);
    assert.equal(Buffer.from(secret.slice('whsec_'.length), 'base64').length, 32, '32 random bytes');
    const key = secret.slice('whsec_'.length);

    for (const res of [
      await api.get(`/webhooks/${id}`),
      await api.get('/webhooks'),
      await api.patch(`/webhooks/${id}`, { description: 'CRM 2' }),
    ]) {
      assert.equal(res.status, 200);
      assert.ok(!res.text.includes(key) && !res.text.includes('secret'), res.text);
    }
    const stored = await rawWebhook(id);
    assert.ok(!JSON.stringify(stored).includes(key), 'the webhooks collection holds the secret sealed only');
    assert.equal(unseal(stored!.secret, secretKeyFromEnv()), secret, 'and it unseals to the one shown');
    const events = await webhookEvents(id);
    assert.deepEqual(
      events.map((e) => e.kind),
      ['webhook.created', 'webhook.updated'],
    );
    assert.ok(!JSON.stringify(events).includes(key) && !JSON.stringify(events).includes('secret'));
  });

  test('PATCH never changes it, and cannot be asked to', async () => {
    const api = await tenant();
    const created = (await api.post('/webhooks', { url: HOOK, events: ['offer.created'] })).body.data;
    const sealed = (await rawWebhook(created.id))!.secret;
    const patched = await api.patch(`/webhooks/${created.id}`, { url: 'https://127.0.0.1:8443/moved', events: ['*'], state: 'disabled' });
    assert.equal(patched.status, 200);
    assert.equal((await rawWebhook(created.id))!.secret, sealed);
    const refused = await api.patch(`/webhooks/${created.id}`, { secret: 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' });
    assert.equal(refused.status, 400);
    assert.equal((await rawWebhook(created.id))!.secret, sealed);
  });
});

describe('CRUD', () => {
  test('create, read, list with a state filter, update, delete — each change with its event', async () => {
    const api = await tenant();
    const created = await api.post('/webhooks', { url: HOOK, events: ['offer.created', 'publication.completed'], state: 'disabled' });
    const hook = created.body.data;
    assert.deepEqual([hook.state, hook.disabled_reason, hook.last_delivery_at], ['disabled', 'manual', null]);
    const { secret, ...safe } = hook;
    assert.match(secret, /^whsec_/);
    assert.deepEqual((await api.get(`/webhooks/${hook.id}`)).body.data, safe);

    const enabled = await api.patch(`/webhooks/${hook.id}`, { state: 'enabled', events: ['*'] });
    assert.deepEqual([enabled.body.data.state, enabled.body.data.disabled_reason, enabled.body.data.events], ['enabled', null, ['*']]);
    const other = (await api.post('/webhooks', { url: HOOK, events: ['offer.updated'], state: 'disabled' })).body.data;
    const disabledOnly = await api.get('/webhooks?state=disabled');
    assert.deepEqual(
      disabledOnly.body.data.map((w: any) => w.id),
      [other.id],
    );
    assert.equal((await api.get('/webhooks')).body.pagination.total, 2);

    const unchanged = await api.patch(`/webhooks/${hook.id}`, { state: 'enabled' });
    assert.equal(unchanged.body.data.updated_at, enabled.body.data.updated_at, 'a PATCH that changes nothing writes nothing');

    const deleted = await api.delete(`/webhooks/${hook.id}`);
    assert.deepEqual([deleted.status, deleted.body.deleted, deleted.body.id], [200, true, hook.id]);
    assert.equal((await api.get(`/webhooks/${hook.id}`)).status, 404);
    assert.equal((await api.delete(`/webhooks/${hook.id}`)).status, 404);
    assert.equal((await api.patch(`/webhooks/${hook.id}`, { state: 'disabled' })).status, 404);

    const kinds = (await webhookEvents(hook.id)).map((e) => [e.kind, e.data.changed ?? null]);
    assert.deepEqual(kinds, [
      ['webhook.created', null],
      ['webhook.updated', ['events', 'state', 'disabled_reason']],
    ]);
    const gone = await app.db.collection('events').findOne({ kind: 'webhook.deleted', 'data.webhook_id': hook.id });
    assert.ok(gone, 'webhook.deleted is recorded');
  });

  test('HTTPS URLs only', async () => {
    const api = await tenant();
    const res = await api.post('/webhooks', { url: 'http://127.0.0.1:8080/hook', events: ['offer.created'] });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validation_failed');
    assert.equal(res.body.details[0].field, 'url');
  });

  test('subscribed kinds come from the event catalogue (or *); an unknown kind is a 400 naming it', async () => {
    const api = await tenant();
    const unknown = await api.post('/webhooks', { url: HOOK, events: ['offer.created', 'offer.exploded'] });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 'validation_failed');
    assert.deepEqual(
      unknown.body.details.map((d: any) => [d.field, d.rule]),
      [['events.1', 'enum']],
    );
    const doc = (await fetch(`${app.baseUrl}/openapi.json`).then((r) => r.json())) as any;
    assert.deepEqual(doc.components.schemas.WebhookCreate.properties.events.items.enum, ['*', ...EVENT_KINDS]);
    const hook = (await api.post('/webhooks', { url: HOOK, events: ['*'] })).body.data;
    assert.deepEqual(hook.events, ['*']);
    const patch = await api.patch(`/webhooks/${hook.id}`, { events: ['webhook.exploded'] });
    assert.equal(patch.status, 400);
    assert.equal(patch.body.details[0].field, 'events.0');
    assert.deepEqual((await api.get(`/webhooks/${hook.id}`)).body.data.events, ['*']);
  });
});

describe('SSRF guard', () => {
  const PRIVATE = [
    '127.0.0.1',
    '10.1.2.3',
    '172.16.5.5',
    '192.168.0.10',
    '169.254.169.254',
    '0.0.0.0',
    '[::1]',
    '[fd00::1]',
    '[fe80::1]',
    '[::ffff:127.0.0.1]',
    '[::ffff:10.0.0.1]',
    'localhost',
    // IPv6 forms that carry 169.254.169.254 (cloud metadata): NAT64, 6to4, Teredo (client XOR-ed), IPv4-translated
    '[64:ff9b::a9fe:a9fe]',
    '[2002:a9fe:a9fe::1]',
    '[2001:0:4136:e378:8000:63bf:5601:5601]',
    '[::ffff:0:a9fe:a9fe]',
    '[64:ff9b:1::a9fe:a9fe]',
  ];

  test('loopback, private, link-local, unique-local, mapped and IPv4-carrying destinations are refused without the allow-list', async () => {
    const api = await tenant(strict);
    for (const host of PRIVATE) {
      const res = await api.post('/webhooks', { url: `https://${host}/hook`, events: ['offer.created'] });
      assert.equal(res.status, 400, host);
      assert.equal(res.body.code, 'validation_failed', host);
      assert.equal(res.body.details[0].field, 'url', host);
      assert.match(res.body.message, /OFFEROPS_WEBHOOK_ALLOW/, host);
    }
  });

  test('a host that does not resolve is refused without the allow-list hint (it could not help)', async () => {
    const res = await (await tenant(strict)).post('/webhooks', { url: 'https://no-such-host.invalid/hook', events: ['offer.created'] });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /does not resolve/);
    assert.doesNotMatch(res.body.message, /OFFEROPS_WEBHOOK_ALLOW/);
  });

  test('a PATCH to a private destination is refused too, and the webhook keeps its URL', async () => {
    const { apiKey } = await seedTenant(app.db);
    const hook = (await new ApiClient(app.baseUrl, apiKey).post('/webhooks', { url: HOOK, events: ['offer.created'] })).body.data;
    const api = new ApiClient(strict.baseUrl, apiKey); // the same account, through the API without the allow-list
    for (const url of ['https://10.0.0.8/hook', 'https://[fd12:3456::1]/hook']) {
      const res = await api.patch(`/webhooks/${hook.id}`, { url });
      assert.equal(res.status, 400, url);
      assert.equal(res.body.details[0].field, 'url', url);
    }
    assert.equal((await api.get(`/webhooks/${hook.id}`)).body.data.url, HOOK);
  });

  test('re-enabling a webhook whose destination became refused checks it again', async () => {
    const { apiKey } = await seedTenant(app.db);
    const allowed = new ApiClient(app.baseUrl, apiKey);
    const hook = (await allowed.post('/webhooks', { url: HOOK, events: ['offer.created'] })).body.data;
    // As the worker leaves it when the allow-list no longer names the destination.
    await app.db.collection('webhooks').updateOne({ _id: hook.id }, { $set: { state: 'disabled', disabled_reason: 'destination_refused' } });
    const refused = await new ApiClient(strict.baseUrl, apiKey).patch(`/webhooks/${hook.id}`, { state: 'enabled' });
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /OFFEROPS_WEBHOOK_ALLOW/);
    const still = (await allowed.get(`/webhooks/${hook.id}`)).body.data;
    assert.deepEqual([still.state, still.disabled_reason], ['disabled', 'destination_refused']);
    const enabled = await allowed.patch(`/webhooks/${hook.id}`, { state: 'enabled' });
    assert.equal(enabled.status, 200, enabled.text);
    assert.deepEqual([enabled.body.data.state, enabled.body.data.disabled_reason], ['enabled', null]);
  });
});
