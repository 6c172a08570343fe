import {
  bool,
  dateTime,
  filter,
  idOf,
  int,
  JsonSchema,
  listEnvelope,
  nullable,
  OperationDef,
  PAGINATION_PARAMS,
  record,
  ref,
  singleEnvelope,
  str,
} from './common';

export const PUBLICATION_STATUSES = ['queued', 'sending', 'sent', 'partial', 'failed'] as const;

/**
 * A publication is one send of one piece of content (an offer, or the text of
 * a schedule) to one group. Publishing to a segment fans out into one
 * publication per active group of the segment. The channel session, the
 * group's address (JID, chat id) and any connector credential never appear.
 */
export const schemas: Record<string, JsonSchema> = {
  PublicationStatus: str({
    enum: [...PUBLICATION_STATUSES],
    description:
      '`queued`: waiting for the channel connector; `sending`: an attempt is under way; `sent`: every message reached the ' +
      'channel; `partial`: the text was delivered but an accompanying message (the image) failed; `failed`: nothing was ' +
      'delivered after the last attempt (see `error`). Moves: queued → sending → sent | partial | failed; sending → queued ' +
      '(retry after a transient failure).',
  }),
  Publication: record(
    {
      id: idOf('pub'),
      offer_id: nullable(idOf('off', 'the offer sent; null for a text-only scheduled publication')),
      group_id: idOf('grp', 'the destination group'),
      segment_id: nullable(idOf('seg', 'the segment the send was addressed to, when it was addressed to a segment')),
      schedule_id: nullable(idOf('sch', 'the schedule that produced it, when it came from one')),
      template_id: nullable(idOf('tpl', 'the template the message was rendered with; null for the default layout')),
      status: ref('PublicationStatus'),
      attempts: int({ minimum: 0, description: 'delivery attempts made so far' }),
      error: nullable(str({ description: 'why the last attempt failed, in words safe to show (no channel internals)' })),
      with_image: bool({ description: 'whether the offer image was (or will be) sent with the text' }),
      event_id: nullable(ref('EventId')),
      queued_at: dateTime('when the publication was queued'),
      sent_at: nullable(dateTime('when the channel accepted the last message; null until sent or partial')),
      created_at: dateTime('creation time'),
      updated_at: dateTime('last change'),
    },
    {
      description:
        'One send to one group. `event_id` is the event of the operation that queued it (offer publish, schedule run). ' +
        'Never carries the channel session, the group address or credentials.',
    },
  ),
};

export const operations: OperationDef[] = [
  {
    operationId: 'publications_list',
    method: 'get',
    path: '/publications',
    scope: 'publications:read',
    tag: 'Publications',
    summary: 'List sends, newest first',
    description: 'The history of publications of the account and environment, newest `queued_at` first.',
    query: [
      ...PAGINATION_PARAMS,
      filter('status', 'Only publications in this state.', ref('PublicationStatus')),
      filter('group_id', 'Only publications sent to this group.', idOf('grp')),
      filter('offer_id', 'Only publications of this offer.', idOf('off')),
      filter('segment_id', 'Only publications addressed to this segment.', idOf('seg')),
      filter('schedule_id', 'Only publications produced by this schedule.', idOf('sch')),
    ],
    success: { status: 200, description: 'A page of publications.', schema: listEnvelope(ref('Publication')) },
  },
  {
    operationId: 'publication_get',
    method: 'get',
    path: '/publications/{id}',
    scope: 'publications:read',
    tag: 'Publications',
    summary: 'Publication result (no channel session)',
    description: 'State, attempts and error of one send.',
    success: { status: 200, description: 'The publication.', schema: singleEnvelope(ref('Publication')) },
  },
];
