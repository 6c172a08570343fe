/**
 * Spec 5 and 7, issue 2 section 5: another account's resources are invisible
 * (404 on every by-id operation built so far, nothing changed), and live and
 * test data of one account are fully separate.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Environment } from '../../domain/db';
import { connectChannel } from '../../domain/channels/service';
import { applyReport } from '../../domain/commissions/service';
import { createGroup } from '../../domain/groups/store';
import { operations } from '../../schemas/operations';
import { ApiClient } from '../helpers/client';
import { addKey, seedTenant, startTestApp, TestApp } from '../helpers/stack';

let app: TestApp;
let api: ApiClient;

before(async () => {
  app = await startTestApp({ webhookAllow: ['127.0.0.1'] });
  api = new ApiClient(app.baseUrl, (await seedTenant(app.db)).apiKey);
});
after(() => app.close());

let n = 0;
const uniqueUrl = () => `https://shop.example/tenancy/${Date.now()}-${++n}`;

/** One offer, one segment and one group of a tenant, made through the API (groups through the store: they come from channels). */
async function seedResources(client: ApiClient, tenant: { accountId: string; env: Environment }) {
  const offer = await client.post('/offers', { url: uniqueUrl(), title: 'Tenant offer', price: 10, original_price: 20 });
  assert.equal(offer.status, 201, offer.text);
  const segment = await client.post('/segments', { name: `Tenant segment ${++n}`, store_name: 'Secret Store' });
  assert.equal(segment.status, 201, segment.text);
  const group = await createGroup(app.db, tenant, { name: 'Tenant group', channel: { id: 'chn_1', type: 'whatsapp', address: '123@g.us' } });
  const template = await client.post('/templates', { name: 'Tenant template', body: 'Secret Store {title}', is_default: true });
  assert.equal(template.status, 201, template.text);
  const webhook = await client.post('/webhooks', { url: 'https://127.0.0.1/tenant-hook', events: ['offer.created'] });
  assert.equal(webhook.status, 201, webhook.text);
  const published = await client.post(`/offers/${offer.body.data.id}/publish`, { group_id: group._id });
  // Its move to `sending` runs after the answer: done now, so that it does not land between two snapshots.
  await app.settle();
  assert.equal(published.status, 200, published.text);
  const schedule = await client.post('/schedules', {
    text: 'Tenant schedule',
    group_id: group._id,
    run_at: new Date(Date.now() + 365 * 86_400_000).toISOString(),
  });
  assert.equal(schedule.status, 201, schedule.text);
  const conversation = await seedConversation(tenant);
  const journey = await client.post('/journeys', {
    name: 'Tenant journey',
    trigger: 'conversation.created',
    blocks: [
      { id: 'start', type: 'trigger', config: {}, next: ['hello'] },
      { id: 'hello', type: 'message', config: { text: 'Secret Store welcome' }, next: ['done'] },
      { id: 'done', type: 'end', config: {} },
    ],
  });
  assert.equal(journey.status, 201, journey.text);
  const monitor = await client.post('/monitors', {
    name: 'Tenant monitor',
    sources: [{ type: 'merchant_xml', url: 'https://127.0.0.1:9/secret-store.xml' }],
    frequency: { every_minutes: 60 },
    state: 'paused',
  });
  assert.equal(monitor.status, 201, monitor.text);
  const coupon = await client.post('/coupons', { code: `TENANT${++n}`, store: 'Secret Store', discount: { type: 'percent', value: 10 } });
  assert.equal(coupon.status, 201, coupon.text);
  const { commission } = await applyReport(app.db, tenant, {
    marketplace: 'amazon',
    transaction_id: `TENANT-${++n}`,
    status: 'pending',
    amount_minor: 100,
    currency: 'BRL',
    order_amount_minor: null,
    order_ref: null,
    occurred_at: new Date(),
    at: new Date(),
    sub_id: null,
    product_url: null,
    source: 'postback',
  });
  return {
    coupon: coupon.body.data.id as string,
    commission: commission._id,
    offer: offer.body.data.id as string,
    segment: segment.body.data.id as string,
    group: group._id,
    template: template.body.data.id as string,
    publication: published.body.data.publications[0].id as string,
    webhook: webhook.body.data.id as string,
    schedule: schedule.body.data.id as string,
    conversation,
    journey: journey.body.data.id as string,
    monitor: monitor.body.data.id as string,
  };
}

/** A conversation of a tenant, made the way conversations come: an inbound message on one of its channels. */
async function seedConversation(tenant: { accountId: string; env: Environment }): Promise<string> {
  const { inboundSecret, channel } = await connectChannel(
    app.db,
    tenant,
    { type: 'http', url: 'http://127.0.0.1:1', name: 'Tenant gateway' },
    () => {
      throw new Error('an http channel without a token seals nothing');
    },
  );
  const res = await fetch(`${app.origin}/inbound/${channel._id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${inboundSecret!}` },
    body: JSON.stringify({ id: `wamid.tenancy.${++n}`, from: '5511900000000@s.whatsapp.net', name: 'Tenant contact', text: 'Secret Store?' }),
  });
  const body = (await res.json()) as { data: { conversation_id: string } };
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.data.conversation_id;
}

type Ids = Awaited<ReturnType<typeof seedResources>>;

/** The by-id operations, each with the id it takes and a body that would change something. */
function byIdOperations(ids: Ids) {
  const resources: Record<string, { id: string; change: Record<string, unknown> }> = {
    offers: { id: ids.offer, change: { title: 'Hijacked title', price: 1 } },
    segments: { id: ids.segment, change: { name: 'Hijacked', store_name: 'Hijacked' } },
    groups: { id: ids.group, change: { name: 'Hijacked', active: false } },
    templates: { id: ids.template, change: { name: 'Hijacked', is_default: false } },
    publications: { id: ids.publication, change: {} },
    webhooks: { id: ids.webhook, change: { description: 'Hijacked', state: 'disabled' } },
    schedules: { id: ids.schedule, change: { name: 'Hijacked', status: 'paused' } },
    inbox: { id: ids.conversation, change: { assignee: 'Hijacker', priority: 'urgent' } },
    journeys: { id: ids.journey, change: { name: 'Hijacked' } },
    monitors: { id: ids.monitor, change: { name: 'Hijacked', state: 'active' } },
    commissions: { id: ids.commission, change: {} },
    coupons: { id: ids.coupon, change: { code: 'HIJACKED', verified: true } },
  };
  return operations
    .filter((op) => op.path.includes('{id}'))
    .map((op) => {
      const resource = resources[op.path.split('/')[1]!];
      assert.ok(resource, `${op.operationId} is built and takes an id: add its resource to this test`);
      const body = op.operationId.endsWith('_preview')
        ? { segment_id: ids.segment }
        : op.operationId.endsWith('_reply')
          ? { text: 'Hijacked reply' }
          : op.operationId.endsWith('_publish')
            ? { group_id: ids.group }
            : op.method === 'patch'
              ? resource.change
              : undefined;
      return { op, method: op.method.toUpperCase(), path: op.path.replace('{id}', resource.id), body };
    });
}

/** Everything the owner can read of its resources, to compare before and after. */
async function snapshot(owner: ApiClient, ids: Ids, accountId: string) {
  const read = async (path: string) => {
    const res = await owner.get(path);
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    return res.body.data;
  };
  return {
    offer: await read(`/offers/${ids.offer}`),
    segment: await read(`/segments/${ids.segment}`),
    group: await read(`/groups/${ids.group}`),
    template: await read(`/templates/${ids.template}`),
    publication: await read(`/publications/${ids.publication}`),
    webhook: await read(`/webhooks/${ids.webhook}`),
    schedule: await read(`/schedules/${ids.schedule}`),
    conversation: await read(`/inbox/conversations/${ids.conversation}`),
    messages: await read(`/inbox/conversations/${ids.conversation}/messages`),
    journey: await read(`/journeys/${ids.journey}`),
    monitor: await read(`/monitors/${ids.monitor}`),
    coupon: await read(`/coupons/${ids.coupon}`),
    commission: await read(`/commissions/${ids.commission}`),
    offers: await read('/offers?limit=100'),
    segments: await read('/segments?limit=100'),
    groups: await read('/groups?limit=100'),
    events: await app.db.collection('events').countDocuments({ account_id: accountId }),
  };
}

describe("another account's resources", () => {
  test('are a 404 not_found on every by-id operation built so far, and stay unchanged', async () => {
    const ownerTenant = await seedTenant(app.db);
    const owner = api.withKey(ownerTenant.apiKey);
    const ids = await seedResources(owner, ownerTenant);
    const before = await snapshot(owner, ids, ownerTenant.accountId);
    const stranger = api.withKey((await seedTenant(app.db)).apiKey);

    const cases = byIdOperations(ids);
    for (const path of ['/offers/{id}', '/offers/{id}/preview', '/groups/{id}', '/segments/{id}']) {
      assert.ok(
        cases.some((c) => c.op.path === path),
        `the table has no built operation at ${path}`,
      );
    }
    for (const { op, method, path, body } of cases) {
      const res = await stranger.call(method, path, body === undefined ? {} : { body });
      assert.equal(res.status, 404, `${op.operationId}: ${res.text}`);
      assert.equal(res.body.code, 'not_found', op.operationId);
      assert.ok(!res.text.includes('Secret Store') && !res.text.includes('Tenant'), `${op.operationId} leaks data: ${res.text}`);
    }
    assert.deepEqual(await snapshot(owner, ids, ownerTenant.accountId), before);
  });

  test('never appear in lists', async () => {
    const ownerTenant = await seedTenant(app.db);
    const ids = await seedResources(api.withKey(ownerTenant.apiKey), ownerTenant);
    const stranger = api.withKey((await seedTenant(app.db)).apiKey);
    for (const [path, id] of [
      ['/offers?limit=100', ids.offer],
      ['/offers?limit=100&query=Tenant', ids.offer],
      ['/segments?limit=100', ids.segment],
      ['/groups?limit=100', ids.group],
      [`/groups?segment_id=${ids.segment}`, ids.group],
    ] as const) {
      const res = await stranger.get(path);
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      assert.ok(!res.body.data.some((item: any) => item.id === id), `${path} shows ${id}`);
      assert.equal(res.body.pagination.total, 0, path);
    }
  });

  test('cannot be referenced from one of my own resources', async () => {
    const ownerTenant = await seedTenant(app.db);
    const theirs = await seedResources(api.withKey(ownerTenant.apiKey), ownerTenant);
    const meTenant = await seedTenant(app.db);
    const me = api.withKey(meTenant.apiKey);
    const mine = await seedResources(me, meTenant);

    const preview = await me.post(`/offers/${mine.offer}/preview`, { segment_id: theirs.segment });
    assert.equal(preview.status, 400, preview.text);
    assert.equal(preview.body.code, 'unknown_reference');
    assert.ok(!preview.text.includes('Secret Store'));

    const groupBefore = (await me.get(`/groups/${mine.group}`)).body.data;
    const link = await me.patch(`/groups/${mine.group}`, { segment_id: theirs.segment });
    assert.equal(link.status, 400, link.text);
    assert.equal(link.body.code, 'unknown_reference');
    assert.deepEqual((await me.get(`/groups/${mine.group}`)).body.data, groupBefore);
    assert.equal((await api.withKey(ownerTenant.apiKey).get(`/segments/${theirs.segment}`)).body.data.group_count, 0);
  });

  test('offer URLs and segment slugs are unique per account, not globally', async () => {
    const a = api.withKey((await seedTenant(app.db)).apiKey);
    const b = api.withKey((await seedTenant(app.db)).apiKey);
    const url = uniqueUrl();
    const slug = `shared-slug-${++n}`;
    const first = await a.post('/offers', { url, title: 'Account A offer' });
    const second = await b.post('/offers', { url, title: 'Account B offer' });
    assert.equal(first.status, 201);
    assert.equal(second.status, 201, second.text);
    assert.equal(second.body.created, true);
    assert.notEqual(second.body.data.id, first.body.data.id);
    assert.equal(second.body.data.title, 'Account B offer');
    assert.equal((await a.get(`/offers/${first.body.data.id}`)).body.data.title, 'Account A offer');
    assert.equal((await a.post('/segments', { name: 'A', slug })).status, 201);
    assert.equal((await b.post('/segments', { name: 'B', slug })).status, 201);
  });
});

describe('live and test data of one account', () => {
  async function liveAndTest() {
    const live = await seedTenant(app.db);
    const testKey = await addKey(app.db, live, { env: 'test', expiresInMs: 3_600_000 });
    return {
      accountId: live.accountId,
      live: api.withKey(live.apiKey),
      test: api.withKey(testKey.apiKey),
    };
  }

  for (const [from, to] of [
    ['live', 'test'],
    ['test', 'live'],
  ] as const) {
    test(`a ${to} key sees none of the ${from} offers, segments and groups`, async () => {
      const account = await liveAndTest();
      const owner = account[from];
      const other = account[to];
      const listPaths = ['/offers?limit=100', '/offers?status=archived', '/segments?limit=100', '/groups?limit=100'];
      const totals: Record<string, number> = {};
      for (const path of listPaths) totals[path] = (await other.get(path)).body.pagination.total;

      const ids = await seedResources(owner, { accountId: account.accountId, env: from });
      const archived = (await owner.post('/offers', { url: uniqueUrl(), title: 'Archived offer' })).body.data.id;
      assert.equal((await owner.delete(`/offers/${archived}`)).status, 200);
      const before = await snapshot(owner, ids, account.accountId);

      for (const path of listPaths) {
        const res = await other.get(path);
        assert.equal(res.status, 200);
        assert.equal(res.body.pagination.total, totals[path], `${to} ${path} changed when ${from} data was created`);
        for (const id of [ids.offer, ids.segment, ids.group, archived]) {
          assert.ok(!res.body.data.some((item: any) => item.id === id), `${to} ${path} shows ${from} ${id}`);
        }
      }
      for (const { op, method, path, body } of byIdOperations(ids)) {
        const res = await other.call(method, path, body === undefined ? {} : { body });
        assert.equal(res.status, 404, `${to} key, ${op.operationId} on ${from} data: ${res.text}`);
        assert.equal(res.body.code, 'not_found');
      }
      assert.equal((await other.get(`/offers/${archived}`)).status, 404);
      assert.deepEqual(await snapshot(owner, ids, account.accountId), before);
    });
  }

  test('a fresh test environment starts with no live data at all', async () => {
    const account = await liveAndTest();
    await seedResources(account.live, { accountId: account.accountId, env: 'live' });
    for (const path of ['/offers', '/segments', '/groups']) {
      const res = await account.test.get(path);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.data, [], path);
      assert.equal(res.body.pagination.total, 0, path);
    }
  });

  test('offer URL idempotency is per environment', async () => {
    const account = await liveAndTest();
    const url = uniqueUrl();
    const live = await account.live.post('/offers', { url, title: 'Live offer' });
    const test1 = await account.test.post('/offers', { url, title: 'Test offer' });
    assert.equal(live.status, 201);
    assert.equal(live.body.created, true);
    assert.equal(test1.status, 201, test1.text);
    assert.equal(test1.body.created, true);
    assert.notEqual(test1.body.data.id, live.body.data.id);
    assert.equal(test1.body.data.title, 'Test offer');
    // Each environment now finds its own.
    const liveAgain = await account.live.post('/offers', { url, title: 'Ignored' });
    const testAgain = await account.test.post('/offers', { url, title: 'Ignored' });
    assert.equal(liveAgain.status, 200);
    assert.equal(liveAgain.body.created, false);
    assert.equal(liveAgain.body.data.id, live.body.data.id);
    assert.equal(liveAgain.body.data.title, 'Live offer');
    assert.equal(testAgain.status, 200);
    assert.equal(testAgain.body.created, false);
    assert.equal(testAgain.body.data.id, test1.body.data.id);
    assert.equal(testAgain.body.data.title, 'Test offer');
    const stored = await app.db.collection('offers').find({ url }).toArray();
    assert.deepEqual(stored.map((o) => o.env).sort(), ['live', 'test']);
  });

  test('segment slugs are unique per environment', async () => {
    const account = await liveAndTest();
    const slug = `env-slug-${++n}`;
    assert.equal((await account.live.post('/segments', { name: 'Live', slug })).status, 201);
    const inTest = await account.test.post('/segments', { name: 'Test', slug });
    assert.equal(inTest.status, 201, inTest.text);
    assert.equal(inTest.body.data.slug, slug);
    assert.equal((await account.test.post('/segments', { name: 'Again', slug })).status, 409);
  });

  test('GET /me says which environment the key acts on', async () => {
    const account = await liveAndTest();
    const test = await account.test.get('/me');
    assert.equal(test.status, 200);
    assert.equal(test.body.data.account.environment, 'test');
    assert.equal(test.body.data.actor.environment, 'test');
    assert.equal(test.body.data.account.id, account.accountId);
    const live = await account.live.get('/me');
    assert.equal(live.body.data.account.environment, 'live');
    assert.equal(live.body.data.actor.environment, 'live');
  });
});
