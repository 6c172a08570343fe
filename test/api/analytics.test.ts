/**
 * The six analytics reports over real HTTP. Publication counters come from
 * real publications (the API queues, a worker in this process sends to sandbox
 * groups and to a local gateway); click and commission counters are written
 * through `addToBuckets` with the counter names their writers use (the links
 * and commissions code keeps them the same way).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { setAccountTimeZone } from '../../domain/accounts/store';
import { addToBuckets, BucketFact } from '../../domain/analytics/buckets';
import { createChannel } from '../../domain/channels/store';
import { Tenant } from '../../domain/db';
import { createGroup } from '../../domain/groups/store';
import { secretKeyFromEnv } from '../../domain/sealing';
import { ApiClient } from '../helpers/client';
import { FakeGateway, startFakeGateway } from '../helpers/fake-gateway';
import { addKey, seedTenant, startTestApp, TestApp } from '../helpers/stack';
import { DAY, HOUR } from '../helpers/time';
import { startTestWorker } from '../helpers/worker';
import { waitFor } from '../helpers/wait';
import { publicationState } from '../helpers/states';

const taskQueue = `test-analytics-${randomBytes(4).toString('hex')}`;
const TOKEN = 'gw-analytics-token';
let app: TestApp;
let worker: { stop(): Promise<void> };
let gateway: FakeGateway;

before(async () => {
  app = await startTestApp({ taskQueue });
  worker = await startTestWorker(app, taskQueue);
  gateway = await startFakeGateway({ token: TOKEN });
});
after(async () => {
  await gateway.close();
  await worker.stop();
  await app.close();
});

let n = 0;

const finished = (api: ApiClient, id: string) =>
  waitFor(
    `publication ${id} to finish`,
    async () => {
      const p = (await api.get(`/publications/${id}`)).body.data;
      return p.completed_at && p.status !== 'sending' ? p : undefined;
    },
    60_000,
    () => publicationState(api, id, app.temporal.client),
  );

const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

async function newTenant(env: 'live' | 'test' = 'live') {
  const t = await seedTenant(app.db, { env });
  const tenant: Tenant = { accountId: t.accountId, env };
  return { t, tenant, api: new ApiClient(app.baseUrl, t.apiKey) };
}

describe('publication counters, from real publications', () => {
  test('a publication to a segment of sandbox groups: counted once when queued, once when sent, once per delivery', async () => {
    const { tenant, api } = await newTenant('test');
    const offer = (
      await api.post('/offers', { url: `https://www.amazon.com.br/dp/B0${++n}`, title: 'Air Fryer', price: 299.9, marketplace: 'Amazon' })
    ).body.data;
    const segment = (await api.post('/segments', { name: `Cozinha ${n}` })).body.data;
    const groups = [];
    for (const name of ['A', 'B', 'C']) groups.push(await createGroup(app.db, tenant, { name: `Cozinha ${name}`, segment_id: segment.id }));

    const key = { headers: { 'Idempotency-Key': `an-${randomBytes(4).toString('hex')}` } };
    const res = await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id }, key);
    assert.equal(res.status, 200, res.text);
    const id = res.body.data.publications[0].id;
    await finished(api, id);
    await app.settle();
    // The same request again returns the same publication, and counts nothing.
    assert.equal((await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id }, key)).body.data.publications[0].id, id);

    const summary = (await api.get('/analytics/summary?days=1')).body.data;
    assert.deepEqual([summary.publications, summary.publications_sent, summary.publications_failed], [1, 1, 0]);
    assert.deepEqual([summary.deliveries, summary.deliveries_sent, summary.deliveries_failed, summary.delivery_rate], [3, 3, 0, 1]);
    assert.equal(summary.time_zone, 'UTC');
    assert.equal(summary.last_day, utcDay(new Date()));

    const rows = (await api.get('/analytics/groups')).body;
    assert.equal(rows.pagination.total, 3);
    assert.deepEqual(
      rows.data.map((g: any) => [g.name, g.publications, g.sent, g.failed, g.delivery_rate]),
      [...groups].sort((a, b) => (a._id < b._id ? -1 : 1)).map((g) => [g.name, 1, 1, 0, 1]),
    );
    const offers = (await api.get('/analytics/offers?sort=publications')).body.data;
    assert.deepEqual(
      offers.map((o: any) => [o.offer_id, o.title, o.marketplace, o.publications, o.posts, o.clicks, o.commissions, o.revenue]),
      [[offer.id, 'Air Fryer', 'Amazon', 1, 1, 0, 0, []]],
    );
    const sources = (await api.get('/analytics/sources')).body.data;
    assert.deepEqual(
      sources.map((s: any) => [s.marketplace, s.publications]),
      [['amazon', 1]],
    );
    const today = (await api.get('/analytics/timeseries?days=2')).body.data.points;
    assert.deepEqual(
      today.map((p: any) => [p.publications, p.posts, p.failures, p.deliveries_sent]),
      [
        [0, 0, 0, 0],
        [1, 1, 0, 3],
      ],
    );
  });

  test('a permanent failure in one group of two: the publication counts as sent (partial), one delivery sent and one failed', async () => {
    const { tenant, api } = await newTenant('live');
    const channel = await createChannel(app.db, tenant, { type: 'http', url: gateway.url, token: TOKEN, minIntervalMs: 0 }, secretKeyFromEnv());
    const segment = (await api.post('/segments', { name: `Live ${++n}` })).body.data;
    const groups = [];
    for (let i = 0; i < 2; i++) {
      const address = `1203631${++n}@g.us`;
      groups.push({
        address,
        group: await createGroup(app.db, tenant, {
          name: `Live ${i}`,
          segment_id: segment.id,
          channel: { id: channel._id, type: 'http', address },
          minIntervalMs: 0,
        }),
      });
    }
    gateway.failTo(groups[1]!.address, 400);
    const offer = (await api.post('/offers', { url: `https://shopee.com.br/item-${++n}`, title: 'Smart TV', price: 1999 })).body.data;
    const res = await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id });
    assert.equal((await finished(api, res.body.data.publications[0].id)).status, 'partial');
    // The queued count is the request's bookkeeping after its answer (within AFTER_ANSWER_MS): run it now.
    await app.settle();

    const summary = (await api.get('/analytics/summary')).body.data;
    assert.deepEqual(
      [summary.publications, summary.publications_sent, summary.publications_failed, summary.deliveries_sent, summary.deliveries_failed],
      [1, 1, 0, 1, 1],
    );
    assert.equal(summary.delivery_rate, 0.5);
    const byGroup = new Map((await api.get('/analytics/groups')).body.data.map((g: any) => [g.group_id, g]));
    assert.deepEqual(
      groups.map(({ group }) => {
        const g: any = byGroup.get(group._id);
        return [g.sent, g.failed, g.delivery_rate];
      }),
      [
        [1, 0, 1],
        [0, 1, 0],
      ],
    );
    // No marketplace on the offer: its URL's host names it.
    assert.deepEqual(
      (await api.get('/analytics/sources')).body.data.map((s: any) => s.marketplace),
      ['shopee'],
    );
  });
});

describe('clicks and commissions (as their writers count them)', () => {
  const click = (at: Date, keys: { group?: string; offer?: string; source?: string; element?: string; page?: string } = {}, bot = false) => {
    const counter = bot ? 'bot_clicks' : 'clicks';
    return {
      at,
      incs: [
        { dimension: 'totals' as const, counter, by: 1 },
        { dimension: 'hours' as const, counter, by: 1 },
        ...(keys.group ? [{ dimension: 'groups' as const, key: keys.group, counter, by: 1 }] : []),
        ...(keys.offer ? [{ dimension: 'offers' as const, key: keys.offer, counter, by: 1 }] : []),
        ...(keys.source ? [{ dimension: 'sources' as const, key: keys.source, counter, by: 1 }] : []),
        ...(keys.element ? [{ dimension: 'elements' as const, key: keys.element, counter, by: 1 }] : []),
        ...(keys.page ? [{ dimension: 'pages' as const, key: keys.page, counter, by: 1 }] : []),
      ],
    };
  };
  const commission = (at: Date, currency: string, amountMinor: number, keys: { offer?: string; source?: string } = {}, by = 1): BucketFact => ({
    at,
    incs: (
      [
        ['totals', undefined],
        ['offers', keys.offer],
        ['sources', keys.source],
      ] as const
    )
      .filter(([dimension, key]) => dimension === 'totals' || key)
      .flatMap(([dimension, key]) => [
        { dimension, ...(key ? { key } : {}), counter: `commissions.${currency}.count`, by },
        { dimension, ...(key ? { key } : {}), counter: `commissions.${currency}.amount_minor`, by: by * amountMinor },
      ]),
  });

  test('clicks without bots by default; commissions per currency in integer minor units and decimal strings; refunds subtract', async () => {
    const { tenant, api } = await newTenant();
    const group = await createGroup(app.db, tenant, { name: 'Ofertas VIP' });
    const now = new Date();
    await addToBuckets(app.db, tenant, [
      click(now, { group: group._id, offer: 'off_aaaaaaaa', source: 'amazon' }),
      click(now, { group: group._id, offer: 'off_aaaaaaaa', source: 'amazon' }),
      click(now, { group: 'grp_deleted0', offer: 'off_bbbbbbbb', source: 'shopee' }),
      click(now, { group: group._id, offer: 'off_aaaaaaaa', source: 'amazon' }, true),
      commission(now, 'BRL', 12345, { offer: 'off_aaaaaaaa', source: 'amazon' }),
      commission(now, 'BRL', 5, { offer: 'off_aaaaaaaa', source: 'amazon' }),
      commission(now, 'USD', 999, { offer: 'off_bbbbbbbb', source: 'shopee' }),
      commission(now, 'JPY', 500),
      // Counted, then refunded: gone from every count.
      commission(now, 'EUR', 700, { offer: 'off_bbbbbbbb' }),
      commission(now, 'EUR', 700, { offer: 'off_bbbbbbbb' }, -1),
    ]);
    const summary = (await api.get('/analytics/summary')).body.data;
    assert.deepEqual([summary.clicks, summary.bot_clicks], [3, 1]);
    assert.deepEqual(summary.commissions, [
      { currency: 'BRL', count: 2, amount_minor: 12350, amount: '123.50' },
      { currency: 'JPY', count: 1, amount_minor: 500, amount: '500' },
      { currency: 'USD', count: 1, amount_minor: 999, amount: '9.99' },
    ]);
    assert.equal((await api.get('/analytics/summary?include_bots=true')).body.data.clicks, 4);

    const groups = (await api.get('/analytics/groups')).body.data;
    assert.deepEqual(
      groups.map((g: any) => [g.group_id, g.name, g.clicks, g.publications, g.delivery_rate]),
      [
        [group._id, 'Ofertas VIP', 2, 0, null],
        ['grp_deleted0', null, 1, 0, null],
      ],
    );
    const offers = (await api.get('/analytics/offers')).body.data;
    assert.deepEqual(
      offers.map((o: any) => [o.offer_id, o.title, o.clicks, o.commissions, o.revenue.map((m: any) => m.amount)]),
      [
        ['off_aaaaaaaa', null, 2, 2, ['123.50']],
        ['off_bbbbbbbb', null, 1, 1, ['9.99']],
      ],
    );
    const second = (await api.get('/analytics/offers?include_bots=true&sort=commissions&limit=1&offset=1')).body;
    assert.deepEqual(second.pagination, { total: 2, limit: 1, offset: 1, has_more: false });
    assert.deepEqual([second.data[0].offer_id, second.data[0].clicks], ['off_bbbbbbbb', 1]);
    assert.equal((await api.get('/analytics/offers?include_bots=true')).body.data[0].clicks, 3);
    assert.deepEqual(
      (await api.get('/analytics/sources')).body.data.map((s: any) => [
        s.marketplace,
        s.clicks,
        s.commissions,
        s.revenue.map((m: any) => m.currency),
      ]),
      [
        ['amazon', 2, 2, ['BRL']],
        ['shopee', 1, 1, ['USD']],
      ],
    );
    const point = (await api.get('/analytics/timeseries?days=1')).body.data.points[0];
    assert.deepEqual([point.clicks, point.commissions.map((m: any) => m.currency)], [3, ['BRL', 'JPY', 'USD']]);
  });

  test("the account's time zone moves a fact across a day boundary: days, hours and weekdays are local", async () => {
    // 01:30 UTC two days ago is 22:30 of the day before in São Paulo (UTC-3 all year).
    const base = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) - 2 * DAY;
    const at = new Date(base + 1.5 * HOUR);
    const spDay = utcDay(new Date(at.getTime() - 3 * HOUR));
    const seen = async (timeZone: string | null) => {
      const { tenant, api } = await newTenant();
      if (timeZone) assert.equal(await setAccountTimeZone(app.db, tenant.accountId, timeZone), timeZone);
      await addToBuckets(app.db, tenant, [click(at, { element: 'offer-card', page: 'pag_home' })]);
      const series = (await api.get('/analytics/timeseries?days=7')).body.data;
      const heat = (await api.get('/analytics/heatmap?days=7')).body.data;
      // The pages say the same window beside their pagination.
      const window = { days: 7, time_zone: series.time_zone, first_day: series.first_day, last_day: series.last_day };
      for (const page of ['groups', 'offers', 'sources'])
        assert.deepEqual((await api.get(`/analytics/${page}?days=7`)).body.window, window, page);
      return { series, heat, day: series.points.find((p: any) => p.clicks === 1)?.date, cell: heat.hours.find((c: any) => c.clicks === 1) };
    };
    const utc = await seen(null);
    assert.equal(utc.series.time_zone, 'UTC');
    assert.equal(utc.day, utcDay(at));
    assert.deepEqual(utc.cell, { weekday: at.getUTCDay(), hour: 1, clicks: 1 });
    const sp = await seen('America/Sao_Paulo');
    assert.equal(sp.series.time_zone, 'America/Sao_Paulo');
    assert.equal(sp.day, spDay);
    assert.notEqual(sp.day, utc.day);
    assert.deepEqual(sp.cell, { weekday: new Date(`${spDay}T00:00:00Z`).getUTCDay(), hour: 22, clicks: 1 });
    assert.equal(sp.heat.hours.length, 168);
    assert.deepEqual(
      [sp.heat.clicks, sp.heat.elements, sp.heat.pages],
      [1, [{ element: 'offer-card', clicks: 1 }], [{ page_id: 'pag_home', clicks: 1 }]],
    );
    assert.deepEqual(sp.series.points.length, 7);
    assert.equal(sp.series.first_day, sp.series.points[0].date);
  });

  test('days: 1 is today only, 365 the most; 0, 366 and non-integers are refused with 400', async () => {
    const { tenant, api } = await newTenant();
    const now = new Date();
    await addToBuckets(app.db, tenant, [
      click(now),
      click(new Date(now.getTime() - DAY)),
      click(new Date(now.getTime() - 364 * DAY)),
      click(new Date(now.getTime() - 366 * DAY)),
    ]);
    const clicks = async (days: number) => (await api.get(`/analytics/summary?days=${days}`)).body.data.clicks;
    assert.equal(await clicks(1), 1);
    assert.equal(await clicks(2), 2);
    assert.equal(await clicks(365), 3);
    assert.equal((await api.get('/analytics/summary')).body.data.days, 30);
    const year = (await api.get('/analytics/timeseries?days=365')).body.data;
    assert.equal(year.points.length, 365);
    assert.equal(
      year.points.reduce((s: number, p: any) => s + p.clicks, 0),
      3,
    );
    for (const path of ['summary', 'timeseries', 'groups', 'offers', 'sources', 'heatmap']) {
      for (const bad of ['0', '366', '1.5', 'week', '-1']) {
        const res = await api.get(`/analytics/${path}?days=${bad}`);
        assert.equal(res.status, 400, `${path} days=${bad}`);
        assert.equal(res.body.code, 'validation_failed');
      }
    }
    assert.equal((await api.get('/analytics/offers?sort=revenue')).status, 400);
    assert.equal((await api.get('/analytics/summary?include_bots=maybe')).status, 400);
  });

  test("tenancy: another account and the sandbox of the same account see none of an account's counts", async () => {
    const { t, tenant, api } = await newTenant();
    await addToBuckets(app.db, tenant, [
      click(new Date(), { group: 'grp_x', offer: 'off_x', source: 'amazon', element: 'buy' }),
      commission(new Date(), 'BRL', 100),
    ]);
    assert.equal((await api.get('/analytics/summary')).body.data.clicks, 1);
    const other = (await newTenant()).api;
    const { apiKey } = await addKey(app.db, t, { env: 'test' });
    const sandbox = new ApiClient(app.baseUrl, apiKey);
    for (const client of [other, sandbox]) {
      const summary = (await client.get('/analytics/summary')).body.data;
      assert.deepEqual([summary.clicks, summary.commissions], [0, []]);
      for (const path of ['groups', 'offers', 'sources']) assert.deepEqual((await client.get(`/analytics/${path}`)).body.data, []);
      const heat = (await client.get('/analytics/heatmap')).body.data;
      assert.deepEqual([heat.clicks, heat.elements], [0, []]);
    }
  });
});
