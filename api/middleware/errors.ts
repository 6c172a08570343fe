import { STATUS_CODES } from 'node:http';
import { Duplex } from 'node:stream';
import { ERROR_STATUS, ErrorCode, MAX_ERROR_DETAILS } from '../../schemas/openapi/common';
import { ErrorDetail } from '../../domain/errors';
import { documentedError, HttpError } from '../errors';
import { newId } from '../../domain/ids';
import { Dependency, unavailableDependency } from '../../domain/dependencies';
import { inRequest } from '../../domain/logger';
import { RequestLog } from './request-log';
import { Next } from 'koa';
import { context, propagation, Span, SpanKind, SpanStatusCode, trace, Tracer } from '@opentelemetry/api';
import { AppMiddleware } from './state';

/** Statuses Koa or a dependency may raise on its own, mapped to our codes. */
const FALLBACK_CODES: Record<number, ErrorCode> = {
  400: 'invalid_request',
  404: 'route_not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/** A client error Koa or a dependency raised (`http-errors` with `expose`), as ours; null for anything else. */
function exposedClientError(err: unknown): HttpError | null {
  const { status, expose } = err as { status?: unknown; expose?: unknown };
  const code = typeof status === 'number' ? FALLBACK_CODES[status] : undefined;
  return code && expose === true ? new HttpError(code, (err as Error).message) : null;
}

/** Where a request's outcome is counted (api/metrics.ts). */
export interface RequestMetrics {
  observe(operation: string, method: string, status: number, seconds: number): void;
}

/** What a request outside the operations counts as (api/metrics.ts doorOf). */
type Door = (path: string) => string;

/**
 * The first step of every request, in one `async` frame (each frame is a
 * promise and a turn more on the hot path):
 * - a request id (`req_…`) in `ctx.state.requestId` and the X-Request-Id header;
 * - every failure turned into the contract's error shape
 *   `{code, message, request_id[, details]}` (answerError): domain and HTTP
 *   errors by their code's status; a database or Temporal that did not answer
 *   is 503 `service_unavailable`, logged as a warning by the app's
 *   `unavailable` event. Anything else is a bug: a 500 whose message is never
 *   sent (the client sees only the request id to quote); the error goes to the
 *   app's `error` event, which logs it (createApp);
 * - a deadline (`limit.ms`): a request not answered by then gets 503
 *   `service_unavailable` (its work goes on, and is logged if it fails), and
 *   every Temporal call it makes carries that deadline;
 * - its outcome counted (operation, method, status, latency: api/metrics.ts);
 * - one access-log line per request once it is answered (the error too):
 *   route template, status, duration, request and credential ids, never
 *   headers or bodies. A v1 request of a credential is also stored in its
 *   request log (the same fields and the account; never a query value).
 *   Written in batches (RequestLog);
 * - the rest of the request runs as its work (inRequest: every line it logs
 *   carries its request id) and, with a `tracer`, inside its span (requestSpan).
 */
export function front(log: RequestLog, limit: RequestLimit, metrics: RequestMetrics, door: Door, tracer?: Tracer): AppMiddleware {
  return async (ctx, next) => {
    const requestId = newId('req');
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const time = new Date();
    const started = process.hrtime.bigint();
    const span = tracer && requestSpan(tracer, ctx.method, ctx.headers, requestId);
    const active = span && trace.setSpan(context.active(), span);
    const scoped = <T>(fn: () => T): T => inRequest(requestId, active ? () => context.with(active, fn) : fn);
    try {
      await scoped(() => withinDeadline(ctx, next, limit));
    } catch (err) {
      scoped(() => answerError(ctx, err));
    } finally {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const { operation, auth } = ctx.state;
      if (span) endRequestSpan(span, ctx.method, operation?.path ?? door(ctx.path), operation?.operationId, ctx.status);
      metrics.observe(operation?.operationId ?? door(ctx.path), ctx.method, ctx.status, durationMs / 1000);
      log.record(
        {
          request_id: requestId,
          method: ctx.method,
          route: operation?.path ?? ctx.path,
          operation: operation?.operationId,
          status: ctx.status,
          duration_ms: durationMs,
          key_id: auth?.credential.id,
          trace_id: span?.spanContext().traceId,
        },
        operation && auth
          ? {
              time,
              request_id: requestId,
              method: ctx.method,
              route: operation.path,
              status: ctx.status,
              duration_ms: Math.round(durationMs * 1000) / 1000,
              credential_id: auth.credential.id,
              account_id: auth.account._id,
              env: auth.tenant.env,
            }
          : undefined,
      );
    }
  };
}

/** A request's span: the child of the caller's span when its `traceparent` header names one, else a trace's root. */
function requestSpan(tracer: Tracer, method: string, headers: Record<string, unknown>, requestId: string): Span {
  const caller = propagation.extract(context.active(), headers);
  return tracer.startSpan(
    method,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'offerops.request_id': requestId } },
    caller,
  );
}

/**
 * Ends a request's span, named `METHOD /route/template` (outside the operations, the door: `GET storefront`), with
 * its operation and status; never its path's values, query or body. A 5xx is an error.
 */
function endRequestSpan(span: Span, method: string, route: string, operationId: string | undefined, status: number): void {
  span.updateName(`${method} ${route}`);
  span.setAttributes({
    'http.route': route,
    'http.response.status_code': status,
    ...(operationId ? { 'offerops.operation_id': operationId } : {}),
  });
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

export interface RequestLimit {
  /** How long a request may take before it is answered 503. */
  ms: number;
  /** Runs `fn` with every Temporal call in it bounded by `deadline` (the Temporal client's withDeadline). */
  temporalDeadline?: <R>(deadline: number, fn: () => Promise<R>) => Promise<R>;
}

/** Runs the rest of the request, or throws 503 when it is still running at the deadline. */
function withinDeadline(ctx: Parameters<AppMiddleware>[0], next: Next, limit: RequestLimit): Promise<void> {
  const deadline = Date.now() + limit.ms;
  const work = limit.temporalDeadline ? limit.temporalDeadline(deadline, next) : next();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // The work goes on; if it fails later, the log says so (the client has its answer already).
      work.catch((err: unknown) => ctx.app.emit('late', err, ctx));
      reject(serviceUnavailable(`The request did not finish within ${limit.ms / 1000} s`));
    }, limit.ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/** Seconds a client should wait before repeating a request a dependency could not serve. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

const UNAVAILABLE_MESSAGES: Record<Dependency, string> = {
  database: 'The database did not answer in time',
  temporal: 'The workflow engine (Temporal) did not answer in time',
  connection: 'A connection to the database or Temporal was cut',
};

/** 503 `service_unavailable` with Retry-After, in words: what did not answer and what to do. */
export function serviceUnavailable(what: string): HttpError {
  return new HttpError(
    'service_unavailable',
    `${what}; retry in ${UNAVAILABLE_RETRY_AFTER_S} s (a POST with the same Idempotency-Key is applied at most once).`,
    { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) },
  );
}

/** The answer to a failure, in the error shape (see `front`). */
function answerError(ctx: Parameters<AppMiddleware>[0], err: unknown): void {
  let known = documentedError(err) ?? documentedError(exposedClientError(err));
  if (!known) {
    const dependency = unavailableDependency(err);
    if (dependency) {
      // A dependency's trouble, not a bug: logged as a warning, answered 503.
      ctx.app.emit('unavailable', err, ctx);
      known = documentedError(serviceUnavailable(UNAVAILABLE_MESSAGES[dependency]))!;
    } else {
      ctx.app.emit('error', err, ctx);
      known = documentedError(new HttpError('internal_error', 'Internal error; quote the request_id when reporting it.'))!;
    }
  }
  ctx.status = known.status;
  ctx.set(known.headers);
  ctx.body = errorBody(known, ctx.state.requestId);
}

/** The error shape: `details` cut to the first MAX_ERROR_DETAILS, `details_omitted` counting the rest (an answer stays small). */
export function errorBody(
  err: { code: ErrorCode; message: string; details?: readonly ErrorDetail[] },
  requestId: string,
): { code: ErrorCode; message: string; request_id: string; details?: ErrorDetail[]; details_omitted?: number } {
  const details = err.details;
  return {
    code: err.code,
    message: err.message,
    request_id: requestId,
    ...(details ? { details: details.slice(0, MAX_ERROR_DETAILS) } : {}),
    ...(details && details.length > MAX_ERROR_DETAILS ? { details_omitted: details.length - MAX_ERROR_DETAILS } : {}),
  };
}

/** What Node's HTTP parser refuses before a request exists, by its error code; anything else it refuses is a 400. */
const PARSER_REFUSALS: Record<string, { code: ErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: { code: 'header_too_large', message: 'The request line and headers exceed 16 KB.' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { code: 'payload_too_large', message: 'The chunk extensions of the body exceed 16 KB.' },
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'request_timeout', message: 'The request did not arrive in time.' },
};

/**
 * The server's `clientError` listener: a request Node's parser refuses (a head over 16 KB, a bare CR, LF or NUL in a
 * header, a request too slow to arrive) is answered in the error shape with a request id, as every other refusal, then
 * the connection is closed (the parser cannot read on). Nothing is written when a response on the connection has
 * begun (it would corrupt it) or the peer is gone. One access-log line per answer.
 */
export function clientErrorListener(log: RequestLog): (err: Error & { code?: string; reason?: string }, socket: Duplex) => void {
  return (err, socket) => {
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const reason = typeof err.reason === 'string' && /^[\w ,.'-]{1,100}$/.test(err.reason) ? `: ${err.reason}` : '';
    const refusal = PARSER_REFUSALS[err.code ?? ''] ?? { code: 'invalid_request', message: `The request is not valid HTTP/1.1${reason}.` };
    const status = ERROR_STATUS[refusal.code];
    const requestId = newId('req');
    const body = JSON.stringify(errorBody(refusal, requestId));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
    log.record({ request_id: requestId, status, parser_error: err.code ?? null, duration_ms: 0 });
  };
}
