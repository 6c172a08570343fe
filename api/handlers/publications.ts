import { publicationRecord, queuedRecord, queuePublication, toPublication } from '../../domain/publications/queue';
import { deliveriesOf, getPublication, listPublications } from '../../domain/publications/store';
import { found } from '../../domain/resource';
import { Handler, listReply, pageOf } from './types';

/** POST /offers/{id}/publish: answers once the publication is recorded and its workflow start is durable. */
export const offerPublish: Handler<'offer_publish'> = async (req, deps) => {
  const body = req.body ?? {};
  const { publication, created } = await queuePublication(deps, req.tenant, {
    offer_id: req.params.id,
    text: null,
    template_id: null,
    group_id: body.group_id ?? null,
    segment_id: body.segment_id ?? null,
    with_image: body.with_image ?? false,
    schedule_id: null,
    idempotency_key: req.idempotencyKey,
  });
  return {
    body: {
      // A publication this request queued is answered as recorded; one a repeated request found, as it is now.
      data: {
        offer_id: req.params.id,
        publications: [created ? queuedRecord(publication) : await publicationRecord(deps.db, req.tenant, publication)],
      },
      event_id: publication.event_id!, // queuePublication names the event of every publication it records
    },
  };
};

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
