/**
 * The Temporal side of schedules. Each schedule record (store.ts)
 * has a Temporal Schedule `schedule-<sch_id>` made from it: its spec comes
 * from `run_at` and `recurrence` (../recurrence.ts), its state from `paused`,
 * and its action starts the workflow `scheduleRun` (`schedule-run-<sch_id>-<time>`)
 * on our task queue. Content and destination are not copied into Temporal: a
 * run reads them from the record.
 *
 * The record is the truth. The action's memo carries `sync`, a hash of what
 * the Temporal Schedule was made from; where it differs from the record's, the
 * Temporal Schedule is out of date. Writes change Temporal first, then the
 * record (see service.ts), so a crash between the two leaves
 * Temporal ahead of the record. Readers leave a difference younger than
 * SETTLE_MS alone (a write is under way) and repair an older one from the
 * record; a run started from an out-of-date Temporal Schedule queues nothing
 * (./run.ts).
 */
import { Schema } from '../../schemas/types';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ScheduleAlreadyRunning, ScheduleDescription, ScheduleHandle, ScheduleNotFoundError, ScheduleOverlapPolicy } from '@temporalio/client';
import { offeropsSearchAttributes, temporalScheduleId } from '../../temporal/names';
import { scheduleRunAction, TemporalDeps } from '../../temporal/start';
import { scheduleSpec } from '../recurrence';
import { iso } from '../resource';
import { scheduleHandle } from '../schedule-handle';
import { observedFields, ScheduleDoc, ScheduleFields, ScheduleObserved, ScheduleStatus } from './store';

/** The Temporal client, and the task queue the runs go to. */
export type ScheduleTemporal = TemporalDeps;

/** The failure type of a run the destination or content refused (a 4xx of publishing): recorded, not retried. */
export const RUN_REFUSED = 'ScheduleRunRefused';

/** Why a run queued nothing: the error publish would answer. */
export interface RunError {
  status: number;
  code: string;
  message: string;
}

/** How long a difference between Temporal and the record counts as a write under way. */
export const SETTLE_MS = 15_000;

type Timing = Pick<ScheduleFields, 'run_at' | 'recurrence' | 'paused'>;

/** A hash of what the Temporal Schedule is made of: its spec and whether it is paused. */
export function syncHash(s: Timing): string {
  return createHash('sha256')
    .update(JSON.stringify({ spec: scheduleSpec(s), paused: s.paused }))
    .digest('hex')
    .slice(0, 32);
}

/**
 * Overlap policy ALLOW_ALL: runs are independent — each queues its own
 * publication under its own idempotency key and finishes in seconds — so a
 * run never has to wait for, or be dropped because of, another (a run-now
 * during a scheduled run included). BUFFER_ALL would only serialise them.
 */
const action = (t: ScheduleTemporal, doc: ScheduleDoc & Timing) => scheduleRunAction(t, doc, { sync: syncHash(doc) });

/** A Temporal Schedule's description, or null when there is none (a schedule's or a monitor's). */
export async function describeOrNull(handle: ScheduleHandle): Promise<ScheduleDescription | null> {
  try {
    return await handle.describe();
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return null;
    throw err;
  }
}

/** A workflow a Temporal Schedule started. */
export interface StartedRun {
  workflowId: string;
  firstExecutionRunId: string;
}

/**
 * Triggers the Temporal Schedule and finds the workflow it started: the
 * newest of its recent actions that `before` (its description just before)
 * did not have, read every 100 ms; null once `deadline` (epoch ms) has passed.
 */
export async function triggerAndFind(
  handle: ScheduleHandle,
  before: ScheduleDescription,
  deadline: number,
  overlap?: ScheduleOverlapPolicy,
): Promise<StartedRun | null> {
  const known = new Set(before.info.recentActions.map((a) => a.action.workflow.workflowId));
  await handle.trigger(overlap);
  for (;;) {
    const started = (await handle.describe()).info.recentActions.filter((a) => !known.has(a.action.workflow.workflowId)).pop();
    if (started) return started.action.workflow;
    if (Date.now() > deadline) return null;
    await sleep(100);
  }
}

/** Creates the Temporal Schedule of a record; its description. */
export async function createTemporalSchedule(t: ScheduleTemporal, doc: ScheduleDoc): Promise<ScheduleDescription> {
  const handle = await t.client.schedule.create({
    scheduleId: temporalScheduleId(doc._id),
    spec: scheduleSpec(doc),
    action: action(t, doc),
    policies: { overlap: ScheduleOverlapPolicy.ALLOW_ALL },
    state: { paused: doc.paused },
    typedSearchAttributes: offeropsSearchAttributes(doc.account_id, doc.env, doc._id, 'schedule'),
  });
  return handle.describe();
}

/**
 * Makes the Temporal Schedule what `doc` says: creates it when missing,
 * `update()`s spec and action when the sync hash differs, `pause()`s or
 * `unpause()`s when the state differs. `known` is a fresh description, when
 * the caller has one. The description after.
 */
export async function syncTemporalSchedule(
  t: ScheduleTemporal,
  doc: ScheduleDoc,
  known?: ScheduleDescription | null,
): Promise<ScheduleDescription> {
  const handle = scheduleHandle(t, doc._id);
  let desc = known === undefined ? await describeOrNull(handle) : known;
  if (!desc) {
    try {
      return await createTemporalSchedule(t, doc);
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      desc = await handle.describe(); // another reader re-created it first
    }
  }
  const note = doc.paused ? 'paused through the offerops API' : 'resumed through the offerops API';
  if (desc.action.memo?.sync !== syncHash(doc)) {
    // The update carries the wanted pause state too: Temporal's scheduler applies a pending pause before a pending
    // update, so a separate pause() followed by an update() built on the state before it could undo the pause.
    await handle.update((previous) => ({
      ...previous,
      spec: scheduleSpec(doc),
      action: action(t, doc),
      state: { ...previous.state, paused: doc.paused, ...(desc.state.paused !== doc.paused ? { note } : {}) },
    }));
  } else if (desc.state.paused !== doc.paused) {
    await (doc.paused ? handle.pause(note) : handle.unpause(note));
  } else return desc;
  return settled(handle, doc);
}

/** How long a change may take to show in the Temporal Schedule's description. */
const SETTLE_WAIT_MS = 5_000;

/**
 * The description once it shows the change just made: Temporal applies a
 * pause or an update to its scheduler asynchronously, so a describe right
 * after it may still show the state before. Waits (polling, bounded) until it
 * agrees with the record. Past the bound, the last description, except that a
 * pause or resume Temporal has accepted shows as the record asks (a busy
 * scheduler applies it later; reporting the old state would contradict the
 * answer's own change).
 */
export async function settled(handle: Pick<ScheduleHandle, 'describe'>, doc: Timing, waitMs = SETTLE_WAIT_MS): Promise<ScheduleDescription> {
  const deadline = Date.now() + waitMs;
  for (let pause = 25; ; pause = Math.min(pause * 2, 400)) {
    const desc = await handle.describe();
    if (inSync(desc, doc)) return desc;
    if (Date.now() >= deadline) return { ...desc, state: { ...desc.state, paused: doc.paused } };
    await sleep(pause);
  }
}

export const inSync = (desc: ScheduleDescription, doc: Timing): boolean =>
  desc.action.memo?.sync === syncHash(doc) && desc.state.paused === doc.paused;

/** True when the Temporal Schedule was created or updated less than SETTLE_MS ago. */
export const changedRecently = (desc: ScheduleDescription): boolean =>
  Date.now() - (desc.info.lastUpdatedAt ?? desc.info.createdAt).getTime() < SETTLE_MS;

/** The Temporal Schedule of a record as it is now, repaired from the record when it is out of date (and no write is under way). */
export async function observeSchedule(t: ScheduleTemporal, doc: ScheduleDoc): Promise<ScheduleDescription> {
  const desc = await describeOrNull(scheduleHandle(t, doc._id));
  if (desc && (inSync(desc, doc) || changedRecently(desc))) return desc;
  return syncTemporalSchedule(t, doc, desc);
}

/** `completed` when the scheduler has no run ahead (a one-off that ran, a recurrence past its end), else paused or active. */
export function statusOf(desc: ScheduleDescription): ScheduleStatus {
  if (!desc.info.nextActionTimes.length) return 'completed';
  return desc.state.paused ? 'paused' : 'active';
}

export function nextRunAt(desc: ScheduleDescription): Date | null {
  return statusOf(desc) === 'active' ? desc.info.nextActionTimes[0]! : null;
}

/** The scheduler's view now, as the record keeps it for lists. */
export function observedOf(desc: ScheduleDescription): ScheduleObserved {
  const recent = desc.info.recentActions; // oldest first
  const last = recent.length ? recent[recent.length - 1]!.takenAt : null;
  return observedFields(statusOf(desc), nextRunAt(desc), last, desc.info.numActionsTaken);
}

/** The API record: the schedule as stored, with status, next and last run and run count as the scheduler was `seen`. */
export function toSchedule(doc: ScheduleDoc, seen: ScheduleObserved): Schema<'Schedule'> {
  return {
    id: doc._id,
    name: doc.name,
    offer_id: doc.offer_id,
    text: doc.text,
    group_id: doc.group_id,
    segment_id: doc.segment_id,
    template_id: doc.template_id,
    with_image: doc.with_image,
    run_at: doc.run_at.toISOString(),
    recurrence: doc.recurrence
      ? { rrule: doc.recurrence.rrule, cron: doc.recurrence.cron, timezone: doc.recurrence.timezone, ends_at: iso(doc.recurrence.ends_at) }
      : null,
    status: seen.status,
    next_run_at: iso(seen.next_run_at),
    last_run_at: iso(seen.last_run_at),
    run_count: seen.run_count ?? 0,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}
