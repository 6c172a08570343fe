/**
 * Side effects of the workflows, one exported function per activity in the
 * files beside this one (each file exports its activities and nothing else),
 * each taking the worker's context first. `createActivities(deps)` binds the
 * context and turns the domain's refusals into the failures workflows read;
 * workflows import only the `Activities` type.
 */
import { Context } from '@temporalio/activity';
import { ConnectorError } from '../domain/channels/connectors/types';
import { PublicationContents } from '../domain/publications/sending';
import { ActivityContext, ActivityDeps } from './deps';
import * as events from './events';
import { withActivityFailures } from './failures';
import * as journeys from './journeys';
import * as monitors from './monitors';
import * as publications from './publications';
import * as replies from './replies';
import * as schedules from './schedules';
import * as webhooks from './webhooks';

type Activity = (ctx: ActivityContext, ...args: never[]) => Promise<unknown>;
type Bound<F> = F extends (ctx: ActivityContext, ...args: infer A) => Promise<infer R> ? (...args: A) => Promise<R> : never;

/** A channel's refusal in the worker's log with its words (the failure Temporal records carries them too). */
function logChannelError(err: ConnectorError): void {
  Context.current().log.warn(`send failed: ${err.message}`, { permanent: err.permanent, ...(err.status ? { status: err.status } : {}) });
}

/** The activities of `module`, `ctx` bound as their first argument. */
function bind<M extends Record<string, Activity>>(ctx: ActivityContext, module: M): { [K in keyof M]: Bound<M[K]> } {
  const bound = Object.entries(module).map(([name, activity]) => [
    name,
    withActivityFailures((...args: never[]) => activity(ctx, ...args), logChannelError),
  ]);
  return Object.fromEntries(bound) as { [K in keyof M]: Bound<M[K]> };
}

export function createActivities(deps: ActivityDeps) {
  const ctx: ActivityContext = { ...deps, contents: new PublicationContents() };
  return {
    ...bind(ctx, publications),
    ...bind(ctx, replies),
    ...bind(ctx, webhooks),
    ...bind(ctx, schedules),
    ...bind(ctx, journeys),
    ...bind(ctx, monitors),
    ...bind(ctx, events),
  };
}

export type Activities = ReturnType<typeof createActivities>;
