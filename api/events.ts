/**
 * After a write: relay the document's outbox into the events collection and
 * hand each new event to delivery (a `dispatchEvent` workflow per event; its
 * id makes a second start a no-op). If this process dies first, the worker's
 * outbox sweep does both.
 */
import { Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { Db } from 'mongodb';
import { TASK_QUEUE } from '../workflows/constants';
import { offeropsSearchAttributes } from '../workflows/search-attributes';
import { TenantCollectionName } from './store/db';
import { DomainEvent, relayOutbox } from './store/events';

export const dispatchWorkflowId = (eventId: string): string => `event-dispatch-${eventId}`;

/** Starts the delivery of `event` (idempotent). */
export async function startDispatch(client: Client, event: DomainEvent, taskQueue = TASK_QUEUE): Promise<void> {
  try {
    await client.workflow.start('dispatchEvent', {
      workflowId: dispatchWorkflowId(event.id),
      taskQueue,
      args: [{ event_id: event.id }],
      typedSearchAttributes: offeropsSearchAttributes(event.account, event.environment, event.id, 'event_dispatch'),
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/** Relays the outbox of document `id` and starts the delivery of its events. */
export async function commitEvents(
  deps: { db: Db; temporal: { client: Client; taskQueue?: string } },
  collection: TenantCollectionName,
  id: string,
): Promise<DomainEvent[]> {
  const events = await relayOutbox(deps.db, collection, id);
  for (const event of events) await startDispatch(deps.temporal.client, event, deps.temporal.taskQueue);
  return events;
}
