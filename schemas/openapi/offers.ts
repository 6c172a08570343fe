import {
  bool,
  dateTime,
  eventEnvelope,
  exactlyOne,
  filter,
  httpsUrl,
  idOf,
  int,
  JsonSchema,
  nullable,
  num,
  object,
  OperationDef,
  record,
  ref,
  str,
} from './common';
import { resource } from './crud';

export const OFFER_STATUSES = ['pending', 'approved', 'rejected', 'archived'] as const;

/** Spec 2.2: the fields accepted on create and update, with their constraints. */
const offerFields = (withDefaults: boolean): Record<string, JsonSchema> => ({
  url: httpsUrl({ maxLength: 2000, description: 'HTTPS URL of the original product; unique per account and environment' }),
  title: str({ minLength: 3, maxLength: 240 }),
  marketplace: str({ maxLength: 40 }),
  price: num({ minimum: 0, description: 'current price' }),
  original_price: num({ minimum: 0, description: 'previous price' }),
  currency: str({
    minLength: 3,
    maxLength: 8,
    description: 'ISO 4217 code',
    ...(withDefaults ? { default: 'BRL' } : {}),
  }),
  image: httpsUrl({ maxLength: 2000, description: 'HTTPS image URL' }),
  store: str({ maxLength: 120, description: 'store name' }),
  category: str({ maxLength: 120 }),
  coupon: str({ maxLength: 80, description: 'coupon code, as free text (see `coupon_id` for a registered coupon)' }),
  coupon_id: withDefaults
    ? idOf('cpn', 'a registered coupon: `{coupon}` renders its code and discount, and publishing refuses it once expired or inactive')
    : nullable(idOf('cpn', 'a registered coupon; null detaches it')),
  copy: str({ maxLength: 6000, description: 'editorial text' }),
  status: withDefaults
    ? str({ enum: ['pending'], description: 'offers are created `pending` (curate them afterwards with PATCH); any other value is a 400' })
    : str({
        enum: ['pending', 'approved', 'rejected'],
        description:
          'a curation move: pending → approved | rejected; approved → pending | rejected; rejected → pending | approved; ' +
          'archived → pending (restore). `archived` is reached only through DELETE. A move the current state does not allow ' +
          'is a 400 `invalid_transition`.',
      }),
});

export const schemas: Record<string, JsonSchema> = {
  OfferStatus: str({
    enum: [...OFFER_STATUSES],
    description:
      'Curation state. Created as `pending`. Moves: pending → approved | rejected; approved → pending | rejected; ' +
      'rejected → pending | approved; archived → pending (restore). `archived` is reached only through DELETE. ' +
      'Any other move is a 400 `invalid_transition`; changing fields of an archived offer is a 409 `offer_archived`.',
  }),
  OfferCreate: object(offerFields(true), ['url', 'title'], {
    description: 'Fields of a new offer. `status`, when sent, can only be `pending`.',
  }),
  OfferUpdate: object(offerFields(false), [], { description: 'Only the fields sent change.' }),
  Offer: record({
    id: idOf('off'),
    url: str(),
    title: str(),
    marketplace: nullable(str()),
    price: nullable(num()),
    original_price: nullable(num()),
    discount_pct: nullable(int({ minimum: 0, maximum: 100, description: 'derived from price and original_price' })),
    currency: str(),
    image: nullable(str()),
    store: nullable(str()),
    category: nullable(str()),
    coupon: nullable(str()),
    coupon_id: nullable(idOf('cpn', 'the registered coupon the offer uses, when any')),
    copy: nullable(str()),
    status: ref('OfferStatus'),
    status_history: {
      type: 'array',
      description: 'every curation move, oldest first',
      items: record({ status: ref('OfferStatus'), at: dateTime('when the move happened') }),
    },
    created_at: dateTime('creation time'),
    updated_at: dateTime('last change'),
    archived_at: nullable(dateTime('when the offer was archived')),
    monitor_id: nullable(idOf('mon', 'the monitor whose run found the offer; null for an offer created otherwise')),
  }),
  OfferArchive: object(
    {
      deleted: bool({ description: 'true: the offer left the active flow' }),
      archived: bool({ description: 'true: the offer is kept, with its history, as `archived`' }),
      id: idOf('off'),
      request_id: ref('RequestId'),
    },
    ['deleted', 'archived', 'id', 'request_id'],
  ),
  OfferPreviewRequest: object({
    segment_id: idOf('seg', 'render for this segment: its default template, or the built-in layout with its store name and tagline'),
    template_id: idOf('tpl', 'render with this template instead of the default one'),
  }),
  OfferPublishRequest: object(
    {
      segment_id: idOf('seg', 'publish to every active group of this segment'),
      group_id: idOf('grp', 'publish to this one group'),
      with_image: bool({ description: 'send the offer image when the channel supports it' }),
    },
    [],
    { description: 'The destination: exactly one of `group_id`, `segment_id`.', ...exactlyOne('group_id', 'segment_id') },
  ),
  OfferPreview: record({
    offer_id: idOf('off'),
    segment_id: nullable(idOf('seg')),
    template_id: nullable(
      idOf(
        'tpl',
        "the template the text was rendered with: the one named, else the segment's default, else the account's; null for the built-in layout",
      ),
    ),
    text: str({ description: 'the final message, exactly as it would be sent' }),
    image: nullable(str({ description: 'the image that would accompany it' })),
    length: int({ minimum: 0, description: 'characters in text' }),
  }),
  OfferPublishResult: record({
    offer_id: idOf('off'),
    publications: { type: 'array', items: ref('Publication') },
  }),
};

const offers = resource({ tag: 'Offers', area: 'offers', path: '/offers', name: 'offer', schema: 'Offer' });

export const operations: OperationDef[] = [
  offers.list({
    summary: 'List offers, newest first; archived offers only with status=archived',
    filters: [
      filter('status', 'Only offers in this curation state.', ref('OfferStatus')),
      filter('marketplace', 'Only offers of this marketplace (exact match).', str({ maxLength: 40 })),
      filter('query', 'Case-insensitive search in title or store.', str({ minLength: 1, maxLength: 200 })),
    ],
  }),
  offers.create({
    summary: 'Create a pending offer (idempotent by URL)',
    description:
      'When an offer with the same url exists in this account and environment it is returned unchanged with `created: false` ' +
      '(status 200); nothing is overwritten and nothing is published. `status`, when sent, must be `pending`.',
    success: 'A new pending offer (`created: true`).',
    alsoSucceeds: { status: 200, description: 'An offer with this url already existed: returned unchanged with `created: false`.' },
  }),
  offers.get({ summary: 'Offer detail' }),
  offers.update({ summary: 'Update only the fields sent' }),
  offers.delete({
    operationId: 'offer_archive',
    summary: 'Archive the offer (history kept)',
    success: 'The archive envelope.',
    result: 'OfferArchive',
  }),
  {
    operationId: 'offer_preview',
    method: 'post',
    path: '/offers/{id}/preview',
    scope: 'offers:read',
    tag: 'Offers',
    summary: 'Assemble the final message without sending it',
    body: { schema: ref('OfferPreviewRequest'), required: false },
    success: { status: 200, description: 'The assembled message.', schema: eventEnvelope(ref('OfferPreview')) },
  },
  {
    operationId: 'offer_publish',
    method: 'post',
    path: '/offers/{id}/publish',
    scope: 'publications:write',
    tag: 'Offers',
    summary: 'Queue a publication to an authorized group or segment',
    body: { schema: ref('OfferPublishRequest'), required: true },
    success: { status: 200, description: 'The queued publications.', schema: eventEnvelope(ref('OfferPublishResult')) },
  },
];
