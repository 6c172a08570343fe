/**
 * `POST /api/developer/oauth/token`: the client-credentials exchange of
 * applications (spec 5.6, RFC 6749 §4.4), outside /api/v1. Takes the client
 * credentials in a JSON body or an `application/x-www-form-urlencoded` one
 * (`client_id`, `client_secret`, `scope`, optional `grant_type`), or as HTTP
 * Basic (RFC 6749 §2.3.1). Answers `{access_token, token_type, expires_in,
 * scope}`; errors in RFC 6749 §5.2's shape `{error, error_description}`.
 * Every answer carries `Cache-Control: no-store`. Documented in
 * schemas/openapi/oauth.ts (a document of its own, beside the v1 contract,
 * served at /api/developer/openapi.json).
 */
import { Context } from 'koa';
import { exchangeClientCredentials } from '../domain/developer/tokens';
import { OAUTH_DOCUMENT_PATH, oauthDocument } from '../schemas/openapi/oauth';
import { AppDeps } from './handlers/types';
import { readRaw } from './middleware/body';
import { AppMiddleware } from './middleware/state';

export const OAUTH_TOKEN_PATH = '/api/developer/oauth/token';

/** The exchange's body is a few short fields. */
const TOKEN_BODY_LIMIT = 8 * 1024;
const FIELDS = ['grant_type', 'client_id', 'client_secret', 'scope'] as const;
type Field = (typeof FIELDS)[number];

type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_scope' | 'unsupported_grant_type';

class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: OAuthErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const BASIC_CHALLENGE = 'Basic realm="offerops", charset="UTF-8"';

const badRequest = (message: string) => new OAuthError(400, 'invalid_request', message);

/** The token request's parameters from its body; other parameters are ignored (RFC 6749 §3.2). */
async function bodyParameters(ctx: Context): Promise<Partial<Record<Field, string>>> {
  let raw: Buffer;
  try {
    raw = ctx.req.readableEnded ? Buffer.alloc(0) : await readRaw(ctx.req, TOKEN_BODY_LIMIT);
  } catch {
    // The rest of the body is left unread: the connection cannot carry another request.
    throw new OAuthError(400, 'invalid_request', `The body exceeds ${TOKEN_BODY_LIMIT} bytes.`, { Connection: 'close' });
  }
  const text = raw.toString('utf8');
  if (text.trim() === '') return {};
  const type = ctx.get('Content-Type');
  const out: Partial<Record<Field, string>> = {};
  if (/^application\/x-www-form-urlencoded\s*(?:;|$)/i.test(type)) {
    const form = new URLSearchParams(text);
    for (const field of FIELDS) {
      const values = form.getAll(field);
      if (values.length > 1) throw badRequest(`${field} is given more than once.`);
      if (values.length === 1) out[field] = values[0]!;
    }
    return out;
  }
  if (!/^application\/json\s*(?:;|$)/i.test(type)) {
    throw badRequest('Send the parameters as application/json or application/x-www-form-urlencoded.');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest('The body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('The body is a JSON object.');
  for (const field of FIELDS) {
    const value = (body as Record<string, unknown>)[field];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw badRequest(`${field} is a string.`);
    out[field] = value;
  }
  return out;
}

/** HTTP Basic client credentials (RFC 6749 §2.3.1: each part form-urlencoded), or null without a Basic header. */
function basicCredentials(ctx: Context): { clientId: string; clientSecret: string } | null {
  const match = /^Basic +([A-Za-z0-9+/=]+)\s*$/i.exec(ctx.get('Authorization'));
  if (!match) {
    if (ctx.get('Authorization')) throw badRequest('Client authentication is HTTP Basic, or client_id and client_secret in the body.');
    return null;
  }
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const unform = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
  try {
    if (colon < 0) throw new Error('no colon');
    return { clientId: unform(decoded.slice(0, colon)), clientSecret: unform(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError(401, 'invalid_client', 'The Basic credentials are not client_id:client_secret.', {
      'WWW-Authenticate': BASIC_CHALLENGE,
    });
  }
}

async function exchange(ctx: Context, deps: AppDeps): Promise<void> {
  const params = await bodyParameters(ctx);
  const basic = basicCredentials(ctx);
  if (basic && params.client_secret !== undefined) throw badRequest('Use one client authentication method: HTTP Basic or the body, not both.');
  if (basic && params.client_id !== undefined && params.client_id !== basic.clientId) throw badRequest('client_id differs from the Basic one.');
  if (params.grant_type !== undefined && params.grant_type !== 'client_credentials') {
    throw new OAuthError(400, 'unsupported_grant_type', 'The only grant type is client_credentials.');
  }
  const challenge: Record<string, string> = basic ? { 'WWW-Authenticate': BASIC_CHALLENGE } : {};
  const clientId = basic?.clientId ?? params.client_id;
  const clientSecret = basic?.clientSecret ?? params.client_secret;
  if (!clientId || !clientSecret) {
    throw new OAuthError(401, 'invalid_client', 'Send client_id and client_secret (in the body, or as HTTP Basic).', challenge);
  }
  const result = await exchangeClientCredentials(deps.db, { clientId, clientSecret, scope: params.scope });
  if (!result.ok) {
    throw result.error === 'invalid_client'
      ? new OAuthError(401, 'invalid_client', result.description, challenge)
      : new OAuthError(400, 'invalid_scope', result.description);
  }
  ctx.status = 200;
  ctx.body = result.token;
}

export function oauthToken(deps: AppDeps): AppMiddleware {
  return async (ctx, next) => {
    if (ctx.path === OAUTH_DOCUMENT_PATH && ctx.method === 'GET') {
      ctx.body = oauthDocument;
      return;
    }
    if (ctx.path !== OAUTH_TOKEN_PATH) {
      await next();
      return;
    }
    ctx.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    try {
      if (ctx.method !== 'POST') {
        ctx.set('Allow', 'POST');
        throw new OAuthError(405, 'invalid_request', `${ctx.method} is not allowed here; use POST.`);
      }
      await exchange(ctx, deps);
    } catch (err) {
      if (!(err instanceof OAuthError)) throw err;
      ctx.status = err.status;
      ctx.set(err.headers);
      ctx.body = { error: err.error, error_description: err.message };
    }
  };
}
