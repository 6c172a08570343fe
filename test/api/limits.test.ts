/**
 * Spec 7 and 8: the 128 KB body limit (413), media type and JSON parsing,
 * bodies on operations that take none, and 120 requests per minute per
 * credential shared by every API process through MongoDB (429).
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ApiClient, assertMatchesContract, Reply } from '../helpers/client';
import { addKey, seedTenant, startTestApp, TestApp } from '../helpers/stack';
import { setAccountRateLimit } from '../../domain/accounts/store';
import { WindowReserver } from '../../domain/accounts/rate-limits';
import { MAX_BODY_DEPTH, MAX_ERROR_DETAILS, ref } from '../../schemas/openapi/common';
import { validatorFor } from '../../schemas/validator';

const LIMIT = 128 * 1024;

let app: TestApp;
let api: ApiClient;

before(async () => {
  app = await startTestApp();
  api = new ApiClient(app.baseUrl, (await seedTenant(app.db)).apiKey);
});
after(() => app.close());

let n = 0;
const uniqueUrl = () => `https://shop.example/limits/${Date.now()}-${++n}`;

/** A JSON offer whose `copy` pads the whole text to exactly `bytes` bytes (ASCII, so bytes = characters). */
function paddedOffer(url: string, bytes: number): string {
  const head = `{"url":${JSON.stringify(url)},"title":"Padded offer","copy":"`;
  const tail = '"}';
  const text = head + 'c'.repeat(bytes - head.length - tail.length) + tail;
  assert.equal(Buffer.byteLength(text), bytes);
  JSON.parse(text);
  return text;
}

/** Sends `chunks` as a chunked body (no Content-Length) and reads the answer; the contract check included. */
async function postChunked(path: string, apiKey: string, chunks: Buffer[]): Promise<Reply> {
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next) controller.enqueue(new Uint8Array(next));
      else controller.close();
    },
  });
  const res = await fetch(app.baseUrl + path, {
    method: 'POST',
    // Its own connection: what happens to a connection after a 413 is tested separately, over a raw socket.
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json', connection: 'close' },
    body: stream,
    duplex: 'half',
  });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  const reply: Reply = { status: res.status, headers: res.headers, body, text };
  assertMatchesContract('POST', path, reply);
  return reply;
}

const splitIntoChunks = (text: string, size: number): Buffer[] => {
  const buf = Buffer.from(text);
  const out: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) out.push(buf.subarray(i, i + size));
  return out;
};

describe('413: bodies over 128 KB', () => {
  test('128 KB + 1 byte is a 413 payload_too_large and nothing is written', async () => {
    const url = uniqueUrl();
    const events = await app.db.collection('events').countDocuments();
    const res = await api.post('/offers', undefined, { raw: paddedOffer(url, LIMIT + 1) });
    assert.equal(res.status, 413, res.text.slice(0, 300));
    assert.equal(res.body.code, 'payload_too_large');
    assert.equal(await app.db.collection('offers').countDocuments({ url }), 0);
    assert.equal(await app.db.collection('events').countDocuments(), events);
  });

  test('exactly 128 KB of valid JSON is read and judged (400 for the over-long copy), not a 413', async () => {
    const url = uniqueUrl();
    const res = await api.post('/offers', undefined, { raw: paddedOffer(url, LIMIT) });
    assert.equal(res.status, 400, res.text.slice(0, 300));
    assert.equal(res.body.code, 'validation_failed');
    assert.deepEqual(
      res.body.details.map((d: any) => `${d.location}:${d.field}:${d.rule}`),
      ['body:copy:maxLength'],
    );
    assert.equal(await app.db.collection('offers').countDocuments({ url }), 0);
  });

  test('a chunked body (no Content-Length) under the limit is read normally', async () => {
    const url = uniqueUrl();
    const text = JSON.stringify({ url, title: 'Chunked offer', copy: 'x'.repeat(5000) });
    const res = await postChunked('/offers', (await seedTenant(app.db)).apiKey, splitIntoChunks(text, 1000));
    assert.equal(res.status, 201, res.text.slice(0, 300));
    assert.equal(res.body.data.url, url);
  });

  test('a chunked body (no Content-Length) over the limit is a 413 and nothing is written', async () => {
    const url = uniqueUrl();
    const tenant = await seedTenant(app.db);
    const res = await postChunked('/offers', tenant.apiKey, splitIntoChunks(paddedOffer(url, LIMIT + 1), 16 * 1024));
    assert.equal(res.status, 413, res.text.slice(0, 300));
    assert.equal(res.body.code, 'payload_too_large');
    assert.equal(await app.db.collection('offers').countDocuments({ url }), 0);
    // The server is still healthy for the next request.
    assert.equal((await api.withKey(tenant.apiKey).get('/me')).status, 200);
  });

  test('a much larger chunked body is a 413 too', async () => {
    const url = uniqueUrl();
    const res = await postChunked('/offers', (await seedTenant(app.db)).apiKey, splitIntoChunks(paddedOffer(url, 4 * LIMIT), 64 * 1024));
    assert.equal(res.status, 413, res.text.slice(0, 300));
    assert.equal(res.body.code, 'payload_too_large');
    assert.equal(await app.db.collection('offers').countDocuments({ url }), 0);
  });
});

/** The first complete HTTP/1.1 response in `text` (Content-Length framed), or undefined. */
function firstResponse(text: string): { status: number; headers: Record<string, string>; body: string; rest: string } | undefined {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  if (text.length < end + 4 + length) return undefined;
  return {
    status: Number(statusLine!.split(' ')[1]),
    headers,
    body: text.slice(end + 4, end + 4 + length),
    rest: text.slice(end + 4 + length),
  };
}

test('after a 413 in the middle of a chunked body, the connection is closed or still answers', async () => {
  const tenant = await seedTenant(app.db);
  const port = Number(new URL(app.origin).port);
  const socket = connect(port, '127.0.0.1');
  let received = '';
  let closed = false;
  let wake: () => void = () => undefined;
  socket.setEncoding('latin1');
  socket.on('data', (d: string) => {
    received += d;
    wake();
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    closed = true;
    wake();
  });
  /** Waits (no timer: the server's keep-alive timeout ends a stuck connection) until `done` holds or the socket closes. */
  const until = async (done: () => boolean) => {
    while (!done() && !closed) await new Promise<void>((resolve) => (wake = resolve));
  };
  try {
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `POST /api/v1/offers HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${tenant.apiKey}\r\n` +
        'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    const body = paddedOffer(uniqueUrl(), 4 * LIMIT);
    for (let i = 0; i < body.length; i += 16 * 1024) {
      const chunk = body.slice(i, i + 16 * 1024);
      socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    }
    socket.write('0\r\n\r\n');
    await until(() => firstResponse(received) !== undefined);
    const first = firstResponse(received);
    assert.ok(first, `no complete response before the connection closed: ${JSON.stringify(received.slice(0, 200))}`);
    assert.equal(first.status, 413);
    assert.equal(JSON.parse(first.body).code, 'payload_too_large');
    if ((first.headers.connection ?? '').toLowerCase() === 'close') return; // the server hangs up, as announced
    // The server kept the connection alive: the next request on it must be answered.
    received = first.rest;
    socket.write(`GET /api/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${tenant.apiKey}\r\n\r\n`);
    await until(() => firstResponse(received) !== undefined);
    const second = firstResponse(received);
    assert.ok(
      second,
      'the 413 said Connection: keep-alive, but the next request on that connection was never answered (the unread rest of the body blocks it)',
    );
    assert.equal(second.status, 200);
  } finally {
    socket.destroy();
  }
});

describe('media type, JSON syntax, bodies where none is taken', () => {
  test('a text/plain body on POST /offers is a 415', async () => {
    const url = uniqueUrl();
    const res = await api.post('/offers', undefined, {
      raw: JSON.stringify({ url, title: 'Plain text' }),
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(res.status, 415, res.text);
    assert.equal(res.body.code, 'unsupported_media_type');
    assert.equal(await app.db.collection('offers').countDocuments({ url }), 0);
  });

  test('application/json with a charset and +json types are accepted', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/merge-patch+json']) {
      const res = await api.post('/offers', { url: uniqueUrl(), title: 'Json type' }, { headers: { 'content-type': type } });
      assert.equal(res.status, 201, `${type}: ${res.text}`);
    }
  });

  test('malformed JSON is a 400 malformed_json', async () => {
    for (const raw of ['{"url": "https://shop.example/x", "title": ', '{url: 1}', "{'a': 1}", '[1, 2', 'nul']) {
      const res = await api.post('/offers', undefined, { raw });
      assert.equal(res.status, 400, `${raw}: ${res.text}`);
      assert.equal(res.body.code, 'malformed_json');
    }
  });

  test('a body on an operation that takes none is a 400 body_not_allowed, and nothing happens', async () => {
    const created = (await api.post('/offers', { url: uniqueUrl(), title: 'Keep me' })).body.data;
    const res = await api.delete(`/offers/${created.id}`, { raw: '{"a":1}' });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'body_not_allowed');
    assert.equal((await api.get(`/offers/${created.id}`)).body.data.status, 'pending');
    const seg = await api.delete('/segments/seg_0000000000000000000000', { raw: '{"a":1}' });
    assert.equal(seg.status, 400, seg.text);
    assert.equal(seg.body.code, 'body_not_allowed');
  });
});

describe('request bodies: UTF-8, empty, nesting', () => {
  test('a body that is not UTF-8 is a 400 malformed_json, not stored with U+FFFD in its place', async () => {
    const url = uniqueUrl();
    const raw = Buffer.concat([Buffer.from(`{"url":${JSON.stringify(url)},"title":"Caf`), Buffer.from([0xe9]), Buffer.from(' latin-1"}')]);
    const res = await api.post('/offers', undefined, { raw });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'malformed_json');
    assert.match(res.body.message, /UTF-8/);
    assert.equal(await app.db.collection('offers').countDocuments({ url }), 0);
  });

  test('an empty body where the operation requires one is a 400, with a JSON Content-Type or with no body at all', async () => {
    for (const path of ['/offers', '/journeys', '/webhooks']) {
      // `raw: ''` sends Content-Type: application/json and Content-Length: 0; no body sends neither.
      for (const [how, res] of [
        ['empty, declared JSON', await api.post(path, undefined, { raw: '' })],
        ['no body', await api.post(path)],
      ] as const) {
        assert.equal(res.status, 400, `${path}, ${how}: ${res.text}`);
        assert.equal(res.body.code, 'validation_failed');
        assert.deepEqual(
          res.body.details.map((d: any) => [d.location, d.field, d.rule]),
          [['body', '', 'required']],
        );
      }
    }
  });

  test(`a body nested deeper than ${MAX_BODY_DEPTH} levels is a 400 naming the rule; as deep as that is judged as usual`, async () => {
    const nested = (depth: number) => '['.repeat(depth - 1) + ']'.repeat(depth - 1);
    const body = (depth: number) => `{"url":${JSON.stringify(uniqueUrl())},"title":"Deep","extra":${nested(depth)}}`;
    const deep = await api.post('/offers', undefined, { raw: body(MAX_BODY_DEPTH + 1) });
    assert.equal(deep.status, 400, deep.text);
    assert.deepEqual(
      deep.body.details.map((d: any) => [d.location, d.field, d.rule]),
      [['body', '', 'maxDepth']],
    );
    const limit = await api.post('/offers', undefined, { raw: body(MAX_BODY_DEPTH) });
    assert.deepEqual(
      limit.body.details.map((d: any) => [d.field, d.rule]),
      [['extra', 'additionalProperties']],
    );
    // Brackets inside strings are text, not nesting.
    const text = await api.post('/offers', { url: uniqueUrl(), title: 'Brackets', copy: '['.repeat(1000) + '{"'.repeat(100) });
    assert.equal(text.status, 201, text.text);
  });
});

describe('errors: details capped', () => {
  test(`a request with more than ${MAX_ERROR_DETAILS} invalid fields lists the first ${MAX_ERROR_DETAILS} and counts the rest`, async () => {
    const tags = Array.from({ length: 30 }, (_, i) => `bad tag ${i} !`);
    const res = await api.post('/journeys', {
      name: 'Many errors',
      trigger: 'offer.created',
      blocks: [{ id: 'start', type: 'trigger', config: {} }, ...tags.map((t, i) => ({ id: `t${i}`, type: 'tag', config: { add: [t] } }))],
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.details.length, MAX_ERROR_DETAILS);
    assert.equal(res.body.details_omitted, 30 - MAX_ERROR_DETAILS);
    assert.deepEqual(
      res.body.details.map((d: any) => d.field),
      tags.slice(0, MAX_ERROR_DETAILS).map((_, i) => `blocks.${i + 1}.config.add.0`),
      'the first ones, in the order of the body',
    );
    assert.match(res.body.message, /\(and 29 more problems, listed in details\)\.$/);
  });

  test('up to the cap, details are all there and nothing is counted', async () => {
    const res = await api.post('/webhooks', { url: 'https://hooks.example/x', events: ['offer.nope', 'offer.nada'] });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.details.length, 2);
    assert.equal(res.body.details_omitted, undefined);
  });
});

/** Writes `raw` on a fresh connection and reads until the server closes it: the first response in it. */
async function rawExchange(raw: string): Promise<{ status: number; headers: Record<string, string>; body: any }> {
  const socket = connect(Number(new URL(app.origin).port), '127.0.0.1');
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (d: string) => (received += d));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(raw);
  await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const first = firstResponse(received);
  assert.ok(first, `no complete response: ${JSON.stringify(received.slice(0, 200))}`);
  return { status: first.status, headers: first.headers, body: JSON.parse(first.body) };
}

describe("refusals of Node's HTTP parser, in the error shape", () => {
  const head = (extra: string) => `GET /api/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}\r\n`;
  const cases: [string, string, number, string][] = [
    ['a head over 16 KB', head(`X-Padding: ${'a'.repeat(17 * 1024)}\r\n`), 431, 'header_too_large'],
    ['a bare CR in a header', head('X-Odd: a\rb\r\n'), 400, 'invalid_request'],
    ['a bare LF in a header', head('X-Odd: a\nb\r\n'), 400, 'invalid_request'],
    ['a NUL in a header', head('X-Odd: a\0b\r\n'), 400, 'invalid_request'],
  ];
  for (const [what, raw, status, code] of cases) {
    test(`${what}: ${status} ${code} with a request id, and the connection closed`, async () => {
      const res = await rawExchange(raw);
      assert.equal(res.status, status);
      assert.equal(res.body.code, code);
      assert.match(res.body.request_id, /^req_[0-9a-z]+$/);
      assert.equal(res.headers['x-request-id'], res.body.request_id);
      assert.match(res.headers['content-type'] ?? '', /^application\/json/);
      assert.equal(res.headers.connection, 'close');
      assert.ok(validatorFor(ref('Error'))(res.body), JSON.stringify(res.body));
    });
  }

  test('the server answers normally afterwards', async () => {
    assert.equal((await api.get('/me')).status, 200);
  });
});

const rateLimitOf = (res: Reply): number => {
  const m = /(?:^|;)\s*r=(\d+)/.exec(res.headers.get('ratelimit') ?? '');
  assert.ok(m, `RateLimit header: ${res.headers.get('ratelimit')}`);
  return Number(m[1]);
};

function assertRateLimited(res: Reply): void {
  assert.equal(res.status, 429, res.text);
  assert.equal(res.body.code, 'rate_limited');
  const retryAfter = res.headers.get('retry-after') ?? '';
  assert.match(retryAfter, /^\d+$/, `Retry-After ${retryAfter}`);
  assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, `Retry-After ${retryAfter}`);
  assert.equal(res.headers.get('ratelimit-policy'), '"default";q=120;w=60');
  assert.equal(rateLimitOf(res), 0);
}

describe('429: 120 requests per minute per credential', () => {
  test('exactly 120 requests succeed, counting down; the 121st is a 429 and does not run', async () => {
    const tenant = await seedTenant(app.db);
    const client = api.withKey(tenant.apiKey);
    for (let i = 1; i <= 120; i++) {
      const res = await client.get('/me');
      assert.equal(res.status, 200, `request ${i}: ${res.text}`);
      assert.equal(rateLimitOf(res), 120 - i, `RateLimit after request ${i}`);
      assert.equal(res.headers.get('ratelimit-policy'), '"default";q=120;w=60');
    }
    assertRateLimited(await client.get('/me'));
    const url = uniqueUrl();
    assertRateLimited(await client.post('/offers', { url, title: 'Too many' }));
    assert.equal(await app.db.collection('offers').countDocuments({ url }), 0);
  });

  test('the window is per credential: another key of the same account is not affected', async () => {
    const tenant = await seedTenant(app.db);
    const other = await addKey(app.db, tenant);
    const client = api.withKey(tenant.apiKey);
    for (let i = 1; i <= 120; i++) assert.equal((await client.get('/me')).status, 200, `request ${i}`);
    assertRateLimited(await client.get('/me'));
    const res = await api.withKey(other.apiKey).get('/me');
    assert.equal(res.status, 200);
    assert.equal(rateLimitOf(res), 119);
  });

  test('the window is shared through MongoDB by every API process', async () => {
    const second = await startTestApp({ dbName: app.dbName });
    try {
      const tenant = await seedTenant(app.db);
      const viaA = api.withKey(tenant.apiKey);
      const viaB = new ApiClient(second.baseUrl, tenant.apiKey);
      for (let i = 1; i <= 60; i++) assert.equal((await viaA.get('/me')).status, 200, `A ${i}`);
      for (let i = 1; i <= 60; i++) {
        const res = await viaB.get('/me');
        assert.equal(res.status, 200, `B ${i}`);
        assert.equal(rateLimitOf(res), 60 - i, `RateLimit after B ${i}`);
      }
      assertRateLimited(await viaA.get('/me'));
      assertRateLimited(await viaB.get('/me'));
    } finally {
      await second.close();
    }
  });

  // Exact on every engine: MongoDB is atomic per document, and the embedding runs one collection's writes one at a
  // time (docs/architecture/decisions/0021-atomic-writes-through-the-embedding.md).
  test('concurrent requests are counted exactly: 150 at once → 120 pass, 30 refused', async () => {
    const tenant = await seedTenant(app.db);
    const client = api.withKey(tenant.apiKey);
    const replies = await Promise.all(Array.from({ length: 150 }, () => client.get('/me')));
    const statuses = replies.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 120, JSON.stringify(statuses));
    assert.equal(statuses.filter((s) => s === 429).length, 30);
    const remaining = replies
      .filter((r) => r.status === 200)
      .map(rateLimitOf)
      .sort((a, b) => a - b);
    assert.deepEqual(
      remaining,
      Array.from({ length: 120 }, (_, i) => i),
    );
  });

  test('the limit is an operator setting per account (admin account update --rate-limit); other accounts keep 120', async () => {
    const tenant = await seedTenant(app.db);
    const other = await seedTenant(app.db);
    assert.equal(await setAccountRateLimit(app.db, tenant.accountId, 3), true);
    const client = api.withKey(tenant.apiKey);
    for (let i = 1; i <= 3; i++) {
      const res = await client.get('/me');
      assert.equal(res.status, 200, `request ${i}: ${res.text}`);
      assert.equal(res.headers.get('ratelimit-policy'), '"default";q=3;w=60');
      assert.equal(rateLimitOf(res), 3 - i);
    }
    const refused = await client.get('/me');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('ratelimit-policy'), '"default";q=3;w=60');
    const res = await api.withKey(other.apiKey).get('/me');
    assert.equal(res.headers.get('ratelimit-policy'), '"default";q=120;w=60');
    assert.equal(await setAccountRateLimit(app.db, 'acc_0000000000000000000000', 10), false);
    await assert.rejects(setAccountRateLimit(app.db, tenant.accountId, 0), /whole number/);
  });

  test('processes spending reserved blocks serve exactly the limit between them, and a clean stop gives unused slots back', async () => {
    const MIN = 60_000;
    // Two processes alternating request by request: each spends the blocks it reserved.
    const a = new WindowReserver(app.db, MIN);
    const b = new WindowReserver(app.db, MIN);
    let served = 0;
    for (let i = 0; i < 130; i++) if ((await (i % 2 ? b : a).take('key_alternating', 120)).count <= 120) served++;
    assert.equal(served, 120);

    // One process takes one slot (and holds the rest of its block); the other spends what is left of the window.
    const c = new WindowReserver(app.db, MIN);
    const d = new WindowReserver(app.db, MIN);
    assert.equal((await c.take('key_stopping', 120)).count, 1);
    let viaD = 0;
    while ((await d.take('key_stopping', 120)).count <= 120) viaD++;
    assert.ok(viaD < 119, `the other process held no block: ${viaD}`);
    // The first stops cleanly: its unused slots go back to the window, and the other can spend them.
    await c.close();
    while ((await d.take('key_stopping', 120)).count <= 120) viaD++;
    assert.equal(1 + viaD, 120);
  });
});
