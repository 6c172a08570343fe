import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { getExternalWorkflowHandle, ParentClosePolicy, proxyActivities, startChild } from '@temporalio/workflow';
import type { Activities } from '../activities/index';
import { deliveryStartOptions, executionStartOptions, JOURNEY_REPLY_SIGNAL } from '../temporal/workflows';

const { journeyTargets, markEventDispatched, webhookTargets } = proxyActivities<Activities>({
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
  const summary = (what: string) => ({ summary: `${what} ${input.event_id}` });
  const { account, environment, kind, webhook_ids, hosts } = await webhookTargets.executeWithOptions(
    summary('find the webhooks subscribed to'),
    [input],
  );
  for (const [i, webhookId] of webhook_ids.entries()) {
    const delivery = { webhook_id: webhookId, event_id: input.event_id, event_kind: kind, account, environment, host: hosts[i]! };
    const options = deliveryStartOptions(delivery, new Date());
    try {
      await startChild('webhookDelivery', { ...options, parentClosePolicy: ParentClosePolicy.ABANDON });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  }
  await startJourneys(input.event_id);
  await markEventDispatched.executeWithOptions(summary('mark dispatched:'), [input.event_id]);
}

/**
 * The journeys' part of a dispatch: one `journeyExecution` child per active
 * journey the event triggers (id `journey-<jrn>-<evt>`, so a redelivered event
 * starts nothing new), and for an inbound message a signal to each running
 * execution of its conversation (one that has just ended ignores it).
 */
async function startJourneys(eventId: string): Promise<void> {
  const { starts, waiting, message_id } = await journeyTargets.executeWithOptions({ summary: `find the journeys of ${eventId}` }, [
    { event_id: eventId },
  ]);
  for (const { input, name } of starts) {
    try {
      await startChild('journeyExecution', { ...executionStartOptions(input, name), parentClosePolicy: ParentClosePolicy.ABANDON });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  }
  for (const workflowId of waiting) {
    try {
      await getExternalWorkflowHandle(workflowId).signal(JOURNEY_REPLY_SIGNAL, { message_id: message_id ?? eventId });
    } catch {
      // It ended between the listing and the signal: nothing waits any more.
    }
  }
}
