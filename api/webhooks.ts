/** The API record of a webhook: never its secret. */
import { WebhookDoc } from './store/webhooks';

export function toWebhook(w: WebhookDoc): Record<string, unknown> {
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

export const deliveryWorkflowId = (webhookId: string, eventId: string): string => `webhook-delivery-${webhookId}-${eventId}`;
