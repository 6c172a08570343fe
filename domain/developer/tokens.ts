/**
 * Access tokens of applications (spec 5.6): the client-credentials exchange
 * issues an opaque token (`oo_at_` + 40 random characters) valid one hour,
 * stored only as its SHA-256, which is the record's `_id` — so checking a
 * presented token is one read by `_id`. A token acts on its application's
 * account and environment with the scopes asked for at the exchange (within
 * the application's). Revoking the application makes its tokens fail at
 * once: every check reads the application too. Expired tokens are removed by
 * the retention sweep a day after their hour (until then they answer
 * `expired_token`, then `invalid_api_key`).
 */
import { createHash } from 'node:crypto';
import { Db } from 'mongodb';
import { Scope } from '../../schemas/openapi/common';
import { AccountDoc, getAccount } from '../accounts/store';
import { Environment, platformCollection } from '../db';
import { randomToken } from '../ids';
import { ApplicationDoc, applicationById, authenticateClient } from './applications';
import { Credential } from './credentials';

/** How long a token works (spec 8). */
export const TOKEN_LIFETIME_MS = 3_600_000;

/** What a bearer credential must look like to be tried as a token (anything else is tried as an API key). */
export const TOKEN_FORM = /^oo_at_[A-Za-z0-9]{40}$/;

interface TokenDoc {
  /** SHA-256 (hex) of the token. */
  _id: string;
  application_id: string;
  account_id: string;
  env: Environment;
  scopes: Scope[];
  created_at: Date;
  expires_at: Date;
}

const tokens = (db: Db) => platformCollection<TokenDoc>(db, 'oauth_tokens');
const digest = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

export interface IssuedToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  /** The scopes granted, space-separated. */
  scope: string;
}

/** Issues a token of `app` for `scopes` (a subset of its scopes) at `now`: it works until now + one hour. */
export async function issueToken(db: Db, app: ApplicationDoc, scopes: readonly Scope[], now = new Date()): Promise<IssuedToken> {
  const token = `oo_at_${randomToken(40)}`;
  await tokens(db).insertOne({
    _id: digest(token),
    application_id: app._id,
    account_id: app.account_id,
    env: app.env,
    scopes: [...scopes],
    created_at: now,
    expires_at: new Date(now.getTime() + TOKEN_LIFETIME_MS),
  });
  return { access_token: token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_MS / 1000, scope: scopes.join(' ') };
}

export type ExchangeResult = { ok: true; token: IssuedToken } | { ok: false; error: 'invalid_client' | 'invalid_scope'; description: string };

/**
 * The client-credentials grant (RFC 6749 §4.4): the application's token for
 * `scope` (space-separated scope names, each one of the application's;
 * omitted: all of them). `invalid_client` for unknown, wrong or revoked
 * credentials (alike), `invalid_scope` for a scope outside the application's.
 */
export async function exchangeClientCredentials(
  db: Db,
  input: { clientId: string; clientSecret: string; scope?: string | null },
  now = new Date(),
): Promise<ExchangeResult> {
  const app = await authenticateClient(db, input.clientId, input.clientSecret);
  if (!app) return { ok: false, error: 'invalid_client', description: 'Unknown client, wrong secret, or a revoked application.' };
  let scopes: Scope[] = app.scopes;
  if (input.scope !== undefined && input.scope !== null) {
    const asked = [...new Set(input.scope.split(' ').filter(Boolean))];
    const outside = asked.filter((s) => !(app.scopes as string[]).includes(s));
    if (!asked.length)
      return { ok: false, error: 'invalid_scope', description: 'No scope asked for: name at least one, or leave scope out for all.' };
    if (outside.length) {
      return { ok: false, error: 'invalid_scope', description: `Not scopes of this application: ${outside.join(', ')}.` };
    }
    scopes = asked as Scope[];
  }
  return { ok: true, token: await issueToken(db, app, scopes, now) };
}

export type TokenCheck = { ok: true; credential: Credential; account: AccountDoc } | { ok: false; reason: 'invalid' | 'expired' | 'revoked' };

/**
 * Whether a presented token may be used now: one read by `_id` (its digest),
 * then its application (revocation) and account together.
 */
export async function checkAccessToken(db: Db, presented: string, now = new Date()): Promise<TokenCheck> {
  if (!TOKEN_FORM.test(presented)) return { ok: false, reason: 'invalid' };
  const token = await tokens(db).findOne({ _id: digest(presented) });
  if (!token) return { ok: false, reason: 'invalid' };
  if (token.expires_at.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  const [app, account] = await Promise.all([applicationById(db, token.application_id), getAccount(db, token.account_id)]);
  if (!app || !account) return { ok: false, reason: 'invalid' };
  if (app.revoked_at || app._deleted === true) return { ok: false, reason: 'revoked' };
  return {
    ok: true,
    account,
    credential: { type: 'application', id: app._id, env: token.env, scopes: token.scopes, name: app.name, expiresAt: token.expires_at },
  };
}

/** Removes tokens that expired before `before` (the retention sweep); how many. */
export async function sweepExpiredTokens(db: Db, before: Date): Promise<number> {
  return (await tokens(db).deleteMany({ expires_at: { $lt: before } })).deletedCount;
}
