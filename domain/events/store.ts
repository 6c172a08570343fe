/**
 * Domain events and their outbox.
 *
 * Without transactions (the portable subset has none, engine.ts), an event is made durable in the
 * same single-document write as the change it describes: it rides in the
 * document's `_outbox`. `relayOutbox` then copies it into the `events`
 * collection (idempotently, keyed by the event id) and removes it from the
 * document; the worker's sweep relays whatever a crashed process left. So an
 * event exists if and only if its change happened, and it is stored once.
 *
 * Each event is checked against its schema in `schemas/events/` when it is
 * prepared, and stored with day and hour buckets for analytics.
 */
import { Db, UpdateFilter } from 'mongodb';
import { eventDefinition, eventErrors, EventKind } from '../../schemas/events/index';
import { newId } from '../ids';
import {
  crossTenantCollection,
  isDuplicateKey,
  OutboxEvent,
  Tenant,
  TENANT_COLLECTIONS,
  TenantCollectionName,
  tenantCollection,
  TenantDoc,
} from '../db';

export type DomainEvent = OutboxEvent;

interface EventDoc extends TenantDoc {
  kind: EventKind;
  version: number;
  occurred_at: Date;
  occurred_day: string;
  occurred_hour: number;
  data: Record<string, unknown>;
  /** When the event was handed to delivery (webhooks); null until then. */
  dispatched_at: Date | null;
}

/** Builds an event of `kind` for `tenant`, valid against its schema (a mismatch is a bug: it throws). */
export function prepareEvent(
  tenant: Tenant,
  kind: EventKind,
  data: Record<string, unknown>,
  at = new Date(),
  id = newId('evt', at.getTime()),
): DomainEvent {
  const event: DomainEvent = {
    id,
    kind,
    version: eventDefinition(kind).version,
    account: tenant.accountId,
    environment: tenant.env,
    occurred_at: at.toISOString(),
    data,
  };
  const errors = eventErrors(event);
  if (errors) throw new Error(`event ${kind} does not match its schema: ${errors}`);
  return event;
}

/** Stores an event in the events collection; true when it was not there yet. */
export async function storeEvent(db: Db, event: DomainEvent): Promise<boolean> {
  const at = new Date(event.occurred_at);
  try {
    await crossTenantCollection<EventDoc>(db, 'events').insertOne({
      _id: event.id,
      account_id: event.account,
      env: event.environment,
      kind: event.kind,
      version: event.version,
      occurred_at: at,
      occurred_day: event.occurred_at.slice(0, 10),
      occurred_hour: at.getUTCHours(),
      data: event.data,
      dispatched_at: null,
    });
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false; // relayed before (by the sweep or a retry)
    throw err;
  }
}

/** An event that accompanies no change of a document (e.g. a preview). */
export async function recordEvent(db: Db, tenant: Tenant, kind: EventKind, data: Record<string, unknown>): Promise<DomainEvent> {
  const event = prepareEvent(tenant, kind, data);
  await storeEvent(db, event);
  return event;
}

/**
 * Moves the outbox of document `id` of `collection` into the events
 * collection, then drops a tombstone whose outbox is empty. Returns the
 * events relayed now.
 */
export async function relayOutbox(db: Db, collection: TenantCollectionName, id: string): Promise<DomainEvent[]> {
  const coll = crossTenantCollection(db, collection);
  const doc = await coll.findOne({ _id: id }, { projection: { _outbox: 1, _deleted: 1 } });
  if (!doc) return [];
  const relayed: DomainEvent[] = [];
  for (const event of doc._outbox ?? []) {
    if (await storeEvent(db, event)) relayed.push(event);
    await pullFromOutbox(db, collection, id, event);
  }
  if (doc._deleted) await coll.deleteOne({ _id: id, _deleted: true });
  return relayed;
}

/**
 * Removes `event` (stored already) from the outbox of document `id`: the
 * element itself, as written (not a condition on its id, which not every
 * engine honours: engine.ts).
 */
export async function pullFromOutbox(db: Db, collection: TenantCollectionName, id: string, event: DomainEvent): Promise<void> {
  await crossTenantCollection(db, collection).updateOne({ _id: id }, { $pull: { _outbox: event } } as unknown as UpdateFilter<TenantDoc>);
}

/** Relays every outbox a crashed writer left behind; the events relayed. */
export async function relayAllOutboxes(db: Db): Promise<DomainEvent[]> {
  const relayed: DomainEvent[] = [];
  for (const name of TENANT_COLLECTIONS) {
    const pending = await crossTenantCollection(db, name)
      .find({ '_outbox.0': { $exists: true } }, { projection: { _id: 1 } })
      .toArray();
    for (const { _id } of pending) relayed.push(...(await relayOutbox(db, name, _id)));
  }
  return relayed;
}

const toEvent = (doc: EventDoc): DomainEvent => ({
  id: doc._id,
  kind: doc.kind,
  version: doc.version,
  account: doc.account_id,
  environment: doc.env,
  occurred_at: doc.occurred_at.toISOString(),
  data: doc.data,
});

export async function getEvent(db: Db, tenant: Tenant, id: string): Promise<DomainEvent | null> {
  const doc = await tenantCollection<EventDoc>(db, 'events', tenant).findById(id);
  return doc ? toEvent(doc) : null;
}

/** An event by id alone, whoever's it is: for the worker, which starts from an event id. */
export async function eventById(db: Db, id: string): Promise<DomainEvent | null> {
  const doc = await crossTenantCollection<EventDoc>(db, 'events').findOne({ _id: id });
  return doc ? toEvent(doc) : null;
}

/** Events that occurred before `before` and were not handed to delivery yet, oldest first. */
export async function undispatchedEvents(db: Db, before: Date, limit: number): Promise<DomainEvent[]> {
  const docs = await crossTenantCollection<EventDoc>(db, 'events')
    .find({ dispatched_at: null, occurred_at: { $lt: before } }, { sort: { _id: 1 }, limit })
    .toArray();
  return docs.map(toEvent);
}

export async function markDispatched(db: Db, id: string): Promise<void> {
  await crossTenantCollection<EventDoc>(db, 'events').updateOne({ _id: id }, { $set: { dispatched_at: new Date() } });
}
