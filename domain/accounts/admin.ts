/**
 * What operator commands (`offerops admin account list`, `admin key list`)
 * show of accounts and keys: never a key's secret, hash or prefix.
 */
import { Db } from 'mongodb';
import { Environment } from '../db';
import { notFound } from '../errors';
import { AccountDoc, ApiKeyDoc, getAccount, listAccounts, listApiKeys } from './store';

export const accountSummary = (a: AccountDoc): Record<string, unknown> => ({
  id: a._id,
  name: a.name,
  plan: a.plan,
  created_at: a.created_at.toISOString(),
});

/** `active`, `expired` or `revoked` at `now`. */
export const keyState = (k: ApiKeyDoc, now: Date): 'active' | 'expired' | 'revoked' =>
  k.revoked_at ? 'revoked' : k.expires_at && k.expires_at.getTime() <= now.getTime() ? 'expired' : 'active';

export const keySummary = (k: ApiKeyDoc, now: Date): Record<string, unknown> => ({
  id: k._id,
  name: k.name,
  env: k.env,
  scopes: k.scopes,
  state: keyState(k, now),
  created_at: k.created_at.toISOString(),
  expires_at: k.expires_at?.toISOString() ?? null,
  revoked_at: k.revoked_at?.toISOString() ?? null,
});

export const accountSummaries = async (db: Db): Promise<Record<string, unknown>[]> => (await listAccounts(db)).map(accountSummary);

export async function keySummaries(db: Db, accountId: string, env?: Environment, now = new Date()): Promise<Record<string, unknown>[]> {
  if (!(await getAccount(db, accountId))) throw notFound('account', accountId);
  return (await listApiKeys(db, accountId, env)).map((k) => keySummary(k, now));
}
