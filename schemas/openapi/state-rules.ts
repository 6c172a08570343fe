/**
 * What only the stored state can decide, per operation: the refusals a
 * request that the schemas accept can still get (an id this account does not
 * have, a move the current state forbids, a name already taken). Every
 * refusal of a request's shape is in its schemas; these are the rest, and
 * the document states them on each operation as its "State rules" line.
 * Operations with a path `{id}` also answer 404 `not_found` for an unknown
 * id (added by the document, not listed here).
 */
const UNKNOWN = (fields: string): string => `${fields} this account does not have → 400 \`unknown_reference\``;
const SOURCE_URL =
  'a source `url` whose host resolves to a loopback or private address the operator did not allow → 400 `validation_failed` (rule `destination`)';
const CHANGED = 'a concurrent change of the same record → 409 `conflict` (read it again and retry)';

export const STATE_RULES: Readonly<Record<string, readonly string[]>> = {
  offer_create: [UNKNOWN('a `coupon_id`')],
  offer_update: [
    'a `status` move the current status does not allow (see `OfferStatus`) → 400 `invalid_transition`',
    'any change to an archived offer other than restoring it to `pending` → 409 `offer_archived`',
    UNKNOWN('a `coupon_id`'),
  ],
  offer_preview: [UNKNOWN('a `segment_id` or `template_id`')],
  offer_publish: [
    'an offer not `pending` or `approved`, or whose registered coupon expired or is inactive → 409 `offer_not_publishable`',
    'an inactive or unconnected group, or a segment without an active connected group → 409 `destination_unavailable`',
    UNKNOWN('a `group_id` or `segment_id`'),
    'without an `Idempotency-Key`, the same offer to the same destination as a publication still `queued` or `sending` answers that publication (a double click); while the request that queues it has not recorded it for 5 s → 409 `idempotency_in_progress`, naming it',
  ],
  group_update: [UNKNOWN('a `segment_id`')],
  segment_create: ['a `slug` another segment uses → 409 `slug_taken`'],
  segment_update: ['a `slug` another segment uses → 409 `slug_taken`'],
  segment_delete: ['a segment that groups or schedules which may still run link → 409 `resource_in_use`'],
  coupon_create: ['a `code` already registered, still valid, for the same store → 409 `conflict`'],
  coupon_update: ['a `code` already registered, still valid, for the same store → 409 `conflict`'],
  template_create: [UNKNOWN('a `segment_id`'), 'another template made the default of the same scope meanwhile → 409 `conflict`'],
  template_update: [UNKNOWN('a `segment_id`'), 'another template made the default of the same scope meanwhile → 409 `conflict`'],
  template_delete: ['a template that schedules which may still run use → 409 `resource_in_use`'],
  schedule_create: [
    UNKNOWN('an `offer_id`, `group_id`, `segment_id` or `template_id`'),
    'an offer not `pending` or `approved` → 409 `offer_not_publishable`',
    'a `run_at` not in the future → 400 `validation_failed` (rule `future`)',
  ],
  schedule_update: [
    UNKNOWN('an `offer_id`, `group_id`, `segment_id` or `template_id`'),
    'an offer not `pending` or `approved` → 409 `offer_not_publishable`',
    'a `run_at` not in the future → 400 `validation_failed` (rule `future`)',
    'a `completed` schedule without a new future `run_at` (or a recurrence with runs ahead) → 409 `conflict`',
    CHANGED,
  ],
  schedule_delete: ['a `completed` schedule → 409 `conflict`'],
  schedule_run: [
    'a `completed` schedule → 409 `conflict`',
    'what publish refuses (`offer_not_publishable`, `destination_unavailable`) → 409, recorded as a failed run',
  ],
  monitor_create: [UNKNOWN('an `automation.segment_id` or `automation.group_id`'), SOURCE_URL],
  monitor_update: [UNKNOWN('an `automation.segment_id` or `automation.group_id`'), SOURCE_URL, CHANGED],
  monitor_delete: ['a monitor removed while the request ran → 409 `conflict`'],
  store_update: ['a `subdomain` another store uses → 409 `slug_taken`', CHANGED],
  store_page_create: ['a `slug` another page of the store uses → 409 `slug_taken`'],
  journey_create: ['a template, group or segment a block names that this account does not have → 400 `validation_failed` naming the block'],
  journey_update: ['a template, group or segment a block names that this account does not have → 400 `validation_failed` naming the block'],
  journey_delete: ['a journey that has executions → 409 `resource_in_use` (pause it instead)'],
  conversation_close: ['a conversation already closed → 409 `conflict`'],
  conversation_reply: [
    'a closed conversation → 409 `conversation_closed`',
    'a channel that cannot send now → 409 `channel_unavailable`',
    UNKNOWN('a `template_id` or `offer_id`'),
  ],
  link_convert: [
    UNKNOWN('an `offer_id`'),
    "a host of no supported marketplace nor of this account's `other` integration (its `hosts`), or of another marketplace " +
      'than the `marketplace` given, judged where a short link leads → 400 `unknown_marketplace`',
    'a marketplace this account has no integration for → 404 `integration_missing`',
    'a short link that cannot be followed to a public address → 400 `link_unresolvable`',
  ],
  webhook_create: [
    'a `url` whose host resolves to a loopback or private address the operator did not allow → 400 `validation_failed` (rule `destination`)',
  ],
  webhook_update: [
    'a `url` whose host resolves to a loopback or private address the operator did not allow → 400 `validation_failed` (rule `destination`)',
  ],
};
