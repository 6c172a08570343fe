/**
 * Who awaits a domain event, which its dispatch asks before starting a
 * workflow: an enabled webhook subscribed to its kind, an active journey it
 * triggers or, for an inbound message, a journey that has executed (one of
 * its executions may wait for the reply). It reads the webhooks and journeys
 * collections here, below those areas, which share these filters.
 */
import { Db } from 'mongodb';
import { Tenant, tenantCollection, TenantDoc } from '../db';

/** Webhooks that take events of `kind`: enabled, subscribed to it or to every kind. */
export const subscribedTo = (kind: string) => ({ state: 'enabled' as const, events: { $in: [kind, '*'] } });

/** Journeys that have executed: one of their executions may be waiting for a reply. */
export const EXECUTED = { executions: { $gt: 0 } } as const;

/** Journeys an event of `kind` triggers: the active ones with it as their trigger. */
export const triggeredBy = (kind: string) => ({ active: 1 as const, trigger: kind });

/** True when an enabled webhook of the tenant is subscribed to `kind` (or to every kind). */
const hasSubscribedWebhook = async (db: Db, tenant: Tenant, kind: string): Promise<boolean> =>
  (await tenantCollection<TenantDoc>(db, 'webhooks', tenant).findOne(subscribedTo(kind))) !== null;

/** Whether an event of `kind` concerns any journey (what journeysConcerned finds, answered by one count). */
async function awaitedByJourneys(db: Db, tenant: Tenant, kind: string): Promise<boolean> {
  const triggers = triggeredBy(kind);
  return (
    (await tenantCollection<TenantDoc>(db, 'journeys', tenant).count(kind === 'message.received' ? { $or: [triggers, EXECUTED] } : triggers)) > 0
  );
}

/** Whether a webhook subscribed to `kind` or a journey awaits an event of it. */
export const awaitedBySubscribers = async (db: Db, tenant: Tenant, kind: string): Promise<boolean> =>
  // The two look-ups side by side: one round trip of waiting instead of two.
  (await Promise.all([hasSubscribedWebhook(db, tenant, kind), awaitedByJourneys(db, tenant, kind)])).some(Boolean);
