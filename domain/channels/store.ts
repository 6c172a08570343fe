/**
 * Channel connections: how an account reaches a chat network. Credentials
 * are stored sealed (domain/sealing.ts) and only the worker's send activity
 * unseals them; nothing here is ever returned by the API. Channels are made,
 * listed, changed and removed by operator commands (./service.ts).
 */
import { Db } from 'mongodb';
import { Sealed, seal, unseal } from '../sealing';
import { newId } from '../ids';
import { Tenant, tenantCollection, TenantDoc } from '../db';

/** The Bot API base a telegram channel uses unless given another. */
export const TELEGRAM_API = 'https://api.telegram.org';

export const CHANNEL_TYPES = ['http', 'telegram', 'sandbox'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export interface ChannelDoc extends TenantDoc {
  type: ChannelType;
  name: string;
  /** Gateway base URL (http), Bot API base (telegram), unused (sandbox). */
  url: string | null;
  /** The bearer or bot token, sealed (domain/sealing.ts). */
  credentials: Sealed | null;
  /** Minimum time between two sends on this channel. */
  min_interval_ms: number;
  created_at: Date;
  updated_at: Date;
}

/** What a connector needs: the channel with its credentials in clear (worker only). */
export interface ChannelConfig {
  id: string;
  type: ChannelType;
  url: string | null;
  token: string | null;
  minIntervalMs: number;
}

const channels = (db: Db, tenant: Tenant) => tenantCollection<ChannelDoc>(db, 'channels', tenant);

export async function createChannel(
  db: Db,
  tenant: Tenant,
  input: { type: ChannelType; name?: string; url?: string | null; token?: string | null; minIntervalMs?: number },
  /** Seals the token; needed only when there is one. */
  secretKey: Buffer | null,
): Promise<ChannelDoc> {
  if (input.token && !secretKey) throw new Error('a token needs the sealing key');
  const now = new Date();
  return channels(db, tenant).insert({
    _id: newId('chn', now.getTime()),
    type: input.type,
    name: input.name ?? `${input.type} channel`,
    url: input.url ?? (input.type === 'telegram' ? TELEGRAM_API : null),
    credentials: input.token && secretKey ? seal(input.token, secretKey) : null,
    min_interval_ms: input.minIntervalMs ?? 1000,
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

export type ChannelChange = Partial<Pick<ChannelDoc, 'name' | 'url' | 'credentials' | 'min_interval_ms'>>;

/** Applies `set` unless the channel changed since it was read (then null). */
export const saveChannel = (db: Db, tenant: Tenant, current: ChannelDoc, set: ChannelChange): Promise<ChannelDoc | null> =>
  channels(db, tenant).updateFrom(current, set);

/** Removes the channel; false when it was gone already. */
export const deleteChannel = (db: Db, tenant: Tenant, id: string): Promise<boolean> => channels(db, tenant).deleteById(id);

/**
 * The channel `channelId` of `tenant` with its credentials in clear, for the
 * worker's send activity only; null when there is no such channel.
 */
export async function channelForSend(db: Db, tenant: Tenant, channelId: string, secretKey: Buffer): Promise<ChannelConfig | null> {
  const channel = await getChannel(db, tenant, channelId);
  if (!channel) return null;
  return {
    id: channel._id,
    type: channel.type,
    url: channel.url,
    token: channel.credentials ? unseal(channel.credentials, secretKey) : null,
    minIntervalMs: channel.min_interval_ms,
  };
}
