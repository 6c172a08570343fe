/**
 * Issue 12 section 3: coupons — registration and its bounds, the derived
 * status and the default list, one live code per store (409), PATCH,
 * deactivation that keeps the coupon and its history, events, and offers
 * that use a coupon (preview renders it, publishing refuses an expired one).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { claimCode, CodeTakenError, PENDING_CLAIM_MS } from '../../domain/coupons/store';
import { createGroup } from '../../domain/groups/store';
import { ApiClient } from '../helpers/client';
import { seedTenant, startTestApp, Tenant, TestApp } from '../helpers/stack';

let app: TestApp;
let api: ApiClient;
let me: Tenant;

before(async () => {
  app = await startTestApp();
  me = await seedTenant(app.db);
  api = new ApiClient(app.baseUrl, me.apiKey);
});
after(() => app.close());

let n = 0;
const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const coupon = async (extra: Record<string, unknown> = {}, client = api) => {
  const res = await client.post('/coupons', {
    code: `CODE${++n}`,
    store: `Loja ${n}`,
    discount: { type: 'percent', value: 10 },
    verified: true,
    ...extra,
  });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
};
const eventsOf = (kind: string, couponId: string) =>
  app.db.collection('events').find({ account_id: me.accountId, kind, 'data.coupon.id': couponId }).toArray() as Promise<any[]>;
/** Moves a coupon's validity into the past, as the passing of time would. */
const expire = (id: string) => app.db.collection('coupons').updateOne({ _id: id as any }, { $set: { expires_at: new Date(Date.now() - 1000) } });
const listIds = async (query: string, client = api) => {
  const res = await client.get(`/coupons?limit=100${query}`);
  assert.equal(res.status, 200, res.text);
  return res.body.data.map((c: any) => c.id) as string[];
};

describe('POST /coupons', () => {
  test('registers a coupon with its defaults, history and event', async () => {
    const res = await api.post('/coupons', { code: 'FRETE10', store: 'Amazon', discount: { type: 'percent', value: 10, max_amount: 50 } });
    assert.equal(res.status, 201, res.text);
    const c = res.body.data;
    assert.match(c.id, /^cpn_/);
    assert.deepEqual(
      { ...c, id: undefined, created_at: undefined, updated_at: undefined, history: undefined },
      {
        id: undefined,
        code: 'FRETE10',
        store: 'Amazon',
        marketplace: null,
        description: null,
        discount: { type: 'percent', value: 10, max_amount: 50 },
        currency: 'BRL',
        min_purchase: null,
        first_purchase_only: false,
        categories: [],
        url: null,
        starts_at: null,
        expires_at: null,
        verified: false,
        verified_at: null,
        active: true,
        status: 'active',
        created_at: undefined,
        updated_at: undefined,
        deactivated_at: null,
        history: undefined,
      },
    );
    assert.deepEqual(
      c.history.map((h: any) => h.change),
      ['created'],
    );
    assert.deepEqual((await api.get(`/coupons/${c.id}`)).body.data, c);
    assert.equal((await eventsOf('coupon.created', c.id)).length, 1);
  });

  test('keeps eligibility rules and an amount discount', async () => {
    const c = await coupon({
      discount: { type: 'amount', value: 20 },
      currency: 'USD',
      min_purchase: 100,
      first_purchase_only: true,
      categories: ['kitchen', 'books'],
      marketplace: 'amazon',
      url: 'https://shop.example/cupons',
    });
    assert.deepEqual(c.discount, { type: 'amount', value: 20 });
    assert.equal(c.currency, 'USD');
    assert.equal(c.min_purchase, 100);
    assert.equal(c.first_purchase_only, true);
    assert.deepEqual(c.categories, ['kitchen', 'books']);
    assert.ok(c.verified_at, 'verified on creation records when');
  });

  test('refuses bad input at each boundary, writing nothing', async () => {
    const before = await app.db.collection('coupons').countDocuments({ account_id: me.accountId });
    const base = { code: 'BOUND', store: 'Boundary', discount: { type: 'percent', value: 10 } };
    const cases: [string, Record<string, unknown>, string][] = [
      ['code too long', { ...base, code: 'A'.repeat(61) }, 'code'],
      ['code empty', { ...base, code: '' }, 'code'],
      ['code with a space', { ...base, code: 'A B' }, 'code'],
      ['store empty', { ...base, store: '' }, 'store'],
      ['percent 0', { ...base, discount: { type: 'percent', value: 0 } }, 'discount'],
      ['percent above 100', { ...base, discount: { type: 'percent', value: 100.01 } }, 'discount'],
      ['amount 0', { ...base, discount: { type: 'amount', value: 0 } }, 'discount'],
      ['unknown discount type', { ...base, discount: { type: 'bogo' } }, 'discount'],
      ['negative minimum', { ...base, min_purchase: -1 }, 'min_purchase'],
      ['too many categories', { ...base, categories: Array.from({ length: 51 }, (_, i) => `c${i}`) }, 'categories'],
      ['not a date', { ...base, expires_at: 'tomorrow' }, 'expires_at'],
      ['expiry before start', { ...base, starts_at: at(2 * HOUR), expires_at: at(HOUR) }, 'expires_at'],
      ['expiry equal to start', { ...base, starts_at: '2030-01-01T00:00:00Z', expires_at: '2030-01-01T00:00:00Z' }, 'expires_at'],
      ['unknown field', { ...base, status: 'active' }, 'status'],
      ['http url', { ...base, url: 'http://shop.example' }, 'url'],
    ];
    for (const [name, body, field] of cases) {
      const res = await api.post('/coupons', body);
      assert.equal(res.status, 400, `${name}: ${res.text}`);
      assert.equal(res.body.code, 'validation_failed', name);
      assert.ok(
        res.body.details.some((d: any) => d.field === field || d.field.startsWith(`${field}`)),
        `${name}: ${JSON.stringify(res.body.details)}`,
      );
    }
    assert.equal((await api.post('/coupons', { ...base, code: 'A'.repeat(60), discount: { type: 'percent', value: 100 } })).status, 201);
    assert.equal(await app.db.collection('coupons').countDocuments({ account_id: me.accountId }), before + 1);
  });
});

describe('one live code per store', () => {
  test('the same code at the same store is a 409, whatever the case; another store is fine', async () => {
    const first = await coupon({ code: 'DUP10', store: 'Magalu' });
    const again = await api.post('/coupons', { code: 'dup10', store: ' magalu ', discount: { type: 'free_shipping' } });
    assert.equal(again.status, 409, again.text);
    assert.equal(again.body.code, 'conflict');
    assert.match(again.body.message, new RegExp(first.id));
    assert.equal((await api.post('/coupons', { code: 'DUP10', store: 'Shopee', discount: { type: 'free_shipping' } })).status, 201);
  });

  test('concurrent registrations of one code: exactly one wins', async () => {
    const body = { code: 'RACE', store: `Race ${++n}`, discount: { type: 'percent', value: 5 } };
    const replies = await Promise.all(Array.from({ length: 6 }, () => api.post('/coupons', body)));
    assert.deepEqual(replies.map((r) => r.status).sort(), [201, 409, 409, 409, 409, 409]);
  });

  test('a claim whose coupon is not written yet holds the code for a minute; an older one with no coupon is taken over', async () => {
    const c = { code: 'PENDING', store: `Pending ${++n}` };
    const tenant = { accountId: me.accountId, env: me.env };
    const claimed = new Date();
    // A create that claimed the code and has not written its coupon yet (or crashed right there).
    await claimCode(app.db, tenant, 'cpn_notwrittenyet', c, claimed);
    const taken = await api.post('/coupons', { ...c, discount: { type: 'free_shipping' } });
    assert.equal(taken.status, 409, taken.text);
    assert.match(taken.body.message, /cpn_notwrittenyet/);
    await assert.rejects(claimCode(app.db, tenant, 'cpn_other', c, new Date(claimed.getTime() + PENDING_CLAIM_MS - 1)), CodeTakenError);
    // A minute on, nothing was written behind it: the create is abandoned and the code is free.
    await claimCode(app.db, tenant, 'cpn_later', c, new Date(claimed.getTime() + PENDING_CLAIM_MS));
    const claim = await app.db
      .collection<{ _id: string; coupon_id: string }>('coupon_codes')
      .findOne({ account_id: me.accountId, coupon_id: 'cpn_later' });
    assert.ok(claim, 'the claim moved to its new holder');
  });

  test('a deactivated or expired coupon frees its code; reactivating it then is a 409', async () => {
    const store = `Freed ${++n}`;
    const old = await coupon({ code: 'FREE', store });
    assert.equal((await api.delete(`/coupons/${old.id}`)).status, 200);
    const second = await coupon({ code: 'FREE', store });
    const back = await api.patch(`/coupons/${old.id}`, { active: true });
    assert.equal(back.status, 409, back.text);
    assert.equal((await api.get(`/coupons/${old.id}`)).body.data.status, 'inactive');

    await expire(second.id);
    const third = await coupon({ code: 'FREE', store });
    assert.equal(third.status, 'active');
    const extend = await api.patch(`/coupons/${second.id}`, { expires_at: at(HOUR) });
    assert.equal(extend.status, 409, 'extending an expired coupon cannot revive a taken code');
    assert.equal((await api.get(`/coupons/${second.id}`)).body.data.status, 'expired');
  });

  test('changing code or store moves the claim: the old code is free, the new one is checked', async () => {
    const store = `Move ${++n}`;
    const a = await coupon({ code: 'MOVEA', store });
    const b = await coupon({ code: 'MOVEB', store });
    assert.equal((await api.patch(`/coupons/${b.id}`, { code: 'MOVEA' })).status, 409);
    const moved = await api.patch(`/coupons/${a.id}`, { code: 'MOVEC' });
    assert.equal(moved.status, 200, moved.text);
    assert.equal((await api.patch(`/coupons/${b.id}`, { code: 'MOVEA' })).status, 200);
  });
});

describe('far-future validity', () => {
  test('starts_at and expires_at up to the year 9999 are accepted, stored and listed as the status they give', async () => {
    const store = `Far ${++n}`;
    const far = await coupon({ store, starts_at: '4071-02-12T03:35:45Z', expires_at: '9999-12-31T23:59:59Z' });
    assert.deepEqual([far.starts_at, far.expires_at, far.status], ['4071-02-12T03:35:45.000Z', '9999-12-31T23:59:59.000Z', 'scheduled']);
    const moved = await api.patch(`/coupons/${far.id}`, { starts_at: '9998-02-12T03:35:45Z' });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.data.starts_at, '9998-02-12T03:35:45.000Z');
    assert.deepEqual(await listIds(`&store=${encodeURIComponent(store)}&status=scheduled`), [far.id]);
    const open = await coupon({ store: `${store} open`, expires_at: '9999-12-31T23:59:59Z' });
    assert.equal(open.status, 'active');
  });
});

describe('GET /coupons', () => {
  test('lists active, verified coupons by default; filters widen it', async () => {
    const store = `List ${++n}`;
    const active = await coupon({ store, code: 'L1' });
    const unverified = await coupon({ store, code: 'L2', verified: false });
    const scheduled = await coupon({ store, code: 'L3', starts_at: at(HOUR), expires_at: at(2 * HOUR) });
    const expired = await coupon({ store, code: 'L4', starts_at: at(-2 * HOUR), expires_at: at(-HOUR) });
    const inactive = await coupon({ store, code: 'L5' });
    await api.delete(`/coupons/${inactive.id}`);
    assert.equal(scheduled.status, 'scheduled');
    assert.equal(expired.status, 'expired');
    const q = `&store=${encodeURIComponent(store.toUpperCase())}`;
    assert.deepEqual(await listIds(q), [active.id]);
    assert.deepEqual(await listIds(`${q}&verification=any`), [unverified.id, active.id]);
    assert.deepEqual(await listIds(`${q}&verification=unverified`), [unverified.id]);
    assert.deepEqual(await listIds(`${q}&status=scheduled`), [scheduled.id]);
    assert.deepEqual(await listIds(`${q}&status=expired`), [expired.id]);
    assert.deepEqual(await listIds(`${q}&status=inactive`), [inactive.id]);
    assert.deepEqual((await listIds(`${q}&status=any&verification=any`)).length, 5);
  });

  test('a coupon past its validity leaves the active list by itself', async () => {
    const store = `Lapse ${++n}`;
    const c = await coupon({ store, expires_at: at(HOUR) });
    assert.deepEqual(await listIds(`&store=${encodeURIComponent(store)}`), [c.id]);
    await expire(c.id);
    assert.deepEqual(await listIds(`&store=${encodeURIComponent(store)}`), []);
    assert.equal((await api.get(`/coupons/${c.id}`)).body.data.status, 'expired');
  });

  test('refuses unknown filter values and bounds', async () => {
    for (const q of ['status=gone', 'verification=maybe', 'store=', `store=${'x'.repeat(121)}`, 'limit=0', 'limit=101']) {
      const res = await api.get(`/coupons?${q}`);
      assert.equal(res.status, 400, `${q}: ${res.text}`);
    }
  });
});

describe('PATCH and DELETE /coupons/{id}', () => {
  test('changes validity, discount and eligibility, recorded in the history and an event', async () => {
    const c = await coupon();
    const res = await api.patch(`/coupons/${c.id}`, {
      discount: { type: 'amount', value: 15 },
      expires_at: at(24 * HOUR),
      categories: ['tv'],
      min_purchase: null,
    });
    assert.equal(res.status, 200, res.text);
    const u = res.body.data;
    assert.deepEqual(u.discount, { type: 'amount', value: 15 });
    assert.deepEqual(u.categories, ['tv']);
    assert.deepEqual(
      u.history.map((h: any) => [h.change, h.fields]),
      [
        ['created', []],
        ['updated', ['discount', 'categories', 'expires_at']],
      ],
    );
    const [event] = await eventsOf('coupon.updated', c.id);
    assert.deepEqual(event.data.changed, ['discount', 'categories', 'expires_at']);
    const same = await api.patch(`/coupons/${c.id}`, { categories: ['tv'] });
    assert.equal(same.body.data.updated_at, u.updated_at, 'an unchanged PATCH writes nothing');
    const bad = await api.patch(`/coupons/${c.id}`, { starts_at: at(48 * HOUR) });
    assert.equal(bad.status, 400, 'a start after the expiry is refused');
    assert.equal((await api.patch(`/coupons/${c.id}`, { code: null })).status, 400);
  });

  test('DELETE deactivates, keeps the coupon readable with its history, and is idempotent', async () => {
    const c = await coupon();
    const res = await api.delete(`/coupons/${c.id}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual({ ...res.body, request_id: undefined }, { deleted: true, deactivated: true, id: c.id, request_id: undefined });
    const kept = (await api.get(`/coupons/${c.id}`)).body.data;
    assert.equal(kept.status, 'inactive');
    assert.equal(kept.active, false);
    assert.ok(kept.deactivated_at);
    assert.deepEqual(
      kept.history.map((h: any) => h.change),
      ['created', 'deactivated'],
    );
    assert.equal((await api.delete(`/coupons/${c.id}`)).status, 200);
    assert.equal((await eventsOf('coupon.deactivated', c.id)).length, 1);
    const back = await api.patch(`/coupons/${c.id}`, { active: true });
    assert.equal(back.status, 200, back.text);
    assert.deepEqual(
      back.body.data.history.map((h: any) => h.change),
      ['created', 'deactivated', 'reactivated'],
    );
  });

  test('another account sees none of it', async () => {
    const c = await coupon();
    const stranger = api.withKey((await seedTenant(app.db)).apiKey);
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { verified: false }],
      ['DELETE', undefined],
    ] as const) {
      const res = await stranger.call(method, `/coupons/${c.id}`, body ? { body } : {});
      assert.equal(res.status, 404, `${method}: ${res.text}`);
    }
    assert.deepEqual(await listIds('&status=any&verification=any', stranger), []);
    assert.equal((await api.get(`/coupons/${c.id}`)).body.data.active, true);
  });
});

describe('offers with a coupon', () => {
  const offerWith = async (couponId: string, client = api) => {
    const res = await client.post('/offers', { url: `https://shop.example/cpn/${Date.now()}-${++n}`, title: 'Air Fryer', coupon_id: couponId });
    assert.equal(res.status, 201, res.text);
    return res.body.data;
  };

  test('{coupon} renders the code and discount in templates and the built-in layout', async () => {
    const c = await coupon({ code: 'FRY15', discount: { type: 'percent', value: 15, max_amount: 40 }, min_purchase: 200 });
    const offer = await offerWith(c.id);
    assert.equal(offer.coupon_id, c.id);
    const builtIn = await api.post(`/offers/${offer.id}/preview`, {});
    assert.equal(builtIn.status, 200, builtIn.text);
    assert.match(builtIn.body.data.text, /Cupom: \*FRY15 \(15% off, up to R\$ 40,00, min\. R\$ 200,00\)\*/);
    const tpl = await api.post('/templates', { name: `Coupon ${++n}`, body: '{title}\nUse {coupon}' });
    const templated = await api.post(`/offers/${offer.id}/preview`, { template_id: tpl.body.data.id });
    assert.equal(templated.body.data.text, 'Air Fryer\nUse FRY15 (15% off, up to R$ 40,00, min. R$ 200,00)');
  });

  test("another account's coupon or an unknown one is a 400 unknown_reference", async () => {
    const theirs = await coupon({}, api.withKey((await seedTenant(app.db)).apiKey));
    const res = await api.post('/offers', { url: 'https://shop.example/cpn/theirs', title: 'Air Fryer', coupon_id: theirs.id });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'unknown_reference');
  });

  test('publishing refuses an offer whose coupon expired or was deactivated, naming the coupon', async () => {
    const tenant = await seedTenant(app.db, { env: 'test' });
    const client = api.withKey(tenant.apiKey);
    const group = await createGroup(app.db, tenant, { name: 'Coupon group' });
    const c = await coupon({ code: 'LATE' }, client);
    const offer = await offerWith(c.id, client);
    await expire(c.id);
    const res = await client.post(`/offers/${offer.id}/publish`, { group_id: group._id });
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.code, 'offer_not_publishable');
    assert.match(res.body.message, new RegExp(`${c.id} \\(LATE\\) expired`));
    assert.equal(await app.db.collection('publications').countDocuments({ account_id: tenant.accountId }), 0);

    const live = await coupon({ code: 'LIVE' }, client);
    assert.equal((await client.patch(`/offers/${offer.id}`, { coupon_id: live.id })).status, 200);
    const ok = await client.post(`/offers/${offer.id}/publish`, { group_id: group._id });
    assert.equal(ok.status, 200, ok.text);
    assert.match(ok.body.data.publications[0].text, /LIVE \(10% off\)/);
    await client.delete(`/coupons/${live.id}`);
    const off = await client.post(`/offers/${offer.id}/publish`, { group_id: group._id });
    assert.equal(off.status, 409, off.text);
    assert.match(off.body.message, /deactivated/);
  });
});
