import { invalid, conflict, notFound } from '../../domain/errors';
import { discountPct, renderOfferForSend } from '../../domain/templates/render';
import { commitEvents } from '../../domain/events/commit';
import { startDispatch } from '../../domain/temporal/start';
import { prepareEvent, recordEvent } from '../../domain/events/store';
import { isDuplicateKey } from '../../domain/db';
import { createOffer, getOffer, listOffers, OfferDoc, OfferFields, OfferStatus, updateOffer } from '../../domain/offers/store';
import { getSegment, SegmentDoc } from '../../domain/segments/store';
import { AppDeps, Handler, iso, listReply, pageOf, Request } from './types';

/** Curation moves a PATCH may make (archiving is DELETE's job). */
const MOVES: Record<OfferStatus, readonly OfferStatus[]> = {
  pending: ['approved', 'rejected'],
  approved: ['pending', 'rejected'],
  rejected: ['pending', 'approved'],
  archived: ['pending'],
};

const FIELDS = [
  'url',
  'title',
  'marketplace',
  'price',
  'original_price',
  'currency',
  'image',
  'store',
  'category',
  'coupon',
  'copy',
] as const satisfies readonly (keyof OfferFields)[];

export function toOffer(o: OfferDoc): Record<string, unknown> {
  return {
    id: o._id,
    url: o.url,
    title: o.title,
    marketplace: o.marketplace ?? null,
    price: o.price ?? null,
    original_price: o.original_price ?? null,
    discount_pct: discountPct(o.price, o.original_price),
    currency: o.currency,
    image: o.image ?? null,
    store: o.store ?? null,
    category: o.category ?? null,
    coupon: o.coupon ?? null,
    copy: o.copy ?? null,
    status: o.status,
    status_history: o.status_history.map((h) => ({ status: h.status, at: h.at.toISOString() })),
    created_at: o.created_at.toISOString(),
    updated_at: o.updated_at.toISOString(),
    archived_at: iso(o.archived_at),
  };
}

async function mustGetOffer({ tenant, params }: Request, deps: AppDeps): Promise<OfferDoc> {
  const offer = await getOffer(deps.db, tenant, params.id!);
  if (!offer) throw notFound('offer', params.id!);
  return offer;
}

/** A segment named in a body: it must be this tenant's. */
export async function referencedSegment(deps: AppDeps, req: Request, id: string): Promise<SegmentDoc> {
  const segment = await getSegment(deps.db, req.tenant, id);
  if (!segment) {
    throw invalid('unknown_reference', `No segment ${JSON.stringify(id)} in this account and environment.`, [
      { location: 'body', field: 'segment_id', rule: 'exists', message: 'does not name a segment of this account' },
    ]);
  }
  return segment;
}

const changedMeanwhile = () => conflict('conflict', 'The offer changed while this request ran; read it again and retry.');

const pickFields = (body: Record<string, unknown>): Partial<OfferFields> =>
  Object.fromEntries(FIELDS.filter((f) => f in body).map((f) => [f, body[f]]));

export const offersList: Handler = async (req, deps) => {
  const page = pageOf(req.query);
  const { status, marketplace, query } = req.query as { status?: OfferStatus; marketplace?: string; query?: string };
  const { items, total } = await listOffers(deps.db, req.tenant, { status, marketplace, query }, page);
  return listReply(items.map(toOffer), total, page);
};

export const offerCreate: Handler = async (req, deps) => {
  const body = req.body!;
  if (body.status !== undefined && body.status !== 'pending') {
    throw invalid('invalid_transition', 'Offers are created as pending; curate them afterwards with PATCH.', [
      { location: 'body', field: 'status', rule: 'transition', message: 'must be pending on creation' },
    ]);
  }
  const fields = pickFields(body) as OfferFields;
  const { offer, created } = await createOffer(deps.db, req.tenant, fields, (o) =>
    prepareEvent(req.tenant, 'offer.created', { offer: toOffer(o) }),
  );
  if (created) await commitEvents(deps, 'offers', offer._id);
  return { status: created ? 201 : 200, body: { data: toOffer(offer), created } };
};

export const offerGet: Handler = async (req, deps) => ({ body: { data: toOffer(await mustGetOffer(req, deps)) } });

export const offerUpdate: Handler = async (req, deps) => {
  const offer = await mustGetOffer(req, deps);
  const body = req.body ?? {};
  const set = Object.fromEntries(
    Object.entries(pickFields(body)).filter(([k, v]) => offer[k as keyof OfferFields] !== v),
  ) as Partial<OfferFields>;
  const target = body.status as OfferStatus | undefined;
  const move = target !== undefined && target !== offer.status ? target : null;
  if (move && !MOVES[offer.status].includes(move)) {
    const hint = move === 'archived' ? ' Archive with DELETE /offers/{id}.' : '';
    throw invalid('invalid_transition', `An offer cannot move from ${offer.status} to ${move}.${hint}`, [
      { location: 'body', field: 'status', rule: 'transition', message: `allowed from ${offer.status}: ${MOVES[offer.status].join(', ')}` },
    ]);
  }
  const changed = [...Object.keys(set), ...(move ? ['status'] : [])];
  if (offer.status === 'archived' && move !== 'pending' && changed.length) {
    throw conflict('offer_archived', 'The offer is archived; restore it with status pending before changing it.');
  }
  if (!changed.length) return { body: { data: toOffer(offer) } };
  let updated: OfferDoc | null;
  try {
    updated = await updateOffer(deps.db, req.tenant, offer, set, move, (after) =>
      prepareEvent(req.tenant, 'offer.updated', { offer: toOffer(after), changed }),
    );
  } catch (err) {
    if (isDuplicateKey(err)) throw conflict('conflict', 'Another offer of this account already has this url.');
    throw err;
  }
  if (!updated) throw changedMeanwhile();
  await commitEvents(deps, 'offers', offer._id);
  return { body: { data: toOffer(updated) } };
};

export const offerArchive: Handler = async (req, deps) => {
  const offer = await mustGetOffer(req, deps);
  if (offer.status !== 'archived') {
    const archived = await updateOffer(deps.db, req.tenant, offer, {}, 'archived', (after) =>
      prepareEvent(req.tenant, 'offer.archived', { offer: toOffer(after) }),
    );
    if (!archived) throw changedMeanwhile();
    await commitEvents(deps, 'offers', offer._id);
  }
  return { body: { deleted: true, archived: true, id: offer._id } };
};

export const offerPreview: Handler = async (req, deps) => {
  const offer = await mustGetOffer(req, deps);
  const segmentId = req.body?.segment_id as string | undefined;
  const segment = segmentId ? await referencedSegment(deps, req, segmentId) : null;
  const { text, templateId } = await renderOfferForSend(deps.db, req.tenant, {
    offer,
    segment,
    templateId: req.body?.template_id as string | undefined,
  });
  const preview = {
    offer_id: offer._id,
    segment_id: segment?._id ?? null,
    template_id: templateId,
    text,
    image: offer.image ?? null,
    length: [...text].length,
  };
  const event = await recordEvent(deps.db, req.tenant, 'offer.previewed', { preview });
  await startDispatch(deps.temporal, event);
  return { body: { data: preview, event_id: event.id } };
};
