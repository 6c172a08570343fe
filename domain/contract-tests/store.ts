/**
 * Contract-test runs, as recorded: one document per run in the platform
 * collection `contract_test_runs` (runs belong to an account, not to one of
 * its environments, so a sandbox reset keeps their history).
 */
import { Db } from 'mongodb';
import { platformCollection } from '../db';
import { newId } from '../ids';

export type CheckResult = 'passed' | 'failed' | 'skipped';

export interface CheckOutcome {
  name: string;
  description: string;
  result: CheckResult;
  /** How many things the check verified. */
  assertions: number;
  /** What did not hold (at most MAX_FAILURES, then a count of the rest). */
  failures: string[];
  /** Why it was skipped, or a remark on how it ran. */
  note: string | null;
  duration_ms: number;
}

export interface ContractTestRunDoc {
  _id: string;
  account_id: string;
  base_url: string;
  /** Who started it: `cli` or `panel`. */
  trigger: 'cli' | 'panel';
  started_at: Date;
  duration_ms: number;
  /** `failed` when any check failed; a skipped check does not fail the run. */
  result: 'passed' | 'failed';
  checks: CheckOutcome[];
}

/** How many failures a check keeps. */
export const MAX_FAILURES = 20;

const runs = (db: Db) => platformCollection<ContractTestRunDoc>(db, 'contract_test_runs');

export const newRunId = (at: Date): string => newId('ctr', at.getTime());

export async function saveRun(db: Db, run: ContractTestRunDoc): Promise<void> {
  await runs(db).insertOne(run);
}

/** The account's runs, newest first. */
export const listRuns = (db: Db, accountId: string, limit = 50): Promise<ContractTestRunDoc[]> =>
  runs(db)
    .find({ account_id: accountId }, { sort: { _id: -1 }, limit })
    .toArray();

/** A run as the CLI and the panel show it. */
export function runSummary(r: ContractTestRunDoc): Record<string, unknown> {
  return {
    id: r._id,
    started_at: r.started_at.toISOString(),
    duration_ms: r.duration_ms,
    result: r.result,
    trigger: r.trigger,
    base_url: r.base_url,
    checks: r.checks,
  };
}
