/**
 * Segments: the API record, slugs (derived from the name when not given,
 * unique per account and environment), and deletion only while nothing links
 * to the segment. Every change records its event.
 */
import { randomBytes } from 'node:crypto';
import { Schema } from '../../schemas/types';
import { Tenant } from '../db';
import { conflict } from '../errors';
import { commitEvents } from '../events/commit';
import { prepareEvent } from '../events/store';
import { countGroupsBySegment } from '../holders';
import { changedFields, DomainDeps, found, HOLDERS_NAMED, referenced, refuseWhileHeld, schedulesThatMayRun, written } from '../resource';
import {
  deleteSegment,
  getSegment,
  insertSegment,
  listSegments,
  saveSegment,
  SegmentDoc,
  SegmentFields,
  segmentIdWithSlug,
  segmentLinks,
  SlugTakenError,
} from './store';

export { listSegments };

const FIELDS = [
  'name',
  'slug',
  'description',
  'store_name',
  'store_tagline',
  'store_color',
  'auto_expand',
  'distribution',
  'waitlist',
] as const satisfies readonly (keyof SegmentFields)[];

export function toSegment(s: SegmentDoc, groupCount: number): Schema<'Segment'> {
  return {
    id: s._id,
    name: s.name,
    slug: s.slug,
    description: s.description,
    store_name: s.store_name,
    store_tagline: s.store_tagline,
    store_color: s.store_color,
    auto_expand: s.auto_expand,
    distribution: s.distribution,
    waitlist: s.waitlist,
    group_count: groupCount,
    created_at: s.created_at.toISOString(),
    updated_at: s.updated_at.toISOString(),
  };
}

/** `Ofertas de Café!` → `ofertas-de-cafe`. */
export function slugify(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
}

/** The 409 naming the segment that holds `slug`. */
async function slugTaken(deps: DomainDeps, tenant: Tenant, slug: string) {
  const holder = await segmentIdWithSlug(deps.db, tenant, slug);
  const which = holder ? `Segment ${holder}` : 'Another segment of this account';
  return conflict('slug_taken', `${which} already uses the slug ${JSON.stringify(slug)}; choose another slug.`);
}

export const mustGetSegment = async (deps: DomainDeps, tenant: Tenant, id: string): Promise<SegmentDoc> =>
  found(await getSegment(deps.db, tenant, id), 'segment', id);

/** A segment named in a body (`segment_id`): it must be this tenant's. */
export const referencedSegment = (deps: DomainDeps, tenant: Tenant, id: string): Promise<SegmentDoc> =>
  referenced('segment_id', 'segment', id, (segmentId) => getSegment(deps.db, tenant, segmentId));

/** How many groups link to the segment. */
export async function groupCount(deps: DomainDeps, tenant: Tenant, s: SegmentDoc): Promise<number> {
  return (await countGroupsBySegment(deps.db, tenant, [s._id])).get(s._id) ?? 0;
}

export async function createSegment(deps: DomainDeps, tenant: Tenant, input: Schema<'SegmentCreate'>): Promise<SegmentDoc> {
  const given = input.slug;
  const base = given ?? (slugify(input.name) || 'segment');
  const fields: SegmentFields = {
    name: input.name,
    slug: base,
    description: input.description ?? null,
    store_name: input.store_name ?? null,
    store_tagline: input.store_tagline ?? null,
    store_color: input.store_color ?? null,
    auto_expand: input.auto_expand ?? false,
    distribution: input.distribution ?? 'broadcast',
    waitlist: input.waitlist ?? false,
  };
  const describe = (s: SegmentDoc) => prepareEvent(tenant, 'segment.created', { segment: toSegment(s, 0) });
  let segment: SegmentDoc;
  try {
    segment = await insertSegment(deps.db, tenant, fields, describe);
  } catch (err) {
    if (!(err instanceof SlugTakenError)) throw err;
    if (given) throw await slugTaken(deps, tenant, given);
    // A derived slug collided: keep the name's slug recognisable, make it unique.
    try {
      segment = await insertSegment(deps.db, tenant, { ...fields, slug: `${base}-${randomBytes(3).toString('hex')}` }, describe);
    } catch (again) {
      if (again instanceof SlugTakenError) throw await slugTaken(deps, tenant, base);
      throw again;
    }
  }
  await commitEvents(deps, 'segments', segment._id);
  return segment;
}

/** Changes the fields sent; the segment and its group count after. */
export async function updateSegment(
  deps: DomainDeps,
  tenant: Tenant,
  id: string,
  input: Schema<'SegmentUpdate'> | undefined,
): Promise<{ segment: SegmentDoc; groupCount: number }> {
  const segment = await mustGetSegment(deps, tenant, id);
  const set = changedFields<SegmentFields, (typeof FIELDS)[number]>(segment, input ?? {}, FIELDS);
  const changed = Object.keys(set);
  const count = await groupCount(deps, tenant, segment);
  if (!changed.length) return { segment, groupCount: count };
  let updated: SegmentDoc | null;
  try {
    updated = await saveSegment(deps.db, tenant, segment, set, (after) =>
      prepareEvent(tenant, 'segment.updated', { segment: toSegment(after, count), changed }),
    );
  } catch (err) {
    if (err instanceof SlugTakenError) throw await slugTaken(deps, tenant, err.message);
    throw err;
  }
  const saved = written(updated, 'segment');
  await commitEvents(deps, 'segments', segment._id);
  return { segment: saved, groupCount: count };
}

/** Deletes the segment unless a group or a schedule that may still run links to it. */
export async function removeSegment(deps: DomainDeps, tenant: Tenant, id: string): Promise<void> {
  const segment = await mustGetSegment(deps, tenant, id);
  const links = await segmentLinks(deps.db, tenant, segment._id, HOLDERS_NAMED);
  refuseWhileHeld(
    [{ found: links.groups, one: 'group' }, schedulesThatMayRun(links.schedules)],
    (held) => `The segment is linked to ${held}; unlink them first.`,
  );
  if (await deleteSegment(deps.db, tenant, segment._id, prepareEvent(tenant, 'segment.deleted', { segment_id: segment._id }))) {
    await commitEvents(deps, 'segments', segment._id);
  }
}
