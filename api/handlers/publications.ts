import { publicationRecord, toPublication } from '../../domain/publications/queue';
import { deliveriesOf, getPublication, listPublications } from '../../domain/publications/store';
import { found } from '../../domain/resource';
import { Handler, listReply, pageOf } from './types';

export const publicationsList: Handler<'publications_list'> = async (req, deps) => {
  const page = pageOf(req.query);
  const { status, group_id, offer_id, segment_id, schedule_id } = req.query;
  const { items, total } = await listPublications(deps.db, req.tenant, { status, group_id, offer_id, segment_id, schedule_id }, page);
  const deliveries = await deliveriesOf(
    deps.db,
    req.tenant,
    items.map((p) => p._id),
  );
  return listReply(
    items.map((p) => toPublication(p, deliveries.get(p._id) ?? [])),
    total,
    page,
  );
};

export const publicationGet: Handler<'publication_get'> = async (req, deps) => {
  const publication = found(await getPublication(deps.db, req.tenant, req.params.id), 'publication', req.params.id);
  return { body: { data: await publicationRecord(deps.db, req.tenant, publication) } };
};
