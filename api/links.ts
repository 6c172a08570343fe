/**
 * The public redirect of tracked links, outside /api/v1: `GET /l/{code}`
 * (HEAD too) queues the click (ClickBuffer, which gives its id) and answers
 * 302 to the link's affiliate URL with the click id in the marketplace's
 * sub-id parameter: the answer never waits for a write. Storefront elements add `?p=<page id>&e=<element>`.
 * An unknown code is a 404 page. `Cache-Control: no-store`: every click reaches us.
 */
import { ClickBuffer, ipHasher } from '../domain/links/clicks';
import { classifyAgent, countryOf, isMachine, referrerHost } from '../domain/links/agents';
import { targetFor } from '../domain/links/marketplaces';
import { CODE_PATTERN, linkReader } from '../domain/links/store';
import { renderNotFound } from './storefront-html';
import { HttpError } from './errors';
import { AppDeps } from './handlers/types';
import { AppMiddleware } from './middleware/state';

const LINK_PATH = /^\/l\/([^/]+)$/;
/** What `p` (a storefront page id) and `e` (a page element) may be. */
const LABEL = /^[A-Za-z0-9_:.-]{1,64}$/;

export function links(deps: AppDeps, clicks: ClickBuffer): AppMiddleware {
  const hashIp = ipHasher(deps.secretKey);
  const linkByCode = linkReader(deps.db, deps.linkCacheMs);
  return async (ctx, next) => {
    const match = LINK_PATH.exec(ctx.path);
    if (!match) {
      await next();
      return;
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
      throw new HttpError('method_not_allowed', `${ctx.method} is not allowed here; use GET.`, { Allow: 'GET, HEAD' });
    const code = match[1]!;
    const link = CODE_PATTERN.test(code) ? await linkByCode(code) : null;
    ctx.set('Cache-Control', 'no-store');
    if (!link) {
      ctx.status = 404;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = renderNotFound();
      return;
    }
    const header = (name: string) => ctx.get(name);
    const ua = classifyAgent(ctx.get('user-agent'), header);
    const page = ctx.query.p;
    const element = ctx.query.e;
    const referrer = referrerHost(ctx.get('referer'));
    const country = countryOf(header);
    const clickId = clicks.add(link, {
      ...(typeof page === 'string' && LABEL.test(page) ? { page_id: page } : {}),
      ...(typeof element === 'string' && LABEL.test(element) ? { element } : {}),
      ...(referrer ? { referrer_host: referrer } : {}),
      ua_class: ua,
      bot: isMachine(ua),
      ...(country ? { country } : {}),
      ...(ctx.ip ? { ip_hash: hashIp(ctx.ip) } : {}),
      at: new Date(),
    });
    ctx.status = 302;
    ctx.redirect(targetFor(link.target, clickId));
  };
}
