/**
 * Channel connections: how an account reaches a chat network. Credentials
 * are stored sealed (domain/sealing.ts) and only the worker's send activity
 * unseals them; nothing here is ever returned by the API.
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
  secretKey: Buffer,
): Promise<ChannelDoc> {
  const now = new Date();
  return channels(db, tenant).insert({
    _id: newId('chn', now.getTime()),
    type: input.type,
    name: input.name ?? `${input.type} channel`,
    url: input.url ?? (input.type === 'telegram' ? TELEGRAM_API : null),
    credentials: input.token ? seal(input.token, secretKey) : null,
    min_interval_ms: input.minIntervalMs ?? 1000,
    created_at: now,
    updated_at: now,
  });
}

export const getChannel = (db: Db, tenant: Tenant, id: string): Promise<ChannelDoc | null> => channels(db, tenant).findById(id);

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
