import { arr, bool, dateTime, filter, idOf, int, JsonSchema, nullable, OperationDef, record, ref, str } from './common';
import { resource } from './crud';

export const PUBLICATION_STATUSES = ['queued', 'sending', 'sent', 'partial', 'failed'] as const;
export const DELIVERY_STATUSES = ['queued', 'waiting', 'sending', 'sent', 'failed'] as const;

/**
 * A publication is one publish request (an offer, or the text of a schedule
 * run) to one destination: a group, or every active group of a segment. One
 * durable workflow (`publication-<id>`) sends it, one activity per group;
 * each group's result is kept. The channel session, the group's address
 * (JID, chat id) and any connector credential never appear.
 */
export const schemas: Record<string, JsonSchema> = {
  PublicationStatus: str({
    enum: [...PUBLICATION_STATUSES],
    description:
      '`queued`: recorded, its workflow started; `sending`: groups are being sent to; `sent`: every group received it; ' +
      '`partial`: some groups received it and the others failed for good; `failed`: no group received it. ' +
      'Moves: queued → sending → sent | partial | failed (sent, partial and failed are final).',
  }),
  GroupDeliveryStatus: str({
    enum: [...DELIVERY_STATUSES],
    description:
      '`queued`: not attempted yet; `waiting`: held by the pacing of the group or channel; `sending`: an attempt is under way ' +
      '(transient channel errors are retried with backoff); `sent`: the channel accepted it; `failed`: a permanent error, ' +
      'or retries exhausted.',
  }),
  GroupDelivery: record({
    group_id: idOf('grp'),
    status: ref('GroupDeliveryStatus'),
    attempts: int({ minimum: 0, description: 'send attempts made to this group' }),
    error: nullable(str({ description: 'why the last attempt failed, in words safe to show (no channel internals)' })),
    with_image: bool({ description: 'whether the image went with the text to this group' }),
    sent_at: nullable(dateTime('when the channel accepted the message')),
  }),
  Publication: record(
    {
      id: idOf('pub'),
      offer_id: nullable(idOf('off', 'the offer sent; null for a text-only scheduled publication')),
      group_id: nullable(idOf('grp', 'the group it was addressed to, when addressed to one group')),
      segment_id: nullable(idOf('seg', 'the segment it was addressed to, when addressed to a segment')),
      schedule_id: nullable(idOf('sch', 'the schedule that produced it, when it came from one')),
      template_id: nullable(idOf('tpl', 'the template the message was rendered with; null for the default layout')),
      text: str({ description: 'the message as sent' }),
      with_image: bool({ description: 'whether the offer image is sent with the text where the channel supports it' }),
      status: ref('PublicationStatus'),
      deliveries: arr(ref('GroupDelivery'), { description: 'one entry per destination group' }),
      event_id: nullable(ref('EventId')),
      queued_at: dateTime('when the publication was queued'),
      completed_at: nullable(dateTime('when it reached sent, partial or failed')),
      created_at: dateTime('creation time'),
      updated_at: dateTime('last change'),
    },
    {
      description:
        'One publish request to one destination, with the result of each group. `event_id` is the event of the operation ' +
        'that queued it. Never carries the channel session, the group address or credentials.',
    },
  ),
};

const publications = resource({ tag: 'Publications', area: 'publications', path: '/publications', name: 'publication', schema: 'Publication' });

export const operations: OperationDef[] = [
  publications.list({
    summary: 'List sends, newest first',
    description: 'The history of publications of the account and environment, newest `queued_at` first.',
    filters: [
      filter('status', 'Only publications in this state.', ref('PublicationStatus')),
      filter('group_id', 'Only publications with a delivery to this group.', idOf('grp')),
      filter('offer_id', 'Only publications of this offer.', idOf('off')),
      filter('segment_id', 'Only publications addressed to this segment.', idOf('seg')),
      filter('schedule_id', 'Only publications produced by this schedule.', idOf('sch')),
    ],
  }),
  publications.get({
    summary: 'Publication result (no channel session)',
    description: 'State of the publication and of each group delivery: attempts, error, sent time.',
  }),
];
