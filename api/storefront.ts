/**
 * The public storefront, outside /api/v1: `/s/{subdomain}/`, `/s/{subdomain}/{page-slug}`,
 * `/s/{subdomain}/sitemap.xml` and `/s/{subdomain}/robots.txt`. Server-rendered
 * HTML (api/storefront-html.ts), no key needed. Only live, active stores are
 * public: anything else is a 404 page. Answers carry an ETag (a matching
 * `If-None-Match` gets 304) and `Cache-Control: public, max-age=60`; each API
 * process keeps what it rendered for STOREFRONT_CACHE_MS, so a busy page costs
 * no database read per visit and a change shows within that time.
 */
import { createHash } from 'node:crypto';
import { publicCollections, publicPage, publicPages, publicStore } from '../domain/store/public';
import { renderHome, renderNotFound, renderPage, renderRobots, renderSitemap } from './storefront-html';
import { HttpError } from './errors';
import { AppDeps } from './handlers/types';
import { AppMiddleware } from './middleware/state';

export const STOREFRONT_PATH = /^\/s\/([^/]+)(\/.*)?$/;
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

async function render(deps: AppDeps, origin: string, subdomain: string, rest: string): Promise<Omit<Rendered, 'etag' | 'until'>> {
  const html = 'text/html; charset=utf-8';
  const notFound = { status: 404, type: html, body: renderNotFound() };
  if (!SUBDOMAIN.test(subdomain)) return notFound;
  const found = await publicStore(deps.db, subdomain);
  if (!found) return notFound;
  const { store, tenant } = found;
  const home = `${(deps.publicUrl ?? origin).replace(/\/+$/, '')}/s/${subdomain}/`;
  if (rest === '/') {
    const [collections, pages] = await Promise.all([publicCollections(deps.db, tenant), publicPages(deps.db, tenant)]);
    return { status: 200, type: html, body: renderHome(store, home, collections, pages) };
  }
  if (rest === '/sitemap.xml')
    return { status: 200, type: 'application/xml; charset=utf-8', body: renderSitemap(store, home, await publicPages(deps.db, tenant)) };
  if (rest === '/robots.txt') return { status: 200, type: 'text/plain; charset=utf-8', body: renderRobots(home) };
  const slug = rest.slice(1);
  if (!SLUG.test(slug) || slug.length > 80) return notFound;
  const page = await publicPage(deps.db, tenant, slug);
  return page ? { status: 200, type: html, body: renderPage(store, home, page) } : notFound;
}

export function storefront(deps: AppDeps): AppMiddleware {
  const cache = new Map<string, Rendered>();
  const cacheMs = deps.storefrontCacheMs ?? STOREFRONT_CACHE_MS;
  return async (ctx, next) => {
    const match = STOREFRONT_PATH.exec(ctx.path);
    if (!match) {
      await next();
      return;
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
      throw new HttpError('method_not_allowed', `${ctx.method} is not allowed here; use GET.`, { Allow: 'GET, HEAD' });
    const subdomain = match[1]!;
    const rest = match[2];
    if (rest === undefined) {
      ctx.status = 301;
      ctx.redirect(`/s/${subdomain}/`);
      return;
    }
    // Koa 3's ctx.origin is the Origin request header; the address this request came to is protocol and Host.
    const origin = `${ctx.protocol}://${ctx.host}`;
    const key = `${origin} ${subdomain}${rest}`;
    let entry = cache.get(key);
    if (!entry || entry.until <= Date.now()) {
      const r = await render(deps, origin, subdomain, rest);
      entry = { ...r, etag: `"${createHash('sha1').update(r.body).digest('base64url')}"`, until: Date.now() + cacheMs };
      if (cache.size >= CACHE_ENTRIES) cache.clear();
      // A 404 is not kept: a store or page made public shows at once.
      if (r.status === 200 && cacheMs > 0) cache.set(key, entry);
      else cache.delete(key);
    }
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set(
      'Content-Security-Policy',
      "default-src 'none'; img-src https: http:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
    );
    if (entry.status !== 200) {
      ctx.set('Cache-Control', 'no-store');
      ctx.status = entry.status;
      ctx.type = entry.type;
      ctx.body = entry.body;
      return;
    }
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.set('ETag', entry.etag);
    if (ctx.get('If-None-Match') === entry.etag) {
      ctx.status = 304;
      return;
    }
    ctx.status = 200;
    ctx.type = entry.type;
    ctx.body = entry.body;
  };
}
