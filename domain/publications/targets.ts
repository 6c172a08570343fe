/**
 * Where a publication goes, in one place: the groups a publish names (the
 * API, schedule runs, monitors and journeys all publish through
 * queuePublication) and the groups its workflow is given (name, paced or
 * not, by what the sends check: domain/channels/send-target.ts).
 */
import { Db } from 'mongodb';
import { PublicationGroup } from '../../temporal/workflows';
import { isPaced } from '../channels/pacing';
import { channelIdOf, channelsOf, pacingOf, slotRequestOf } from '../channels/send-target';
import { DEDUPLICATING_TYPES, getChannel } from '../channels/store';
import { Tenant } from '../db';
import { conflict, unknownReference } from '../errors';
import { activeGroupBatches, getGroup, getGroups, GroupDoc } from '../groups/store';
import { getSegment, SegmentDoc } from '../segments/store';
import { countDeliveriesByGroup } from './store';

// --- which groups -----------------------------------------------------------------

/** A group can receive publications when it is active and (for live data) connected to a channel. */
export const canReceive = (tenant: Tenant, group: GroupDoc): boolean => group.active && (tenant.env === 'test' || group.channel_id !== null);

/**
 * How far back `least_loaded` looks: a group's load is the number of
 * deliveries queued to it in the last 24 hours, whatever their outcome. A
 * day is one full posting cycle of a group's audience (and the span chat
 * platforms' volume limits care about), so a group is not favoured merely
 * because its last send was a few hours ago, and a busy week long past does
 * not count against it. Queued rather than sent: publications queued back to
 * back spread at once, and a group whose sends fail does not draw them all.
 */
export const LEAST_LOADED_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The groups a segment publication goes to, by the segment's distribution, `_id` ascending (every group, however many). */
async function segmentTargets(db: Db, tenant: Tenant, segment: SegmentDoc): Promise<GroupDoc[]> {
  const groups: GroupDoc[] = [];
  for await (const batch of activeGroupBatches(db, tenant, segment._id)) groups.push(...batch.filter((g) => canReceive(tenant, g)));
  if (!groups.length || segment.distribution === 'broadcast') return groups;
  const ids = groups.map((g) => g._id);
  const since = segment.distribution === 'round_robin' ? undefined : new Date(Date.now() - LEAST_LOADED_WINDOW_MS);
  return [pickGroup(segment.distribution, groups, await countDeliveriesByGroup(db, tenant, ids, since))];
}

/**
 * The one group of `groups` (`_id` ascending, at least one) a `round_robin`
 * or `least_loaded` segment publication goes to, from the deliveries made to
 * each: every delivery ever made (round_robin), or those queued within
 * LEAST_LOADED_WINDOW_MS (least_loaded).
 */
export function pickGroup<G extends { _id: string }>(
  distribution: 'round_robin' | 'least_loaded',
  groups: readonly G[],
  deliveries: ReadonlyMap<string, number>,
): G {
  if (distribution === 'round_robin') {
    // Turns: every delivery ever made to the segment's groups moves the turn on by one.
    let total = 0;
    for (const n of deliveries.values()) total += n;
    return groups[total % groups.length]!;
  }
  // least_loaded: the fewest deliveries; ties go to the lowest id.
  return groups.reduce((best, g) => ((deliveries.get(g._id) ?? 0) < (deliveries.get(best._id) ?? 0) ? g : best));
}

/** The groups a publication to `destination` (a group, or a segment) goes to, and the segment; 400 or 409 when there are none. */
export async function publicationTargets(
  db: Db,
  tenant: Tenant,
  destination: { group_id: string | null; segment_id: string | null },
): Promise<{ groups: GroupDoc[]; segment: SegmentDoc | null }> {
  // The request schemas require exactly one (publish, schedules, monitors, journeys): another input is a bug of the caller.
  if ((destination.group_id === null) === (destination.segment_id === null)) {
    throw new Error('a publication needs exactly one of group_id, segment_id');
  }
  if (destination.group_id) {
    const group = await getGroup(db, tenant, destination.group_id);
    if (!group) throw unknownReference('group_id', 'group', destination.group_id);
    if (!group.active) throw conflict('destination_unavailable', 'The group is inactive; activate it before publishing to it.');
    if (!canReceive(tenant, group)) throw conflict('destination_unavailable', 'The group is not connected to a channel.');
    return { groups: [group], segment: group.segment_id ? await getSegment(db, tenant, group.segment_id) : null };
  }
  const segment = await getSegment(db, tenant, destination.segment_id!);
  if (!segment) throw unknownReference('segment_id', 'segment', destination.segment_id!);
  const groups = await segmentTargets(db, tenant, segment);
  if (!groups.length) throw conflict('destination_unavailable', 'The segment has no active, connected group to publish to.');
  return { groups, segment };
}

// --- what the workflow is given -------------------------------------------------

/**
 * The groups `groupIds` as a publication's workflow needs them, in that
 * order: the name, and whether sends are paced (live data with a group or
 * channel interval). A group or channel that is gone counts as paced: the
 * reservation of its slot refuses it. `read`: the groups when already read.
 */
export async function publicationGroups(db: Db, tenant: Tenant, groupIds: string[], read?: Map<string, GroupDoc>): Promise<PublicationGroup[]> {
  const groups = read ?? (await getGroups(db, tenant, groupIds));
  // A handful of channels however many groups.
  const channels = await channelsOf(tenant, groups.values(), (id) => getChannel(db, tenant, id));
  const paced = (group: GroupDoc): boolean => {
    const channelId = channelIdOf(tenant, group);
    const channel = channelId ? channels.get(channelId) : undefined;
    if (channel === null) return true;
    return tenant.env === 'live' && isPaced(slotRequestOf(group, channel ? pacingOf(channel) : null));
  };
  // A group whose channel cannot deduplicate is sent on its own (PublicationGroup.alone).
  const alone = (group: GroupDoc): boolean => {
    const channelId = channelIdOf(tenant, group);
    const channel = channelId ? channels.get(channelId) : undefined;
    return !!channel && !DEDUPLICATING_TYPES.includes(channel.type);
  };
  return groupIds.map((group_id) => {
    const group = groups.get(group_id);
    return { group_id, name: group?.name ?? null, paced: !group || paced(group), ...(group && alone(group) ? { alone: true as const } : {}) };
  });
}
