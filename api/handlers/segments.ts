import { countGroupsBySegment } from '../../domain/holders';
import { createSegment, groupCount, listSegments, mustGetSegment, removeSegment, toSegment, updateSegment } from '../../domain/segments/service';
import { Handler, listReply, pageOf } from './types';

export const segmentsList: Handler<'segments_list'> = async (req, deps) => {
  const page = pageOf(req.query);
  const { items, total } = await listSegments(deps.db, req.tenant, page);
  const counts = await countGroupsBySegment(
    deps.db,
    req.tenant,
    items.map((s) => s._id),
  );
  return listReply(
    items.map((s) => toSegment(s, counts.get(s._id) ?? 0)),
    total,
    page,
  );
};

export const segmentCreate: Handler<'segment_create'> = async (req, deps) => {
  const segment = await createSegment(deps, req.tenant, req.body);
  return { status: 201, body: { data: toSegment(segment, 0), created: true } };
};

export const segmentGet: Handler<'segment_get'> = async (req, deps) => {
  const segment = await mustGetSegment(deps, req.tenant, req.params.id);
  return { body: { data: toSegment(segment, await groupCount(deps, req.tenant, segment)) } };
};

export const segmentUpdate: Handler<'segment_update'> = async (req, deps) => {
  const { segment, groupCount: count } = await updateSegment(deps, req.tenant, req.params.id, req.body);
  return { body: { data: toSegment(segment, count) } };
};

export const segmentDelete: Handler<'segment_delete'> = async (req, deps) => {
  await removeSegment(deps, req.tenant, req.params.id);
  return { body: { deleted: true, id: req.params.id } };
};
