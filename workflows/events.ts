import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, proxyActivities, startChild } from '@temporalio/workflow';
import type { Activities } from '../activities/index';
import { offeropsSearchAttributes } from './search-attributes';

const { markEventDispatched, relayPendingEvents, webhookTargets } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * Hands one domain event to its deliveries: one `webhookDelivery` child per
 * subscribed webhook, id `webhook-delivery-<whk>-<evt>`, so an event is never
 * delivered twice under the same webhook-id. Started by the API right after
 * the event is stored, or by the outbox sweep; its own id
 * (`event-dispatch-<evt>`) makes it run once per event.
 */
export async function dispatchEvent(input: { event_id: string }): Promise<void> {
  const { account, environment, webhook_ids } = await webhookTargets(input);
  for (const webhookId of webhook_ids) {
    try {
      await startChild('webhookDelivery', {
        workflowId: `webhook-delivery-${webhookId}-${input.event_id}`,
        args: [{ webhook_id: webhookId, event_id: input.event_id, account, environment }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        typedSearchAttributes: offeropsSearchAttributes(account, environment, webhookId, 'webhook_delivery'),
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  }
  await markEventDispatched(input.event_id);
}

/**
 * Finishes what a crashed API process left: relays outboxes still held in
 * documents and starts the dispatch of events never dispatched. A Temporal
 * Schedule runs it every minute.
 */
export async function outboxSweep(): Promise<{ relayed: number; dispatched: number }> {
  return relayPendingEvents();
}
