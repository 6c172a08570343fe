/**
 * How a webhook delivery workflow is named, tagged and started, and what its
 * memo holds: shared by `dispatchEvent`, the API (which lists deliveries from
 * visibility) and tests. Workflow-safe: imports only search-attributes.
 */
import { OfferopsEventKind, OfferopsState, offeropsSearchAttributes } from './search-attributes';

/**
 * Deliveries started from here on carry their event kind and mirror their
 * state in search attributes (so visibility can filter and count them), and
 * count an attempt whose activity did not complete (worker crash, database
 * error) as a failed attempt instead of failing the whole delivery. Workflows
 * started earlier replay as they ran.
 */
export const DELIVERY_STATE_PATCH = 'webhook-delivery-state';

export type DeliveryState = 'pending' | 'retrying' | 'succeeded' | 'failed';

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  http_status: number | null;
  duration_ms: number;
  error: string | null;
}

/** The memo key `delivery`: what GET /webhooks/{id}/deliveries shows of one delivery. */
export interface DeliveryMemo {
  webhook_id: string;
  event_id: string;
  event_kind: string;
  state: DeliveryState;
  attempts: DeliveryAttempt[];
  next_attempt_at: string | null;
  updated_at: string;
}

export interface DeliveryInput {
  webhook_id: string;
  event_id: string;
  account: string;
  environment: 'live' | 'test';
  /** The event's kind (absent from deliveries started before it was passed). */
  event_kind?: string;
  /** The retry schedule (tests shorten it); RETRY_DELAYS_MS by default. */
  delays_ms?: number[];
}

/** One delivery per (event, webhook), so an event never goes out twice under the same `webhook-id`. */
export const deliveryWorkflowId = (webhookId: string, eventId: string): string => `webhook-delivery-${webhookId}-${eventId}`;

/** Start options of the delivery of `input`: its id, search attributes and first memo (pending, due now). */
export function deliveryStartOptions(input: DeliveryInput & { event_kind: string }, now: Date) {
  const memo: DeliveryMemo = {
    webhook_id: input.webhook_id,
    event_id: input.event_id,
    event_kind: input.event_kind,
    state: 'pending',
    attempts: [],
    next_attempt_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  return {
    workflowId: deliveryWorkflowId(input.webhook_id, input.event_id),
    args: [input] as [DeliveryInput],
    typedSearchAttributes: [
      ...offeropsSearchAttributes(input.account, input.environment, input.webhook_id, 'webhook_delivery'),
      { key: OfferopsState, value: memo.state },
      { key: OfferopsEventKind, value: input.event_kind },
    ],
    memo: { delivery: memo },
  };
}
