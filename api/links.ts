/**
 * The public redirect of tracked links, outside /api/v1: `GET /l/{code}`
 * (HEAD too) queues the click (ClickBuffer, which gives its id) and answers
 * 302 to the link's affiliate URL with the click id in the marketplace's
 * sub-id parameter: the answer never waits for a write. Storefront elements add `?p=<page id>&e=<element>`.
 * An unknown code is a 404 page. `Cache-Control: no-store`: every click reaches us.
 *
 * It answers on Node's request itself, ahead of Koa (requestListener in
 * app.ts): the busiest public path skips Koa's context, its middleware chain
 * and its response handling, and does what those do for it: a request id
 * (`X-Request-Id`), the access-log line (batched, RequestLog), the error
 * shape (405 for other methods; any failure a 500 whose message is never
 * sent, logged like Koa's `error` event), Koa's 302 (Location encoded, the
 * short body, HTML when the client takes it).
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import accepts from 'accepts';
import encodeUrl from 'encodeurl';
import escapeHtml from 'escape-html';
import { ClickBuffer, ClickFields, ipHasher } from '../domain/links/clicks';
import { classifyAgent, countryOf, isMachine, referrerHost } from '../domain/links/agents';
import { targetFor } from '../domain/marketplaces';
import { CODE_PATTERN, LinkDoc, linkReader } from '../domain/links/store';
import { newId } from '../domain/ids';
import { boundedMemo } from '../domain/memo';
import { renderNotFound } from './storefront-html';
import { documentedError, HttpError } from './errors';
import { AppDeps } from './handlers/types';
import { RequestLog } from './middleware/request-log';

/** `/l/{code}`, maybe with a query: Koa's `ctx.path` of the same request is `/l/{code}`. */
const LINK_PATH = /^\/l\/([^/?#]+)(?:[?#]|$)/;
/** What `p` (a storefront page id) and `e` (a page element) may be. */
const LABEL = /^[A-Za-z0-9_:.-]{1,64}$/;

/** Answers a request to `/l/{code}` and returns true; false (nothing done) for any other path. */
export type LinkRedirect = (req: IncomingMessage, res: ServerResponse) => boolean;

const header = (req: IncomingMessage, name: string): string => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : '';
};

/** Whether a client sending this Accept takes HTML (Koa's `ctx.accepts('html')`), for the last 1,000 Accept headers met (browsers send few). */
const takesHtml = boundedMemo(1_000, (accept) => accepts({ headers: { accept } } as IncomingMessage).type('html') !== false);

/**
 * Stands for the click id in a redirect's cached encodings: letters, digits and `_` only, as a click id, so URL
 * normalization, Location's encoding and HTML escaping leave both alike and the id takes its place afterwards.
 */
const CLICK_SLOT = 'clk_0slot0for0the0click0id0';

/** What Koa's `ctx.redirect(url)` writes for `url`: the URL normalized and encoded in Location, a short body (HTML or plain). */
interface RedirectText {
  location: string;
  html: string;
  plain: string;
}

function redirectText(to: string): RedirectText {
  const url = /^https?:\/\//i.test(to) ? new URL(to).toString() : to;
  return { location: encodeUrl(url), html: `Redirecting to ${escapeHtml(url)}.`, plain: `Redirecting to ${url}.` };
}

/**
 * A link's redirect with CLICK_SLOT where its click id goes, for the last 20,000 targets met (a link's target never
 * changes): a click then costs a replace, not a URL parse and two encodings. Null for a target that holds the slot's
 * text of its own (then each click is encoded whole).
 */
const slottedRedirect = boundedMemo(20_000, (target): RedirectText | null =>
  target.includes(CLICK_SLOT) ? null : redirectText(targetFor(target, CLICK_SLOT)),
);

/** Location and body of the 302 to `target` for the click `clickId` (the body HTML or plain), as Koa's `ctx.redirect` writes them. */
export function clickRedirect(target: string, clickId: string, html: boolean): { location: string; body: string } {
  const slotted = slottedRedirect(target);
  if (slotted)
    return { location: slotted.location.replace(CLICK_SLOT, clickId), body: (html ? slotted.html : slotted.plain).replace(CLICK_SLOT, clickId) };
  const text = redirectText(targetFor(target, clickId));
  return { location: text.location, body: html ? text.html : text.plain };
}

/** The 302 to `target` for the click `clickId`, after `head` (the request's own headers). */
function redirect(req: IncomingMessage, res: ServerResponse, target: string, clickId: string, head: string[]): void {
  const accept = req.headers.accept;
  const html = !accept || takesHtml(accept);
  const { location, body } = clickRedirect(target, clickId, html);
  // All headers in one array (no header object to build) and the body written before end(): Node sends the whole
  // answer in one write to the socket, as it does for a bodiless answer.
  const type = html ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8';
  res.writeHead(302, [...head, 'Location', location, 'Content-Type', type, 'Content-Length', String(Buffer.byteLength(body))]);
  res.write(body);
  res.end();
}

function send(res: ServerResponse, type: string, body: string): void {
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/** An error in the contract's shape, its headers and the request id set. */
function sendError(res: ServerResponse, err: HttpError, requestId: string): void {
  const known = documentedError(err)!;
  res.statusCode = known.status;
  res.setHeader('X-Request-Id', requestId);
  for (const [name, value] of Object.entries(known.headers)) res.setHeader(name, value);
  send(res, 'application/json; charset=utf-8', JSON.stringify({ code: known.code, message: known.message, request_id: requestId }));
}

/** The 404 page of an unknown code. */
function notFound(res: ServerResponse, requestId: string): void {
  res.statusCode = 404;
  res.setHeader('X-Request-Id', requestId);
  res.setHeader('Cache-Control', 'no-store');
  send(res, 'text/html; charset=utf-8', renderNotFound());
}

/** What a click records: the client's kind, the referring host, the country, the storefront page and element (`?p=&e=`), the hashed IP. */
function clickOf(req: IncomingMessage, url: string, hashIp: (ip: string) => string): ClickFields {
  const q = url.indexOf('?');
  const query = q === -1 ? null : parseQuery(url.slice(q + 1));
  const page = query?.p;
  const element = query?.e;
  const get = (name: string) => header(req, name);
  const referrer = referrerHost(get('referer') || get('referrer'));
  const country = countryOf(get);
  const ua = classifyAgent(get('user-agent'), get);
  const ip = req.socket.remoteAddress;
  const click: ClickFields = { ua_class: ua, bot: isMachine(ua), at: new Date() };
  if (typeof page === 'string' && LABEL.test(page)) click.page_id = page;
  if (typeof element === 'string' && LABEL.test(element)) click.element = element;
  if (referrer) click.referrer_host = referrer;
  if (country) click.country = country;
  if (ip) click.ip_hash = hashIp(ip);
  return click;
}

/** A bug: logged like Koa's `error` event, answered 500 in the error shape (its message never sent); never throws. */
function fail(logger: AppDeps['logger'], res: ServerResponse, err: unknown, requestId: string): void {
  logger.error({ err, request_id: requestId }, 'request failed');
  if (res.headersSent) {
    res.destroy();
    return;
  }
  try {
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    sendError(res, new HttpError('internal_error', 'Internal error; quote the request_id when reporting it.'), requestId);
  } catch {
    // Not even the 500 could be written: the connection is cut rather than the process.
    res.destroy();
  }
}

export function linkRedirect(deps: AppDeps, clicks: ClickBuffer, log: RequestLog): LinkRedirect {
  const hashIp = ipHasher(deps.secretKey);
  const linkByCode = linkReader(deps.db, deps.linkCacheMs);

  /** Queues the click and answers the 302, or the 404 page. */
  const answer = (req: IncomingMessage, res: ServerResponse, link: LinkDoc | null, url: string, requestId: string): void => {
    if (!link) return notFound(res, requestId);
    const clickId = clicks.add(link, clickOf(req, url, hashIp));
    redirect(req, res, link.target, clickId, ['X-Request-Id', requestId, 'Cache-Control', 'no-store']);
  };

  const done = (req: IncomingMessage, res: ServerResponse, path: string, requestId: string, started: bigint): void => {
    log.record({
      request_id: requestId,
      method: req.method,
      route: path,
      status: res.statusCode,
      duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
    });
  };

  return (req, res) => {
    const url = req.url ?? '';
    const match = LINK_PATH.exec(url);
    if (!match) return false;
    const started = process.hrtime.bigint();
    const requestId = newId('req');
    const code = match[1]!;
    const path = `/l/${code}`;
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        sendError(res, new HttpError('method_not_allowed', `${req.method} is not allowed here; use GET.`, { Allow: 'GET, HEAD' }), requestId);
        done(req, res, path, requestId, started);
        return true;
      }
      if (!CODE_PATTERN.test(code)) {
        answer(req, res, null, url, requestId);
        done(req, res, path, requestId, started);
        return true;
      }
      const link = linkByCode(code);
      if (!(link instanceof Promise)) {
        answer(req, res, link, url, requestId);
        done(req, res, path, requestId, started);
        return true;
      }
      link
        .then((found) => answer(req, res, found, url, requestId))
        .catch((err: unknown) => fail(deps.logger, res, err, requestId))
        .finally(() => done(req, res, path, requestId, started));
    } catch (err) {
      fail(deps.logger, res, err, requestId);
      done(req, res, path, requestId, started);
    }
    return true;
  };
}
