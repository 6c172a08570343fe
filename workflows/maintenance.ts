/**
 * The housekeeping workflows: each a long-lived execution under a fixed id
 * (temporal/names.ts), sweeping on a durable timer and continuing as new
 * after `sweeps` sweeps, so an idle day adds a handful of rows to the
 * workflow list, not one per sweep.
 */
import { makeContinueAsNewFunc, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities/index';
import type { SweepInput } from '../temporal/workflows';
import { spoken } from './send-timing';

const { relayPendingEvents } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

const { sweepExpiredRecords } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute' },
});

/** Runs `sweep` every `input.every_ms`, `input.sweeps` times, then continues as new with the same input and search attributes. */
async function sweeping(input: SweepInput, sweep: () => Promise<unknown>): Promise<never> {
  for (let i = 0; i < input.sweeps && !workflowInfo().continueAsNewSuggested; i++) {
    await sweep();
    await sleep(input.every_ms, { summary: `next sweep in ${spoken(input.every_ms)}` });
  }
  // The next run is listed like this one: the same kind and subject.
  return makeContinueAsNewFunc({ typedSearchAttributes: workflowInfo().typedSearchAttributes })(input);
}

/**
 * Finishes what a crashed API process left: relays outboxes still held in
 * documents, starts the dispatch of events never dispatched and the
 * workflows of publications and replies left queued.
 */
export async function outboxSweep(input: SweepInput): Promise<never> {
  return sweeping(input, () =>
    relayPendingEvents.executeWithOptions({ summary: 'relay outboxes; dispatch events, start publications and replies left behind' }, []),
  );
}

/**
 * Removes records whose time is up: all of them on an engine without TTL
 * indexes, what a TTL index has not removed yet on one with them.
 */
export async function retentionSweep(input: SweepInput): Promise<never> {
  return sweeping(input, () => sweepExpiredRecords.executeWithOptions({ summary: 'remove expired records' }, []));
}
