/**
 * Issue 12 section 4: commissions — postbacks (signed, by token, unsigned,
 * replayed, out of order), attribution (by click id, inferred from the
 * product, none), the reads (list filters, get, summary per currency), the
 * analytics counters, events, and tenancy.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createPostbackSecret } from '../../domain/commissions/postbacks';
import { createGroup } from '../../domain/groups/store';
import { secretKeyFromEnv } from '../../domain/sealing';
import { ApiClient } from '../helpers/client';
import { recordClick } from '../helpers/clicks';
import { seedTenant, startTestApp, Tenant, TestApp } from '../helpers/stack';

let app: TestApp;
let me: Tenant;
let api: ApiClient;
let endpoint: { integration_id: string; secret: string };

before(async () => {
  app = await startTestApp();
  me = await seedTenant(app.db, { env: 'test' });
  api = new ApiClient(app.baseUrl, me.apiKey);
  endpoint = await createPostbackSecret(app.db, me, 'amazon', secretKeyFromEnv());
});
after(() => app.close());

let n = 0;
const txn = () => `TX-${Date.now()}-${++n}`;
const sign = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

async function postback(
  fields: Record<string, unknown>,
  opts: { to?: { integration_id: string; secret: string }; signature?: string | null; token?: string; raw?: string } = {},
) {
  const to = opts.to ?? endpoint;
  const body = opts.raw ?? JSON.stringify(fields);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const signature = opts.signature === undefined ? sign(to.secret, body) : opts.signature;
  if (signature !== null && opts.token === undefined) headers['x-offerops-signature'] = signature;
  const query = opts.token !== undefined ? `?token=${encodeURIComponent(opts.token)}` : '';
  const res = await fetch(`${app.origin}/postbacks/${to.integration_id}${query}`, { method: 'POST', headers, body });
  return { status: res.status, body: (await res.json()) as any };
}

const report = (extra: Record<string, unknown> = {}) => ({
  transaction_id: txn(),
  status: 'pending',
  commission: '12.34',
  currency: 'BRL',
  occurred_at: '2026-11-20T10:00:00Z',
  ...extra,
});
const eventsOf = (kind: string, commissionId: string) =>
  app.db
    .collection('events')
    .find({ account_id: me.accountId, kind, $or: [{ 'data.commission.id': commissionId }, { 'data.commission_id': commissionId }] })
    .toArray() as Promise<any[]>;

/** A click as the links area records it, for `tenant`. */
const click = (tenant: Tenant, ids: Record<string, string> = {}) => recordClick(app.db, tenant, ids, new Date('2026-11-20T09:00:00Z'));

describe('POST /postbacks/{integration_id}', () => {
  test('a signed postback records the commission in minor units, with its history and event', async () => {
    const r = report({ order_amount: '199.9', order_ref: 'ORD-1' });
    const res = await postback(r);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.data.outcome, 'created');
    const c = res.body.data.commission;
    assert.match(c.id, /^com_/);
    const read = await api.get(`/commissions/${c.id}`);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body.data, c);
    assert.equal(c.amount_minor, 1234);
    assert.equal(c.amount, '12.34');
    assert.equal(c.order_amount_minor, 19990);
    assert.equal(c.status, 'pending');
    assert.equal(c.marketplace, 'amazon');
    assert.equal(c.transaction_id, r.transaction_id);
    assert.deepEqual(c.attribution, { method: 'none', click_id: null, offer_id: null, publication_id: null, group_id: null, segment_id: null });
    assert.deepEqual(
      c.history.map((h: any) => [h.status, h.source, h.applied]),
      [['pending', 'postback', true]],
    );
    assert.equal((await eventsOf('commission.created', c.id)).length, 1);
  });

  test('the secret as a token works too', async () => {
    const res = await postback(report(), { token: endpoint.secret });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  });

  test('unsigned, badly signed, wrong token or unknown endpoint: 401, nothing written', async () => {
    const before = await app.db.collection('commissions').countDocuments({ account_id: me.accountId });
    const r = report();
    const other = await createPostbackSecret(app.db, me, 'shopee', secretKeyFromEnv());
    for (const [name, opts] of [
      ['unsigned', { signature: null }],
      ['malformed signature', { signature: 'sha256=zz' }],
      ['signed with another secret', { signature: sign(other.secret, JSON.stringify(r)) }],
      ['wrong token', { token: 'oo_pb_wrong' }],
      ['unknown endpoint', { to: { integration_id: 'pbk_nothere00000', secret: endpoint.secret } }],
      [
        'body changed after signing',
        { raw: JSON.stringify({ ...r, commission: '99.00' }), signature: sign(endpoint.secret, JSON.stringify(r)) },
      ],
    ] as const) {
      const res = await postback(r, opts);
      assert.equal(res.status, 401, `${name}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.code, 'invalid_signature', name);
      assert.ok(!JSON.stringify(res.body).includes(endpoint.secret), name);
    }
    assert.equal(await app.db.collection('commissions').countDocuments({ account_id: me.accountId }), before);
  });

  test('a replayed postback changes nothing', async () => {
    const r = report();
    const first = await postback(r);
    const again = await postback(r);
    assert.equal(again.status, 200);
    assert.equal(again.body.data.outcome, 'unchanged');
    assert.deepEqual(again.body.data.commission, first.body.data.commission);
    assert.equal((await eventsOf('commission.created', first.body.data.commission.id)).length, 1);
  });

  test("status updates apply in the order of the network's timestamps; a late one is kept in history only", async () => {
    const r = report();
    const created = (await postback({ ...r, updated_at: '2026-11-20T10:00:00Z' })).body.data.commission;
    const paid = await postback({ ...r, status: 'paid', updated_at: '2026-11-25T10:00:00Z' });
    assert.equal(paid.body.data.commission.status, 'paid');
    const late = await postback({ ...r, status: 'approved', updated_at: '2026-11-22T10:00:00Z' });
    assert.deepEqual([late.status, late.body.data.outcome, paid.body.data.outcome], [200, 'late', 'updated']);
    const c = (await api.get(`/commissions/${created.id}`)).body.data;
    assert.equal(c.status, 'paid');
    assert.equal(c.status_at, '2026-11-25T10:00:00.000Z');
    assert.equal(c.paid_at, '2026-11-25T10:00:00.000Z');
    assert.deepEqual(
      c.history.map((h: any) => [h.status, h.applied]),
      [
        ['pending', true],
        ['paid', true],
        ['approved', false],
      ],
    );
    const changes = await eventsOf('commission.status_changed', c.id);
    assert.deepEqual(
      changes.map((e) => [e.data.from, e.data.to, e.data.source]),
      [['pending', 'paid', 'postback']],
    );
    assert.equal((await eventsOf('commission.approved', c.id)).length, 0);
  });

  test('refuses a bad report naming each field, and another currency for the same transaction', async () => {
    for (const [name, body, field] of [
      ['too many decimals', report({ commission: '12.345' }), 'commission'],
      ['negative', report({ commission: '-1' }), 'commission'],
      ['not a number', report({ commission: 'twelve' }), 'commission'],
      ['unknown status', report({ status: 'lost' }), 'status'],
      ['no time zone', report({ occurred_at: '2026-11-20T10:00:00' }), 'occurred_at'],
      ['missing transaction', { ...report(), transaction_id: undefined }, 'transaction_id'],
      ['unknown field', report({ email: 'x@example.com' }), 'email'],
      ['bad currency', report({ currency: 'R$' }), 'currency'],
    ] as const) {
      const res = await postback(body);
      assert.equal(res.status, 400, `${name}: ${JSON.stringify(res.body)}`);
      assert.ok(
        res.body.details.some((d: any) => d.field === field),
        `${name}: ${JSON.stringify(res.body.details)}`,
      );
    }
    const r = report();
    assert.equal((await postback(r)).status, 201);
    const usd = await postback({ ...r, currency: 'USD', status: 'approved', updated_at: '2026-11-21T00:00:00Z' });
    assert.equal(usd.status, 409, JSON.stringify(usd.body));
    assert.equal((await postback(r, { raw: '[1]' })).status, 400);
    assert.equal((await postback(r, { raw: '{"transaction_id":' })).status, 400);
  });
});

describe('attribution', () => {
  test('by the click id the network returns: click → publication, group, offer, segment', async () => {
    const ids = {
      offer_id: 'off_0000000000clickoffer',
      publication_id: 'pub_0000000000clickpub',
      group_id: 'grp_0000000000clickgrp',
      segment_id: 'seg_000000000clickseg',
    };
    const clk = await click(me, ids);
    const c = (await postback(report({ sub_id: clk, status: 'approved' }))).body.data.commission;
    assert.deepEqual(c.attribution, { method: 'click', click_id: clk, ...ids });
    const [approved] = await eventsOf('commission.approved', c.id);
    assert.deepEqual(approved.data, {
      commission_id: c.id,
      amount_minor: 1234,
      currency: 'BRL',
      marketplace: 'amazon',
      offer_id: ids.offer_id,
      group_id: ids.group_id,
      publication_id: ids.publication_id,
    });
  });

  test("another account's click is not attributed", async () => {
    const stranger = await seedTenant(app.db, { env: 'test' });
    const clk = await click(stranger, { offer_id: 'off_0000000000theiroffer' });
    const c = (await postback(report({ sub_id: clk }))).body.data.commission;
    assert.equal(c.attribution.method, 'none');
    assert.equal(c.attribution.offer_id, null);
  });

  test('inferred from the product URL and an offer published within the window before the sale', async () => {
    const url = `https://shop.example/com/${Date.now()}`;
    const offer = (await api.post('/offers', { url, title: 'Air Fryer' })).body.data;
    const group = await createGroup(app.db, me, { name: 'Commission group' });
    const published = await api.post(`/offers/${offer.id}/publish`, { group_id: group._id });
    assert.equal(published.status, 200, published.text);
    const publicationId = published.body.data.publications[0].id;
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    const inferred = (await postback(report({ product_url: url, occurred_at: soon }))).body.data.commission;
    assert.deepEqual(inferred.attribution, {
      method: 'inferred',
      click_id: null,
      offer_id: offer.id,
      publication_id: publicationId,
      group_id: group._id,
      segment_id: null,
    });
    const outside = new Date(Date.now() + 8 * 86_400_000).toISOString();
    assert.equal((await postback(report({ product_url: url, occurred_at: outside }))).body.data.commission.attribution.method, 'none');
    const before = new Date(Date.now() - 86_400_000).toISOString();
    assert.equal((await postback(report({ product_url: url, occurred_at: before }))).body.data.commission.attribution.method, 'none');
  });
});

describe('reads and counters', () => {
  test('summary by currency and status, in minor units and decimal strings; list filters; buckets follow the state', async () => {
    const tenant = await seedTenant(app.db, { env: 'test' });
    const client = api.withKey(tenant.apiKey);
    const to = await createPostbackSecret(app.db, tenant, 'shopee', secretKeyFromEnv());
    const clk = await click(tenant, { group_id: 'grp_0000000000summarygrp' });
    const a = report({ commission: '0.10', status: 'approved', sub_id: clk });
    const b = report({ commission: '0.20', status: 'approved' });
    const c = report({ commission: '5', currency: 'USD', occurred_at: '2026-10-01T00:00:00Z' });
    for (const r of [a, b, c]) assert.equal((await postback(r, { to })).status, 201);
    const summary = await client.get('/commissions/summary');
    assert.equal(summary.status, 200, summary.text);
    assert.deepEqual(summary.body.data.totals, [
      { currency: 'BRL', status: 'approved', count: 2, amount_minor: 30, amount: '0.30' },
      { currency: 'USD', status: 'pending', count: 1, amount_minor: 500, amount: '5.00' },
    ]);
    const totals = async () =>
      (
        await app.db
          .collection('analytics_buckets')
          .findOne({ account_id: tenant.accountId, env: 'test', day: '2026-11-20', dimension: 'totals' })
      )?.c;
    assert.deepEqual((await totals())?.commissions, { BRL: { count: 2, amount_minor: 30 } });
    const groups = await app.db
      .collection('analytics_buckets')
      .findOne({ account_id: tenant.accountId, day: '2026-11-20', dimension: 'groups' });
    assert.deepEqual(groups?.c, { grp_0000000000summarygrp: { clicks: 1, commissions: { BRL: { count: 1, amount_minor: 10 } } } });

    await postback({ ...a, status: 'refunded', updated_at: '2026-11-30T00:00:00Z' }, { to });
    assert.deepEqual((await totals())?.commissions, { BRL: { count: 1, amount_minor: 20 } });
    await postback({ ...a, status: 'refunded', updated_at: '2026-11-30T00:00:00Z' }, { to });
    assert.deepEqual((await totals())?.commissions, { BRL: { count: 1, amount_minor: 20 } }, 'a replay counts nothing');

    const list = async (q: string) => {
      const res = await client.get(`/commissions?${q}`);
      assert.equal(res.status, 200, res.text);
      return res.body.data.map((x: any) => x.transaction_id).sort();
    };
    assert.deepEqual(await list('status=refunded'), [a.transaction_id]);
    assert.deepEqual(await list('currency=USD'), [c.transaction_id]);
    assert.deepEqual(await list('marketplace=shopee'), [a.transaction_id, b.transaction_id, c.transaction_id].sort());
    assert.deepEqual(await list('marketplace=amazon'), []);
    assert.deepEqual(await list('from=2026-11-01T00:00:00Z'), [a.transaction_id, b.transaction_id].sort());
    assert.deepEqual(await list('to=2026-11-01T00:00:00Z'), [c.transaction_id]);
    const range = await client.get('/commissions/summary?from=2026-10-01T00:00:00Z&to=2026-11-01T00:00:00Z');
    assert.deepEqual(
      range.body.data.totals.map((t: any) => t.currency),
      ['USD'],
    );
    // Far-future and far-past bounds are plain filters: accepted, and the window holds what it should.
    assert.deepEqual(
      await list('from=0001-01-01T00:00:00Z&to=9999-12-31T23:59:59Z'),
      [a.transaction_id, b.transaction_id, c.transaction_id].sort(),
    );
    assert.deepEqual(await list('from=4071-02-12T03:35:45Z'), []);
    const far = await client.get('/commissions/summary?from=0001-01-01T00:00:00Z&to=9999-12-31T23:59:59Z');
    assert.equal(far.status, 200, far.text);
    assert.deepEqual([...new Set(far.body.data.totals.map((t: any) => t.currency))].sort(), ['BRL', 'USD']);
    const after = await client.get('/commissions/summary?from=4071-02-12T03:35:45Z');
    assert.equal(after.status, 200, after.text);
    assert.deepEqual(after.body.data.totals, []);
    // from after to: an empty window for the list (as its description says), a 400 for the summary (as its says).
    assert.deepEqual(await list('from=2026-12-01T00:00:00Z&to=2026-11-01T00:00:00Z'), []);
    const backwards = await client.get('/commissions/summary?from=2026-12-01T00:00:00Z&to=2026-11-01T00:00:00Z');
    assert.equal(backwards.status, 400, backwards.text);
    assert.equal(backwards.body.code, 'validation_failed');
    assert.deepEqual(
      backwards.body.details.map((d: any) => [d.location, d.field, d.rule]),
      [['query', 'from', 'range']],
    );
    const instant = await client.get('/commissions/summary?from=2026-11-01T00:00:00Z&to=2026-11-01T00:00:00Z');
    assert.equal(instant.status, 200, instant.text);
    assert.deepEqual(instant.body.data.totals, [], 'from equal to to: an empty window');
    for (const q of ['status=lost', 'from=yesterday', 'limit=101', 'currency=EU']) {
      assert.equal((await client.get(`/commissions?${q}`)).status, 400, q);
    }
  });

  test('another account sees none of it', async () => {
    const c = (await postback(report())).body.data.commission;
    const stranger = api.withKey((await seedTenant(app.db, { env: 'test' })).apiKey);
    const get = await stranger.get(`/commissions/${c.id}`);
    assert.equal(get.status, 404);
    assert.equal(get.body.code, 'not_found');
    assert.equal((await stranger.get('/commissions')).body.pagination.total, 0);
    assert.deepEqual((await stranger.get('/commissions/summary')).body.data.totals, []);
    const live = api.withKey((await seedTenant(app.db, { env: 'live' })).apiKey);
    assert.equal((await live.get(`/commissions/${c.id}`)).status, 404);
  });
});
