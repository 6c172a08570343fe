import { Db } from 'mongodb';
import { Operation } from '../../schemas/operations';
import { HttpError } from '../errors';
import { AccountDoc, checkApiKey, planHasApiAccess } from '../../domain/accounts/store';
import { Tenant } from '../../domain/db';
import { Credential, keyCredential } from '../../domain/developer/credentials';
import { AppMiddleware, authOf } from './state';

export interface AuthState {
  credential: Credential;
  account: AccountDoc;
  tenant: Tenant;
}

const REASONS = {
  invalid: ['invalid_api_key', 'The API key is not valid.'],
  expired: ['expired_api_key', 'The API key has expired.'],
  revoked: ['revoked_api_key', 'The API key has been revoked.'],
} as const;

/** `Authorization: Bearer <key>` → `ctx.state.auth`, or 401. */
export function authenticate(db: Db): AppMiddleware {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    const match = /^Bearer +(\S+)\s*$/i.exec(header);
    if (!match) {
      throw new HttpError('missing_api_key', 'Send the API key as `Authorization: Bearer <key>`.', { 'WWW-Authenticate': 'Bearer' });
    }
    const check = await checkApiKey(db, match[1]!);
    if (!check.ok) {
      const [code, message] = REASONS[check.reason];
      throw new HttpError(code, message, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    }
    const auth: AuthState = {
      credential: keyCredential(check.key),
      account: check.account,
      tenant: { accountId: check.account._id, env: check.key.env },
    };
    ctx.state.auth = auth;
    await next();
  };
}

/** 402 when the plan has no API access, 403 when the key lacks the operation's scope. */
export function authorize(op: Operation): AppMiddleware {
  return async (ctx, next) => {
    const { credential, account } = authOf(ctx.state);
    if (!planHasApiAccess(account.plan)) {
      throw new HttpError('plan_required', `The ${account.plan} plan does not include API access.`);
    }
    if (!credential.scopes.includes(op.scope)) {
      throw new HttpError('insufficient_scope', `This operation needs the ${op.scope} scope.`);
    }
    await next();
  };
}
