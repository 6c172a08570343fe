/**
 * Group discovery on a WhatsApp gateway channel (`offerops admin channel
 * groups`): the groups its session's account is in, each with a hint of its
 * JID (never the whole of it) and the offerops group already sending to it;
 * and importing chosen ones as offerops groups attached to the channel, once
 * each (a group already at that address is left as it is, and the unique
 * index on a group's address keeps two imports at once from making it twice),
 * and the session state checked on demand.
 */
import { Db } from 'mongodb';
import { Tenant } from '../db';
import { conflict, notFound } from '../errors';
import { addressHint, createOperatorGroup } from './groups';
import { groupAt } from '../groups/store';
import { gatewayFor } from '../channels/connectors/index';
import { GatewayGroup } from '../channels/connectors/whatsapp';
import { recordChannelState } from '../channels/service';
import { ChannelConfig, channelForSend, ChannelState, WHATSAPP_GATEWAYS } from '../channels/store';

/** A gateway group as an operator sees it: name, size, address hint, and the offerops group at that address (null if none). */
export interface DiscoveredGroup {
  name: string;
  size: number | null;
  address_hint: string | null;
  group_id: string | null;
}

/** The channel `id` with its credentials in clear, which must be a WhatsApp gateway's for `what` ("group discovery"). */
async function gatewayChannel(db: Db, tenant: Tenant, id: string, secretKey: Buffer, what: string): Promise<ChannelConfig> {
  const channel = await channelForSend(db, tenant, id, secretKey);
  if (!channel) throw notFound('channel', id);
  if (!WHATSAPP_GATEWAYS.includes(channel.type)) {
    throw conflict('conflict', `Channel ${id} is a ${channel.type} channel; ${what} needs an evolution or waha channel.`);
  }
  return channel;
}

async function withGroups(db: Db, tenant: Tenant, channelId: string, found: GatewayGroup[]) {
  return Promise.all(found.map(async (g) => ({ gateway: g, existing: await groupAt(db, tenant, channelId, g.address) })));
}

const shown = (g: GatewayGroup, groupId: string | null): DiscoveredGroup => ({
  name: g.name,
  size: g.size,
  address_hint: addressHint(g.address),
  group_id: groupId,
});

/** The gateway's groups, by name. */
export async function discoverGroups(db: Db, tenant: Tenant, channelId: string, secretKey: Buffer): Promise<DiscoveredGroup[]> {
  const channel = await gatewayChannel(db, tenant, channelId, secretKey, 'group discovery');
  const found = await withGroups(db, tenant, channel.id, await gatewayFor(channel).groups());
  return found.map(({ gateway, existing }) => shown(gateway, existing?._id ?? null)).sort((a, b) => a.name.localeCompare(b.name));
}

/** Whether `pick` (a group's exact name, or its address hint) names gateway group `g`. */
const names = (pick: string, g: GatewayGroup): boolean => pick === g.name || pick === addressHint(g.address);

/**
 * Imports the gateway groups `picks` names (each an exact name or an address
 * hint, or `all`): an offerops group for each, attached to the channel at its
 * JID, in `segmentId` when given. A pick that names no group, or several,
 * refuses the whole import before anything is made.
 */
export async function importGroups(
  db: Db,
  tenant: Tenant,
  channelId: string,
  picks: string[] | 'all',
  opts: { segmentId?: string | null; minIntervalMs?: number },
  secretKey: Buffer,
): Promise<{ imported: DiscoveredGroup[]; existing: DiscoveredGroup[] }> {
  const channel = await gatewayChannel(db, tenant, channelId, secretKey, 'group discovery');
  const found = await gatewayFor(channel).groups();
  let chosen = found;
  if (picks !== 'all') {
    chosen = [];
    for (const pick of picks) {
      const matches = found.filter((g) => names(pick, g));
      if (matches.length !== 1) {
        const why = matches.length ? `names ${matches.length} groups; give the address hint instead` : 'names no group of the gateway';
        throw conflict('conflict', `${JSON.stringify(pick)} ${why} (admin channel groups ${channelId} lists them).`);
      }
      if (!chosen.includes(matches[0]!)) chosen.push(matches[0]!);
    }
  }
  const imported: DiscoveredGroup[] = [];
  const existing: DiscoveredGroup[] = [];
  for (const { gateway, existing: group } of await withGroups(db, tenant, channel.id, chosen)) {
    if (group) {
      existing.push(shown(gateway, group._id));
      continue;
    }
    const made = await createOperatorGroup(db, tenant, {
      name: gateway.name || addressHint(gateway.address)!,
      segment_id: opts.segmentId ?? null,
      channel: { id: channel.id, address: gateway.address },
      minIntervalMs: opts.minIntervalMs,
    }).catch(async (err: unknown) => {
      // Another import made it meanwhile (the unique index on the group's address refused this one): it exists.
      const other = await groupAt(db, tenant, channel.id, gateway.address);
      if (!other) throw err;
      existing.push(shown(gateway, other._id));
      return null;
    });
    if (made) imported.push(shown(gateway, made._id));
  }
  return { imported, existing };
}

/** Asks the gateway for its session's state now and records it (channel.state_changed when it changed). */
export async function checkChannelState(db: Db, tenant: Tenant, channelId: string, secretKey: Buffer): Promise<ChannelState> {
  const channel = await gatewayChannel(db, tenant, channelId, secretKey, 'a session check');
  const state = await gatewayFor(channel).sessionState();
  await recordChannelState(db, tenant, channel.id, state);
  return state;
}
