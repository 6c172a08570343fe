import {
  FORM_KEYWORD,
  arr,
  dateTime,
  deletionEnvelope,
  filter,
  httpsUrl,
  idOf,
  int,
  JsonSchema,
  nullable,
  object,
  OperationDef,
  record,
  ref,
  str,
} from './common';
import { EVENT_KIND_NAMES } from '../events/kinds';
import { resource } from './crud';

export const WEBHOOK_STATES = ['enabled', 'disabled'] as const;
export const DELIVERY_STATES = ['pending', 'retrying', 'succeeded', 'failed'] as const;

const EVENT_KIND = str({
  minLength: 3,
  maxLength: 80,
  pattern: '^[a-z_]+\\.[a-z_]+$',
  [FORM_KEYWORD]: 'an event kind, e.g. offer.created',
  description: 'an event kind, e.g. `offer.created`',
});

const webhookFields = (create: boolean): Record<string, JsonSchema> => ({
  url: httpsUrl({
    maxLength: 2000,
    description:
      'HTTPS destination. Addresses that resolve to loopback, private, link-local or unique-local networks are refused ' +
      '(400 `validation_failed`); redirects are not followed.',
  }),
  events: arr(
    str({ enum: ['*', ...EVENT_KIND_NAMES], description: 'an event kind of the catalogue (e.g. `offer.created`), or `*` for every kind' }),
    { minItems: 1, maxItems: EVENT_KIND_NAMES.length + 1, uniqueItems: true, description: 'the event kinds to deliver, each once' },
  ),
  description: create ? str({ maxLength: 500 }) : nullable(str({ maxLength: 500 })),
  state: str({
    enum: [...WEBHOOK_STATES],
    description: '`disabled` destinations receive nothing',
    ...(create ? { default: 'enabled' } : {}),
  }),
});

const webhookRecord: Record<string, JsonSchema> = {
  id: idOf('whk'),
  url: str({ format: 'uri' }),
  events: arr(str(), { description: 'subscribed event kinds, or `*`' }),
  description: nullable(str()),
  state: ref('WebhookState'),
  disabled_reason: nullable(
    str({
      enum: ['manual', 'gone', 'failing', 'destination_refused'],
      description:
        'why it is disabled: by a PATCH, the destination answered 410, or deliveries kept failing; `destination_refused` only on webhooks an earlier version disabled when a worker refused the destination (a refusal is now a failed attempt); null when enabled',
    }),
  ),
  last_delivery_at: nullable(dateTime('the latest delivery attempt')),
  created_at: dateTime('creation time'),
  updated_at: dateTime('last change'),
};

export const schemas: Record<string, JsonSchema> = {
  WebhookState: str({ enum: [...WEBHOOK_STATES], description: 'Whether the destination receives events.' }),
  WebhookCreate: object(webhookFields(true), ['url', 'events'], { description: 'An HTTPS destination for signed events.' }),
  WebhookUpdate: object(webhookFields(false), [], {
    description: 'Only the fields sent change; `events` is replaced as a whole. The secret never changes.',
  }),
  Webhook: record(webhookRecord, { description: 'A webhook destination: safe configuration, never the secret.' }),
  WebhookWithSecret: record(
    {
      ...webhookRecord,
      secret: str({
        pattern: '^whsec_[A-Za-z0-9+/]{32,88}={0,2}$',
        description:
          'signing secret (Standard Webhooks: `whsec_` + base64). Returned only in this response — store it now; it is ' + 'never shown again.',
      }),
    },
    { description: 'A newly created webhook with its signing secret, revealed this once.' },
  ),
  WebhookDeliveryAttempt: record(
    {
      attempt: int({ minimum: 1, description: '1 for the first try' }),
      at: dateTime('when the request was sent'),
      http_status: nullable(int({ minimum: 100, maximum: 599, description: 'status answered; null when no response came' })),
      duration_ms: int({ minimum: 0, description: 'time until the response or the failure' }),
      error: nullable(str({ description: 'why the attempt failed (timeout, TLS, non-2xx…); null on success' })),
    },
    { description: 'One HTTP attempt of a delivery.' },
  ),
  WebhookDelivery: record(
    {
      id: str({ minLength: 1, maxLength: 200, description: 'id of the delivery (its durable workflow id)' }),
      webhook_id: idOf('whk'),
      event_id: ref('EventId'),
      event_kind: EVENT_KIND,
      state: str({
        enum: [...DELIVERY_STATES],
        description:
          '`pending` before the first attempt, `retrying` between attempts, `succeeded` on a 2xx answer, `failed` when attempts ran out',
      }),
      attempts: arr(ref('WebhookDeliveryAttempt'), {
        description:
          'every attempt so far, oldest first; after a redelivery (the panel), the attempts before it (the last 40) and then its own, numbered on',
      }),
      next_attempt_at: nullable(dateTime('when the next attempt is due; null unless `pending` or `retrying`')),
      created_at: dateTime('when the event was queued for this destination'),
      updated_at: dateTime('last change'),
    },
    { description: 'Delivery of one event to one webhook, with its attempts.' },
  ),
  WebhookDeletion: {
    ...deletionEnvelope('true: the webhook and its delivery history were removed'),
    description: 'Result of DELETE /webhooks/{id}.',
  },
};

const webhooks = resource({ tag: 'Webhooks', area: 'webhooks', path: '/webhooks', name: 'webhook', schema: 'Webhook' });

export const operations: OperationDef[] = [
  webhooks.list({
    summary: 'List destinations and events (never the secret)',
    filters: [filter('state', 'Only webhooks in this state.', ref('WebhookState'))],
  }),
  webhooks.create({
    summary: 'Create an HTTPS destination; the secret is revealed once',
    description:
      'Deliveries are signed with the Standard Webhooks scheme (`webhook-id`, `webhook-timestamp`, `webhook-signature` ' +
      'headers; HMAC-SHA256 with the secret). The secret is in this response only.',
    success: 'The new webhook with its secret.',
    result: 'WebhookWithSecret',
  }),
  webhooks.get({ summary: 'Safe configuration of a webhook' }),
  webhooks.update({ summary: 'Update URL, events, state (the secret is unchanged)' }),
  webhooks.delete({
    summary: 'Remove the destination and its delivery history',
    description:
      'Deliveries stop at once (no attempt is made for a deleted webhook); their executions, those still retrying ' +
      'included, are then terminated and deleted from Temporal in the background, within seconds.',
  }),
  webhooks.nested({ name: 'delivery', plural: 'deliveries', schema: 'WebhookDelivery' }).list({
    summary: 'Deliveries with attempts, HTTP status and errors',
    description:
      'Served from Temporal (one workflow per event and webhook), not from a copy: deliveries still under way come ' +
      'first, then finished ones, the most recently finished first. Visibility is eventually consistent: a delivery ' +
      'appears, and changes state, within a second or so.',
    filters: [
      filter('state', 'Only deliveries in this state.', str({ enum: [...DELIVERY_STATES] })),
      filter('event_kind', 'Only deliveries of this event kind.', EVENT_KIND),
    ],
  }),
];
