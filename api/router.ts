/**
 * The API's routes, by @koa/router: one router per area — the first segment
 * after the prefix (`/offers`, `/commissions`, …) — mounted by that prefix,
 * so a request is matched against its area's few routes only. Matching is
 * @koa/router's: static segments regardless of case, one trailing slash,
 * parameters percent-decoded, a GET route answers HEAD. A path known under
 * other methods is a 405 with `Allow`; anything else a 404.
 */
import Router from '@koa/router';
import { HttpError } from './errors';
import { AsyncStep, RequestState } from './middleware/state';

export interface Route {
  method: string;
  /** OpenAPI style: `/offers/{id}/publish`. */
  path: string;
  target: AsyncStep;
}

/** The area of a path under `prefix`: its first segment, lower case ('' when there is none). */
function areaOf(path: string, prefix: string): string {
  const rest = path.slice(prefix.length + 1);
  const end = rest.indexOf('/');
  return (end === -1 ? rest : rest.slice(0, end)).toLowerCase();
}

/** A 405 naming the methods `path` takes in `router`, or a 404 when it takes none. */
function unmatched(router: Router<RequestState> | undefined, path: string, method: string): HttpError {
  const allowed = router ? [...new Set(router.match(path, method).path.flatMap((layer) => layer.methods))].filter((m) => m !== 'HEAD') : [];
  if (allowed.length === 0) return new HttpError('route_not_found', `No operation at ${method} ${path}.`);
  const allow = allowed.join(', ');
  return new HttpError('method_not_allowed', `${method} is not allowed here; use ${allow}.`, { Allow: allow });
}

/** One step answering every path under `prefix` from `routes` (list static paths before parameters: the first that fits wins). */
export function apiRoutes(prefix: string, routes: readonly Route[]): AsyncStep {
  const areas = new Map<string, { router: Router<RequestState>; dispatch: AsyncStep }>();
  for (const route of routes) {
    const area = areaOf(prefix + route.path, prefix);
    let entry = areas.get(area);
    if (!entry) {
      const router = new Router<RequestState>({ prefix: `${prefix}/${area}` });
      // The router adds `params` and `router` to the context it is given.
      entry = { router, dispatch: router.routes() as unknown as AsyncStep };
      areas.set(area, entry);
    }
    const rest = route.path.slice(area.length + 1).replace(/\{(\w+)\}/g, ':$1') || '/';
    entry.router.register(rest, [route.method.toUpperCase()], (ctx, next) => {
      ctx.state.params = ctx.params;
      return route.target(ctx, next);
    });
  }
  return async (ctx) => {
    const entry = areas.get(areaOf(ctx.path, prefix));
    if (!entry) throw unmatched(undefined, ctx.path, ctx.method);
    await entry.dispatch(ctx, () => Promise.reject(unmatched(entry.router, ctx.path, ctx.method)));
  };
}
