import { ErrorCode } from '../../schemas/openapi/common';
import { documentedError, HttpError } from '../errors';
import { newId } from '../../domain/ids';
import { RequestLog } from './request-log';
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

/**
 * The first step of every request, in one `async` frame (each frame is a
 * promise and a turn more on the hot path):
 * - a request id (`req_…`) in `ctx.state.requestId` and the X-Request-Id header;
 * - every failure turned into the contract's error shape
 *   `{code, message, request_id[, details]}`: domain and HTTP errors by their
 *   code's status. Anything else is a bug: a 500 whose message is never sent
 *   (the client sees only the request id to quote); the error goes to the
 *   app's `error` event, which logs it (createApp);
 * - one access-log line per request once it is answered (the error too):
 *   route template, status, duration, request and credential ids, never
 *   headers or bodies. A v1 request of a credential is also stored in its
 *   request log (the same fields and the account; never a query value).
 *   Written in batches (RequestLog).
 */
export function front(log: RequestLog): AppMiddleware {
  return async (ctx, next) => {
    const requestId = newId('req');
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const time = new Date();
    const started = process.hrtime.bigint();
    try {
      await next();
    } catch (err) {
      answerError(ctx, err);
    } finally {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const { operation, auth } = ctx.state;
      log.record(
        {
          request_id: requestId,
          method: ctx.method,
          route: operation?.path ?? ctx.path,
          operation: operation?.operationId,
          status: ctx.status,
          duration_ms: durationMs,
          key_id: auth?.credential.id,
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

/** The answer to a failure, in the error shape (see `front`). */
function answerError(ctx: Parameters<AppMiddleware>[0], err: unknown): void {
  let known = documentedError(err) ?? documentedError(exposedClientError(err));
  if (!known) {
    ctx.app.emit('error', err, ctx);
    known = documentedError(new HttpError('internal_error', 'Internal error; quote the request_id when reporting it.'))!;
  }
  ctx.status = known.status;
  ctx.set(known.headers);
  ctx.body = {
    code: known.code,
    message: known.message,
    request_id: ctx.state.requestId,
    ...(known.details ? { details: known.details } : {}),
  };
}
