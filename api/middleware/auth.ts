import { Db } from 'mongodb';
import { ErrorCode } from '../../schemas/openapi/common';
import { Operation } from '../../schemas/operations';
import { HttpError } from '../errors';
import { cachedApiKey, checkApiKey, KeyCheck, planHasApiAccess } from '../../domain/accounts/store';
import { keyCredential } from '../../domain/developer/credentials';
import { checkAccessToken, TOKEN_FORM } from '../../domain/developer/tokens';
import { AppMiddleware, AuthState, authOf } from './state';

const REASONS = {
  invalid: ['invalid_api_key', 'The API key is not valid.'],
  expired: ['expired_api_key', 'The API key has expired.'],
  revoked: ['revoked_api_key', 'The API key has been revoked.'],
} as const;

const TOKEN_REASONS = {
  invalid: ['invalid_api_key', 'The access token is not valid.'],
  expired: ['expired_token', 'The access token has expired; exchange the client credentials for a new one.'],
  revoked: ['revoked_token', "The access token's application has been revoked."],
} as const;

const invalidToken = ([code, message]: readonly [ErrorCode, string]) =>
  new HttpError(code, message, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });

const keyState = (check: KeyCheck): AuthState => {
  if (!check.ok) throw invalidToken(REASONS[check.reason]);
  return { credential: keyCredential(check.key), account: check.account, tenant: { accountId: check.account._id, env: check.key.env } };
};

/** An API key (cached checks, see checkApiKey): synchronously when this process verified it within seconds. */
function keyAuth(db: Db, presented: string): AuthState | Promise<AuthState> {
  const cached = cachedApiKey(db, presented);
  return cached ? keyState(cached) : checkApiKey(db, presented).then(keyState);
}

/** An application's access token (only a token-shaped bearer is tried as one). */
async function tokenAuth(db: Db, presented: string): Promise<AuthState> {
  const check = await checkAccessToken(db, presented);
  if (!check.ok) throw invalidToken(TOKEN_REASONS[check.reason]);
  return { credential: check.credential, account: check.account, tenant: { accountId: check.account._id, env: check.credential.env } };
}

/** `Authorization: Bearer <key or access token>` → `ctx.state.auth`, or 401. No turn of its own when the key is cached. */
export function authenticate(db: Db): AppMiddleware {
  return (ctx, next) => {
    const header = ctx.get('Authorization');
    const match = /^Bearer +(\S+)\s*$/i.exec(header);
    if (!match) {
      throw new HttpError('missing_api_key', 'Send the API key as `Authorization: Bearer <key>`.', { 'WWW-Authenticate': 'Bearer' });
    }
    const presented = match[1]!;
    const auth = TOKEN_FORM.test(presented) ? tokenAuth(db, presented) : keyAuth(db, presented);
    if (auth instanceof Promise) {
      return auth.then((state) => {
        ctx.state.auth = state;
        return next();
      });
    }
    ctx.state.auth = auth;
    return next();
  };
}

/** 402 when the plan has no API access, 403 when the key lacks the operation's scope. */
export function authorize(op: Operation): AppMiddleware {
  return (ctx, next) => {
    const { credential, account } = authOf(ctx.state);
    if (!planHasApiAccess(account.plan)) {
      throw new HttpError('plan_required', `The ${account.plan} plan does not include API access.`);
    }
    if (!credential.scopes.includes(op.scope)) {
      throw new HttpError('insufficient_scope', `This operation needs the ${op.scope} scope.`);
    }
    return next();
  };
}
