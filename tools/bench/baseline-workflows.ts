/** The bare baseline of the publish benchmark: Temporal with no-op activities and nothing of ours. */
import { proxyActivities } from '@temporalio/workflow';

const { noop } = proxyActivities<{ noop(): Promise<void> }>({ startToCloseTimeout: '10 seconds' });

/** No-op activities in flight at once, under Temporal's limit of 2,000 pending activities per workflow. */
const IN_FLIGHT = 1000;

/** One workflow, one no-op activity: the floor under publish-to-delivered latency. */
export async function baselineOne(): Promise<void> {
  await noop();
}

/** One workflow, `n` no-op activities, IN_FLIGHT at a time: the floor under fan-out throughput. */
export async function baselineFanOut(n: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < n) {
      next++;
      await noop();
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, IN_FLIGHT) }, lane));
}
