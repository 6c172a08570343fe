/**
 * The API's routing (api/router.ts, @koa/router by area) on a real HTTP
 * server without the stack: every target records what it matched.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import Koa from 'koa';
import { HttpError } from '../../api/errors';
import { RequestState } from '../../api/middleware/state';
import { apiRoutes } from '../../api/router';

const ROUTES = [
  ['get', '/commissions/summary', 'summary'],
  ['get', '/offers', 'list'],
  ['post', '/offers', 'create'],
  ['get', '/commissions/{id}', 'commission'],
  ['get', '/offers/{id}', 'get'],
  ['patch', '/offers/{id}', 'update'],
  ['post', '/offers/{id}/preview', 'preview'],
] as const;

let origin: string;
const server = createServer();

before(async () => {
  const app = new Koa<RequestState>();
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      ctx.status = err.code === 'method_not_allowed' ? 405 : 404;
      ctx.set(err.headers);
      ctx.body = { code: err.code };
    }
  });
  app.use(
    apiRoutes(
      '/api/v1',
      ROUTES.map(([method, path, target]) => ({
        method,
        path,
        target: (ctx) => {
          ctx.body = { target, params: ctx.state.params };
          return Promise.resolve();
        },
      })),
    ),
  );
  const handle = app.callback();
  server.on('request', (req, res) => void handle(req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

async function call(method: string, path: string): Promise<{ status: number; body: any; allow: string | null }> {
  const res = await fetch(origin + path, { method });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, allow: res.headers.get('allow') };
}

test('a route by method and path, with its parameters percent-decoded', async () => {
  assert.deepEqual((await call('GET', '/api/v1/offers')).body, { target: 'list', params: {} });
  assert.deepEqual((await call('POST', '/api/v1/offers')).body, { target: 'create', params: {} });
  assert.deepEqual((await call('PATCH', '/api/v1/offers/off_1')).body, { target: 'update', params: { id: 'off_1' } });
  assert.deepEqual((await call('GET', '/api/v1/offers/a%20b')).body, { target: 'get', params: { id: 'a b' } });
  assert.deepEqual((await call('POST', '/api/v1/offers/a%2Fb/preview')).body, { target: 'preview', params: { id: 'a/b' } });
  // Not decodable: kept as sent (validation then refuses it).
  assert.deepEqual((await call('GET', '/api/v1/offers/%E0%A4%A')).body, { target: 'get', params: { id: '%E0%A4%A' } });
});

test('static segments regardless of case, one trailing slash, HEAD answered by GET', async () => {
  assert.deepEqual((await call('GET', '/API/V1/Offers/off_1')).body, { target: 'get', params: { id: 'off_1' } });
  assert.deepEqual((await call('GET', '/api/v1/offers/')).body, { target: 'list', params: {} });
  assert.deepEqual((await call('GET', '/api/v1/offers/off_1/')).body, { target: 'get', params: { id: 'off_1' } });
  assert.equal((await call('HEAD', '/api/v1/offers/off_1')).status, 200);
  assert.equal((await call('GET', '/api/v1/offers//')).status, 404);
  assert.equal((await call('GET', '/api/v1//offers')).status, 404);
});

test('a static path wins over a parameter', async () => {
  assert.deepEqual((await call('GET', '/api/v1/commissions/summary')).body, { target: 'summary', params: {} });
  assert.deepEqual((await call('GET', '/api/v1/commissions/com_1')).body, { target: 'commission', params: { id: 'com_1' } });
});

test('a known path under another method: 405 with the methods it takes; an unknown path: 404', async () => {
  for (const [method, path, allow] of [
    ['PUT', '/api/v1/offers', 'GET, POST'],
    ['DELETE', '/api/v1/offers/off_1', 'GET, PATCH'],
    ['GET', '/api/v1/offers/off_1/preview', 'POST'],
    ['POST', '/api/v1/commissions/summary', 'GET'],
  ] as const) {
    const res = await call(method, path);
    assert.equal(res.status, 405, `${method} ${path}`);
    assert.equal(res.body.code, 'method_not_allowed');
    assert.equal(res.allow, allow, `${method} ${path}`);
  }
  for (const path of ['/api/v1/offers/off_1/other', '/api/v1/nothing', '/api/v1/', '/elsewhere']) {
    const res = await call('GET', path);
    assert.equal(res.status, 404, path);
    assert.equal(res.body.code, 'route_not_found');
  }
});

test('OPTIONS and methods the router does not know (PROPFIND) are refused alike: 405 with Allow on a known path, 404 with none elsewhere', async () => {
  for (const method of ['OPTIONS', 'PROPFIND']) {
    const known = await call(method, '/api/v1/offers/off_1');
    assert.equal(known.status, 405, method);
    assert.equal(known.body.code, 'method_not_allowed');
    assert.equal(known.allow, 'GET, PATCH', method);
    const unknown = await call(method, '/api/v1/offers/off_1/other');
    assert.equal(unknown.status, 404, method);
    assert.equal(unknown.allow, null, method);
  }
  // HEAD, which every GET route takes, is never offered; a HEAD where only POST is: 405.
  const head = await call('HEAD', '/api/v1/offers/off_1/preview');
  assert.equal(head.status, 405);
  assert.equal(head.allow, 'POST');
});
