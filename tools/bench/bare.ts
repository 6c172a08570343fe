/**
 * The bare floor the API benchmarks compare against: Koa and the same domain
 * calls the offerops handlers make at their core (same queries, same
 * documents), without the middleware chain (no auth, rate limit, validation,
 * deadline or logs). It serves one tenant, named when it is made.
 */
import Koa from 'koa';
import { IncomingMessage } from 'node:http';
import { getAccount } from '../../domain/accounts/store';
import { Tenant } from '../../domain/db';
import { DomainError } from '../../domain/errors';
import type { OfferDoc } from '../../domain/offers/store';
import { createOffer, listOffers, mustGetOffer, toOffer } from '../../domain/offers/service';
import { DomainDeps } from '../../domain/resource';
import { groupCount, mustGetSegment, toSegment, updateSegment } from '../../domain/segments/service';
import { ERROR_STATUS } from '../../schemas/openapi/common';

/** A request's JSON body, read whole (no size limit, no validation: the floor trusts its load generator). */
async function readJson<T>(req: IncomingMessage): Promise<T> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as T;
}

type Answer = { status?: number; body: unknown };
type Route = [method: string, path: RegExp, answer: (ctx: Koa.Context, id: string) => Promise<Answer>];

/** The routes the benchmarks load, each the handler's core: `id` is the path's one parameter, if any. */
function routes(tenant: Tenant, deps: DomainDeps): Route[] {
  return [
    ['GET', /^\/api\/v1\/offers\/([^/]+)$/, async (_, id) => ({ body: { data: toOffer(await mustGetOffer(deps, tenant, id)) } })],
    [
      'GET',
      /^\/api\/v1\/offers$/,
      async (ctx) => {
        const page = { limit: Number(ctx.query.limit ?? 20), offset: 0 };
        const { status, query } = ctx.query as { status?: OfferDoc['status']; query?: string };
        const { items, total } = await listOffers(deps.db, tenant, { status, query }, page);
        return { body: { data: items.map(toOffer), pagination: { total, limit: page.limit, offset: 0, has_more: total > page.limit } } };
      },
    ],
    [
      'POST',
      /^\/api\/v1\/offers$/,
      async (ctx) => {
        const { offer, created } = await createOffer(deps, tenant, await readJson(ctx.req));
        return { status: created ? 201 : 200, body: { data: toOffer(offer), created } };
      },
    ],
    ['GET', /^\/api\/v1\/me$/, async () => ({ body: { data: { account: await getAccount(deps.db, tenant.accountId) } } })],
    [
      'GET',
      /^\/api\/v1\/segments\/([^/]+)$/,
      async (_, id) => {
        const segment = await mustGetSegment(deps, tenant, id);
        return { body: { data: toSegment(segment, await groupCount(deps, tenant, segment)) } };
      },
    ],
    [
      'PATCH',
      /^\/api\/v1\/segments\/([^/]+)$/,
      async (ctx, id) => {
        const { segment, groupCount: count } = await updateSegment(deps, tenant, id, await readJson(ctx.req));
        return { body: { data: toSegment(segment, count) } };
      },
    ],
  ];
}

/** The bare app for `tenant`: a domain error answers its code's status (as the API's does), any other failure 500. */
export function bareApp(tenant: Tenant, deps: DomainDeps): Koa {
  const table = routes(tenant, deps);
  const app = new Koa();
  app.use(async (ctx) => {
    for (const [method, path, answer] of table) {
      const match = ctx.method === method ? path.exec(ctx.path) : null;
      if (!match) continue;
      try {
        const { status, body } = await answer(ctx, match[1] ?? '');
        ctx.status = status ?? 200;
        ctx.body = body;
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        ctx.status = ERROR_STATUS[err.code];
        ctx.body = { code: err.code, message: err.message };
      }
      return;
    }
    ctx.status = 404;
  });
  return app;
}
