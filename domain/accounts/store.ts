/**
 * Accounts and their API keys. A key is `oo_<env>_<40 random characters>`;
 * only its SHA-256 is stored. Keys have enough entropy (≈238 bits) that a
 * fast hash is the right tool; the lookup is by hash and the final comparison
 * is constant-time.
 */
import { createHash, hash, timingSafeEqual } from 'node:crypto';
import { Db } from 'mongodb';
import { PLANS } from '../../schemas/openapi/account';
import { Scope, SCOPES } from '../../schemas/openapi/common';
import { newId, randomToken } from '../ids';
import { Environment, platformCollection } from '../db';
import { forgetTimeZone } from '../analytics/buckets';
import { isTimeZone } from '../recurrence';

export type Plan = (typeof PLANS)[number];

/** Plans whose accounts may call the API (others get 402). */
const API_PLANS: ReadonlySet<Plan> = new Set(['pro', 'business']);
export const planHasApiAccess = (plan: Plan): boolean => API_PLANS.has(plan);

/** Sandbox (test) credentials live one hour, one day or seven days (spec 5.3). */
export const TEST_KEY_LIFETIMES = { '1h': 3_600_000, '1d': 86_400_000, '7d': 604_800_000 } as const;

export interface AccountDoc {
  _id: string;
  name: string;
  plan: Plan;
  created_at: Date;
  /** Requests per minute per key, when an operator changed it from the default (DEFAULT_RATE_LIMIT). */
  rate_limit?: number;
  /** The IANA time zone whose days and hours analytics count in (domain/analytics/buckets.ts); UTC when unset. */
  timezone?: string;
}

/** Requests per minute per key (spec 7), unless the account's operator setting says otherwise. */
export const DEFAULT_RATE_LIMIT = 120;
export const MAX_RATE_LIMIT = 1_000_000_000;

export interface ApiKeyDoc {
  _id: string;
  account_id: string;
  env: Environment;
  name: string;
  scopes: Scope[];
  hash: string;
  prefix: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
}

const sha256 = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();

const accounts = (db: Db) => platformCollection<AccountDoc>(db, 'accounts');
const keys = (db: Db) => platformCollection<ApiKeyDoc>(db, 'api_keys');

export async function createAccount(db: Db, input: { name: string; plan?: Plan }): Promise<AccountDoc> {
  const doc: AccountDoc = { _id: newId('acc'), name: input.name, plan: input.plan ?? 'pro', created_at: new Date() };
  await accounts(db).insertOne(doc);
  return doc;
}

export const getAccount = (db: Db, id: string): Promise<AccountDoc | null> => accounts(db).findOne({ _id: id });

/** Every account, oldest first (for operators). */
export const listAccounts = (db: Db): Promise<AccountDoc[]> =>
  accounts(db)
    .find({}, { sort: { created_at: 1, _id: 1 } })
    .toArray();

/** A key by its id (for operators: never its secret, which is not stored). */
export const getApiKey = (db: Db, id: string): Promise<ApiKeyDoc | null> => keys(db).findOne({ _id: id });

/** The keys of an account (optionally of one environment), oldest first. */
export const listApiKeys = (db: Db, accountId: string, env?: Environment): Promise<ApiKeyDoc[]> =>
  keys(db)
    .find({ account_id: accountId, ...(env ? { env } : {}) }, { sort: { created_at: 1, _id: 1 } })
    .toArray();

export class KeyInputError extends Error {}

/** Throws KeyInputError unless `limit` is a rate limit an account may have. */
export function checkRateLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_RATE_LIMIT) {
    throw new KeyInputError(`a rate limit is a whole number of requests from 1 to ${MAX_RATE_LIMIT}`);
  }
}

/** Sets the account's per-key rate limit (requests per minute); false when there is no such account. */
export async function setAccountRateLimit(db: Db, accountId: string, limit: number): Promise<boolean> {
  checkRateLimit(limit);
  const res = await accounts(db).updateOne({ _id: accountId }, { $set: { rate_limit: limit } });
  forgetVerified((e) => e.account._id === accountId);
  return res.matchedCount === 1;
}

/**
 * Sets the account's time zone (an IANA name such as `America/Sao_Paulo`, or
 * `UTC`), stored under its canonical spelling, which is returned; null when
 * there is no such account. Facts counted from now on fall on that zone's
 * days and hours; buckets already written keep the days they were counted in.
 * This process forgets the zone it cached at once, others within a minute.
 */
export async function setAccountTimeZone(db: Db, accountId: string, timeZone: string): Promise<string | null> {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(timeZone) || !isTimeZone(timeZone)) {
    throw new KeyInputError(`"${timeZone}" is not an IANA time zone (e.g. America/Sao_Paulo, Europe/Lisbon, UTC)`);
  }
  const canonical = new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  const res = await accounts(db).updateOne({ _id: accountId }, { $set: { timezone: canonical } });
  forgetTimeZone(accountId);
  return res.matchedCount === 1 ? canonical : null;
}

export async function createApiKey(
  db: Db,
  input: { accountId: string; env: Environment; scopes: readonly string[]; name?: string; expiresInMs?: number | null },
): Promise<{ keyId: string; apiKey: string; key: ApiKeyDoc }> {
  if (!(await getAccount(db, input.accountId))) throw new KeyInputError(`no account ${input.accountId}`);
  const unknown = input.scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length) throw new KeyInputError(`unknown scopes: ${unknown.join(', ')}`);
  if (input.scopes.length === 0) throw new KeyInputError('a key needs at least one scope');
  let expiresInMs = input.expiresInMs ?? null;
  if (input.env === 'test') {
    // Sandbox credentials always expire: one hour, one day or (default) seven days.
    expiresInMs ??= TEST_KEY_LIFETIMES['7d'];
    if (!(Object.values(TEST_KEY_LIFETIMES) as number[]).includes(expiresInMs)) {
      throw new KeyInputError('test keys live 1h, 1d or 7d');
    }
  }
  const apiKey = `oo_${input.env}_${randomToken(40)}`;
  const now = new Date();
  const key: ApiKeyDoc = {
    _id: newId('key'),
    account_id: input.accountId,
    env: input.env,
    name: input.name ?? `${input.env} key`,
    scopes: [...new Set(input.scopes)] as Scope[],
    hash: sha256(apiKey).toString('hex'),
    prefix: apiKey.slice(0, 12),
    created_at: now,
    expires_at: expiresInMs === null ? null : new Date(now.getTime() + expiresInMs),
    revoked_at: null,
  };
  await keys(db).insertOne(key);
  return { keyId: key._id, apiKey, key };
}

/** Revokes a key; false when there is no such key. Revoking twice keeps the first time. */
export async function revokeApiKey(db: Db, keyId: string): Promise<boolean> {
  const res = await keys(db).updateOne({ _id: keyId, revoked_at: null }, { $set: { revoked_at: new Date() } });
  forgetVerified((e) => e.key._id === keyId);
  return res.matchedCount === 1 || (await keys(db).countDocuments({ _id: keyId })) === 1;
}

export type KeyCheck = { ok: true; key: ApiKeyDoc; account: AccountDoc } | { ok: false; reason: 'invalid' | 'expired' | 'revoked' };

const KEY_FORM = /^oo_(live|test)_[A-Za-z0-9]{40}$/;

/** The stored key and account for a presented secret's digest, and whether they may be used now. */
async function lookUpKey(db: Db, digest: Buffer, now: Date): Promise<KeyCheck> {
  const key = await keys(db).findOne({ hash: digest.toString('hex') });
  if (!key || !timingSafeEqual(Buffer.from(key.hash, 'hex'), digest)) return { ok: false, reason: 'invalid' };
  if (key.revoked_at) return { ok: false, reason: 'revoked' };
  if (key.expires_at && key.expires_at.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  const account = await getAccount(db, key.account_id);
  if (!account) return { ok: false, reason: 'invalid' };
  return { ok: true, key, account };
}

/**
 * How long this process trusts a key it verified without asking MongoDB
 * again: a revocation (or an account change) made elsewhere — another API
 * process, the CLI — takes effect here within this bound. In this process it
 * takes effect at once (revokeApiKey and setAccountRateLimit forget the entry).
 */
export const KEY_CACHE_MS = 2_000;
const KEY_CACHE_MAX = 10_000;

/** Verified keys by database and SHA-256 of the secret (never the secret itself). */
const verified = new Map<string, { key: ApiKeyDoc; account: AccountDoc; until: number }>();

/**
 * What checkApiKey answers without asking MongoDB: the check of a secret that
 * is not of the key form, or of a key this process verified within
 * KEY_CACHE_MS (expiry checked on every use); undefined when MongoDB must be
 * asked. Synchronous, so a request with a cached key does not wait a turn.
 */
export function cachedApiKey(db: Db, presented: string, now = new Date()): KeyCheck | undefined {
  if (!KEY_FORM.test(presented)) return { ok: false, reason: 'invalid' };
  // The one-shot digest (no Hash object): this runs on every request.
  const id = `${db.databaseName}:${hash('sha256', presented, 'hex')}`;
  const hit = verified.get(id);
  if (!hit || hit.until <= now.getTime()) return undefined;
  if (!hit.key.expires_at || hit.key.expires_at.getTime() > now.getTime()) return { ok: true, key: hit.key, account: hit.account };
  verified.delete(id);
  return { ok: false, reason: 'expired' };
}

/**
 * Finds the key a presented secret belongs to and says whether it may be used
 * now, through this process's cache of verified keys (KEY_CACHE_MS, see
 * cachedApiKey); expiry is checked on every use.
 */
export async function checkApiKey(db: Db, presented: string, now = new Date()): Promise<KeyCheck> {
  const cached = cachedApiKey(db, presented, now);
  if (cached) return cached;
  const digest = sha256(presented);
  const id = `${db.databaseName}:${digest.toString('hex')}`;
  const check = await lookUpKey(db, digest, now);
  verified.delete(id);
  if (check.ok) {
    if (verified.size >= KEY_CACHE_MAX) verified.delete(verified.keys().next().value!);
    verified.set(id, { key: check.key, account: check.account, until: now.getTime() + KEY_CACHE_MS });
  }
  return check;
}

/** Drops this process's cached entries that `matches` (after a revocation or an account change). */
function forgetVerified(matches: (entry: { key: ApiKeyDoc; account: AccountDoc }) => boolean): void {
  for (const [id, entry] of verified) if (matches(entry)) verified.delete(id);
}
