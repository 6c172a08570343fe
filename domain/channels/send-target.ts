/**
 * What a send to a group goes through and checks, for the sends
 * (./send.ts) and for publications' pacing flags: its channel (none, the
 * sandbox, in the test environment), how it is paced, and the refusals made
 * before the channel is asked.
 */
import { Tenant } from '../db';
import { GroupDoc } from '../groups/store';
import { ConnectorError } from './connectors/types';
import { SlotRequest } from './pacing';
import { ChannelDoc } from './store';

// --- which channel, paced or not --------------------------------------------------

/** The channel a send to `group` goes through: its own for live data; none (the sandbox) in the test environment. */
export const channelIdOf = (tenant: Tenant, group: GroupDoc): string | null => (tenant.env === 'live' ? group.channel_id : null);

/** Each channel the sends to `groups` go through (channelIdOf), read once with `read`: null for one that is gone. */
export async function channelsOf<C>(
  tenant: Tenant,
  groups: Iterable<GroupDoc>,
  read: (channelId: string) => Promise<C | null>,
): Promise<Map<string, C | null>> {
  const ids = new Set([...groups].flatMap((g) => channelIdOf(tenant, g) ?? []));
  return new Map(await Promise.all([...ids].map(async (id) => [id, await read(id)] as const)));
}

/** A channel's pacing: its id and interval. */
export const pacingOf = (channel: ChannelDoc): { id: string; minIntervalMs: number } => ({
  id: channel._id,
  minIntervalMs: channel.min_interval_ms ?? 0,
});

/** What paces sends to `group` (its interval) on `channel` (its id and interval; null when the send goes through none). */
export const slotRequestOf = (group: GroupDoc, channel: { id: string; minIntervalMs: number } | null): SlotRequest => ({
  groupId: group._id,
  groupIntervalMs: group.min_interval_ms ?? 0,
  channelId: channel?.id ?? null,
  channelIntervalMs: channel?.minIntervalMs ?? 0,
});

// --- what a send checks -----------------------------------------------------------

/** A send refused for good, before the channel is asked. */
const refused = (message: string) => new ConnectorError(message, true);

/**
 * A group to send to and its channel as read (undefined: not read, as for a
 * group that goes through none, channelIdOf): a missing group, or one whose
 * channel is gone, is refused.
 */
export function sendTarget<C>(
  tenant: Tenant,
  group: GroupDoc | null | undefined,
  channel: C | null | undefined,
): { group: GroupDoc; channel: C | null } {
  if (!group) throw refused('the group no longer exists');
  if (!channelIdOf(tenant, group)) return { group, channel: null };
  if (!channel) throw refused("the group's channel no longer exists");
  return { group, channel };
}

/** What a send checks last: the group is active, and for live data connected to a channel. */
export function checkSendable(tenant: Tenant, group: GroupDoc, channel: unknown): void {
  if (!group.active) throw refused('the group is inactive');
  if (tenant.env === 'live' && !channel) throw refused('the group is not connected to a channel');
}
