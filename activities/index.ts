/**
 * Side effects of the workflows. `createActivities(deps)` closes over the
 * connections the worker made; workflows import only the `Activities` type.
 */
import { Client } from '@temporalio/client';
import { Db } from 'mongodb';
import { startDispatch } from '../api/events';
import { markDispatched, relayAllOutboxes, undispatchedEvents } from '../api/store/events';
import { sweepWindows } from '../api/store/rate-limits';

export interface ActivityDeps {
  db: Db;
  temporal: Client;
  /** Unseals stored secrets (api/crypto.ts). */
  secretKey: Buffer;
  /** How long finished rate-limit windows are kept (ms). */
  windowGraceMs?: number;
  /** How old an undispatched event must be before the sweep dispatches it (ms): younger ones are the API's. */
  dispatchGraceMs?: number;
}

export function createActivities(deps: ActivityDeps) {
  return {
    /** Deletes expired platform records; how many of each kind. */
    async sweepExpiredRecords(): Promise<Record<string, number>> {
      const before = new Date(Date.now() - (deps.windowGraceMs ?? 60_000));
      return { rate_limit_windows: await sweepWindows(deps.db, before) };
    },

    /** Relays outboxes left in documents and dispatches events nobody dispatched. */
    async relayPendingEvents(): Promise<{ relayed: number; dispatched: number }> {
      const relayed = await relayAllOutboxes(deps.db);
      const stale = await undispatchedEvents(deps.db, new Date(Date.now() - (deps.dispatchGraceMs ?? 30_000)), 500);
      const byId = new Map([...relayed, ...stale].map((e) => [e.id, e]));
      for (const event of byId.values()) await startDispatch(deps.temporal, event);
      return { relayed: relayed.length, dispatched: byId.size };
    },

    async markEventDispatched(eventId: string): Promise<void> {
      await markDispatched(deps.db, eventId);
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
