/**
 * `/favicon.ico`: the offerops mark, an SVG (browsers ask for this path on
 * every page; the panel, docs and storefront link it as an SVG icon).
 */
import { AppMiddleware } from './middleware/state';

const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#14213d"/><circle cx="16" cy="16" r="8.5" fill="none" stroke="#f5a623" stroke-width="4"/></svg>`;

export function favicon(): AppMiddleware {
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.path !== '/favicon.ico') {
      await next();
      return;
    }
    ctx.type = 'image/svg+xml';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = ICON;
  };
}
