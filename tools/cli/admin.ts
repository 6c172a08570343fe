/**
 * Operator commands, run against the stack's MongoDB directly (there is no
 * developer panel yet). Each checks and converts its options, calls the
 * domain (domain/accounts, domain/channels, domain/groups) and returns the
 * JSON object the CLI prints. The areas only a few commands use (the sandbox
 * seed, monitors, contract tests) are loaded by those commands when they run:
 * the others start without the Temporal client or Ajv.
 */
import { readFile, stat } from 'node:fs/promises';
import { Db } from 'mongodb';
import { SCOPES } from '../../schemas/openapi/common';
import { PLANS } from '../../schemas/openapi/account';
import {
  createApiKey,
  getAccount,
  KeyInputError,
  Plan,
  revokeApiKey,
  checkRateLimit,
  setAccountRateLimit,
  setAccountTimeZone,
  TEST_KEY_LIFETIMES,
} from '../../domain/accounts/store';
import { accountSummaries, keySummaries } from '../../domain/accounts/admin';
import { Environment, Tenant } from '../../domain/db';
import { CHANNEL_TYPES, ChannelType, channelForSend, getChannel, WHATSAPP_GATEWAYS } from '../../domain/channels/store';
import { gatewayFor } from '../../domain/channels/connectors/index';
import { setTelegramWebhook } from '../../domain/channels/connectors/telegram';
import { ConnectorError } from '../../domain/channels/connectors/types';
import { checkChannelState, discoverGroups, importGroups } from '../../domain/operator/discovery';
import {
  changeChannel,
  connectChannel,
  listChannelSummaries,
  recordChannelState,
  removeChannel,
  rotateInboundSecret,
} from '../../domain/channels/service';
import { changeOperatorGroup, createOperatorGroup, GroupChange, listOperatorGroups, removeOperatorGroup } from '../../domain/operator/groups';
import { listOperatorCollections, removeCollection, setCollection } from '../../domain/store/admin';
import { verifyStoreDomain } from '../../domain/store/service';
import { IntegrationInput, listOperatorIntegrations, removeIntegration, setIntegration } from '../../domain/integrations/service';
import { credentialOwner } from '../../domain/developer/credentials';
import { applicationOwner, createApplication, listApplications, revokeApplication } from '../../domain/developer/applications';
import { requestLogCsv } from '../../domain/developer/request-logs';
import { createPostbackSecret } from '../../domain/commissions/postbacks';
import { IMPORT_MAX_BYTES, ImportRefused, importReport } from '../../domain/commissions/import';
import { closest } from '../../domain/nearest-word';
import { UsageError } from './errors';
import { StackInfo } from './stack-config';
import { TemporalDeps } from '../../temporal/start';
import { listRuns, runSummary } from '../../domain/contract-tests/store';
import { createPanelLink } from '../../domain/panel/auth';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { receiverCertificate } from './dev-receiver';
import { dataDir } from './stack-config';

export type Values = Record<string, string | boolean | undefined>;

/** What a command gets: its options, its positional arguments, and the sealing key (asked for only when a token is sealed). */
export interface AdminInput {
  values: Values;
  args: string[];
  secretKey: () => Buffer;
  /** A Temporal client, connected on first use (commands that start or stop workflows). */
  temporal: () => Promise<TemporalDeps>;
  /** Where the stack is (its API and Temporal UI addresses, when known). */
  stack: StackInfo;
}

const str = (values: Values, name: string): string | undefined => {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
};

function oneOf<T extends string>(what: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`${what} must be one of ${allowed.join(', ')}`);
  return value as T;
}

function interval(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,7}$/.test(value)) throw new UsageError('--min-interval-ms must be a whole number of milliseconds');
  return Number(value);
}

function httpUrl(value: string | undefined): string | undefined {
  if (value !== undefined && !/^https?:\/\/[^\s]+$/.test(value)) throw new UsageError('--url must be an http(s) URL');
  return value;
}

function nonEmpty(what: string, value: string | undefined): string | undefined {
  if (value !== undefined && !value.trim()) throw new UsageError(`${what} must not be empty`);
  return value;
}

const envOf = (values: Values): Environment => oneOf<Environment>('--env', str(values, 'env'), ['live', 'test'], 'live');

async function tenantOf(db: Db, values: Values): Promise<Tenant> {
  const account = str(values, 'account');
  if (!account) throw new UsageError('--account is required');
  const tenant = { accountId: account, env: envOf(values) };
  if (!(await getAccount(db, tenant.accountId))) throw new UsageError(`no account ${tenant.accountId}`);
  return tenant;
}

export async function accountCreate(db: Db, { values, temporal }: AdminInput) {
  const name = nonEmpty('--name', str(values, 'name'));
  if (!name) throw new UsageError('--name is required');
  const plan = oneOf<Plan>('--plan', str(values, 'plan'), PLANS, 'pro');
  const { createSeededAccount } = await import('../../domain/sandbox/seed.js');
  const { account, seed } = await createSeededAccount({ db, temporal: await temporal() }, { name, plan });
  const { apiKey } = await createApiKey(db, { accountId: account._id, env: 'live', scopes: SCOPES, name: 'owner key' });
  return { account_id: account._id, api_key: apiKey, sandbox: seed };
}

/** The account named by --account, which must exist. */
async function accountOf(db: Db, values: Values): Promise<string> {
  const account = str(values, 'account');
  if (!account) throw new UsageError('--account is required');
  if (!(await getAccount(db, account))) throw new UsageError(`no account ${account}`);
  return account;
}

export async function sandboxReset(db: Db, { values, temporal }: AdminInput) {
  const { resetSandbox } = await import('../../domain/sandbox/reset.js');
  return resetSandbox({ db, temporal: await temporal() }, await accountOf(db, values));
}

export async function sandboxSeed(db: Db, { values, temporal }: AdminInput) {
  const { seedSandbox } = await import('../../domain/sandbox/seed.js');
  return seedSandbox({ db, temporal: await temporal() }, await accountOf(db, values));
}

export async function accountList(db: Db) {
  return { accounts: await accountSummaries(db) };
}

export async function accountUpdate(db: Db, { values }: AdminInput) {
  const account = str(values, 'account');
  const limit = str(values, 'rate-limit');
  const timeZone = str(values, 'timezone');
  if (!account) throw new UsageError('--account is required');
  if (limit === undefined && timeZone === undefined) {
    throw new UsageError('give --rate-limit N (requests per minute per key), --timezone NAME (an IANA time zone), or both');
  }
  if (limit !== undefined && !/^\d{1,10}$/.test(limit)) throw new UsageError('--rate-limit must be a whole number of requests per minute');
  const out: { account_id: string; rate_limit?: number; timezone?: string } = { account_id: account };
  try {
    // Both are checked before either is written: a bad one changes nothing.
    if (limit !== undefined) checkRateLimit(Number(limit));
    if (timeZone !== undefined) {
      const set = await setAccountTimeZone(db, account, timeZone);
      if (set === null) throw new UsageError(`no account ${account}`);
      out.timezone = set;
    }
    if (limit !== undefined) {
      if (!(await setAccountRateLimit(db, account, Number(limit)))) throw new UsageError(`no account ${account}`);
      out.rate_limit = Number(limit);
    }
  } catch (err) {
    if (err instanceof KeyInputError) throw new UsageError(err.message);
    throw err;
  }
  return out;
}

/** A comma-separated scope list, or `all`; an unknown scope is named, with the nearest valid one when one is close. */
function scopesOf(list: string): readonly string[] {
  if (list === 'all') return SCOPES;
  const scopes = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.find((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown !== undefined) {
    const nearest = closest(unknown, SCOPES);
    const hint = nearest ? `; did you mean ${nearest}?` : '';
    throw new UsageError(`unknown scope ${unknown}${hint} (valid: ${SCOPES.join(', ')}, or all)`);
  }
  return scopes;
}

export async function keyCreate(db: Db, { values }: AdminInput) {
  const account = str(values, 'account');
  const scopeList = str(values, 'scopes');
  if (!account) throw new UsageError('--account is required');
  if (!scopeList) throw new UsageError('--scopes is required (a:read,b:write or all)');
  const env = envOf(values);
  const expires = str(values, 'expires');
  const lifetime = expires === undefined ? undefined : oneOf('--expires', expires, ['1h', '1d', '7d'] as const, '7d');
  const scopes = scopesOf(scopeList);
  try {
    const { keyId, apiKey } = await createApiKey(db, {
      accountId: account,
      env,
      scopes,
      name: str(values, 'name'),
      expiresInMs: lifetime ? TEST_KEY_LIFETIMES[lifetime] : null,
    });
    return { key_id: keyId, api_key: apiKey };
  } catch (err) {
    if (err instanceof KeyInputError) throw new UsageError(err.message);
    throw err;
  }
}

export async function keyList(db: Db, { values }: AdminInput) {
  const account = str(values, 'account');
  if (!account) throw new UsageError('--account is required');
  const env = str(values, 'env') === undefined ? undefined : envOf(values);
  return { keys: await keySummaries(db, account, env) };
}

export async function keyRevoke(db: Db, { args }: AdminInput) {
  const keyId = args[0]!;
  if (!(await revokeApiKey(db, keyId))) throw new UsageError(`no key ${keyId}`);
  return { revoked: true };
}

/** `--public-url`, else OFFEROPS_PUBLIC_URL: the origin Telegram or a WhatsApp gateway reaches the API at (https in production). */
function publicUrl(values: Values): string | undefined {
  const value = str(values, 'public-url') ?? (process.env.OFFEROPS_PUBLIC_URL || undefined);
  if (value !== undefined && !/^https?:\/\/[^\s/]+\/?$/.test(value)) {
    throw new UsageError('--public-url must be the origin of the API, e.g. https://ops.example.com (no path)');
  }
  return value?.replace(/\/$/, '');
}

/** Whether a channel of `type` has its webhook set by offerops: Telegram's bot, a WhatsApp gateway's session. */
const setsWebhook = (type: ChannelType): boolean => type === 'telegram' || WHATSAPP_GATEWAYS.includes(type);

/**
 * Points the channel's far end at its inbound URL when the API's public
 * origin is known: a telegram bot (`setWebhook`, the inbound secret as
 * `secret_token`), an Evolution instance (its webhook, the secret as a bearer
 * header) or a WAHA session (its webhook, the secret as HMAC key). For a
 * WhatsApp gateway, the session's state is then checked and recorded. What
 * the operator reads about it.
 */
async function inboundWebhook(
  db: Db,
  tenant: Tenant,
  channelId: string,
  secret: string,
  values: Values,
  secretKey: () => Buffer,
): Promise<{ webhook: string; state?: string }> {
  const origin = publicUrl(values);
  if (!origin)
    return {
      webhook: 'not set: give --public-url (or OFFEROPS_PUBLIC_URL), then admin channel update ID --rotate-inbound-secret --public-url URL',
    };
  const channel = await channelForSend(db, tenant, channelId, secretKey());
  if (!channel?.token) return { webhook: `not set: the channel has no ${channel?.type === 'telegram' ? 'bot token' : 'API key'}` };
  const url = `${origin}/inbound/${channelId}`;
  const far = channel.type === 'telegram' ? 'the Bot API' : channel.type === 'evolution' ? 'Evolution API' : 'WAHA';
  try {
    if (channel.type === 'telegram') await setTelegramWebhook(channel.url, channel.token, { url, secretToken: secret });
    else await gatewayFor(channel).setWebhook(url, secret);
  } catch (err) {
    if (!(err instanceof ConnectorError)) throw err;
    // requestJson names the far end "the gateway".
    return { webhook: `failed: ${err.message.replace('the gateway', far)}` };
  }
  if (channel.type === 'telegram') return { webhook: `set: ${url}` };
  try {
    // WAHA restarts the session when its webhook is set: the state it settles in, not the restart's.
    const state = await gatewayFor(channel).sessionState(SESSION_SETTLE_MS);
    await recordChannelState(db, tenant, channelId, state);
    return { webhook: `set: ${url}`, state };
  } catch (err) {
    if (!(err instanceof ConnectorError)) throw err;
    return { webhook: `set: ${url}`, state: `unknown (${err.message.replace('the gateway', far)})` };
  }
}

/** How long `channel connect` waits for a session on its way (starting, connecting) to settle before it prints its state. */
const SESSION_SETTLE_MS = 15_000;

/** `--instance`: the Evolution instance or WAHA session (WAHA's is `default` unless given); refused for other types. */
function instanceOf(type: ChannelType, value: string | undefined): string | null {
  const instance = nonEmpty('--instance', value);
  if (!WHATSAPP_GATEWAYS.includes(type)) {
    if (instance !== undefined) throw new UsageError('--instance is for evolution and waha channels only');
    return null;
  }
  if (instance === undefined && type === 'evolution') throw new UsageError('--instance (the Evolution API instance name) is required');
  return instance ?? 'default';
}

export async function channelConnect(db: Db, { values, secretKey }: AdminInput) {
  const tenant = await tenantOf(db, values);
  if (str(values, 'type') === undefined) throw new UsageError('--type is required (http, telegram, evolution, waha or sandbox)');
  const type = oneOf<ChannelType>('--type', str(values, 'type'), CHANNEL_TYPES, 'http');
  const url = httpUrl(str(values, 'url'));
  const token = nonEmpty('--token', str(values, 'token'));
  if ((type === 'http' || WHATSAPP_GATEWAYS.includes(type)) && !url) throw new UsageError(`--url is required for an ${type} channel`);
  if (type === 'telegram' && !token) throw new UsageError('--token (the bot token) is required for a telegram channel');
  if (WHATSAPP_GATEWAYS.includes(type) && !token) throw new UsageError(`--token (the gateway's API key) is required for a ${type} channel`);
  const instance = instanceOf(type, str(values, 'instance'));
  const { channel, inboundSecret } = await connectChannel(
    db,
    tenant,
    {
      type,
      name: nonEmpty('--name', str(values, 'name')),
      url: url ?? null,
      token: token ?? null,
      instance,
      minIntervalMs: interval(str(values, 'min-interval-ms')),
    },
    secretKey,
  );
  const webhook = setsWebhook(type) && inboundSecret ? await inboundWebhook(db, tenant, channel._id, inboundSecret, values, secretKey) : {};
  return {
    channel_id: channel._id,
    ...(inboundSecret ? { inbound_url_path: `/inbound/${channel._id}`, inbound_secret: inboundSecret } : {}),
    ...webhook,
  };
}

export async function channelList(db: Db, { values }: AdminInput) {
  return { channels: await listChannelSummaries(db, await tenantOf(db, values)) };
}

export async function channelUpdate(db: Db, { values, args, secretKey }: AdminInput) {
  const tenant = await tenantOf(db, values);
  const current = await getChannel(db, tenant, args[0]!);
  const input = {
    name: nonEmpty('--name', str(values, 'name')),
    url: httpUrl(str(values, 'url')),
    token: nonEmpty('--token', str(values, 'token')),
    instance: str(values, 'instance') === undefined || !current ? undefined : (instanceOf(current.type, str(values, 'instance')) ?? undefined),
    minIntervalMs: interval(str(values, 'min-interval-ms')),
  };
  const rotate = values['rotate-inbound-secret'] === true;
  if (!rotate && Object.values(input).every((v) => v === undefined))
    throw new UsageError('nothing to change: give --name, --url, --token, --instance, --min-interval-ms or --rotate-inbound-secret');
  const changed = await changeChannel(db, tenant, args[0]!, input, secretKey);
  if (!rotate) return { channel_id: args[0]!, changed };
  const inboundSecret = await rotateInboundSecret(db, tenant, args[0]!, secretKey);
  const webhook = current && setsWebhook(current.type) ? await inboundWebhook(db, tenant, args[0]!, inboundSecret, values, secretKey) : {};
  return { channel_id: args[0]!, changed: [...changed, 'inbound_secret'], inbound_secret: inboundSecret, ...webhook };
}

/** A gateway's failure as the operator reads it. */
function gatewayTrouble(err: unknown): never {
  if (err instanceof ConnectorError) throw new UsageError(err.message);
  throw err;
}

export async function channelGroups(db: Db, { values, args, secretKey }: AdminInput) {
  const tenant = await tenantOf(db, values);
  const picks = str(values, 'import');
  try {
    if (picks === undefined) return { groups: await discoverGroups(db, tenant, args[0]!, secretKey()) };
    const chosen =
      picks.trim() === 'all'
        ? 'all'
        : picks
            .split(',')
            .map((p) => p.trim())
            .filter(Boolean);
    if (chosen !== 'all' && !chosen.length) throw new UsageError('--import takes names or address hints, comma-separated, or all');
    const segment = str(values, 'segment');
    return await importGroups(
      db,
      tenant,
      args[0]!,
      chosen,
      { segmentId: segment ?? null, minIntervalMs: interval(str(values, 'min-interval-ms')) },
      secretKey(),
    );
  } catch (err) {
    return gatewayTrouble(err);
  }
}

export async function channelCheck(db: Db, { values, args, secretKey }: AdminInput) {
  const tenant = await tenantOf(db, values);
  try {
    return { channel_id: args[0]!, state: await checkChannelState(db, tenant, args[0]!, secretKey()) };
  } catch (err) {
    return gatewayTrouble(err);
  }
}

export async function monitorRun(db: Db, { values, args, temporal }: AdminInput) {
  const tenant = await tenantOf(db, values);
  const { runMonitorNow } = await import('../../domain/monitors/service.js');
  const run = await runMonitorNow({ db, temporal: await temporal() }, tenant, args[0]!);
  if ('workflowId' in run) return { monitor_id: args[0]!, workflow_id: run.workflowId };
  throw new UsageError(
    run.refused === 'paused'
      ? `monitor ${args[0]} is paused: PATCH its state to active first`
      : `monitor ${args[0]} has a run under way; GET /monitors/${args[0]} shows its result when it ends`,
  );
}

export async function channelDelete(db: Db, { values, args }: AdminInput) {
  await removeChannel(db, await tenantOf(db, values), args[0]!);
  return { deleted: true };
}

/** `--channel` and `--address` together, or neither. */
function channelOf(values: Values): { id: string; address: string } | undefined {
  const id = str(values, 'channel');
  const address = nonEmpty('--address', str(values, 'address'));
  if ((id === undefined) !== (address === undefined)) throw new UsageError('give --channel and --address together');
  return id && address ? { id, address } : undefined;
}

export async function groupCreate(db: Db, { values }: AdminInput) {
  const name = nonEmpty('--name', str(values, 'name'));
  if (!name) throw new UsageError('--name is required');
  const tenant = await tenantOf(db, values);
  const group = await createOperatorGroup(db, tenant, {
    name,
    segment_id: str(values, 'segment') ?? null,
    channel: channelOf(values),
    minIntervalMs: interval(str(values, 'min-interval-ms')),
  });
  return { group_id: group._id };
}

export async function groupList(db: Db, { values }: AdminInput) {
  const segment = str(values, 'segment');
  return { groups: await listOperatorGroups(db, await tenantOf(db, values), segment === undefined ? {} : { segment_id: segment }) };
}

export async function groupUpdate(db: Db, { values, args }: AdminInput) {
  const tenant = await tenantOf(db, values);
  const channel = channelOf(values);
  if (channel && values.disconnect) throw new UsageError('give either --channel and --address, or --disconnect');
  const segment = str(values, 'segment');
  const active = str(values, 'active');
  const input: GroupChange = {
    name: nonEmpty('--name', str(values, 'name')),
    segment_id: segment === 'none' ? null : segment,
    active: active === undefined ? undefined : oneOf('--active', active, ['true', 'false'] as const, 'true') === 'true',
    channel: values.disconnect ? null : channel,
    minIntervalMs: interval(str(values, 'min-interval-ms')),
  };
  if (Object.values(input).every((v) => v === undefined)) {
    throw new UsageError('nothing to change: give --name, --segment, --active, --channel with --address, --disconnect or --min-interval-ms');
  }
  const { group, changed } = await changeOperatorGroup(db, tenant, args[0]!, input);
  return { group_id: group._id, changed };
}

export async function groupDelete(db: Db, { values, args }: AdminInput) {
  await removeOperatorGroup(db, await tenantOf(db, values), args[0]!);
  return { deleted: true };
}

function position(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,6}$/.test(value)) throw new UsageError('--position must be a whole number ≥ 0');
  return Number(value);
}

export async function collectionSet(db: Db, { values }: AdminInput) {
  const title = nonEmpty('--title', str(values, 'title'));
  if (!title) throw new UsageError('--title is required');
  const tenant = await tenantOf(db, values);
  const offers = str(values, 'offers');
  const published = str(values, 'published');
  const { collection, created } = await setCollection(db, tenant, {
    title,
    slug: str(values, 'slug'),
    description: str(values, 'description'),
    position: position(str(values, 'position')),
    published: published === undefined ? undefined : oneOf('--published', published, ['true', 'false'] as const, 'true') === 'true',
    offer_ids: offers
      ? offers
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean)
      : [],
  });
  return { collection, created };
}

export async function collectionList(db: Db, { values }: AdminInput) {
  return { collections: await listOperatorCollections(db, await tenantOf(db, values)) };
}

export async function collectionDelete(db: Db, { values, args }: AdminInput) {
  await removeCollection(db, await tenantOf(db, values), args[0]!);
  return { deleted: true };
}

export async function storeVerifyDomain(db: Db, { values }: AdminInput) {
  const store = await verifyStoreDomain({ db }, await tenantOf(db, values), { publicUrl: process.env.OFFEROPS_PUBLIC_URL || undefined });
  return { store_id: store._id, domain: store.domain, domain_verified: store.domain_verified };
}

const INTEGRATION_FIELDS = [
  'tag',
  'tool',
  'word',
  'affiliate-id',
  'app-id',
  'app-secret',
  'params',
  'store',
  'template',
  'hosts',
  'sub-id-param',
] as const;

export async function integrationSet(db: Db, { values, secretKey }: AdminInput) {
  const marketplace = str(values, 'marketplace');
  if (!marketplace) throw new UsageError('--marketplace is required');
  const tenant = await tenantOf(db, values);
  const input: IntegrationInput = { marketplace };
  for (const field of INTEGRATION_FIELDS) {
    const value = str(values, field);
    if (value !== undefined) input[field.replaceAll('-', '_') as Exclude<keyof IntegrationInput, 'marketplace'>] = value;
  }
  return setIntegration(db, tenant, input, secretKey());
}

export async function integrationList(db: Db, { values, secretKey }: AdminInput) {
  return { integrations: await listOperatorIntegrations(db, await tenantOf(db, values), secretKey()) };
}

export async function integrationDelete(db: Db, { values }: AdminInput) {
  const marketplace = str(values, 'marketplace');
  if (!marketplace) throw new UsageError('--marketplace is required');
  await removeIntegration(db, await tenantOf(db, values), marketplace);
  return { deleted: true, marketplace };
}

/** An RFC 3339 date-time option (`2026-01-31T00:00:00Z`, or a date alone: its midnight UTC). */
function instant(what: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const at = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(value) ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime()))
    throw new UsageError(`${what} must be an ISO 8601 date or date-time with an offset, e.g. 2026-01-31T00:00:00Z`);
  return at;
}

/** Writes `chunk`, waiting when the stream asks to (a slow pipe): memory stays bounded by one batch. */
async function write(out: NodeJS.WritableStream, chunk: string): Promise<void> {
  if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
}

/** `admin logs export`: the credential's request log as CSV on `out`, oldest first, read in keyset batches. */
export async function logsExport(db: Db, { values }: AdminInput, out: NodeJS.WritableStream): Promise<void> {
  const credentialId = str(values, 'key');
  if (!credentialId) throw new UsageError('--key is required (a key id key_… or an application id app_…)');
  const since = instant('--since', str(values, 'since'));
  const until = instant('--until', str(values, 'until'));
  if (since && until && since >= until) throw new UsageError('--since must be before --until');
  const owner = await credentialOwner(db, credentialId);
  if (!owner) throw new UsageError(`no key or application ${credentialId}`);
  for await (const chunk of requestLogCsv(db, owner.accountId, { credentialId, since, until })) await write(out, chunk);
}

/** `admin app create`: an application; its client secret is printed only here. */
export async function appCreate(db: Db, { values }: AdminInput) {
  const name = nonEmpty('--name', str(values, 'name'));
  const scopeList = str(values, 'scopes');
  if (!name) throw new UsageError('--name is required');
  if (!scopeList) throw new UsageError('--scopes is required (a:read,b:write or all)');
  if (str(values, 'env') === undefined) throw new UsageError('--env is required (live or test)');
  const tenant = await tenantOf(db, values);
  const { application, clientSecret } = await createApplication(db, tenant, { name, scopes: scopesOf(scopeList) });
  return {
    application_id: application.id,
    client_id: application.client_id,
    client_secret: clientSecret,
    env: application.env,
    scopes: application.scopes,
  };
}

export async function appList(db: Db, { values }: AdminInput) {
  const account = str(values, 'account');
  if (!account) throw new UsageError('--account is required');
  if (!(await getAccount(db, account))) throw new UsageError(`no account ${account}`);
  const env = str(values, 'env') === undefined ? undefined : envOf(values);
  return { applications: await listApplications(db, account, env) };
}

export async function appRevoke(db: Db, { values }: AdminInput) {
  const id = str(values, 'app');
  if (!id) throw new UsageError('--app is required (app_…)');
  const owner = await applicationOwner(db, id);
  if (!owner || !(await revokeApplication(db, owner, id))) throw new UsageError(`no application ${id}`);
  return { revoked: true };
}

const MARKETPLACE = /^[a-z0-9][a-z0-9_-]{0,39}$/;

function marketplaceOf(values: Values): string {
  const marketplace = str(values, 'marketplace');
  if (!marketplace)
    throw new UsageError('--marketplace is required (amazon, mercadolivre, shopee, aliexpress, magalu, or another network name)');
  if (!MARKETPLACE.test(marketplace)) throw new UsageError('--marketplace must be 1 to 40 lower-case letters, digits, _ or -');
  return marketplace;
}

export async function postbackSecret(db: Db, { values, secretKey }: AdminInput) {
  const tenant = await tenantOf(db, values);
  const { integration_id, secret } = await createPostbackSecret(db, tenant, marketplaceOf(values), secretKey());
  return { integration_id, path: `/postbacks/${integration_id}`, secret };
}

export async function commissionsImport(db: Db, { values, args }: AdminInput) {
  const tenant = await tenantOf(db, values);
  const marketplace = marketplaceOf(values);
  const path = args[0]!;
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch {
    throw new UsageError(`cannot read ${path}`);
  }
  if (size > IMPORT_MAX_BYTES) throw new UsageError(`${path} has ${size} bytes; the limit is ${IMPORT_MAX_BYTES} (5 MiB): split it`);
  try {
    return await importReport(db, tenant, marketplace, await readFile(path));
  } catch (err) {
    if (err instanceof ImportRefused) throw new UsageError(`${path}: ${err.message}`);
    throw err;
  }
}

/** The base URL of the API to test: --base-url, else the running stack's. */
function baseUrlOf(values: Values, stack: StackInfo): string {
  const given = str(values, 'base-url');
  if (given !== undefined && !/^https?:\/\/[^\s]+$/.test(given))
    throw new UsageError('--base-url must be an http(s) URL, e.g. http://127.0.0.1:8080/api/v1');
  const url = given ?? stack.api_url ?? undefined;
  if (!url) throw new UsageError('--base-url is required (the stack does not say where its API is)');
  return /\/api\/v1\/?$/.test(url) ? url.replace(/\/$/, '') : `${url.replace(/\/$/, '')}/api/v1`;
}

export async function contractTest(db: Db, { values, stack }: AdminInput) {
  const account = await accountOf(db, values);
  if (values.list === true) return { runs: (await listRuns(db, account)).map(runSummary) };
  const baseUrl = baseUrlOf(values, stack);
  const [{ startReceiver }, { runContractTests }] = await Promise.all([
    import('../../domain/contract-tests/receiver.js'),
    import('../../domain/contract-tests/runner.js'),
  ]);
  // The dev receiver's certificate, when there is one: the stack trusts it if started as the README's walkthrough says.
  const dir = join(dataDir(), 'dev-receiver');
  const receiver = existsSync(join(dir, 'cert.pem')) ? await startReceiver(receiverCertificate(dir)) : undefined;
  try {
    return runSummary(await runContractTests(db, account, { baseUrl, trigger: 'cli', receiver }));
  } finally {
    await receiver?.close();
  }
}

/** The origin the panel is reached at: OFFEROPS_PUBLIC_URL, else the running stack's API. */
function panelOrigin(stack: StackInfo): string {
  const base = process.env.OFFEROPS_PUBLIC_URL || stack.api_url || 'http://127.0.0.1:8080';
  return new URL(base).origin;
}

export async function panelLink(db: Db, { values, stack }: AdminInput) {
  const account = await accountOf(db, values);
  const { token, expires_at } = await createPanelLink(db, account);
  return { url: `${panelOrigin(stack)}/panel/login?token=${token}`, expires_at: expires_at.toISOString() };
}
