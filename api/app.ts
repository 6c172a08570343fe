/**
 * `createApp(deps)` builds the Koa application from the operation table; it
 * never listens (`main` does, with requestListener). Per operation: authenticate → rate limit →
 * plan and scope → JSON body → validation → (POST) Idempotency-Key → handler.
 */
import { readFileSync } from 'node:fs';
import { createServer, RequestListener, Server } from 'node:http';
import { resolve } from 'node:path';
import Koa, { ParameterizedContext } from 'koa';
import compose from 'koa-compose';
import { openapiDocument } from '../schemas/openapi/index';
import { Operation, operations } from '../schemas/operations';
import { handlers } from './handlers/index';
import { inbound } from './inbound';
import { LinkRedirect, linkRedirect } from './links';
import { ClickBuffer } from '../domain/links/clicks';
import { AfterAnswer } from '../domain/after-answer';
import { oauthToken } from './oauth';
import { postbacks } from './postbacks';
import { docs } from './docs';
import { favicon } from './favicon';
import { mcpEndpoint } from './mcp';
import { storefront } from './storefront';
import { panel } from './panel/index';
import { DEFAULT_RATE_LIMIT } from '../domain/accounts/store';
import { WindowReserver } from '../domain/accounts/rate-limits';
import { insertRequestLogs } from '../domain/developer/request-logs';
import { AppDeps, Handler, HandlerDeps, OperationId, Request } from './handlers/types';
import { authenticate, authorize } from './middleware/auth';
import { jsonBody } from './middleware/body';
import { idempotency } from './middleware/idempotency';
import { clientErrorListener, front, serviceUnavailable, UNAVAILABLE_RETRY_AFTER_S } from './middleware/errors';
import { ApiMetrics, doorOf, metricsEndpoint } from './metrics';
import { unavailableDependency } from '../domain/dependencies';
import { rateLimit } from './middleware/rate-limit';
import { RequestLog } from './middleware/request-log';
import { AppMiddleware, AsyncStep, authOf, RequestState } from './middleware/state';
import { validateRequest } from './middleware/validate';
import { apiRoutes, Route } from './router';

export const API_PREFIX = '/api/v1';
export const BODY_LIMIT = 128 * 1024;
export const RATE_LIMIT = { limit: DEFAULT_RATE_LIMIT, windowMs: 60_000 };
/** How long a request may take before it is answered 503 `service_unavailable`. */
export const REQUEST_TIMEOUT_MS = 10_000;

function invoke(op: Operation, handler: Handler<OperationId>, deps: HandlerDeps): AppMiddleware {
  return async (ctx) => {
    const auth = authOf(ctx.state);
    // params, query and body passed validateRequest against this operation's schemas: they are of its types.
    const request = {
      tenant: auth.tenant,
      credential: auth.credential,
      account: auth.account,
      params: ctx.state.params,
      idempotencyKey: ctx.get('Idempotency-Key') || null,
      query: ctx.state.query,
      body: ctx.state.body,
    } as Request;
    const reply: { status?: number; body: object } = await handler(request, deps);
    ctx.status = reply.status ?? op.successStatus;
    ctx.body = { ...reply.body, request_id: ctx.state.requestId };
  };
}

/** How long a health check waits for each dependency: /healthz and /readyz answer within 2 s whatever happens. */
export const HEALTH_CHECK_MS = 1_500;

/** `probe` resolved within HEALTH_CHECK_MS: null, else why not. */
async function check(probe: () => Promise<unknown>): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>(
    (resolve) => (timer = setTimeout(() => resolve(`no answer within ${HEALTH_CHECK_MS / 1000} s`), HEALTH_CHECK_MS)),
  );
  const answered = probe().then(
    () => null,
    (err: unknown) => `unreachable (${unavailableDependency(err) ? 'no answer' : 'error'})`,
  );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Each dependency's state: null when it answers, else why not. */
async function dependencies(deps: AppDeps): Promise<{ mongodb: string | null; temporal: string | null }> {
  const [mongodb, temporal] = await Promise.all([
    check(() => deps.db.command({ ping: 1 })),
    check(() =>
      deps.temporal.client.withDeadline(Date.now() + HEALTH_CHECK_MS, () =>
        deps.temporal.client.workflowService.describeNamespace({ namespace: deps.temporal.namespace }),
      ),
    ),
  ]);
  return { mongodb, temporal };
}

/**
 * `/healthz`: 200 only when MongoDB and Temporal both answer, else 503 naming
 * the one down and why; `/readyz` (for load balancers): the same, and 503
 * while the process is `starting` or `draining` for a stop; `/livez`: 200
 * while the process answers.
 */
function health(deps: AppDeps, notReady: () => 'starting' | 'draining' | null): Record<string, AsyncStep> {
  const report = async (ctx: Parameters<AppMiddleware>[0], ready: boolean) => {
    const state = await dependencies(deps);
    const down = Object.entries(state).filter(([, why]) => why !== null);
    const not = ready ? notReady() : null;
    const ok = down.length === 0 && not === null;
    ctx.status = ok ? 200 : 503;
    if (!ok) ctx.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_S));
    ctx.body = {
      status: ok ? 'ok' : 'unavailable',
      mongodb: state.mongodb === null,
      temporal: state.temporal === null,
      ...(down.length ? { down: Object.fromEntries(down) } : {}),
      ...(not ? { not_ready: not } : {}),
      request_id: ctx.state.requestId,
    };
  };
  return {
    '/healthz': (ctx) => report(ctx, false),
    '/readyz': (ctx) => report(ctx, true),
    '/livez': (ctx) => {
      ctx.body = { status: 'ok', request_id: ctx.state.requestId };
      return Promise.resolve();
    },
  };
}

/** The request collection `npm run openapi` writes next to the document (this file runs from dist/api/). */
const COLLECTION_JSON = resolve(__dirname, '../../schemas/collection.json');
let collection: { variable?: { key: string; value: string }[] } | undefined;

/**
 * The API's routes (`/openapi.json`, `/collection.json` and the operations),
 * each one step composed once; static paths before parameters so
 * `/commissions/summary` wins over `/commissions/{id}`. Per operation:
 * authenticate → rate limit → plan and scope → JSON body → validation →
 * (POST) Idempotency-Key → handler; a step that need not wait (a cached key,
 * a slot of a held block, no body) calls the next one in the same turn.
 */
function buildRoutes(deps: HandlerDeps, windows: WindowReserver): AsyncStep {
  const routes: Route[] = [
    {
      method: 'GET',
      path: '/openapi.json',
      target: (ctx) => {
        ctx.body = openapiDocument;
        return Promise.resolve();
      },
    },
    {
      // The same collection, its base_url the origin it was fetched from.
      method: 'GET',
      path: '/collection.json',
      target: (ctx) => {
        collection ??= JSON.parse(readFileSync(COLLECTION_JSON, 'utf8')) as typeof collection;
        const baseUrl = `${ctx.protocol}://${ctx.host}${API_PREFIX}`;
        ctx.body = { ...collection, variable: collection!.variable?.map((v) => (v.key === 'base_url' ? { ...v, value: baseUrl } : v)) };
        return Promise.resolve();
      },
    },
  ];
  const ordered = [...operations].sort((a, b) => Number(a.path.includes('{')) - Number(b.path.includes('{')));
  for (const op of ordered) {
    const handler = (handlers as Partial<Record<string, Handler<OperationId>>>)[op.operationId];
    if (!handler) throw new Error(`operation ${op.operationId} has no handler`);
    const step = compose<ParameterizedContext<RequestState>>([
      authenticate(deps.db),
      rateLimit(windows, deps.rateLimit ?? RATE_LIMIT),
      authorize(op),
      jsonBody(op, BODY_LIMIT),
      validateRequest(op),
      ...(op.method === 'post' ? [idempotency(deps.db)] : []),
      invoke(op, handler, deps),
    ]);
    routes.push({
      method: op.method,
      path: op.path,
      target: (ctx, next) => {
        ctx.state.operation = op;
        return step(ctx, next);
      },
    });
  }
  return apiRoutes(API_PREFIX, routes);
}

/** What an app holds beyond its requests: waiting log lines, reserved rate-limit slots, clicks, bookkeeping after answers. */
const held = new WeakMap<
  Koa<RequestState>,
  {
    log: RequestLog;
    windows: WindowReserver;
    clicks: ClickBuffer;
    redirect: LinkRedirect;
    afterAnswer: AfterAnswer;
    draining: boolean;
    /** The database is set up (createApp's `ready`). */
    ready: boolean;
  }
>();

/** Marks the app as stopping: /readyz answers 503 from now on, so a load balancer sends no new requests. */
export function drainApp(app: Koa<RequestState>): void {
  const h = held.get(app);
  if (h) h.draining = true;
}

/** Writes the access log lines still waiting for their batch (at once) and stores their request-log entries (resolves when stored). */
export async function flushRequestLog(app: Koa<RequestState>): Promise<void> {
  await held.get(app)?.log.flush();
}

/** Writes the clicks of tracked links still waiting for their batch. */
export async function flushClicks(app: Koa<RequestState>): Promise<void> {
  await held.get(app)?.clicks.flush();
}

/** Runs the bookkeeping requests left for after their answers (a publication's count, event relay, move to `sending`) now. */
export async function flushAfterAnswer(app: Koa<RequestState>): Promise<void> {
  await held.get(app)?.afterAnswer.flush();
}

/**
 * A clean stop, once the server answered its last request: runs the bookkeeping left after answers, writes the waiting
 * log lines, request-log entries and clicks, gives unused rate-limit slots back.
 */
export async function closeApp(app: Koa<RequestState>): Promise<void> {
  const h = held.get(app);
  if (!h) return;
  await Promise.all([h.afterAnswer.close(), h.log.flush()]);
  await Promise.all([h.clicks.close(), h.windows.close()]);
}

/**
 * What a server runs for an app: the tracked-link redirect (`/l/{code}`,
 * api/links.ts) answered ahead of Koa, every other request handed to the
 * app's Koa callback. `main` and the tests' stack both serve this (createAppServer); the Koa
 * callback alone has no `/l/` route.
 */
export function requestListener(app: Koa<RequestState>): RequestListener {
  const h = held.get(app);
  if (!h) throw new Error('requestListener takes an app made by createApp');
  const handle = app.callback();
  return (req, res) => {
    if (!h.redirect(req, res)) void handle(req, res);
  };
}

/**
 * The HTTP server of an app, not yet listening: requestListener, and the refusals Node's HTTP parser makes before a
 * request exists answered in the error shape (clientErrorListener). `main` and the tests' stack both serve through it.
 */
export function createAppServer(app: Koa<RequestState>): Server {
  const server = createServer(requestListener(app));
  server.on('clientError', clientErrorListener(held.get(app)!.log));
  return server;
}

export function createApp(deps: AppDeps): Koa<RequestState> {
  const app = new Koa<RequestState>();
  app.proxy = false;
  const log = new RequestLog(deps.logger, (entries) => insertRequestLogs(deps.db, entries));
  const windows = new WindowReserver(deps.db, (deps.rateLimit ?? RATE_LIMIT).windowMs);
  const clicks = new ClickBuffer(deps.db, deps.logger, deps.clickFlushMs);
  const afterAnswer = new AfterAnswer((err) => deps.logger.error({ err }, 'bookkeeping after an answer failed'));
  const h = { log, windows, clicks, redirect: linkRedirect(deps, clicks, log), afterAnswer, draining: false, ready: !deps.ready };
  void deps.ready?.then(() => (h.ready = true));
  held.set(app, h);
  const api = buildRoutes({ ...deps, afterAnswer }, windows);
  const { client } = deps.temporal;
  const metrics = new ApiMetrics(deps.db);
  const limit = { ms: deps.requestTimeoutMs ?? REQUEST_TIMEOUT_MS, temporalDeadline: client.withDeadline.bind(client) };
  app.use(front(log, limit, metrics, doorOf, deps.tracer));
  // Answered while the API starts too: health probes and metrics.
  const probes: Record<string, AsyncStep> = {
    ...health(deps, () => (h.draining ? 'draining' : h.ready ? null : 'starting')),
    '/metrics': metricsEndpoint(metrics, deps.metricsToken),
  };
  const starting = () => serviceUnavailable('The API is starting and waits for the database');
  // Everything outside the versioned API; none of it answers a path under `/api/v1/`.
  const site = compose<ParameterizedContext<RequestState>>([
    async (ctx, next) => {
      const probe = ctx.method === 'GET' ? probes[ctx.path] : undefined;
      await (probe ? probe(ctx, next) : next());
    },
    inbound(deps),
    oauthToken(deps),
    postbacks(deps),
    favicon(),
    docs(API_PREFIX),
    mcpEndpoint(deps.db, API_PREFIX),
    storefront(deps),
    panel(deps),
    api,
  ]);
  // An API request goes straight to its router (the hot path), anything else through the site first.
  app.use((ctx, next) => {
    if (!h.ready && !probes[ctx.path]) throw starting();
    return ctx.path.startsWith(`${API_PREFIX}/`) ? api(ctx, next) : site(ctx, next);
  });
  // Koa's central error log: a bug inside a request (front answered 500) or an error outside one (a broken response stream).
  app.on('error', (err: unknown, ctx?: { state?: { requestId?: string } }) => {
    deps.logger.error({ err, request_id: ctx?.state?.requestId }, 'request failed');
  });
  // A dependency that did not answer (answered 503), and work that failed after its request's deadline had answered it.
  app.on('unavailable', (err: unknown, ctx?: { state?: { requestId?: string } }) => {
    deps.logger.warn({ err, request_id: ctx?.state?.requestId }, 'a dependency did not answer');
  });
  app.on('late', (err: unknown, ctx?: { state?: { requestId?: string } }) => {
    deps.logger.warn({ err, request_id: ctx?.state?.requestId }, 'request failed after its deadline');
  });
  return app;
}
