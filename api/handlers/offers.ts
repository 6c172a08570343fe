import { archiveOffer, createOffer, listOffers, mustGetOffer, previewOffer, toOffer, updateOffer } from '../../domain/offers/service';
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
  const { preview, event } = await previewOffer(deps, req.tenant, req.params.id, req.body);
  return { body: { data: preview, event_id: event.id } };
};
