/**
 * The API's routes, by @koa/router: one router per area — the first segment
 * after the prefix (`/offers`, `/commissions`, …) — mounted by that prefix,
 * so a request is matched against its area's few routes only. Matching is
 * @koa/router's: static segments regardless of case, one trailing slash,
 * parameters percent-decoded, a GET route answers HEAD. A path no route
 * answers goes to the router's `allowedMethods()`, which names the methods the
 * path takes in `Allow`: the contract's 405 `method_not_allowed` with that
 * `Allow` (HEAD, which every GET route takes, left out) when it names any, else
 * 404 `route_not_found`. An OPTIONS request, or a method the router does not
 * know, is refused the same way: no operation answers it.
 */
import Router from '@koa/router';
import { ParameterizedContext } from 'koa';
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

/**
 * What a request no route answered gets, once `allowedMethods()` (not throwing) has run: it sets
 * `Allow` to the methods the path takes (with 405, 501 for a method it does not know, or 200 to
 * OPTIONS), empty or unset when the path has no route.
 */
function unanswered(ctx: ParameterizedContext<RequestState>): HttpError {
  const allow = String(ctx.response.headers.allow ?? '')
    .split(', ')
    .filter((m) => m && m !== 'HEAD')
    .join(', ');
  ctx.remove('Allow'); // the error brings its own (none on a 404)
  if (!allow) return new HttpError('route_not_found', `No operation at ${ctx.method} ${ctx.path}.`);
  return new HttpError('method_not_allowed', `${ctx.method} is not allowed here; use ${allow}.`, { Allow: allow });
}

/** One step answering every path under `prefix` from `routes` (list static paths before parameters: the first that fits wins). */
export function apiRoutes(prefix: string, routes: readonly Route[]): AsyncStep {
  const areas = new Map<string, { router: Router<RequestState>; dispatch: AsyncStep; allowed: AsyncStep }>();
  for (const route of routes) {
    const area = areaOf(prefix + route.path, prefix);
    let entry = areas.get(area);
    if (!entry) {
      const router = new Router<RequestState>({ prefix: `${prefix}/${area}` });
      // The router adds `params`, `matched` and `router` to the context it is given.
      entry = { router, dispatch: router.routes() as unknown as AsyncStep, allowed: router.allowedMethods() as unknown as AsyncStep };
      areas.set(area, entry);
    }
    const rest = route.path.slice(area.length + 1).replace(/\{(\w+)\}/g, ':$1') || '/';
    entry.router.register(rest, [route.method.toUpperCase()], (ctx, next) => {
      ctx.state.params = ctx.params;
      return route.target(ctx, next);
    });
  }
  const nothingMore = () => Promise.resolve();
  return async (ctx) => {
    const entry = areas.get(areaOf(ctx.path, prefix));
    if (!entry) throw unanswered(ctx);
    // The router calls this only when no route matched both path and method.
    await entry.dispatch(ctx, async () => {
      await entry.allowed(ctx, nothingMore);
      throw unanswered(ctx);
    });
  };
}
