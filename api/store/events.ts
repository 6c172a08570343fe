/**
 * Domain events, as published: `{id, kind, version, account, environment,
 * occurred_at, data}`. Each is checked against its schema in
 * `schemas/events/` before it is stored, with day and hour buckets for
 * analytics (no date operators needed).
 */
import { Db } from 'mongodb';
import { eventDefinition, eventErrors, EventKind } from '../../schemas/events/index';
import { newId } from '../ids';
import { Environment, Tenant, tenantCollection, TenantDoc } from './db';

export interface DomainEvent {
  id: string;
  kind: EventKind;
  version: number;
  account: string;
  environment: Environment;
  occurred_at: string;
  data: Record<string, unknown>;
}

interface EventDoc extends TenantDoc {
  kind: EventKind;
  version: number;
  occurred_at: Date;
  occurred_day: string;
  occurred_hour: number;
  data: Record<string, unknown>;
}

export async function recordEvent(db: Db, tenant: Tenant, kind: EventKind, data: Record<string, unknown>): Promise<DomainEvent> {
  const at = new Date();
  const event: DomainEvent = {
    id: newId('evt', at.getTime()),
    kind,
    version: eventDefinition(kind).version,
    account: tenant.accountId,
    environment: tenant.env,
    occurred_at: at.toISOString(),
    data,
  };
  const errors = eventErrors(event);
  if (errors) throw new Error(`event ${kind} does not match its schema: ${errors}`);
  await tenantCollection<EventDoc>(db, 'events', tenant).insert({
    _id: event.id,
    kind,
    version: event.version,
    occurred_at: at,
    occurred_day: event.occurred_at.slice(0, 10),
    occurred_hour: at.getUTCHours(),
    data,
  });
  return event;
}

export async function getEvent(db: Db, tenant: Tenant, id: string): Promise<DomainEvent | null> {
  const doc = await tenantCollection<EventDoc>(db, 'events', tenant).findById(id);
  if (!doc) return null;
  return {
    id: doc._id,
    kind: doc.kind,
    version: doc.version,
    account: doc.account_id,
    environment: doc.env,
    occurred_at: doc.occurred_at.toISOString(),
    data: doc.data,
  };
}
