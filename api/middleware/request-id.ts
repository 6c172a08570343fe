import { Middleware } from 'koa';
import { newId } from '../../domain/ids';

/** Gives every request an id (`req_…`), in `ctx.state.requestId` and the X-Request-Id header. */
export function requestId(): Middleware {
  return async (ctx, next) => {
    ctx.state.requestId = newId('req');
    ctx.set('X-Request-Id', ctx.state.requestId);
    await next();
  };
}
