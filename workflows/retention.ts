import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index';

const { sweepExpiredRecords } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', maximumAttempts: 5 },
});

/**
 * Removes records whose time is up. It stands in for TTL indexes, which the
 * portable MongoDB subset (FerretDB) lacks; a Temporal Schedule runs it.
 */
export async function retentionSweep(): Promise<{ removed: Record<string, number> }> {
  return { removed: await sweepExpiredRecords() };
}
