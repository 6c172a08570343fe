/**
 * Operator commands, run against the stack's MongoDB directly (there is no
 * developer panel yet). Each returns the JSON object the CLI prints.
 */
import { Db } from 'mongodb';
import { SCOPES } from '../../schemas/openapi/common';
import { PLANS } from '../../schemas/openapi/account';
import {
  createAccount,
  createApiKey,
  getAccount,
  KeyInputError,
  Plan,
  revokeApiKey,
  setAccountRateLimit,
  TEST_KEY_LIFETIMES,
} from '../../domain/accounts/store';
import { Environment } from '../../domain/db';
import { CHANNEL_TYPES, ChannelType, createChannel, getChannel } from '../../domain/channels/store';
import { createGroup } from '../../domain/groups/store';
import { getSegment } from '../../domain/segments/store';

export class UsageError extends Error {}

function oneOf<T extends string>(what: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`${what} must be one of ${allowed.join(', ')}`);
  return value as T;
}

export async function accountCreate(db: Db, opts: { name?: string; plan?: string }) {
  if (!opts.name) throw new UsageError('--name is required');
  const plan = oneOf<Plan>('--plan', opts.plan, PLANS, 'pro');
  const account = await createAccount(db, { name: opts.name, plan });
  const { apiKey } = await createApiKey(db, { accountId: account._id, env: 'live', scopes: SCOPES, name: 'owner key' });
  return { account_id: account._id, api_key: apiKey };
}

export async function accountUpdate(db: Db, opts: { account?: string; 'rate-limit'?: string }) {
  if (!opts.account) throw new UsageError('--account is required');
  const limit = opts['rate-limit'];
  if (limit === undefined) throw new UsageError('--rate-limit is required (requests per minute per key)');
  if (!/^\d{1,10}$/.test(limit)) throw new UsageError('--rate-limit must be a whole number of requests per minute');
  try {
    if (!(await setAccountRateLimit(db, opts.account, Number(limit)))) throw new UsageError(`no account ${opts.account}`);
  } catch (err) {
    if (err instanceof KeyInputError) throw new UsageError(err.message);
    throw err;
  }
  return { account_id: opts.account, rate_limit: Number(limit) };
}

export async function keyCreate(db: Db, opts: { account?: string; scopes?: string; env?: string; expires?: string; name?: string }) {
  if (!opts.account) throw new UsageError('--account is required');
  if (!opts.scopes) throw new UsageError('--scopes is required (a:read,b:write or all)');
  const env = oneOf<Environment>('--env', opts.env, ['live', 'test'], 'live');
  const lifetime = opts.expires === undefined ? undefined : oneOf('--expires', opts.expires, ['1h', '1d', '7d'] as const, '7d');
  const scopes =
    opts.scopes === 'all'
      ? SCOPES
      : opts.scopes
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  try {
    const { keyId, apiKey } = await createApiKey(db, {
      accountId: opts.account,
      env,
      scopes,
      name: opts.name,
      expiresInMs: lifetime ? TEST_KEY_LIFETIMES[lifetime] : null,
    });
    return { key_id: keyId, api_key: apiKey };
  } catch (err) {
    if (err instanceof KeyInputError) throw new UsageError(err.message);
    throw err;
  }
}

export async function keyRevoke(db: Db, keyId: string | undefined) {
  if (!keyId) throw new UsageError('usage: admin key revoke KEY_ID');
  if (!(await revokeApiKey(db, keyId))) throw new UsageError(`no key ${keyId}`);
  return { revoked: true };
}

function interval(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,7}$/.test(value)) throw new UsageError('--min-interval-ms must be a whole number of milliseconds');
  return Number(value);
}

async function tenantOf(db: Db, opts: { account?: string; env?: string }) {
  if (!opts.account) throw new UsageError('--account is required');
  const tenant = { accountId: opts.account, env: oneOf<Environment>('--env', opts.env, ['live', 'test'], 'live') };
  if (!(await getAccount(db, tenant.accountId))) throw new UsageError(`no account ${tenant.accountId}`);
  return tenant;
}

export async function channelConnect(
  db: Db,
  secretKey: Buffer,
  opts: { account?: string; env?: string; type?: string; url?: string; token?: string; name?: string; 'min-interval-ms'?: string },
) {
  const tenant = await tenantOf(db, opts);
  const type = oneOf<ChannelType>('--type', opts.type, CHANNEL_TYPES, 'http');
  if (opts.type === undefined) throw new UsageError('--type is required (http, telegram or sandbox)');
  if (type === 'http' && !opts.url) throw new UsageError('--url is required for an http channel');
  if (opts.url && !/^https?:\/\/[^\s]+$/.test(opts.url)) throw new UsageError('--url must be an http(s) URL');
  if (type === 'telegram' && !opts.token) throw new UsageError('--token (the bot token) is required for a telegram channel');
  const channel = await createChannel(
    db,
    tenant,
    { type, name: opts.name, url: opts.url ?? null, token: opts.token ?? null, minIntervalMs: interval(opts['min-interval-ms']) },
    secretKey,
  );
  return { channel_id: channel._id };
}

export async function groupCreate(
  db: Db,
  opts: { account?: string; name?: string; env?: string; segment?: string; channel?: string; address?: string; 'min-interval-ms'?: string },
) {
  if (!opts.name) throw new UsageError('--name is required');
  const tenant = await tenantOf(db, opts);
  if (opts.segment && !(await getSegment(db, tenant, opts.segment))) {
    throw new UsageError(`no segment ${opts.segment} in ${tenant.accountId} (${tenant.env})`);
  }
  if ((opts.channel === undefined) !== (opts.address === undefined)) throw new UsageError('give --channel and --address together');
  const channel = opts.channel ? await getChannel(db, tenant, opts.channel) : null;
  if (opts.channel && !channel) throw new UsageError(`no channel ${opts.channel} in ${tenant.accountId} (${tenant.env})`);
  const group = await createGroup(db, tenant, {
    name: opts.name,
    segment_id: opts.segment ?? null,
    ...(channel ? { channel: { id: channel._id, type: channel.type, address: opts.address! } } : {}),
    minIntervalMs: interval(opts['min-interval-ms']),
  });
  return { group_id: group._id };
}
