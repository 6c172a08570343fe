/** The bare baseline of the publish benchmark: Temporal with no-op activities and nothing of ours. */
import { proxyActivities } from '@temporalio/workflow';

const { noop } = proxyActivities<{ noop(): Promise<void> }>({ startToCloseTimeout: '10 seconds' });

/** One workflow, one no-op activity: the floor under publish-to-delivered latency. */
export async function baselineOne(): Promise<void> {
  await noop();
}

/** One workflow, `n` parallel no-op activities: the floor under fan-out throughput. */
export async function baselineFanOut(n: number): Promise<void> {
  await Promise.all(Array.from({ length: n }, () => noop()));
}
