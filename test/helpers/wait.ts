/** Polling for what eventually happens, failing with the state it last saw. */
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `probe` until it returns a value (not undefined), or fails after `timeoutMs` saying what the state was then:
 * `explain`'s text (e.g. a record's status and its workflow's last events). A probe that throws fails the wait at once.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  explain?: () => Promise<string> | string,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) {
      const state = explain ? await Promise.resolve(explain()).catch((err: Error) => `could not read the state: ${err.message}`) : undefined;
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${state ? `; ${state}` : ''}`);
    }
    await sleep(200);
  }
}
