/**
 * After a write: relay the document's outbox into the events collection and
 * hand each new event to delivery — a `dispatchEvent` workflow per event (its
 * id makes a second start a no-op) when anything awaits it: a webhook of its
 * account and environment subscribed to its kind, a follow-up of its kind
 * (activities/follow-ups.ts), an active journey it triggers, or (an inbound
 * message) a journey execution that may wait for the contact's reply. An event nobody awaits is marked dispatched
 * without a workflow, so Temporal UI lists the workflows that do something.
 * If this process dies first, the worker's outbox sweep does the same.
 */
import { Db } from 'mongodb';
import { TenantCollectionName } from '../db';
import { startDispatch, TemporalDeps } from '../temporal/start';
import { awaitedByJourneys } from '../journeys/store';
import { hasSubscribedWebhook } from '../webhooks/store';
import { DomainEvent, markDispatched, relayOutbox } from './store';

/** Event kinds whose dispatch does more than deliver to webhooks: the removals a deletion leaves to the background. */
export const FOLLOW_UP_KINDS: ReadonlySet<string> = new Set(['webhook.deleted', 'schedule.deleted']);

/** Starts the dispatch of `event` when a webhook or a follow-up awaits it; otherwise marks it dispatched. */
export async function dispatch(deps: { db: Db; temporal: TemporalDeps }, event: DomainEvent): Promise<void> {
  const tenant = { accountId: event.account, env: event.environment };
  // The two look-ups side by side: one round trip of waiting instead of two.
  const awaited =
    FOLLOW_UP_KINDS.has(event.kind) ||
    (await Promise.all([hasSubscribedWebhook(deps.db, tenant, event.kind), awaitedByJourneys(deps.db, tenant, event.kind)])).some(Boolean);
  if (awaited) await startDispatch(deps.temporal, event);
  else await markDispatched(deps.db, event.id);
}

/** Relays the outbox of document `id` and hands its events to delivery. */
export async function commitEvents(
  deps: { db: Db; temporal: TemporalDeps },
  collection: TenantCollectionName,
  id: string,
): Promise<DomainEvent[]> {
  const events = await relayOutbox(deps.db, collection, id);
  for (const event of events) await dispatch(deps, event);
  return events;
}
