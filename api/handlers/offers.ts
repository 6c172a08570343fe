import { affiliateUrlFor } from '../../domain/links/service';
import { archiveOffer, createOffer, listOffers, mustGetOffer, previewOffer, toOffer, updateOffer } from '../../domain/offers/service';
import { publicationRecord, queuedRecord, queuePublication } from '../../domain/publications/queue';
import { Handler, listReply, pageOf } from './types';

export const offersList: Handler<'offers_list'> = async (req, deps) => {
  const page = pageOf(req.query);
  const { status, marketplace, query } = req.query;
  const { items, total } = await listOffers(deps.db, req.tenant, { status, marketplace, query }, page);
  return listReply(items.map(toOffer), total, page);
};

export const offerCreate: Handler<'offer_create'> = async (req, deps) => {
  const { offer, created } = await createOffer(deps, req.tenant, req.body);
  return { status: created ? 201 : 200, body: { data: toOffer(offer), created } };
};

export const offerGet: Handler<'offer_get'> = async (req, deps) => ({
  body: { data: toOffer(await mustGetOffer(deps, req.tenant, req.params.id)) },
});

export const offerUpdate: Handler<'offer_update'> = async (req, deps) => ({
  body: { data: toOffer(await updateOffer(deps, req.tenant, req.params.id, req.body ?? {})) },
});

export const offerArchive: Handler<'offer_archive'> = async (req, deps) => {
  const offer = await archiveOffer(deps, req.tenant, req.params.id);
  return { body: { deleted: true, archived: true, id: offer._id } };
};

export const offerPreview: Handler<'offer_preview'> = async (req, deps) => {
  const affiliateUrl = (rawUrl: string) => affiliateUrlFor({ db: deps.db, secretKey: deps.secretKey }, req.tenant, rawUrl);
  const { preview, event } = await previewOffer({ ...deps, affiliateUrl }, req.tenant, req.params.id, req.body);
  return { body: { data: preview, event_id: event.id } };
};

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
