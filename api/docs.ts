/**
 * `/docs`: the API reference, Redoc (npm `redoc`, its standalone bundle served
 * from node_modules by this process: no CDN) rendering the served document
 * `/api/v1/openapi.json`. No key needed, like the document itself.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppMiddleware } from './middleware/state';

export const DOCS_PATH = '/docs';
const BUNDLE_PATH = '/docs/redoc.standalone.js';

/** Redoc's footer shows its logo from a CDN: no request leaves the origin, so it becomes an empty image. */
const CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

/** The bundle, read once on the first visit. */
let bundle: string | null = null;
function redocBundle(): string {
  bundle ??= readFileSync(join(require.resolve('redoc/package.json'), '..', 'bundles', 'redoc.standalone.js'), 'utf8').replace(
    CDN_LOGO,
    EMPTY_IMAGE,
  );
  return bundle;
}

const page = (specUrl: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>offerops API reference</title>
<link rel="icon" href="/favicon.ico" type="image/svg+xml">
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<redoc spec-url="${specUrl}" required-props-first="true" path-in-middle-panel="true"></redoc>
<script src="${BUNDLE_PATH}"></script>
</body>
</html>
`;

/** Redoc styles with inline styles and searches in a worker it starts from a blob. */
const CSP =
  "default-src 'none'; script-src 'self' blob:; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function docs(apiPrefix: string): AppMiddleware {
  const html = page(`${apiPrefix}/openapi.json`);
  return async (ctx, next) => {
    const read = ctx.method === 'GET' || ctx.method === 'HEAD';
    if (read && (ctx.path === DOCS_PATH || ctx.path === `${DOCS_PATH}/`)) {
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Content-Security-Policy', CSP);
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = html;
    } else if (read && ctx.path === BUNDLE_PATH) {
      ctx.type = 'application/javascript; charset=utf-8';
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.body = redocBundle();
    } else {
      await next();
    }
  };
}
