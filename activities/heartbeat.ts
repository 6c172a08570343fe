/** Heartbeats of the activities that send: a worker lost mid-send is noticed after the heartbeat timeout, not the whole start-to-close. */
import { Context } from '@temporalio/activity';

/** How often a send reports that it is under way (its activity's heartbeat timeout is a few times this). */
const HEARTBEAT_MS = 2000;

/** Runs `work`, heartbeating while it is under way. */
export async function heartbeating<T>(work: () => Promise<T>): Promise<T> {
  const context = Context.current();
  const beating = setInterval(() => context.heartbeat(), HEARTBEAT_MS);
  try {
    return await work();
  } finally {
    clearInterval(beating);
  }
}
