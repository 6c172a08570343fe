import { newId } from '../../domain/ids';
import { AppMiddleware } from './state';

/** Gives every request an id (`req_…`), in `ctx.state.requestId` and the X-Request-Id header. */
export function requestId(): AppMiddleware {
  return (ctx, next) => {
    ctx.state.requestId = newId('req');
    ctx.set('X-Request-Id', ctx.state.requestId);
    return next();
  };
}
