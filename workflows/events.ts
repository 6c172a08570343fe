import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index';

const { markEventDispatched, relayPendingEvents } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * Hands one domain event to its deliveries. Started by the API right after
 * the event is stored, or by the outbox sweep; its id
 * (`event-dispatch-<evt>`) makes it run once per event.
 */
export async function dispatchEvent(input: { event_id: string }): Promise<void> {
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
