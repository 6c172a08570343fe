/**
 * The public storefront, outside /api/v1: `/s/{subdomain}/`, `/s/{subdomain}/{page-slug}`,
 * `/s/{subdomain}/sitemap.xml` and `/s/{subdomain}/robots.txt`, and the same at the root of a
 * store's verified custom domain (by `Host`, outside the API's own paths). Server-rendered
 * HTML (api/storefront-html.ts), no key needed. Only live, active stores are
 * public: anything else is a 404 page. Answers carry an ETag (an
 * `If-None-Match` naming it, `*` or a list, weak or strong, gets 304) and `Cache-Control: public, max-age=60`; each API
 * process keeps what it rendered for STOREFRONT_CACHE_MS, so a busy page costs
 * no database read per visit and a change shows within that time.
 */
import { createHash } from 'node:crypto';
import { Context } from 'koa';
import { publicCollections, publicPage, publicPages, publicStore } from '../domain/store/public';
import { renderHome, renderNotFound, renderPage, renderRobots, renderSitemap } from './storefront-html';
import { storeAddress } from '../domain/store/service';
import { HttpError } from './errors';
import { AppDeps } from './handlers/types';
import { AppMiddleware } from './middleware/state';

export const STOREFRONT_PATH = /^\/s\/([^/]+)(\/.*)?$/;
/** Paths a custom domain never serves as a store: the API's own. */
const SERVICE_PATH = /^\/(?:api|inbound|healthz)(?:\/|$)/;
/** A Host that may be a store's custom domain: a DNS name with a letter TLD (not an address, not `localhost`). */
const DOMAIN_HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
export const STOREFRONT_CACHE_MS = 2_000;
const CACHE_ENTRIES = 1_000;

interface Rendered {
  status: number;
  type: string;
  body: string;
  etag: string;
  until: number;
}

const SUBDOMAIN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Where a store is: `/s/{subdomain}/` on this service, or the Host of its verified custom domain. */
type Where = { subdomain: string } | { domain: string };

/** The answer, and whether a public store was there at all. */
type Answer = Omit<Rendered, 'etag' | 'until'> & { store: boolean };

async function render(deps: AppDeps, origin: string, where: Where, rest: string): Promise<Answer> {
  const html = 'text/html; charset=utf-8';
  const notFound = { status: 404, type: html, body: renderNotFound(), store: false };
  if ('subdomain' in where && !SUBDOMAIN.test(where.subdomain)) return notFound;
  const found = 'subdomain' in where ? await publicStore(deps.db, where.subdomain) : await publicStore(deps.db, where.domain, true);
  if (!found) return notFound;
  const answer = (status: number, type: string, body: string): Answer => ({ status, type, body, store: true });
  const { store, tenant } = found;
  // Canonical URLs name the verified domain when there is one, whichever address the visitor used.
  const home = storeAddress({ publicUrl: deps.publicUrl ?? origin }, store);
  if (rest === '/') {
    const [collections, pages] = await Promise.all([publicCollections(deps.db, tenant), publicPages(deps.db, tenant)]);
    return answer(200, html, renderHome(store, home, collections, pages));
  }
  if (rest === '/sitemap.xml')
    return answer(200, 'application/xml; charset=utf-8', renderSitemap(store, home, await publicPages(deps.db, tenant)));
  if (rest === '/robots.txt') return answer(200, 'text/plain; charset=utf-8', renderRobots(home));
  const slug = rest.slice(1);
  if (!SLUG.test(slug) || slug.length > 80) return answer(404, html, renderNotFound(store, home));
  const page = await publicPage(deps.db, tenant, slug);
  return page ? answer(200, html, renderPage(store, home, page)) : answer(404, html, renderNotFound(store, home));
}

/**
 * Whether `If-None-Match` names the current representation (RFC 9110 §13.1.2): `*`, or a list of entity tags one of
 * which equals `etag` by the weak comparison (a `W/` prefix on either side does not count).
 */
function noneMatchFails(header: string, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  for (const m of header.matchAll(/(?:W\/)?("[^"]*")/g)) if (m[1] === opaque) return true;
  return false;
}

/** Where the store is and the path inside it; null once `/s/{subdomain}` is redirected to `/s/{subdomain}/`. */
function located(ctx: Context, match: RegExpExecArray | null, host: string): { where: Where; rest: string } | null {
  if (!match) return { where: { domain: host }, rest: ctx.path };
  if (match[2] === undefined) {
    ctx.status = 301;
    ctx.redirect(`/s/${match[1]!}/`);
    return null;
  }
  return { where: { subdomain: match[1]! }, rest: match[2] };
}

/** The answer as kept, its ETag the hash of its body; kept under `key` when a 200 and caching is on. */
function kept(cache: Map<string, Rendered>, key: string, r: Answer, cacheMs: number): Rendered {
  const entry = {
    status: r.status,
    type: r.type,
    body: r.body,
    etag: `"${createHash('sha1').update(r.body).digest('base64url')}"`,
    until: Date.now() + cacheMs,
  };
  if (cache.size >= CACHE_ENTRIES) cache.clear();
  // A 404 is not kept: a store or page made public shows at once.
  if (r.status === 200 && cacheMs > 0) cache.set(key, entry);
  else cache.delete(key);
  return entry;
}

/** Sends the answer: a 404 never cached; a 200 cached for a minute, or 304 when the client has it already. */
function reply(ctx: Context, entry: Rendered): void {
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', "default-src 'none'; img-src https: http:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'");
  if (entry.status !== 200) {
    ctx.set('Cache-Control', 'no-store');
    ctx.status = entry.status;
    ctx.type = entry.type;
    ctx.body = entry.body;
    return;
  }
  ctx.set('Cache-Control', 'public, max-age=60');
  ctx.set('ETag', entry.etag);
  if (noneMatchFails(ctx.get('If-None-Match'), entry.etag)) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  ctx.type = entry.type;
  ctx.body = entry.body;
}

export function storefront(deps: AppDeps): AppMiddleware {
  const cache = new Map<string, Rendered>();
  const cacheMs = deps.storefrontCacheMs ?? STOREFRONT_CACHE_MS;
  return async (ctx, next) => {
    const match = STOREFRONT_PATH.exec(ctx.path);
    const host = ctx.hostname.toLowerCase();
    const byHost = !match && DOMAIN_HOST.test(host) && !SERVICE_PATH.test(ctx.path) && (ctx.method === 'GET' || ctx.method === 'HEAD');
    if (!match && !byHost) {
      await next();
      return;
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
      throw new HttpError('method_not_allowed', `${ctx.method} is not allowed here; use GET.`, { Allow: 'GET, HEAD' });
    const at = located(ctx, match, host);
    if (!at) return;
    // Koa 3's ctx.origin is the Origin request header; the address this request came to is protocol and Host.
    const origin = `${ctx.protocol}://${ctx.host}`;
    const key = `${origin} ${ctx.path}`;
    let entry = cache.get(key);
    if (!entry || entry.until <= Date.now()) {
      const r = await render(deps, origin, at.where, at.rest);
      if (byHost && !r.store) {
        // No store on this Host: the API answers as for any unknown path.
        await next();
        return;
      }
      entry = kept(cache, key, r, cacheMs);
    }
    reply(ctx, entry);
  };
}
