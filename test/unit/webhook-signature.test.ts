/**
 * Webhook signatures (domain/webhooks/signature.ts): the headers a delivery carries, checked here
 * against the documented formula computed independently with node:crypto, and the check's verdicts.
 */
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { isSigningSecret, signatureHeaders, verifySignature } from '../../domain/webhooks/signature';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({ id: 'evt_1', kind: 'offer.created', data: { title: 'Café' } });

test('the headers: the id, unix seconds, v1 and the base64 HMAC-SHA256 over id.timestamp.body', () => {
  const at = new Date('2026-01-02T03:04:05.678Z');
  const headers = signatureHeaders(secret, 'evt_1', at, body);
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`evt_1.1767323045.${body}`).digest('base64');
  assert.deepEqual(headers, { 'webhook-id': 'evt_1', 'webhook-timestamp': '1767323045', 'webhook-signature': `v1,${expected}` });
});

test('a signed delivery verifies, headers in any case, arrays as Node gives repeated ones', () => {
  const headers = signatureHeaders(secret, 'evt_1', new Date(), body);
  assert.deepEqual(verifySignature(secret, headers, body), { verified: true });
  const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), [v]]));
  assert.deepEqual(verifySignature(secret, upper, body), { verified: true });
  // A second signature beside ours (as during a key rotation) does not stop the check.
  assert.deepEqual(verifySignature(secret, { ...headers, 'webhook-signature': `v1,bm9wZQ== ${headers['webhook-signature']}` }, body), {
    verified: true,
  });
});

test('what a receiver refuses, in words', () => {
  const headers = signatureHeaders(secret, 'evt_1', new Date(), body);
  const refused = (h: Record<string, string>, b = body) => {
    const verdict = verifySignature(secret, h, b);
    return verdict.verified ? null : verdict.reason;
  };
  assert.equal(refused(headers, body.replace('Café', 'Cafe')), 'no v1 signature matches the secret');
  assert.equal(refused({ ...headers, 'webhook-id': 'evt_2' }), 'no v1 signature matches the secret');
  assert.equal(
    refused({ ...headers, 'webhook-signature': headers['webhook-signature'].replace('v1,', 'v2,') }),
    'no v1 signature matches the secret',
  );
  assert.equal(refused({ 'webhook-id': 'evt_1' }), 'webhook-id, webhook-timestamp and webhook-signature are required');
  assert.equal(refused({ ...headers, 'webhook-timestamp': 'soon' }), 'webhook-timestamp is not unix seconds');
  for (const minutes of [-6, 6]) {
    const stale = signatureHeaders(secret, 'evt_1', new Date(Date.now() + minutes * 60_000), body);
    assert.equal(refused(stale), 'webhook-timestamp is more than 5 minutes off');
  }
  const other = `whsec_${randomBytes(32).toString('base64')}`;
  assert.equal(refused(signatureHeaders(other, 'evt_1', new Date(), body)), 'no v1 signature matches the secret');
});

test('a signing secret is whsec_ and a base64 key', () => {
  assert.equal(isSigningSecret(secret), true);
  for (const wrong of ['not-a-secret', 'whsec_', 'whsec_abc', `wh_${secret.slice(6)}`, `${secret} `])
    assert.equal(isSigningSecret(wrong), false, wrong);
});
