import { HttpError } from '../errors';
import { WindowReserver, WindowState } from '../../domain/accounts/rate-limits';
import { AppMiddleware, authOf } from './state';

export interface RateLimitOptions {
  limit: number;
  windowMs: number;
}

/**
 * `limit` requests per `windowMs` per credential (the account's operator
 * setting when it has one), counted in MongoDB so all API processes share
 * the window (`WindowReserver`: this process spends blocks of it it reserved).
 * Every response says where the caller stands (IETF RateLimit headers); past
 * the limit: 429 with Retry-After.
 */
export function rateLimit(windows: WindowReserver, opts: RateLimitOptions): AppMiddleware {
  const w = Math.round(opts.windowMs / 1000);
  return (ctx, next) => {
    const { credential, account } = authOf(ctx.state);
    const limit = account.rate_limit ?? opts.limit;
    const now = new Date();
    const admit = (window: WindowState) => {
      const reset = Math.max(1, Math.ceil((window.resetAt.getTime() - now.getTime()) / 1000));
      const remaining = Math.max(0, limit - window.count);
      const headers = { 'RateLimit-Policy': `"default";q=${limit};w=${w}`, RateLimit: `"default";r=${remaining};t=${reset}` };
      ctx.set(headers);
      if (window.count > limit) {
        throw new HttpError('rate_limited', `More than ${limit} requests in this window; retry in ${reset} s.`, {
          ...headers,
          'Retry-After': String(reset),
        });
      }
      return next();
    };
    // From the block this process holds (no turn of its own), else a reservation first.
    const held = windows.takeHeld(credential.id, now);
    return held ? admit(held) : windows.take(credential.id, limit, now).then(admit);
  };
}
