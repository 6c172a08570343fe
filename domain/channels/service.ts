/**
 * What operator commands (`offerops admin channel …`) do to channels: connect,
 * list, change, delete. A listing never shows the token (only whether there
 * is one) nor a password written into the URL.
 */
import { Db } from 'mongodb';
import { Tenant } from '../db';
import { changedMeanwhile, conflict, notFound } from '../errors';
import { prepareEvent } from '../events/store';
import { countGroupsByChannel, groupsOnChannel } from '../groups/store';
import { HOLDERS_NAMED, refuseWhileHeld } from '../resource';
import { seal } from '../sealing';
import { firstDown } from './session-timing';
import {
  ChannelChange,
  ChannelDoc,
  channelNamed,
  ChannelState,
  ChannelType,
  createChannel,
  deleteChannel,
  getChannel,
  INBOUND_TYPES,
  listChannels,
  newInboundSecret,
  saveChannel,
  SIGNING_TYPES,
} from './store';

/** The URL with any password it carries replaced by `***`. */
export function shownUrl(url: string | null): string | null {
  if (url === null) return null;
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** A channel as an operator sees it: never its token. */
export function channelSummary(c: ChannelDoc, groups: number): Record<string, unknown> {
  return {
    id: c._id,
    type: c.type,
    name: c.name,
    url: shownUrl(c.url),
    ...(c.instance ? { instance: c.instance } : {}),
    has_token: c.credentials !== null,
    min_interval_ms: c.min_interval_ms,
    has_inbound_secret: !!c.inbound_secret_hash,
    ...(c.state ? { state: c.state, state_changed_at: c.state_changed_at?.toISOString() ?? null } : {}),
    groups,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}

async function nameFree(db: Db, tenant: Tenant, name: string, self?: string): Promise<void> {
  const other = await channelNamed(db, tenant, name);
  if (other && other._id !== self) {
    throw conflict('conflict', `Channel ${other._id} is already named ${JSON.stringify(name)}; change or delete it, or choose another name.`);
  }
}

/**
 * Connects a channel; a name given must not be another channel's of the
 * tenant (so a repeated command does not make a twin). A channel that takes
 * inbound messages gets its inbound secret, returned here only (a gateway
 * that signs with it gets it sealed too).
 */
export async function connectChannel(
  db: Db,
  tenant: Tenant,
  input: { type: ChannelType; name?: string; url?: string | null; token?: string | null; instance?: string | null; minIntervalMs?: number },
  secretKey: () => Buffer,
): Promise<{ channel: ChannelDoc; inboundSecret: string | null }> {
  if (input.name !== undefined) await nameFree(db, tenant, input.name);
  const inbound = INBOUND_TYPES.includes(input.type) ? newInboundSecret() : null;
  const signing = inbound !== null && SIGNING_TYPES.includes(input.type);
  const channel = await createChannel(
    db,
    tenant,
    { ...input, ...(inbound ? { inboundSecretHash: inbound.hash } : {}), ...(signing ? { inboundKey: inbound.secret } : {}) },
    input.token || signing ? secretKey() : null,
  );
  return { channel, inboundSecret: inbound?.secret ?? null };
}

/**
 * Replaces the channel's inbound secret (the old one stops working at once);
 * the new secret, shown only here. `secretKey` seals it for a gateway that signs with it.
 */
export async function rotateInboundSecret(db: Db, tenant: Tenant, id: string, secretKey?: () => Buffer): Promise<string> {
  const channel = await getChannel(db, tenant, id);
  if (!channel) throw notFound('channel', id);
  if (!INBOUND_TYPES.includes(channel.type)) throw conflict('conflict', `A ${channel.type} channel takes no inbound messages through offerops.`);
  const inbound = newInboundSecret();
  const signing = SIGNING_TYPES.includes(channel.type);
  if (signing && !secretKey) throw new Error(`a ${channel.type} channel's inbound secret is sealed: the sealing key is needed`);
  const sealed = signing ? { inbound_key: seal(inbound.secret, secretKey!()) } : {};
  if (!(await saveChannel(db, tenant, channel, { inbound_secret_hash: inbound.hash, ...sealed }))) {
    throw conflict('conflict', 'The channel changed while this command ran; run it again.');
  }
  return inbound.secret;
}

export async function listChannelSummaries(db: Db, tenant: Tenant): Promise<Record<string, unknown>[]> {
  const channels = await listChannels(db, tenant);
  const counts = await countGroupsByChannel(
    db,
    tenant,
    channels.map((c) => c._id),
  );
  return channels.map((c) => channelSummary(c, counts.get(c._id) ?? 0));
}

/** Changes what is given (`secretKey` is asked for only when a token is); the names of the fields that changed. */
export async function changeChannel(
  db: Db,
  tenant: Tenant,
  id: string,
  input: { name?: string; url?: string; token?: string; instance?: string; minIntervalMs?: number },
  secretKey: () => Buffer,
): Promise<string[]> {
  const channel = await getChannel(db, tenant, id);
  if (!channel) throw notFound('channel', id);
  if (input.name !== undefined) await nameFree(db, tenant, input.name, channel._id);
  const set: ChannelChange = {};
  if (input.name !== undefined && input.name !== channel.name) set.name = input.name;
  if (input.url !== undefined && input.url !== channel.url) set.url = input.url;
  if (input.instance !== undefined && input.instance !== channel.instance) set.instance = input.instance;
  if (input.minIntervalMs !== undefined && input.minIntervalMs !== channel.min_interval_ms) set.min_interval_ms = input.minIntervalMs;
  // A sealed token cannot be compared without unsealing it: a token given is always sealed anew.
  if (input.token !== undefined) set.credentials = seal(input.token, secretKey());
  const changed = Object.keys(set).map((k) => (k === 'credentials' ? 'token' : k));
  if (!changed.length) return changed;
  if (!(await saveChannel(db, tenant, channel, set))) throw conflict('conflict', 'The channel changed while this command ran; run it again.');
  return changed;
}

/** Up to this many re-reads when the channel changed between read and write. */
const ATTEMPTS = 5;

/**
 * Records the state the channel's gateway reported (webhook, check, or a send
 * refused as not connected: sends then wait, ./session.ts) with a
 * `channel.state_changed` event in its outbox when it changed; the channel
 * after. The caller relays the outbox (commitEvents), else the worker's sweep does.
 */
export async function recordChannelState(db: Db, tenant: Tenant, id: string, state: ChannelState): Promise<ChannelDoc> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const channel = await getChannel(db, tenant, id);
    if (!channel) throw notFound('channel', id);
    const previous = channel.state ?? 'unknown';
    if (previous === state) return channel;
    const now = new Date();
    const session = state === 'disconnected' ? firstDown(now) : null;
    const saved = await saveChannel(db, tenant, channel, { state, state_changed_at: now, session }, () =>
      prepareEvent(tenant, 'channel.state_changed', { channel_id: channel._id, channel_type: channel.type, state, previous_state: previous }),
    );
    if (saved) return saved;
  }
  throw changedMeanwhile('channel');
}

/** Deletes the channel unless a group is connected through it. */
export async function removeChannel(db: Db, tenant: Tenant, id: string): Promise<void> {
  const channel = await getChannel(db, tenant, id);
  if (!channel) throw notFound('channel', id);
  const groups = await groupsOnChannel(db, tenant, channel._id, HOLDERS_NAMED);
  refuseWhileHeld(
    [{ found: groups, one: 'group' }],
    (held) =>
      `The channel connects ${held}; attach them to another channel (admin group update ID --channel … --address …), disconnect them (--disconnect) or delete them first.`,
  );
  await deleteChannel(db, tenant, channel._id);
}
