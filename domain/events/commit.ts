/**
 * After a write: relay the document's outbox into the events collection and
 * hand each new event to delivery — a `dispatchEvent` workflow per event (its
 * id makes a second start a no-op) when anything awaits it: a webhook of its
 * account and environment subscribed to its kind, a follow-up of its kind
 * (./follow-ups.ts), an active journey it triggers, or (an inbound
 * message) a journey execution that may wait for the contact's reply. An event nobody awaits is marked dispatched
 * without a workflow, so Temporal UI lists the workflows that do something.
 * If this process dies first, the worker's outbox sweep does the same.
 */
import { Db } from 'mongodb';
import { TenantCollectionName } from '../db';
import { startDispatch, TemporalDeps } from '../../temporal/start';
import { awaitedBySubscribers } from './awaited';
import { DomainEvent, markDispatched, pullFromOutbox, relayAllOutboxes, relayOutbox, storeEvent, undispatchedEvents } from './store';

/** Event kinds whose dispatch does more than deliver to webhooks: the removals a deletion leaves to the background. */
export const FOLLOW_UP_KINDS: ReadonlySet<string> = new Set(['webhook.deleted', 'schedule.deleted']);

/** Whether anything awaits `event`: a follow-up of its kind, a webhook subscribed to it, a journey it may trigger. */
async function isAwaited(db: Db, event: DomainEvent): Promise<boolean> {
  if (FOLLOW_UP_KINDS.has(event.kind)) return true;
  return awaitedBySubscribers(db, { accountId: event.account, env: event.environment }, event.kind);
}

/** Hands `event` to delivery as `awaited` says: its dispatch workflow, or marked dispatched. */
const handOver = (deps: { db: Db; temporal: TemporalDeps }, event: DomainEvent, awaited: boolean): Promise<void> =>
  awaited ? startDispatch(deps.temporal, event) : markDispatched(deps.db, event.id);

/** Starts the dispatch of `event` when a webhook or a follow-up awaits it; otherwise marks it dispatched. */
export async function dispatch(deps: { db: Db; temporal: TemporalDeps }, event: DomainEvent): Promise<void> {
  await handOver(deps, event, await isAwaited(deps.db, event));
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

/**
 * Relays `event`, which the caller has just written to the outbox of document
 * `id` (no read of the outbox), and hands it to delivery: who awaits it is
 * looked up while it is stored, and it leaves the outbox while it is handed
 * over. Whatever else that outbox holds waits for the next commitEvents of the
 * document or for the sweep.
 */
export async function commitEvent(
  deps: { db: Db; temporal: TemporalDeps },
  collection: TenantCollectionName,
  id: string,
  event: DomainEvent,
): Promise<void> {
  const [stored, awaited] = await Promise.all([storeEvent(deps.db, event), isAwaited(deps.db, event)]);
  // An event stored before (by the sweep or a retry) was handed over then.
  await Promise.all([pullFromOutbox(deps.db, collection, id, event), stored ? handOver(deps, event, awaited) : undefined]);
}

/**
 * What a crashed API process left of events: relays the outboxes still held
 * in documents, and hands to delivery those and the events stored more than
 * `graceMs` ago and never dispatched (younger ones are the API's, under way).
 */
export async function dispatchLeftovers(
  deps: { db: Db; temporal: TemporalDeps },
  graceMs: number,
): Promise<{ relayed: number; dispatched: number }> {
  const relayed = await relayAllOutboxes(deps.db);
  const stale = await undispatchedEvents(deps.db, new Date(Date.now() - graceMs), 500);
  const byId = new Map([...relayed, ...stale].map((e) => [e.id, e]));
  for (const event of byId.values()) await dispatch(deps, event);
  return { relayed: relayed.length, dispatched: byId.size };
}
