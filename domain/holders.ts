/**
 * What still uses a record: the schedules and groups that name a segment,
 * template or group. Lower areas (segments, templates) ask before they let
 * a record go, so these queries live below every area, in one place.
 */
import { Db, Filter } from 'mongodb';
import { Tenant, tenantCollection, TenantDoc } from './db';

/** The fields of a schedule the holder queries read (the record itself is domain/schedules/store.ts's). */
interface ScheduleRefs extends TenantDoc {
  status: string;
  segment_id: string | null;
  template_id: string | null;
  group_id: string | null;
}

/** The fields of a group the holder queries read (the record itself is domain/groups/store.ts's). */
interface GroupRefs extends TenantDoc {
  segment_id: string | null;
}

const schedules = (db: Db, tenant: Tenant) => tenantCollection<ScheduleRefs>(db, 'schedules', tenant);
const groups = (db: Db, tenant: Tenant) => tenantCollection<GroupRefs>(db, 'groups', tenant);

/**
 * The schedules that still hold on to what they name: all but `completed`
 * ones, which have no run ahead and are kept as history only (reviving one
 * with a new run_at checks its references again).
 */
const LINKING: Filter<ScheduleRefs> = { status: { $ne: 'completed' } };

/** The schedules that may still run and name segment, template or group `id`: the first `limit` ids, and how many in all. */
export const schedulesHolding = (
  db: Db,
  tenant: Tenant,
  ref: { segment_id: string } | { template_id: string } | { group_id: string },
  limit: number,
): Promise<{ ids: string[]; total: number }> => schedules(db, tenant).holders({ ...LINKING, ...ref }, limit);

/** How many schedules that may still run name each of the templates `ids`. */
export const countSchedulesByTemplate = (db: Db, tenant: Tenant, ids: string[]): Promise<Map<string, number>> =>
  schedules(db, tenant).countBy('template_id', ids, LINKING);

/** How many groups link to each of the segments `segmentIds`. */
export const countGroupsBySegment = (db: Db, tenant: Tenant, segmentIds: string[]): Promise<Map<string, number>> =>
  groups(db, tenant).countBy('segment_id', segmentIds);

/** The groups linked to segment `id`: the first `limit` ids, and how many in all. */
export const groupsHolding = (db: Db, tenant: Tenant, segmentId: string, limit: number): Promise<{ ids: string[]; total: number }> =>
  groups(db, tenant).holders({ segment_id: segmentId }, limit);
