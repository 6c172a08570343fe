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

export function panel(deps: AppDeps): AppMiddleware {
  const pages = new Map<string, PanelPage>(PANEL_PAGES.map((p) => [p.slug, p]));
  const nav = PANEL_PAGES.map((p) => ({ slug: p.slug, title: p.title }));

  const contextOf = (ctx: Context, session: PanelSession, query = new URLSearchParams()): PageContext => ({
    deps,
    session,
    accountId: session.account_id,
    origin: ctx.origin,
    csrf: session.csrf,
    query,
  });
  const render = async (ctx: Context, session: PanelSession, page: PanelPage, notice: Notice | null, status = 200, query?: URLSearchParams) => {
    let main: Html;
    try {
      main = await page.render(contextOf(ctx, session, query));
    } catch (err) {
      // A page's bad query (a filter): the page without it, and why.
      if (!(err instanceof DomainError) || !query?.toString()) throw err;
      notice = { kind: 'error', body: html`${err.message}` };
      status = ERROR_STATUS[err.code];
      main = await page.render(contextOf(ctx, session));
    }
    send(
      ctx,
      status,
      layout({
        title: page.title,
        nav: {
          pages: nav,
          current: page.slug,
          temporalUiUrl: deps.temporalUiUrl ?? null,
          csrf: session.csrf,
          account: { id: session.account_id, name: (await getAccount(deps.db, session.account_id))?.name ?? '' },
        },
        notice,
        main,
      }),
    );
  };

  return async (ctx, next) => {
    if (ctx.path !== '/panel' && !ctx.path.startsWith('/panel/')) {
      await next();
      return;
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
    const parts = ctx.path.split('/').filter(Boolean).slice(1); // after "panel"
    const method = ctx.method;

    if (parts.length === 1 && parts[0] === 'panel.css' && method === 'GET') {
      ctx.type = 'text/css; charset=utf-8';
      ctx.body = STYLESHEET;
      return;
    }
    if (parts.length === 1 && parts[0] === 'panel.js' && method === 'GET') {
      ctx.type = 'application/javascript; charset=utf-8';
      ctx.body = SCRIPT;
      return;
    }
    if (parts[0] === 'login' && parts.length === 1) {
      if (method === 'GET') {
        const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
        const body = token
          ? html`<p>Sign in to the developer panel with this one-time link.</p>
              ${new Html(
                `<form method="post" action="/panel/login">${html`<input type="hidden" name="token" value="${token}" />`.text}<button type="submit">Sign in</button></form>`,
              )}`
          : SIGN_IN_HELP;
        return send(ctx, 200, plain('Sign in', body));
      }
      if (method === 'POST') {
        const f = await formOf(ctx);
        const result = await signIn(deps.db, f?.get('token') ?? '');
        if ('refused' in result) {
          return send(ctx, 403, plain('Sign in', SIGN_IN_HELP, { kind: 'error', body: html`${REFUSALS[result.refused]}` }));
        }
        setCookie(ctx, deps, result.cookie, SESSION_MS / 1000);
        ctx.status = 303;
        ctx.redirect(`/panel/${PANEL_PAGES[0]!.slug}`);
        return;
      }
    }

    const session = await sessionOf(deps.db, cookieOf(ctx));
    if (!session) {
      if (method === 'GET' && (parts.length === 0 || pages.has(parts[0]!))) return send(ctx, 401, plain('Sign in', SIGN_IN_HELP));
      if (method === 'POST')
        return send(ctx, 401, plain('Sign in', SIGN_IN_HELP, { kind: 'error', body: html`You are not signed in: nothing was changed.` }));
      return send(ctx, 404, plain('Not found', html`<p>No such page.</p>`));
    }

    if (method === 'GET' && parts.length === 0) {
      ctx.status = 303;
      ctx.redirect(`/panel/${PANEL_PAGES[0]!.slug}`);
      return;
    }
    const page = parts.length ? pages.get(parts[0]!) : undefined;
    if (method === 'GET' && page && parts.length === 1) return render(ctx, session, page, null, 200, new URLSearchParams(ctx.querystring));
    const download = method === 'GET' && page && parts.length === 2 ? page.downloads?.[parts[1]!] : undefined;
    if (download) {
      let file: Download;
      try {
        file = await download(contextOf(ctx, session, new URLSearchParams(ctx.querystring)));
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        return send(ctx, ERROR_STATUS[err.code], plain('Refused', html`<p>${err.message}</p>`));
      }
      ctx.status = 200;
      ctx.type = file.type;
      ctx.attachment(file.filename);
      ctx.body = Readable.from(file.chunks);
      return;
    }

    if (method === 'POST') {
      const f = await formOf(ctx);
      // Before anything else: the form must carry this session's CSRF token.
      if (!f || !csrfMatches(session, f.get('csrf'))) {
        return send(
          ctx,
          403,
          plain('Refused', html`<p>The form's security token is missing or wrong: nothing was changed. Reload the page and try again.</p>`),
        );
      }
      if (parts.length === 1 && parts[0] === 'logout') {
        await signOut(deps.db, session);
        setCookie(ctx, deps, '', 0);
        return send(
          ctx,
          200,
          plain(
            'Signed out',
            html`<p>You are signed out.</p>
              ${SIGN_IN_HELP}`,
          ),
        );
      }
      const action = page && parts.length === 2 ? page.actions[parts[1]!] : undefined;
      if (page && action) {
        const c = contextOf(ctx, session);
        let result: ActionResult;
        try {
          result = await action(c, f);
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          result = refused(err.message, ERROR_STATUS[err.code]);
        }
        return render(ctx, session, page, result.notice, result.status ?? 200);
      }
    }
    send(
      ctx,
      404,
      plain(
        'Not found',
        html`<p>No such page.</p>
          ${form('/panel/logout', session.csrf, html`<button type="submit">Sign out</button>`)}`,
      ),
    );
  };
}
