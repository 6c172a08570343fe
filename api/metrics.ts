/**
 * Prometheus metrics of an API process (prom-client, one registry per app):
 * requests by operation and status, their latency, rate-limit refusals, the
 * outbox's lag, and Node's own (event-loop delay, heap, GC). `GET /metrics`
 * serves them; with OFFEROPS_METRICS_TOKEN set, only to that bearer token.
 */
import { timingSafeEqual } from 'node:crypto';
import { Db } from 'mongodb';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { undispatchedEvents } from '../domain/events/store';
import { HttpError } from './errors';
import { AsyncStep } from './middleware/state';

/** What a request outside the operations is counted as: its door, never its path (unbounded). */
const DOORS: [RegExp, string][] = [
  [/^\/(healthz|readyz|livez)$/, 'health'],
  [/^\/metrics$/, 'metrics'],
  [/^\/s\//, 'storefront'],
  [/^\/panel(\/|$)/, 'panel'],
  [/^\/inbound\//, 'inbound'],
  [/^\/postbacks\//, 'postback'],
  [/^\/api\/developer\/oauth\//, 'oauth'],
  [/^\/docs(\/|$)/, 'docs'],
  [/^\/mcp(\/|$)/, 'mcp'],
  [/^\/api\/v1\//, 'api_unmatched'],
];

export function doorOf(path: string): string {
  for (const [pattern, door] of DOORS) if (pattern.test(path)) return door;
  return 'other';
}

export class ApiMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'operation' | 'method' | 'status'>;
  private readonly latency: Histogram<'operation'>;
  private readonly refusals: Counter;

  constructor(db: Db) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'offerops_api_' });
    this.requests = new Counter({
      name: 'offerops_http_requests_total',
      help: 'Requests answered, by operationId (or door outside the API), method and status.',
      labelNames: ['operation', 'method', 'status'],
      registers,
    });
    this.latency = new Histogram({
      name: 'offerops_http_request_duration_seconds',
      help: 'Time from a request to its answer, by operationId (or door).',
      labelNames: ['operation'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.refusals = new Counter({
      name: 'offerops_rate_limit_refusals_total',
      help: 'Requests refused 429 rate_limited.',
      registers,
    });
    new Gauge({
      name: 'offerops_outbox_lag_seconds',
      help: 'Age of the oldest domain event not yet handed to delivery (0: none waits; NaN: the database did not answer).',
      registers,
      async collect() {
        try {
          const [oldest] = await undispatchedEvents(db, new Date(), 1);
          this.set(oldest ? Math.max(0, (Date.now() - Date.parse(oldest.occurred_at)) / 1000) : 0);
        } catch {
          this.set(NaN);
        }
      },
    });
  }

  /** Counts one answered request. */
  observe(operation: string, method: string, status: number, seconds: number): void {
    this.requests.inc({ operation, method, status });
    this.latency.observe({ operation }, seconds);
    if (status === 429) this.refusals.inc();
  }
}

/** `GET /metrics` in Prometheus' text format; with a token, 401 to any other bearer. */
export function metricsEndpoint(metrics: ApiMetrics, token: string | undefined): AsyncStep {
  const expected = token === undefined ? null : Buffer.from(`Bearer ${token}`);
  return async (ctx) => {
    if (expected) {
      const given = Buffer.from(ctx.get('Authorization'));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new HttpError(
          ctx.get('Authorization') ? 'invalid_api_key' : 'missing_api_key',
          'GET /metrics needs the bearer token OFFEROPS_METRICS_TOKEN.',
        );
      }
    }
    ctx.set('Content-Type', metrics.registry.contentType);
    ctx.body = await metrics.registry.metrics();
  };
}
