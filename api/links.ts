/**
 * The public redirect of tracked links, outside /api/v1: `GET /l/{code}`
 * (HEAD too) answers 302 to the link's affiliate URL with a new click id in
 * the marketplace's sub-id parameter, then queues the click (ClickBuffer):
 * the answer never waits for a write. Storefront elements add `?p=<page id>&e=<element>`.
 * An unknown code is a 404 page. `Cache-Control: no-store`: every click reaches us.
 */
import { ClickBuffer, ClickDoc, ipHasher } from '../domain/links/clicks';
import { classifyAgent, countryOf, isMachine, referrerHost } from '../domain/links/agents';
import { targetFor } from '../domain/links/marketplaces';
import { CODE_PATTERN, linkByCode } from '../domain/links/store';
import { newId } from '../domain/ids';
import { renderNotFound } from './storefront-html';
import { HttpError } from './errors';
import { AppDeps } from './handlers/types';
import { AppMiddleware } from './middleware/state';

const LINK_PATH = /^\/l\/([^/]+)$/;
/** What `p` (a storefront page id) and `e` (a page element) may be. */
const LABEL = /^[A-Za-z0-9_:.-]{1,64}$/;

export function links(deps: AppDeps, clicks: ClickBuffer): AppMiddleware {
  const hashIp = ipHasher(deps.secretKey);
  return async (ctx, next) => {
    const match = LINK_PATH.exec(ctx.path);
    if (!match) {
      await next();
      return;
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
      throw new HttpError('method_not_allowed', `${ctx.method} is not allowed here; use GET.`, { Allow: 'GET, HEAD' });
    const code = match[1]!;
    const link = CODE_PATTERN.test(code) ? await linkByCode(deps.db, code) : null;
    ctx.set('Cache-Control', 'no-store');
    if (!link) {
      ctx.status = 404;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = renderNotFound();
      return;
    }
    const at = new Date();
    const clickId = newId('clk', at.getTime());
    ctx.status = 302;
    ctx.redirect(targetFor(link.target, clickId));
    const header = (name: string) => ctx.get(name);
    const ua = classifyAgent(ctx.get('user-agent'), header);
    const page = ctx.query.p;
    const element = ctx.query.e;
    const referrer = referrerHost(ctx.get('referer'));
    const country = countryOf(header);
    const click: ClickDoc = {
      _id: clickId,
      account_id: link.account_id,
      env: link.env,
      link_id: link._id,
      ...(link.offer_id ? { offer_id: link.offer_id } : {}),
      ...(link.publication_id ? { publication_id: link.publication_id } : {}),
      ...(link.group_id ? { group_id: link.group_id } : {}),
      ...(link.segment_id ? { segment_id: link.segment_id } : {}),
      ...(typeof page === 'string' && LABEL.test(page) ? { page_id: page } : {}),
      ...(typeof element === 'string' && LABEL.test(element) ? { element } : {}),
      marketplace: link.marketplace,
      ...(referrer ? { referrer_host: referrer } : {}),
      ua_class: ua,
      bot: isMachine(ua),
      ...(country ? { country } : {}),
      ...(ctx.ip ? { ip_hash: hashIp(ctx.ip) } : {}),
      at,
    };
    clicks.add(click);
  };
}
