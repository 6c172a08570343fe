import { Db } from 'mongodb';
import { DISTRIBUTIONS } from '../../schemas/openapi/segments';
import { newId } from '../ids';
import { isDuplicateKey, OutboxEvent, Page, PageResult, Tenant } from '../db';
import { ResourceDoc, resourceStore } from '../resource';
import { groupsHolding, schedulesHolding } from '../holders';

export type Distribution = (typeof DISTRIBUTIONS)[number];

export interface SegmentFields {
  name: string;
  slug: string;
  description: string | null;
  store_name: string | null;
  store_tagline: string | null;
  store_color: string | null;
  auto_expand: boolean;
  distribution: Distribution;
  waitlist: boolean;
}

export interface SegmentDoc extends ResourceDoc, SegmentFields {
  created_at: Date;
  updated_at: Date;
}

const store = resourceStore<SegmentDoc>('segments');
const segments = store.coll;

export class SlugTakenError extends Error {}

export const listSegments = (db: Db, tenant: Tenant, page: Page): Promise<PageResult<SegmentDoc>> => segments(db, tenant).page({}, page);

export const getSegment = store.get;

/** The id of the tenant's segment with `slug`, if any (a conflict names it). */
export const segmentIdWithSlug = async (db: Db, tenant: Tenant, slug: string): Promise<string | null> =>
  (await segments(db, tenant).findOne({ slug }))?._id ?? null;

export async function insertSegment(
  db: Db,
  tenant: Tenant,
  fields: SegmentFields,
  describe: (segment: SegmentDoc) => OutboxEvent,
): Promise<SegmentDoc> {
  const now = new Date();
  const doc = { _id: newId('seg', now.getTime()), ...fields, created_at: now, updated_at: now };
  try {
    return await segments(db, tenant).insert(doc, describe({ ...doc, account_id: tenant.accountId, env: tenant.env }));
  } catch (err) {
    if (isDuplicateKey(err)) throw new SlugTakenError(fields.slug);
    throw err;
  }
}

/** Applies `set` unless the segment changed since it was read (then null). */
export async function saveSegment(
  db: Db,
  tenant: Tenant,
  current: SegmentDoc,
  set: Partial<SegmentFields>,
  describe: (after: SegmentDoc) => OutboxEvent,
): Promise<SegmentDoc | null> {
  try {
    return await segments(db, tenant).updateFrom(current, set, describe);
  } catch (err) {
    if (isDuplicateKey(err)) throw new SlugTakenError(set.slug ?? '');
    throw err;
  }
}

/** What still links to a segment: groups, and schedules that may still run (the first `limit` ids of each, and how many). */
export async function segmentLinks(db: Db, tenant: Tenant, id: string, limit: number) {
  const [groups, schedules] = await Promise.all([groupsHolding(db, tenant, id, limit), schedulesHolding(db, tenant, { segment_id: id }, limit)]);
  return { groups, schedules };
}

export const deleteSegment = store.remove;
