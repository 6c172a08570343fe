/**
 * `Idempotency-Key` on every POST (Stripe's semantics): the first answer is
 * replayed for a repeat of the same request, per credential, for 24 hours;
 * another request under the key, or a repeat while the first runs, is a 409.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  IDEMPOTENCY_ABANDONED_MS,
  IDEMPOTENCY_TTL_MS,
  requestFingerprint,
} from '../../domain/developer/idempotency';
import { ApiClient } from '../helpers/client';
import { addKey, seedTenant, startTestApp, TestApp } from '../helpers/stack';

let app: TestApp;

before(async () => {
  app = await startTestApp();
});
after(async () => {
  await app.close();
});

const newKey = () => `idem-${randomBytes(8).toString('hex')}`;
const withKey = (key: string) => ({ headers: { 'Idempotency-Key': key } });

async function client(): Promise<{ api: ApiClient; keyId: string; accountId: string }> {
  const tenant = await seedTenant(app.db);
  return { api: new ApiClient(app.baseUrl, tenant.apiKey), keyId: tenant.keyId, accountId: tenant.accountId };
}

describe('a repeat of the same request', () => {
  test('gets the first answer again (status and body, its own request id, Idempotent-Replayed), and nothing is made twice', async () => {
    const { api } = await client();
    const key = newKey();
    const first = await api.post('/segments', { name: 'Cozinha', description: 'Panelas' }, withKey(key));
    assert.equal(first.status, 201, first.text);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    // The same body with its fields in another order is the same request.
    const again = await api.post('/segments', { description: 'Panelas', name: 'Cozinha' }, withKey(key));
    assert.equal(again.status, 201, again.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual({ ...again.body, request_id: null }, { ...first.body, request_id: null });
    assert.notEqual(again.body.request_id, first.body.request_id);
    assert.equal(again.headers.get('x-request-id'), again.body.request_id);
    assert.equal((await api.get('/segments')).body.pagination.total, 1);
  });

  test('a 4xx answer is kept too; a request refused before it ran (validation) keeps nothing', async () => {
    const { api } = await client();
    const taken = await api.post('/segments', { name: 'Taken', slug: 'taken' });
    assert.equal(taken.status, 201);
    const key = newKey();
    const refused = await api.post('/segments', { name: 'Other', slug: 'taken' }, withKey(key));
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'slug_taken');
    assert.equal((await api.delete(`/segments/${taken.body.data.id}`)).status, 200);
    const replayed = await api.post('/segments', { name: 'Other', slug: 'taken' }, withKey(key));
    assert.equal(replayed.status, 409);
    assert.equal(replayed.body.code, 'slug_taken');
    assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
    // Without the key, the same request runs now that the slug is free.
    assert.equal((await api.post('/segments', { name: 'Other', slug: 'taken' })).status, 201);

    const fresh = newKey();
    const invalid = await api.post('/segments', { name: '' }, withKey(fresh));
    assert.equal(invalid.status, 400);
    const valid = await api.post('/segments', { name: 'Valid now' }, withKey(fresh));
    assert.equal(valid.status, 201, valid.text);
    assert.equal(valid.headers.get('idempotent-replayed'), null);
  });
});

describe('refusals', () => {
  test('the same key with another body or another path is a 409 idempotency_key_reused, and changes nothing', async () => {
    const { api } = await client();
    const key = newKey();
    assert.equal((await api.post('/segments', { name: 'First' }, withKey(key))).status, 201);
    const otherBody = await api.post('/segments', { name: 'Second' }, withKey(key));
    assert.equal(otherBody.status, 409);
    assert.equal(otherBody.body.code, 'idempotency_key_reused');
    const otherPath = await api.post('/offers', { url: 'https://shop.example/p/1', title: 'Panela' }, withKey(key));
    assert.equal(otherPath.status, 409);
    assert.equal(otherPath.body.code, 'idempotency_key_reused');
    assert.equal((await api.get('/segments')).body.pagination.total, 1);
    assert.equal((await api.get('/offers')).body.pagination.total, 0);
  });

  test('a repeat while the first request is still running is a 409 idempotency_in_progress; once it answered, its answer', async () => {
    const { api, keyId } = await client();
    const key = newKey();
    const body = { name: 'Slow one' };
    const claim = await claimIdempotencyKey(app.db, keyId, key, requestFingerprint('POST', '/api/v1/segments', body));
    assert.equal(claim.kind, 'claimed');
    const running = await api.post('/segments', body, withKey(key));
    assert.equal(running.status, 409);
    assert.equal(running.body.code, 'idempotency_in_progress');
    assert.equal((await api.get('/segments')).body.pagination.total, 0);
    if (claim.kind !== 'claimed') return;
    // The first request answers (here: the answer of a segment made without the key).
    const made = await api.post('/segments', { name: 'Made by the first' });
    await completeIdempotencyKey(app.db, claim, { status: 201, body: { data: made.body.data, created: true } });
    const answered = await api.post('/segments', body, withKey(key));
    assert.equal(answered.status, 201);
    assert.equal(answered.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(answered.body.data, made.body.data);
    assert.equal((await api.get('/segments')).body.pagination.total, 1);
  });

  test('keys up to 255 characters; a longer one is a 400 naming the header', async () => {
    const { api } = await client();
    assert.equal((await api.post('/segments', { name: 'Long key' }, withKey('k'.repeat(255)))).status, 201);
    const tooLong = await api.post('/segments', { name: 'Too long key' }, withKey('k'.repeat(256)));
    assert.equal(tooLong.status, 400);
    assert.equal(tooLong.body.code, 'validation_failed');
    assert.deepEqual(
      tooLong.body.details.map((d: any) => [d.location, d.field, d.rule]),
      [['header', 'Idempotency-Key', 'maxLength']],
    );
    assert.equal((await api.get('/segments')).body.pagination.total, 1);
  });

  test('an empty key, or one with a character outside visible ASCII, is a 400 naming the header (the documented pattern)', async () => {
    const { api } = await client();
    for (const key of ['', 'clé', 'a\tb']) {
      const refused = await api.post('/segments', { name: 'Odd key' }, withKey(key));
      assert.equal(refused.status, 400, JSON.stringify(key));
      assert.deepEqual(
        refused.body.details.map((d: any) => [d.location, d.field, d.rule]),
        [['header', 'Idempotency-Key', 'pattern']],
      );
    }
    assert.equal((await api.post('/segments', { name: 'Spaced key' }, withKey('a key with spaces inside'))).status, 201);
    assert.equal((await api.get('/segments')).body.pagination.total, 1);
  });
});

describe('scope of a key', () => {
  test('keys are per credential: another key of the account may use the same one for its own request', async () => {
    const { api, accountId } = await client();
    const second = await addKey(app.db, { accountId });
    const key = newKey();
    assert.equal((await api.post('/segments', { name: 'Mine' }, withKey(key))).status, 201);
    const theirs = await api.withKey(second.apiKey).post('/segments', { name: 'Theirs' }, withKey(key));
    assert.equal(theirs.status, 201, theirs.text);
    assert.equal(theirs.headers.get('idempotent-replayed'), null);
    assert.equal((await api.get('/segments')).body.pagination.total, 2);
  });

  test('after 24 hours, or once a claim was abandoned (its process died), the key runs the request again', async () => {
    const { api, keyId } = await client();
    const body = { url: 'https://shop.example/p/expired', title: 'Cafeteira' };
    const fingerprint = requestFingerprint('POST', '/api/v1/offers', body);
    const expiredKey = newKey();
    const old = await claimIdempotencyKey(app.db, keyId, expiredKey, fingerprint, new Date(Date.now() - IDEMPOTENCY_TTL_MS - 1_000));
    assert.equal(old.kind, 'claimed');
    if (old.kind === 'claimed') await completeIdempotencyKey(app.db, old, { status: 500, body: { code: 'internal_error', message: 'stale' } });
    const fresh = await api.post('/offers', body, withKey(expiredKey));
    assert.equal(fresh.status, 201, fresh.text);
    assert.equal(fresh.headers.get('idempotent-replayed'), null);

    const abandonedKey = newKey();
    const abandoned = await claimIdempotencyKey(
      app.db,
      keyId,
      abandonedKey,
      fingerprint,
      new Date(Date.now() - IDEMPOTENCY_ABANDONED_MS - 1_000),
    );
    assert.equal(abandoned.kind, 'claimed');
    // The offer exists now: creation finds it (200, created false) — the request ran.
    const rerun = await api.post('/offers', body, withKey(abandonedKey));
    assert.equal(rerun.status, 200, rerun.text);
    assert.equal(rerun.body.created, false);
  });

  test('GET, PATCH and DELETE ignore the header', async () => {
    const { api } = await client();
    const key = newKey();
    const created = await api.post('/segments', { name: 'Patched' });
    const one = await api.patch(`/segments/${created.body.data.id}`, { name: 'Patched once' }, withKey(key));
    const two = await api.patch(`/segments/${created.body.data.id}`, { name: 'Patched twice' }, withKey(key));
    assert.equal(one.status, 200);
    assert.equal(two.status, 200);
    assert.equal(two.body.data.name, 'Patched twice');
    assert.equal((await api.get('/segments', withKey(key))).status, 200);
  });
});

test('the contract documents the header on every POST, and only there', async () => {
  const doc = (await fetch(`${app.baseUrl}/openapi.json`).then((r) => r.json())) as any;
  assert.equal(doc.components.parameters.IdempotencyKey.schema.maxLength, 255);
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const has = (op.parameters ?? []).some((p: any) => p.$ref === '#/components/parameters/IdempotencyKey');
      assert.equal(has, method === 'post', `${method} ${path}`);
    }
  }
});
