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
  let replies = 0;
  setHandler(journeyReply, () => {
    replies++;
  });
  const byId = new Map(input.blocks.map((b) => [b.id, b]));
  const ref = {
    journey_id: input.journey_id,
    account: input.account,
    environment: input.environment,
    conversation_id: input.conversation_id,
    contact_id: input.contact_id,
  };
  const answers: Record<string, HttpAnswer> = {};

  const first = input.blocks.find((b) => b.type === 'trigger');
  if (!first) throw new Error('the journey has no trigger block'); // the graph rules make this impossible

  // The steps not counted yet: the blocks entered and completed since the last journeyProgress.
  let started = true;
  let entered: string[] = [first.id];
  let completed: string[] = [];
  const count = async (at: string, end?: { failed?: string; finished: 'completed' | 'failed' }) => {
    await acts.journeyProgress.executeWithOptions({ summary: end ? `count: ${end.finished} at ${at}` : `count the blocks up to ${at}` }, [
      { ...ref, ...(started ? { started } : {}), entered, completed, ...end },
    ]);
    started = false;
    entered = [];
    completed = [];
  };

  /** Runs `block`; the id of the block to go to, or null where the path ends. */
  async function run(block: ExecutionBlock): Promise<string | null> {
    const next = block.next ?? [];
    const c = block.config;
    const on = (what: string) => ({ summary: `${block.id}: ${what}` });
    switch (block.type) {
      case 'message':
        await acts.journeySend.executeWithOptions(on('send a message'), [{ ...ref, block_id: block.id, config: c }]);
        break;
      case 'wait':
        await count(block.id);
        if (typeof c.minutes === 'number') await sleep(c.minutes * 60_000, on(`wait ${minutes(c.minutes)}`));
        else {
          const until = String(c.until);
          const zone = String(c.timezone);
          await sleep(msUntilTimeOfDay(Date.now(), until, zone), on(`wait until ${until} ${zone}`));
        }
        break;
      case 'wait_reply': {
        await count(block.id);
        const seen = replies;
        const timeout = Number(c.timeout_minutes) * 60_000;
        const replied = await condition(() => replies > seen, timeout);
        return (replied ? next[0] : next[1]) ?? null;
      }
      case 'condition': {
        const ok = await acts.journeyCondition.executeWithOptions(on(`test ${String(c.field)}`), [
          { ...ref, event: input.event, condition: c, http: answers },
        ]);
        return (ok ? next[0] : next[1]) ?? null;
      }
      case 'tag':
        await acts.journeyTag.executeWithOptions(on('tag'), [{ ...ref, config: c }]);
        break;
      case 'assign':
        await acts.journeyAssign.executeWithOptions(on('assign'), [{ ...ref, config: c }]);
        break;
      case 'http':
        answers[block.id] = await calls.journeyHttp.executeWithOptions(on(`call ${hostOf(String(c.url))}`), [
          { ...ref, event: input.event, config: c },
        ]);
        break;
      case 'publish':
        await acts.journeyPublish.executeWithOptions(on('publish'), [{ ...ref, event: input.event, config: c }]);
        break;
      case 'end':
        if (c.close_conversation === true) await acts.journeyClose.executeWithOptions(on('close the conversation'), [ref]);
        return null;
      default: // trigger
        break;
    }
    return next[0] ?? null;
  }

  const finish = async (block: ExecutionBlock, state: 'completed' | 'failed', error: string | null): Promise<ExecutionResult> => {
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
    if (state === 'completed') completed.push(block.id);
    await count(block.id, { ...(state === 'failed' ? { failed: block.id } : {}), finished: state });
    return { state, last_block: block.id, error };
  };

  let block = first;
  for (let steps = 0; ; steps++) {
    let next: string | null;
    try {
      next = await run(block);
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      return finish(block, 'failed', `block ${block.id} (${block.type}) failed: ${err.cause?.message ?? err.message}`);
    }
    const following = next === null ? undefined : byId.get(next);
    if (!following) return finish(block, 'completed', null);
    if (steps >= MAX_STEPS) return finish(block, 'failed', `stopped after ${MAX_STEPS} blocks`);
    upsertSearchAttributes([{ key: OfferopsStep, value: following.id }]);
    completed.push(block.id);
    entered.push(following.id);
    block = following;
  }
}

/** The host of `url` for a summary (never its path or query). */
function hostOf(url: string): string {
  const match = /^https?:\/\/([^/?#:]+)/.exec(url);
  return match?.[1] ?? 'a URL';
}
