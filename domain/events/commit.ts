/**
 * After a write: relay the document's outbox into the events collection and
 * hand each new event to delivery (a `dispatchEvent` workflow per event; its
 * id makes a second start a no-op). If this process dies first, the worker's
 * outbox sweep does both.
 */
import { Db } from 'mongodb';
import { TenantCollectionName } from '../db';
import { startDispatch, TemporalDeps } from '../temporal/start';
import { DomainEvent, relayOutbox } from './store';

/** Relays the outbox of document `id` and starts the delivery of its events. */
export async function commitEvents(deps: { db: Db; temporal: TemporalDeps }, collection: TenantCollectionName, id: string): Promise<DomainEvent[]> {
  const events = await relayOutbox(deps.db, collection, id);
  for (const event of events) await startDispatch(deps.temporal, event);
  return events;
}
