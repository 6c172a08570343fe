/**
 * Side effects of the workflows. `createActivities(deps)` closes over the
 * connections the worker made; workflows import only the `Activities` type.
 */
import { Db } from 'mongodb';
import { sweepWindows } from '../api/store/rate-limits';

export interface ActivityDeps {
  db: Db;
  /** How long finished rate-limit windows are kept (ms). */
  windowGraceMs?: number;
}

export function createActivities(deps: ActivityDeps) {
  return {
    /** Deletes expired platform records; how many of each kind. */
    async sweepExpiredRecords(): Promise<Record<string, number>> {
      const before = new Date(Date.now() - (deps.windowGraceMs ?? 60_000));
      return { rate_limit_windows: await sweepWindows(deps.db, before) };
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
