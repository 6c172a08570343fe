/**
 * Schedules in tests: a one-off due in a few seconds however slow the
 * machine, and waiting out the second a run is named by.
 */
import assert from 'node:assert/strict';
import { ApiClient } from './client';
import { ahead } from './time';
import { waitFor } from './wait';

/** The scheduler is handed a one-off at least this long before its instant, more when the API answers slower. */
const FIRST_MARGIN_MS = 2_000;
const LAST_MARGIN_MS = 64_000;

/**
 * Creates a one-off schedule (`body` without `run_at`) due a few seconds
 * ahead. The API refuses a `run_at` already past, and the scheduler skips an
 * instant that passed before it had the schedule; so when the answer comes
 * too late for the time asked, the time is asked again further ahead (a PATCH
 * of `run_at`), doubling the margin each time. Answers the schedule as last
 * returned and its `run_at`.
 */
export async function oneOffSoon(api: ApiClient, body: Record<string, unknown>): Promise<{ schedule: any; runAt: Date }> {
  let schedule: any = null;
  for (let margin = FIRST_MARGIN_MS; margin <= LAST_MARGIN_MS; margin *= 2) {
    const runAt = ahead(margin);
    const run_at = runAt.toISOString();
    const res = schedule ? await api.patch(`/schedules/${schedule.id}`, { run_at }) : await api.post('/schedules', { ...body, run_at });
    const late = res.status === 400 && res.body.details?.some((d: any) => d.field === 'run_at' && d.rule === 'future');
    if (late) continue;
    assert.equal(res.status, schedule ? 200 : 201, res.text);
    schedule = res.body.data;
    if (Date.now() < runAt.getTime()) return { schedule, runAt };
  }
  throw new Error(`the API never answered a schedule write within ${LAST_MARGIN_MS} ms`);
}

/**
 * Waits until the wall-clock second that names a run (`schedule-run-<id>-<time>`,
 * Temporal's suffix) is over: a trigger from then on is another run, not
 * the same one again.
 */
export async function afterRunSecond(runWorkflowId: string): Promise<void> {
  const named = /-(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)$/.exec(runWorkflowId);
  assert.ok(named, `a run id ending in its time: ${runWorkflowId}`);
  const over = Date.parse(named[1]!) + 1000;
  await waitFor(`the second of ${runWorkflowId} to be over`, async () => (Date.now() >= over ? true : undefined));
}
