import { Middleware } from 'koa';
import { Logger } from 'pino';
import { ApiError } from '../errors';

/** Statuses Koa or a dependency may raise on its own, mapped to our codes. */
const FALLBACK_CODES: Record<number, ApiError['code']> = {
  400: 'invalid_request',
  404: 'route_not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/**
 * Turns every failure into the contract's error shape
 * `{code, message, request_id[, details]}`. Messages of 5xx errors are
 * logged, never sent: the client sees only the request id to quote.
 */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      let apiError: ApiError;
      if (err instanceof ApiError) {
        apiError = err;
      } else {
        const status = (err as { status?: unknown }).status;
        const expose = (err as { expose?: unknown }).expose === true;
        const code = typeof status === 'number' ? FALLBACK_CODES[status] : undefined;
        if (code && expose && typeof status === 'number') {
          apiError = new ApiError(status, code, (err as Error).message);
        } else {
          logger.error({ err, request_id: ctx.state.requestId }, 'request failed');
          apiError = new ApiError(500, 'internal_error', 'Internal error; quote the request_id when reporting it.');
        }
      }
      ctx.status = apiError.status;
      ctx.set(apiError.headers);
      ctx.body = {
        code: apiError.code,
        message: apiError.message,
        request_id: ctx.state.requestId,
        ...(apiError.details ? { details: apiError.details } : {}),
      };
    }
  };
}

/** One line per request: route template, status, duration, request and key ids. Never headers or bodies. */
export function accessLog(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      logger.info(
        {
          request_id: ctx.state.requestId,
          method: ctx.method,
          route: ctx.state.operation?.path ?? ctx.path,
          operation: ctx.state.operation?.operationId,
          status: ctx.status,
          duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
          key_id: ctx.state.auth?.key._id,
        },
        'request',
      );
    }
  };
}
