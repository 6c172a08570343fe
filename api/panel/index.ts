/**
 * The developer panel at `/panel`: server-rendered pages for the account
 * owner, outside `/api/v1` and its API keys.
 *
 * - Sign-in: `/panel/login?token=opl_…` (a one-time link from `offerops admin
 *   panel-link`) shows a button; posting it uses the link and opens a session
 *   (cookie HttpOnly, SameSite=Strict, Path=/panel, Secure over HTTPS).
 * - Every form carries the session's CSRF token; a POST without it, or with
 *   another, is refused with 403 before anything changes.
 * - Pages: pages.ts; a page's downloads (the request-log CSV) stream from
 *   `GET /panel/<slug>/<name>`. Answers are never cached and may not be framed.
 */
import { Readable } from 'node:stream';
import { Context } from 'koa';
import { csrfMatches, PanelSession, sessionOf, SESSION_MS, signIn, signOut } from '../../domain/panel/auth';
import { AppDeps } from '../handlers/types';
import { AppMiddleware } from '../middleware/state';
import { form, html, Html, layout, Notice, SCRIPT, STYLESHEET } from './html';
import { ActionResult, Download, PageContext, PanelPage, refused } from './page';
import { DomainError } from '../../domain/errors';
import { ERROR_STATUS } from '../../schemas/openapi/common';
import { PANEL_PAGES } from './pages';
import { getAccount } from '../../domain/accounts/store';

const COOKIE = 'offerops_panel';
const FORM_LIMIT = 16 * 1024;

/** The sign-in cookie, whether this request came over HTTPS (directly, or to a public origin that is https). */
function setCookie(ctx: Context, deps: AppDeps, value: string, maxAgeS: number): void {
  const secure = ctx.secure || (deps.publicUrl ?? '').startsWith('https:');
  ctx.set('Set-Cookie', `${COOKIE}=${value}; Path=/panel; Max-Age=${maxAgeS}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`);
}

function cookieOf(ctx: Context): string | undefined {
  for (const part of (ctx.get('cookie') || '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === COOKIE) return rest.join('=');
  }
  return undefined;
}

async function formOf(ctx: Context): Promise<URLSearchParams | null> {
  if (!ctx.is('application/x-www-form-urlencoded')) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT) return null;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function send(ctx: Context, status: number, page: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = page;
}

const plain = (title: string, body: Html, notice: Notice | null = null) => layout({ title, notice, main: body });

const SIGN_IN_HELP = html`<p>
  Ask your operator for a sign-in link: <code>npx offerops admin panel-link --account ID</code>. A link works once, for 15 minutes.
</p>`;

const REFUSALS = {
  invalid: 'This sign-in link is not valid.',
  expired: 'This sign-in link has expired (links last 15 minutes).',
  used: 'This sign-in link was used already (each link works once).',
} as const;

const PAGES = new Map<string, PanelPage>(PANEL_PAGES.map((p) => [p.slug, p]));
const NAV = PANEL_PAGES.map((p) => ({ slug: p.slug, title: p.title }));
const FIRST_PAGE = `/panel/${PANEL_PAGES[0]!.slug}`;

const contextOf = (deps: AppDeps, ctx: Context, session: PanelSession, query = new URLSearchParams()): PageContext => ({
  deps,
  session,
  accountId: session.account_id,
  origin: ctx.origin,
  csrf: session.csrf,
  query,
});

/** A page in the signed-in layout; a page's bad query (a filter) renders the page without it, and why. */
async function render(
  deps: AppDeps,
  ctx: Context,
  session: PanelSession,
  page: PanelPage,
  notice: Notice | null,
  status = 200,
  query?: URLSearchParams,
): Promise<void> {
  let main: Html;
  try {
    main = await page.render(contextOf(deps, ctx, session, query));
  } catch (err) {
    if (!(err instanceof DomainError) || !query?.toString()) throw err;
    notice = { kind: 'error', body: html`${err.message}` };
    status = ERROR_STATUS[err.code];
    main = await page.render(contextOf(deps, ctx, session));
  }
  const account = { id: session.account_id, name: (await getAccount(deps.db, session.account_id))?.name ?? '' };
  const nav = { pages: NAV, current: page.slug, temporalUiUrl: deps.temporalUiUrl ?? null, csrf: session.csrf, account };
  send(ctx, status, layout({ title: page.title, nav, notice, main }));
}

/** Never cached, never framed, no referrer, no sniffing; only our own styles, script and form targets. */
function secure(ctx: Context): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  );
}

/** The stylesheet or the script; false for any other request. */
function asset(ctx: Context, parts: string[]): boolean {
  if (parts.length !== 1 || ctx.method !== 'GET') return false;
  if (parts[0] === 'panel.css') {
    ctx.type = 'text/css; charset=utf-8';
    ctx.body = STYLESHEET;
    return true;
  }
  if (parts[0] === 'panel.js') {
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.body = SCRIPT;
    return true;
  }
  return false;
}

/** The sign-in page: a one-time link's button, or how to get a link. */
function loginPage(token: string): Html {
  if (!token) return SIGN_IN_HELP;
  return html`<p>Sign in to the developer panel with this one-time link.</p>
    ${new Html(
      `<form method="post" action="/panel/login">${html`<input type="hidden" name="token" value="${token}" />`.text}<button type="submit">Sign in</button></form>`,
    )}`;
}

/** `/panel/login`: the sign-in page (GET); its form (POST) uses the link and opens a session. False for any other request. */
async function login(ctx: Context, deps: AppDeps, parts: string[]): Promise<boolean> {
  if (parts[0] !== 'login' || parts.length !== 1) return false;
  if (ctx.method === 'GET') {
    send(ctx, 200, plain('Sign in', loginPage(typeof ctx.query.token === 'string' ? ctx.query.token : '')));
    return true;
  }
  if (ctx.method !== 'POST') return false;
  const f = await formOf(ctx);
  const result = await signIn(deps.db, f?.get('token') ?? '');
  if ('refused' in result) {
    send(ctx, 403, plain('Sign in', SIGN_IN_HELP, { kind: 'error', body: html`${REFUSALS[result.refused]}` }));
    return true;
  }
  setCookie(ctx, deps, result.cookie, SESSION_MS / 1000);
  ctx.status = 303;
  ctx.redirect(FIRST_PAGE);
  return true;
}

/** Without a session: a page asks to sign in, a form is refused (both 401); anything else is not found. */
function signedOut(ctx: Context, parts: string[]): void {
  if (ctx.method === 'GET' && (parts.length === 0 || PAGES.has(parts[0]!))) return send(ctx, 401, plain('Sign in', SIGN_IN_HELP));
  if (ctx.method === 'POST')
    return send(ctx, 401, plain('Sign in', SIGN_IN_HELP, { kind: 'error', body: html`You are not signed in: nothing was changed.` }));
  send(ctx, 404, plain('Not found', html`<p>No such page.</p>`));
}

/** A page's download, streamed; the domain's refusal (a bad filter) is a page saying why. */
async function sendDownload(ctx: Context, deps: AppDeps, session: PanelSession, download: NonNullable<PanelPage['downloads']>[string]) {
  let file: Download;
  try {
    file = await download(contextOf(deps, ctx, session, new URLSearchParams(ctx.querystring)));
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return send(ctx, ERROR_STATUS[err.code], plain('Refused', html`<p>${err.message}</p>`));
  }
  ctx.status = 200;
  ctx.type = file.type;
  ctx.attachment(file.filename);
  ctx.body = Readable.from(file.chunks);
}

/** Signs out: the session ends and its cookie is cleared. */
async function logout(ctx: Context, deps: AppDeps, session: PanelSession): Promise<void> {
  await signOut(deps.db, session);
  setCookie(ctx, deps, '', 0);
  send(
    ctx,
    200,
    plain(
      'Signed out',
      html`<p>You are signed out.</p>
        ${SIGN_IN_HELP}`,
    ),
  );
}

/** A posted form: refused without this session's CSRF token, else the sign-out or a page's action. False when there is no such action. */
async function posted(ctx: Context, deps: AppDeps, session: PanelSession, page: PanelPage | undefined, parts: string[]): Promise<boolean> {
  const f = await formOf(ctx);
  // Before anything else: the form must carry this session's CSRF token.
  if (!f || !csrfMatches(session, f.get('csrf'))) {
    const why = html`<p>The form's security token is missing or wrong: nothing was changed. Reload the page and try again.</p>`;
    send(ctx, 403, plain('Refused', why));
    return true;
  }
  if (parts.length === 1 && parts[0] === 'logout') {
    await logout(ctx, deps, session);
    return true;
  }
  const action = page && parts.length === 2 ? page.actions[parts[1]!] : undefined;
  if (!page || !action) return false;
  let result: ActionResult;
  try {
    result = await action(contextOf(deps, ctx, session), f);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    result = refused(err.message, ERROR_STATUS[err.code]);
  }
  await render(deps, ctx, session, page, result.notice, result.status ?? 200);
  return true;
}

/** With a session: `/panel` goes to the first page; a page, its download or its form; else not found. */
async function signedIn(ctx: Context, deps: AppDeps, session: PanelSession, parts: string[]): Promise<void> {
  if (ctx.method === 'GET' && parts.length === 0) {
    ctx.status = 303;
    ctx.redirect(FIRST_PAGE);
    return;
  }
  const page = parts.length ? PAGES.get(parts[0]!) : undefined;
  if (ctx.method === 'GET' && page && parts.length === 1)
    return render(deps, ctx, session, page, null, 200, new URLSearchParams(ctx.querystring));
  const download = ctx.method === 'GET' && page && parts.length === 2 ? page.downloads?.[parts[1]!] : undefined;
  if (download) return sendDownload(ctx, deps, session, download);
  if (ctx.method === 'POST' && (await posted(ctx, deps, session, page, parts))) return;
  const signOutForm = form('/panel/logout', session.csrf, html`<button type="submit">Sign out</button>`);
  send(
    ctx,
    404,
    plain(
      'Not found',
      html`<p>No such page.</p>
        ${signOutForm}`,
    ),
  );
}

export function panel(deps: AppDeps): AppMiddleware {
  return async (ctx, next) => {
    if (ctx.path !== '/panel' && !ctx.path.startsWith('/panel/')) {
      await next();
      return;
    }
    secure(ctx);
    const parts = ctx.path.split('/').filter(Boolean).slice(1); // after "panel"
    if (asset(ctx, parts) || (await login(ctx, deps, parts))) return;
    const session = await sessionOf(deps.db, cookieOf(ctx));
    if (!session) return signedOut(ctx, parts);
    await signedIn(ctx, deps, session, parts);
  };
}
