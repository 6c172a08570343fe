/**
 * The activities of journeys, over domain/journeys/steps.ts: which
 * executions an event starts, and one activity per block's side effect.
 */
import { Context } from '@temporalio/activity';
import { Environment, Tenant } from '../domain/db';
import { ContactStage } from '../domain/inbox/store';
import {
  assignBlock,
  closeBlock,
  conditionHolds,
  HttpAnswer,
  httpBlock,
  journeyTargets as targets,
  JourneyTargets,
  publishBlock,
  sendBlock,
  tagBlock,
} from '../domain/journeys/steps';
import { recordProgress } from '../domain/journeys/store';
import { JourneyExecutionInput } from '../temporal/workflows';
import { ActivityDeps, domainDeps, publishingDeps } from './deps';

export type { HttpAnswer, JourneyTargets };

/** Who an execution acts for and on. */
export interface ExecutionRef {
  journey_id: string;
  account: string;
  environment: Environment;
  conversation_id: string | null;
  contact_id: string | null;
}

type EventOf = JourneyExecutionInput['event'];

const tenantOf = (ref: { account: string; environment: Environment }): Tenant => ({ accountId: ref.account, env: ref.environment });

/** The key of this step of its execution (the same on every retry of it, another for every other step). */
function stepKey(activity: string): string {
  const { workflowExecution: run, activityId } = Context.current().info;
  if (!run) throw new Error(`${activity} runs inside a journey execution`);
  return `${run.workflowId}/${run.runId}/${activityId}`;
}

/** For the dispatch of an event: the executions it starts, and the running ones its message answers. */
export async function journeyTargets(deps: ActivityDeps, input: { event_id: string }): Promise<JourneyTargets> {
  return targets({ db: deps.db, client: deps.temporal }, input.event_id);
}

/**
 * Counts steps of an execution on its journey: blocks entered and completed,
 * a block failed; the execution started or finished. What it counted, for
 * the history.
 */
export async function journeyProgress(
  deps: ActivityDeps,
  p: ExecutionRef & { started?: boolean; entered: string[]; completed: string[]; failed?: string; finished?: 'completed' | 'failed' },
): Promise<{ entered: number; completed: number }> {
  const { started, entered, completed, failed, finished } = p;
  await recordProgress(deps.db, tenantOf(p), p.journey_id, {
    ...(started ? { started: new Date() } : {}),
    entered,
    completed,
    ...(failed ? { failed } : {}),
    ...(finished ? { finished } : {}),
  });
  return { entered: entered.length, completed: completed.length };
}

/** Whether a condition block's test holds. */
export async function journeyCondition(
  deps: ActivityDeps,
  input: ExecutionRef & { event: EventOf; condition: Record<string, unknown>; http: Record<string, HttpAnswer> },
): Promise<boolean> {
  return conditionHolds(domainDeps(deps), tenantOf(input), input, { event: input.event, http: input.http }, input.condition);
}

/** An assign block. */
export async function journeyAssign(deps: ActivityDeps, input: ExecutionRef & { config: Record<string, unknown> }): Promise<{ assigned: true }> {
  await assignBlock(domainDeps(deps), tenantOf(input), input, input.config);
  return { assigned: true };
}

/** A tag block. */
export async function journeyTag(
  deps: ActivityDeps,
  input: ExecutionRef & { config: { add?: string[]; remove?: string[]; stage?: ContactStage } },
): Promise<{ tagged: true }> {
  await tagBlock(domainDeps(deps), tenantOf(input), input, input.config);
  return { tagged: true };
}

/** An http block: one call, its status and JSON body, or why there was none. */
export async function journeyHttp(
  deps: ActivityDeps,
  input: ExecutionRef & { event: EventOf; config: Record<string, unknown> },
): Promise<HttpAnswer> {
  return httpBlock({ allow: deps.webhookAllow ?? [], ca: deps.webhookCa }, input.event, input.config);
}

/** A publish block: a publication through the publish path; its id. */
export async function journeyPublish(
  deps: ActivityDeps,
  input: ExecutionRef & { event: EventOf; config: Record<string, unknown> },
): Promise<string> {
  const key = stepKey('journeyPublish');
  return publishBlock(publishingDeps(deps), tenantOf(input), input.event, input.config, key);
}

/** An end block that closes the conversation. */
export async function journeyClose(deps: ActivityDeps, input: ExecutionRef): Promise<{ closed: true }> {
  await closeBlock(domainDeps(deps), tenantOf(input), input);
  return { closed: true };
}

/** A message block: a reply in the conversation, delivered by its own workflow; the message id. */
export async function journeySend(
  deps: ActivityDeps,
  input: ExecutionRef & { block_id: string; config: { text?: string; template_id?: string } },
): Promise<string> {
  return sendBlock(domainDeps(deps), tenantOf(input), input, input.config, () => stepKey('journeySend'));
}
