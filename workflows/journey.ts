import {
  ActivityFailure,
  condition,
  defineSignal,
  proxyActivities,
  setHandler,
  sleep,
  upsertMemo,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index';
import type { HttpAnswer } from '../activities/journeys';
import { OfferopsState, OfferopsStep } from '../temporal/names';
import { ExecutionBlock, ExecutionMemo, ExecutionResult, JOURNEY_REPLY_SIGNAL, JourneyExecutionInput } from '../temporal/workflows';
import { msUntilTimeOfDay } from './journey-time';

/** Side effects on our own data: retried a few times, then the block (and the execution) fails. */
const acts = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 5 },
});
/** An http block's call runs once: its failures (status, time-out) are its answer, for the conditions after it. */
const calls = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: { maximumAttempts: 1 } });

/** Sent by the dispatch of an inbound message to the running executions of its conversation. */
export const journeyReply = defineSignal<[{ message_id: string }]>(JOURNEY_REPLY_SIGNAL);

/** A bound on the blocks one execution walks (loops pass through waits, so this is days of running). */
const MAX_STEPS = 1000;

const minutes = (n: number) => `${n} min`;

/** What every activity of an execution is told of it. */
const refOf = (input: JourneyExecutionInput) => ({
  journey_id: input.journey_id,
  account: input.account,
  environment: input.environment,
  conversation_id: input.conversation_id,
  contact_id: input.contact_id,
});

/** What an execution carries from block to block. */
interface Walk {
  input: JourneyExecutionInput;
  ref: ReturnType<typeof refOf>;
  /** Replies signalled so far. */
  replies: number;
  /** The answers of the http blocks run, by block id. */
  answers: Record<string, HttpAnswer>;
  /** The steps not counted yet: the start, and the blocks entered and completed since the last journeyProgress. */
  started: boolean;
  entered: string[];
  completed: string[];
}

/** An activity's summary: the block and what it does there. */
const on = (block: ExecutionBlock, what: string) => ({ summary: `${block.id}: ${what}` });

/** Counts the steps not counted yet in one journeyProgress (with the end, when the execution ends at `at`). */
async function count(walk: Walk, at: string, end?: { failed?: string; finished: 'completed' | 'failed' }): Promise<void> {
  const { started, entered, completed } = walk;
  await acts.journeyProgress.executeWithOptions({ summary: end ? `count: ${end.finished} at ${at}` : `count the blocks up to ${at}` }, [
    { ...walk.ref, ...(started ? { started } : {}), entered, completed, ...end },
  ]);
  walk.started = false;
  walk.entered = [];
  walk.completed = [];
}

/** A wait block: counts, then sleeps its minutes or until its time of day in its time zone. */
async function wait(walk: Walk, block: ExecutionBlock): Promise<void> {
  const c = block.config;
  await count(walk, block.id);
  if (typeof c.minutes === 'number') await sleep(c.minutes * 60_000, on(block, `wait ${minutes(c.minutes)}`));
  else {
    const until = String(c.until);
    const zone = String(c.timezone);
    await sleep(msUntilTimeOfDay(Date.now(), until, zone), on(block, `wait until ${until} ${zone}`));
  }
}

/** A wait_reply block: counts, then whether a reply came before its time-out. */
async function replied(walk: Walk, block: ExecutionBlock): Promise<boolean> {
  await count(walk, block.id);
  const seen = walk.replies;
  const timeout = Number(block.config.timeout_minutes) * 60_000;
  return condition(() => walk.replies > seen, timeout);
}

/** Runs `block`; the id of the block to go to, or null where the path ends. */
async function run(walk: Walk, block: ExecutionBlock): Promise<string | null> {
  const { input, ref, answers } = walk;
  const next = block.next ?? [];
  const c = block.config;
  switch (block.type) {
    case 'message':
      await acts.journeySend.executeWithOptions(on(block, 'send a message'), [{ ...ref, block_id: block.id, config: c }]);
      break;
    case 'wait':
      await wait(walk, block);
      break;
    case 'wait_reply':
      return ((await replied(walk, block)) ? next[0] : next[1]) ?? null;
    case 'condition': {
      const ok = await acts.journeyCondition.executeWithOptions(on(block, `test ${String(c.field)}`), [
        { ...ref, event: input.event, condition: c, http: answers },
      ]);
      return (ok ? next[0] : next[1]) ?? null;
    }
    case 'tag':
      await acts.journeyTag.executeWithOptions(on(block, 'tag'), [{ ...ref, config: c }]);
      break;
    case 'assign':
      await acts.journeyAssign.executeWithOptions(on(block, 'assign'), [{ ...ref, config: c }]);
      break;
    case 'http':
      answers[block.id] = await calls.journeyHttp.executeWithOptions(on(block, `call ${hostOf(String(c.url))}`), [
        { ...ref, event: input.event, config: c },
      ]);
      break;
    case 'publish':
      await acts.journeyPublish.executeWithOptions(on(block, 'publish'), [{ ...ref, event: input.event, config: c }]);
      break;
    case 'end':
      if (c.close_conversation === true) await acts.journeyClose.executeWithOptions(on(block, 'close the conversation'), [ref]);
      return null;
    default: // trigger
      break;
  }
  return next[0] ?? null;
}

/** Ends the execution at `block`: its state (and, when it failed, why, in its memo), the last count, its result. */
async function finish(walk: Walk, block: ExecutionBlock, state: 'completed' | 'failed', error: string | null): Promise<ExecutionResult> {
  const { input } = walk;
  upsertSearchAttributes([{ key: OfferopsState, value: state }]);
  if (error) {
    const memo: ExecutionMemo = {
      event_id: input.event.id,
      event_kind: input.event.kind,
      conversation_id: input.conversation_id,
      version: input.version,
      error,
    };
    upsertMemo({ execution: memo });
  }
  if (state === 'completed') walk.completed.push(block.id);
  await count(walk, block.id, { ...(state === 'failed' ? { failed: block.id } : {}), finished: state });
  return { state, last_block: block.id, error };
}

/**
 * One execution of a journey, started by the dispatch of its triggering event
 * (id `journey-<jrn>-<evt>`: a redelivered event starts nothing new). Walks
 * the graph it was started with (the definition is its input): one activity
 * per side effect, waits on durable timers, a reply as a signal raced against
 * a timer. Keeps `OfferopsStep` (the block it is at) and `OfferopsState`
 * (running → completed | failed) up to date, and the journey's per-block
 * counters through `journeyProgress`: the steps since the last count go in
 * one, before each wait and at the end, so the bookkeeping never outnumbers
 * the blocks in the execution's history.
 */
export async function journeyExecution(input: JourneyExecutionInput): Promise<ExecutionResult> {
  const walk: Walk = { input, ref: refOf(input), replies: 0, answers: {}, started: true, entered: [], completed: [] };
  setHandler(journeyReply, () => {
    walk.replies++;
  });
  const byId = new Map(input.blocks.map((b) => [b.id, b]));
  const first = input.blocks.find((b) => b.type === 'trigger');
  if (!first) throw new Error('the journey has no trigger block'); // the graph rules make this impossible
  walk.entered.push(first.id);

  let block = first;
  for (let steps = 0; ; steps++) {
    let next: string | null;
    try {
      next = await run(walk, block);
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      return finish(walk, block, 'failed', `block ${block.id} (${block.type}) failed: ${err.cause?.message ?? err.message}`);
    }
    const following = next === null ? undefined : byId.get(next);
    if (!following) return finish(walk, block, 'completed', null);
    if (steps >= MAX_STEPS) return finish(walk, block, 'failed', `stopped after ${MAX_STEPS} blocks`);
    upsertSearchAttributes([{ key: OfferopsStep, value: following.id }]);
    walk.completed.push(block.id);
    walk.entered.push(following.id);
    block = following;
  }
}

/** The host of `url` for a summary (never its path or query). */
function hostOf(url: string): string {
  const match = /^https?:\/\/([^/?#:]+)/.exec(url);
  return match?.[1] ?? 'a URL';
}
