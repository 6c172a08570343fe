/**
 * GET /metrics: Prometheus' format, only to the operator's bearer token when
 * one is set; a scrape parses, and its counters move with the requests served.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ApiClient } from '../helpers/client';
import { parsePrometheus, total } from '../helpers/prometheus';
import { seedTenant, startTestApp, TestApp } from '../helpers/stack';

const TOKEN = 'metrics-token-0123456789';
let app: TestApp;

before(async () => {
  app = await startTestApp({ metricsToken: TOKEN });
});
after(() => app.close());

const scrape = async (authorization?: string) => fetch(`${app.origin}/metrics`, { headers: authorization ? { authorization } : {} });

test('only the bearer token OFFEROPS_METRICS_TOKEN may scrape', async () => {
  const none = await scrape();
  assert.equal(none.status, 401);
  assert.equal(((await none.json()) as { code: string }).code, 'missing_api_key');
  const wrong = await scrape('Bearer not-the-token');
  assert.equal(wrong.status, 401);
  assert.equal(((await wrong.json()) as { code: string }).code, 'invalid_api_key');
});

test('a scrape parses, and requests by operation and status, latency, refusals and the outbox lag move', async () => {
  const read = async () => {
    const res = await scrape(`Bearer ${TOKEN}`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    return parsePrometheus(await res.text());
  };
  const before = await read();
  const tenant = await seedTenant(app.db);
  const api = new ApiClient(app.baseUrl, tenant.apiKey);
  for (let i = 0; i < 3; i++) assert.equal((await api.get('/offers')).status, 200);
  assert.equal((await api.get('/offers/off_00000000')).status, 404);
  assert.equal((await api.post('/offers', { url: 'https://shop.example/metrics', title: 'Counted' })).status, 201);
  const after = await read();

  const moved = (name: string, labels: Record<string, string>) => total(after, name, labels) - total(before, name, labels);
  assert.equal(moved('offerops_http_requests_total', { operation: 'offers_list', method: 'GET', status: '200' }), 3);
  assert.equal(moved('offerops_http_requests_total', { operation: 'offer_get', status: '404' }), 1);
  assert.equal(moved('offerops_http_requests_total', { operation: 'offer_create', status: '201' }), 1);
  assert.equal(moved('offerops_http_request_duration_seconds_count', { operation: 'offers_list' }), 3);
  assert.ok(total(after, 'offerops_http_request_duration_seconds_sum', { operation: 'offers_list' }) > 0);
  assert.ok(after.some((s) => s.name === 'offerops_rate_limit_refusals_total'));
  const lag = after.find((s) => s.name === 'offerops_outbox_lag_seconds');
  assert.ok(lag && lag.value >= 0, 'the outbox lag is a number of seconds');
  assert.ok(
    after.some((s) => s.name === 'offerops_api_nodejs_eventloop_lag_p99_seconds'),
    "Node's own metrics",
  );
  // No path of a request outside the operations becomes a label: they count by door.
  await fetch(`${app.origin}/nothing/here/${Date.now()}`);
  const doors = parsePrometheus(await (await scrape(`Bearer ${TOKEN}`)).text());
  assert.ok(total(doors, 'offerops_http_requests_total', { operation: 'other' }) >= 1);
  assert.ok(!doors.some((s) => Object.values(s.labels).some((v) => v.includes('/nothing'))));
});
