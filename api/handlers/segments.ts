import { randomBytes } from 'node:crypto';
import { conflict, notFound } from '../../domain/errors';
import { commitEvents } from '../../domain/events/commit';
import { prepareEvent } from '../../domain/events/store';
import { countGroupsBySegment } from '../../domain/groups/store';
import {
  createSegment,
  deleteSegment,
  getSegment,
  listSegments,
  SegmentDoc,
  SegmentFields,
  segmentLinks,
  SlugTakenError,
  updateSegment,
} from '../../domain/segments/store';
import { Handler, listReply, pageOf } from './types';

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

export function toSegment(s: SegmentDoc, groupCount: number): Record<string, unknown> {
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

const slugTaken = (slug: string) => conflict('slug_taken', `Another segment of this account already uses the slug ${JSON.stringify(slug)}.`);

export const segmentsList: Handler = async (req, deps) => {
  const page = pageOf(req.query);
  const { items, total } = await listSegments(deps.db, req.tenant, page);
  const counts = await countGroupsBySegment(deps.db, req.tenant, items.map((s) => s._id));
  return listReply(items.map((s) => toSegment(s, counts.get(s._id) ?? 0)), total, page);
};

export const segmentCreate: Handler = async (req, deps) => {
  const body = req.body!;
  const given = body.slug as string | undefined;
  const base = given ?? (slugify(body.name as string) || 'segment');
  const fields: SegmentFields = {
    name: body.name as string,
    slug: base,
    description: (body.description as string | undefined) ?? null,
    store_name: (body.store_name as string | undefined) ?? null,
    store_tagline: (body.store_tagline as string | undefined) ?? null,
    store_color: (body.store_color as string | undefined) ?? null,
    auto_expand: (body.auto_expand as boolean | undefined) ?? false,
    distribution: (body.distribution as SegmentFields['distribution'] | undefined) ?? 'broadcast',
    waitlist: (body.waitlist as boolean | undefined) ?? false,
  };
  const describe = (s: SegmentDoc) => prepareEvent(req.tenant, 'segment.created', { segment: toSegment(s, 0) });
  let segment: SegmentDoc;
  try {
    segment = await createSegment(deps.db, req.tenant, fields, describe);
  } catch (err) {
    if (!(err instanceof SlugTakenError)) throw err;
    if (given) throw slugTaken(given);
    // A derived slug collided: keep the name's slug recognisable, make it unique.
    try {
      segment = await createSegment(deps.db, req.tenant, { ...fields, slug: `${base}-${randomBytes(3).toString('hex')}` }, describe);
    } catch (again) {
      if (again instanceof SlugTakenError) throw slugTaken(base);
      throw again;
    }
  }
  await commitEvents(deps, 'segments', segment._id);
  return { status: 201, body: { data: toSegment(segment, 0), created: true } };
};

async function groupCount(deps: Parameters<Handler>[1], req: Parameters<Handler>[0], s: SegmentDoc): Promise<number> {
  return (await countGroupsBySegment(deps.db, req.tenant, [s._id])).get(s._id) ?? 0;
}

export const segmentGet: Handler = async (req, deps) => {
  const segment = await getSegment(deps.db, req.tenant, req.params.id!);
  if (!segment) throw notFound('segment', req.params.id!);
  return { body: { data: toSegment(segment, await groupCount(deps, req, segment)) } };
};

export const segmentUpdate: Handler = async (req, deps) => {
  const segment = await getSegment(deps.db, req.tenant, req.params.id!);
  if (!segment) throw notFound('segment', req.params.id!);
  const body = req.body ?? {};
  const set = Object.fromEntries(FIELDS.filter((k) => k in body && body[k] !== segment[k]).map((k) => [k, body[k]])) as Partial<SegmentFields>;
  const changed = Object.keys(set);
  const count = await groupCount(deps, req, segment);
  if (!changed.length) return { body: { data: toSegment(segment, count) } };
  let updated: SegmentDoc | null;
  try {
    updated = await updateSegment(deps.db, req.tenant, segment, set, (after) =>
      prepareEvent(req.tenant, 'segment.updated', { segment: toSegment(after, count), changed }),
    );
  } catch (err) {
    if (err instanceof SlugTakenError) throw slugTaken(err.message);
    throw err;
  }
  if (!updated) throw conflict('conflict', 'The segment changed while this request ran; read it again and retry.');
  await commitEvents(deps, 'segments', segment._id);
  return { body: { data: toSegment(updated, count) } };
};

export const segmentDelete: Handler = async (req, deps) => {
  const segment = await getSegment(deps.db, req.tenant, req.params.id!);
  if (!segment) throw notFound('segment', req.params.id!);
  const links = await segmentLinks(deps.db, req.tenant, segment._id);
  if (links.groups || links.schedules) {
    throw conflict(
      'resource_in_use',
      `The segment is linked to ${links.groups} group(s) and ${links.schedules} schedule(s); unlink them first.`,
    );
  }
  if (await deleteSegment(deps.db, req.tenant, segment._id, prepareEvent(req.tenant, 'segment.deleted', { segment_id: segment._id }))) {
    await commitEvents(deps, 'segments', segment._id);
  }
  return { body: { deleted: true, id: segment._id } };
};
