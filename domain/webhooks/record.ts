/** The API record of a webhook (never its secret) and the Temporal names of its deliveries. */
import { Schema } from '../../schemas/types';
import { WebhookDoc } from './store';
import { Tenant } from '../db';

export function toWebhook(w: WebhookDoc): Schema<'Webhook'> {
  return {
    id: w._id,
    url: w.url,
    events: w.events,
    description: w.description,
    state: w.state,
    disabled_reason: w.disabled_reason,
    last_delivery_at: w.last_delivery_at ? w.last_delivery_at.toISOString() : null,
    created_at: w.created_at.toISOString(),
    updated_at: w.updated_at.toISOString(),
  };
}

/**
 * The visibility query of a webhook's delivery workflows (search attributes
 * set at start; `state` and `event_kind` narrow it). Every value is an id or
 * a value the contract validated, so none can carry a quote.
 */
export function deliveriesQuery(tenant: Tenant, webhookId: string, filter: { state?: string; event_kind?: string } = {}): string {
  const terms = [
    `OfferopsKind = 'webhook_delivery'`,
    `OfferopsAccountId = '${tenant.accountId}'`,
    `OfferopsEnvironment = '${tenant.env}'`,
    `OfferopsResourceId = '${webhookId}'`,
    ...(filter.state ? [`OfferopsState = '${filter.state}'`] : []),
    ...(filter.event_kind ? [`OfferopsEventKind = '${filter.event_kind}'`] : []),
  ];
  for (const term of terms) if (!/^\w+ = '[\w.-]+'$/.test(term)) throw new Error(`unsafe visibility term ${term}`);
  return terms.join(' AND ');
}
