/**
 * Resetting the test environment of an account to exactly its seed: every
 * Temporal Schedule of its schedules and monitors deleted, every running
 * workflow of the environment terminated, every document of it in every
 * tenant collection deleted, then the seed made again and `sandbox.reset`
 * recorded. Live data is never read nor written: every step is filtered on
 * the account and `env: 'test'` (the workflows by their search attributes
 * OfferopsAccountId and OfferopsEnvironment).
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import { Db } from 'mongodb';
import { crossTenantCollection, isDuplicateKey, platformCollection, TENANT_COLLECTIONS, TenantCollectionName } from '../db';
import { conflict, notFound } from '../errors';
import { recordEvent } from '../events/store';
import { getAccount } from '../accounts/store';
import { deleteMonitorSchedule } from '../monitors/temporal';
import { DomainDeps } from '../resource';
import { deleteTemporalSchedule } from '../schedule-handle';
import { publicationWorkflowId } from '../../temporal/names';
import { forgetSeed, SandboxSeed, sandboxTenant, seedSandbox } from './seed';

/** Credentials, not data: a test application (like a test API key) outlives a reset. */
const KEPT_ON_RESET: ReadonlySet<TenantCollectionName> = new Set(['applications']);

export interface SandboxReset {
  account_id: string;
  /** Documents deleted per tenant collection (only those with any). */
  removed: Partial<Record<TenantCollectionName, number>>;
  schedules_deleted: number;
  workflows_terminated: number;
  seed: SandboxSeed;
  event_id: string;
}

/** A reset older than this is taken for one that died, and its lock for stale. */
const LOCK_STALE_MS = 5 * 60_000;

const locks = (db: Db) => platformCollection<{ _id: string; at: Date }>(db, 'sandbox_seeds');

async function lock(db: Db, accountId: string): Promise<() => Promise<void>> {
  const id = `reset:${accountId}`;
  await locks(db).deleteOne({ _id: id, at: { $lt: new Date(Date.now() - LOCK_STALE_MS) } });
  try {
    await locks(db).insertOne({ _id: id, at: new Date() });
  } catch (err) {
    if (isDuplicateKey(err)) throw conflict('conflict', 'A reset of this sandbox is under way; try again when it has finished.');
    throw err;
  }
  return async () => {
    await locks(db).deleteOne({ _id: id });
  };
}

const ACCOUNT_ID = /^acc_[0-9a-z]+$/;

/** Terminates `workflowId`; one that closed meanwhile is fine. True when it was running. */
async function terminate(deps: DomainDeps, workflowId: string): Promise<boolean> {
  try {
    await deps.temporal.client.workflow.getHandle(workflowId).terminate('sandbox reset');
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

export async function resetSandbox(deps: DomainDeps, accountId: string): Promise<SandboxReset> {
  if (!ACCOUNT_ID.test(accountId) || !(await getAccount(deps.db, accountId))) throw notFound('account', accountId);
  const unlock = await lock(deps.db, accountId);
  try {
    const scope = { account_id: accountId, env: 'test' as const };

    // First the Schedules, so that nothing starts a run while the rest goes.
    let schedulesDeleted = 0;
    for (const s of await crossTenantCollection(deps.db, 'schedules')
      .find(scope, { projection: { _id: 1 } })
      .toArray()) {
      await deleteTemporalSchedule(deps.temporal, s._id);
      schedulesDeleted++;
    }
    for (const m of await crossTenantCollection(deps.db, 'monitors')
      .find(scope, { projection: { _id: 1 } })
      .toArray()) {
      await deleteMonitorSchedule(deps.temporal, m._id);
      schedulesDeleted++;
    }

    // The running workflows: those visibility lists, and the publications' by their records (visibility lags a start).
    const running = new Set<string>();
    const query = `OfferopsAccountId = '${accountId}' AND OfferopsEnvironment = 'test' AND ExecutionStatus = 'Running'`;
    for await (const wf of deps.temporal.client.workflow.list({ query })) running.add(wf.workflowId);
    for (const p of await crossTenantCollection(deps.db, 'publications')
      .find(scope, { projection: { _id: 1, status: 1 } })
      .toArray()) {
      if (p.status === 'queued' || p.status === 'sending') running.add(publicationWorkflowId(p._id));
    }
    let terminated = 0;
    for (const id of running) if (await terminate(deps, id)) terminated++;

    const removed: SandboxReset['removed'] = {};
    for (const name of TENANT_COLLECTIONS) {
      if (KEPT_ON_RESET.has(name)) continue;
      const { deletedCount } = await crossTenantCollection(deps.db, name).deleteMany(scope);
      if (deletedCount) removed[name] = deletedCount;
    }

    await forgetSeed(deps.db, accountId);
    const { seed } = await seedSandbox(deps, accountId);
    const result = { removed, schedules_deleted: schedulesDeleted, workflows_terminated: terminated, seed: seed! };
    const event = await recordEvent(deps.db, sandboxTenant(accountId), 'sandbox.reset', result);
    return { account_id: accountId, ...result, event_id: event.id };
  } finally {
    await unlock();
  }
}
