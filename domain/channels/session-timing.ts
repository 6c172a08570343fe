/** When a gateway whose session is down is asked again (./session.ts): 10 s after the first refusal, doubling to 5 min. */
import type { SessionDown } from './store';

const FIRST_CHECK_MS = 10_000;
const MAX_CHECK_MS = 5 * 60_000;

/** The pause before the gateway is asked again, after `checks` checks that found the session down. */
export const sessionCheckPauseMs = (checks: number): number => Math.min(MAX_CHECK_MS, FIRST_CHECK_MS * 2 ** checks);

/** The session as recorded when a send or a report first finds it down: the first check a first pause away. */
export const firstDown = (now: Date): SessionDown => ({ checks: 0, check_at: new Date(now.getTime() + FIRST_CHECK_MS), checked_at: null });
