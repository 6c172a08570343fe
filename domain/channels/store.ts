/**
 * Channel connections: how an account reaches a chat network. Credentials
 * are stored sealed (domain/sealing.ts) and only the worker's send activity
 * unseals them; nothing here is ever returned by the API. Channels are made,
 * listed, changed and removed by operator commands (./service.ts).
 */
import { Db } from 'mongodb';
import { Sealed, seal, unseal } from '../sealing';
import { createHash } from 'node:crypto';
import { newId, randomToken } from '../ids';
import { crossTenantCollection, OutboxEvent, Tenant, tenantCollection, TenantDoc } from '../db';

/** The Bot API base a telegram channel uses unless given another. */
export const TELEGRAM_API = 'https://api.telegram.org';

export const CHANNEL_TYPES = ['http', 'telegram', 'evolution', 'waha', 'sandbox'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** A channel's session as its gateway last reported it: connected, not connected, or not known. */
export const CHANNEL_STATES = ['connected', 'disconnected', 'unknown'] as const;
export type ChannelState = (typeof CHANNEL_STATES)[number];

/**
 * The types whose far end deduplicates a repeated send on its idempotency
 * key: our protocol requires it of gateways; the sandbox records once per key.
 */
export const DEDUPLICATING_TYPES: readonly ChannelType[] = ['http', 'sandbox'];

/** The WhatsApp gateways with a connector of their own: Evolution API (v2) and WAHA. */
export const WHATSAPP_GATEWAYS: readonly ChannelType[] = ['evolution', 'waha'];

export interface ChannelDoc extends TenantDoc {
  type: ChannelType;
  name: string;
  /** Gateway base URL (http, evolution, waha), Bot API base (telegram), unused (sandbox). */
  url: string | null;
  /** The bearer token, bot token or gateway API key, sealed (domain/sealing.ts). */
  credentials: Sealed | null;
  /** The Evolution API instance or the WAHA session the channel sends through; absent for other types. */
  instance?: string | null;
  /** Minimum time between two sends on this channel. */
  min_interval_ms: number;
  /**
   * SHA-256 (hex) of the secret a gateway presents on `POST /inbound/{channel}`;
   * absent or null: the channel takes no inbound messages.
   */
  inbound_secret_hash?: string | null;
  /**
   * The inbound secret itself, sealed, for a gateway that signs its webhooks
   * with it (WAHA's HMAC) rather than presenting it; absent for the others.
   */
  inbound_key?: Sealed | null;
  /** The gateway session's state (evolution, waha), from its webhook or a check; absent until one is known. */
  state?: ChannelState;
  /** When `state` last changed. */
  state_changed_at?: Date;
  /** While `state` is `disconnected`: when the gateway is asked again (./session.ts); null or absent otherwise. */
  session?: SessionDown | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * A session found down: how many checks found it so since, when the next one
 * is due, and when the last one was claimed (null before the first).
 */
export interface SessionDown {
  checks: number;
  check_at: Date;
  checked_at: Date | null;
}

/** What a connector needs: the channel with its credentials in clear (worker only). */
export interface ChannelConfig {
  id: string;
  type: ChannelType;
  url: string | null;
  token: string | null;
  /** The Evolution instance or WAHA session (gateways that serve several). */
  instance?: string | null;
  minIntervalMs: number;
  /** Present while the gateway's session is known to be down (sends then wait: ./session.ts). */
  session?: SessionDown;
}

/**
 * The minimum interval between two sends on a new channel of each type,
 * unless one is given (docs/guides/whatsapp.md, "Pacing", has the sources):
 * 1 s for our gateways and Telegram bots (Telegram allows about 30 messages a
 * second overall, 20 a minute in one group, which the groups' own 3 s
 * default keeps); 3 s for a WhatsApp account behind Evolution API or WAHA,
 * which WhatsApp bans for sending like a machine.
 */
export const DEFAULT_INTERVAL_MS: Readonly<Record<ChannelType, number>> = {
  http: 1000,
  telegram: 1000,
  evolution: 3000,
  waha: 3000,
  sandbox: 1000,
};

const channels = (db: Db, tenant: Tenant) => tenantCollection<ChannelDoc>(db, 'channels', tenant);

export async function createChannel(
  db: Db,
  tenant: Tenant,
  input: {
    type: ChannelType;
    name?: string;
    url?: string | null;
    token?: string | null;
    instance?: string | null;
    minIntervalMs?: number;
    inboundSecretHash?: string;
    /** The inbound secret in clear, sealed into `inbound_key` (a gateway that signs with it). */
    inboundKey?: string;
  },
  /** Seals the token and the inbound key; needed only when there is one. */
  secretKey: Buffer | null,
): Promise<ChannelDoc> {
  if ((input.token || input.inboundKey) && !secretKey) throw new Error('a token needs the sealing key');
  const now = new Date();
  return channels(db, tenant).insert({
    _id: newId('chn', now.getTime()),
    type: input.type,
    name: input.name ?? `${input.type} channel`,
    url: input.url ?? (input.type === 'telegram' ? TELEGRAM_API : null),
    credentials: input.token && secretKey ? seal(input.token, secretKey) : null,
    ...(input.instance ? { instance: input.instance } : {}),
    min_interval_ms: input.minIntervalMs ?? DEFAULT_INTERVAL_MS[input.type],
    inbound_secret_hash: input.inboundSecretHash ?? null,
    ...(input.inboundKey && secretKey ? { inbound_key: seal(input.inboundKey, secretKey) } : {}),
    created_at: now,
    updated_at: now,
  });
}

export const getChannel = (db: Db, tenant: Tenant, id: string): Promise<ChannelDoc | null> => channels(db, tenant).findById(id);

/** The tenant's channel named `name`, if any. */
export const channelNamed = (db: Db, tenant: Tenant, name: string): Promise<ChannelDoc | null> => channels(db, tenant).findOne({ name });

/** Every channel of the tenant, oldest first (an account has a handful). */
export const listChannels = (db: Db, tenant: Tenant): Promise<ChannelDoc[]> =>
  channels(db, tenant)
    .all({})
    .then((all) => all.sort((a, b) => a._id.localeCompare(b._id)));

export type ChannelChange = Partial<
  Pick<
    ChannelDoc,
    | 'name'
    | 'url'
    | 'credentials'
    | 'instance'
    | 'min_interval_ms'
    | 'inbound_secret_hash'
    | 'inbound_key'
    | 'state'
    | 'state_changed_at'
    | 'session'
  >
>;

/**
 * The channels that take inbound messages: http gateways and Evolution API
 * (a bearer secret), Telegram bots (the Bot API webhook's secret token) and
 * WAHA (its webhook's HMAC, keyed with the secret).
 */
export const INBOUND_TYPES: readonly ChannelType[] = ['http', 'telegram', 'evolution', 'waha'];

/** The types whose gateway signs its webhooks with the inbound secret: it is kept sealed, not only hashed. */
export const SIGNING_TYPES: readonly ChannelType[] = ['waha'];

/** A new inbound secret for a channel, and the hash stored of it (the secret itself is shown once, never stored). */
export function newInboundSecret(): { secret: string; hash: string } {
  const secret = `oo_in_${randomToken(40)}`;
  return { secret, hash: inboundSecretHash(secret) };
}

export const inboundSecretHash = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/**
 * The channel `id` whatever its tenant, for the public inbound endpoint,
 * which starts from a channel id and its secret, not from a tenant.
 */
export const channelById = (db: Db, id: string): Promise<ChannelDoc | null> =>
  crossTenantCollection<ChannelDoc>(db, 'channels').findOne({ _id: id, _deleted: { $ne: true } });

/** Applies `set` (with the event `describe` makes, in the same write) unless the channel changed since it was read (then null). */
export const saveChannel = (
  db: Db,
  tenant: Tenant,
  current: ChannelDoc,
  set: ChannelChange,
  describe?: (after: ChannelDoc) => OutboxEvent,
): Promise<ChannelDoc | null> => channels(db, tenant).updateFrom(current, set, describe);

/** Removes the channel; false when it was gone already. */
export const deleteChannel = (db: Db, tenant: Tenant, id: string): Promise<boolean> => channels(db, tenant).deleteById(id);

/**
 * The channel `channelId` of `tenant` with its credentials in clear, for the
 * worker's send activity only; null when there is no such channel.
 */
export async function channelForSend(db: Db, tenant: Tenant, channelId: string, secretKey: Buffer): Promise<ChannelConfig | null> {
  const channel = await getChannel(db, tenant, channelId);
  if (!channel) return null;
  const session = sessionDownOf(channel);
  return {
    id: channel._id,
    type: channel.type,
    url: channel.url,
    token: channel.credentials ? unseal(channel.credentials, secretKey) : null,
    instance: channel.instance ?? null,
    minIntervalMs: channel.min_interval_ms,
    ...(session ? { session } : {}),
  };
}

/** The channel's session while it is known to be down (./session.ts); undefined when it is not. */
export const sessionDownOf = (channel: ChannelDoc): SessionDown | undefined =>
  channel.state === 'disconnected' && channel.session ? channel.session : undefined;

/**
 * Claims the session check `down` said was due, by one send of all: the next
 * one `pauseMs` from `now`; the channel after, or null when another send took
 * it first or the session's state changed meanwhile.
 */
export const claimSessionCheck = (
  db: Db,
  tenant: Tenant,
  channelId: string,
  down: SessionDown,
  pauseMs: number,
  now: Date,
): Promise<ChannelDoc | null> =>
  channels(db, tenant).updateById(
    channelId,
    { $set: { session: { checks: down.checks + 1, check_at: new Date(now.getTime() + pauseMs), checked_at: now } } },
    { state: 'disconnected', 'session.checks': down.checks, 'session.check_at': { $lte: now } },
  );
