/**
 * The failures activities hand their workflows. The domain's refusals become
 * the failures workflows read: a refused send `ChannelPermanent`
 * (non-retryable), `ChannelDisconnected` (the channel's session is not
 * connected: the workflow waits for it) or `ChannelTransient`, both with the
 * pause to wait (asked by the far end, or the session's next check) as their
 * details when there is one; a step that cannot succeed non-retryable
 * with its kind.
 *
 * Errors that tenants read (a delivery's `error`, a webhook attempt's
 * `error`) are texts we wrote for them: a connector's classified failure, a
 * gateway's status, a timeout. Anything else that fails inside an activity (the
 * database, unsealing a secret, a bug) is ours: the tenant reads only a stable
 * text naming the workflow to quote, and the cause goes to the activity
 * logger with that workflow id.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { ConnectorError } from '../domain/channels/connectors/types';
import { PermanentFailure } from '../domain/errors';

/** The type of the failure of a send the channel may accept later: its details hold the pause the far end asked for (ms), if any. */
const CHANNEL_TRANSIENT = 'ChannelTransient';
/** The type of the failure of a send whose channel's session is not connected (workflows/sending.ts waits for it). */
const CHANNEL_DISCONNECTED = 'ChannelDisconnected';

/** `err` as the failure a workflow reads when it is one of the domain's refusals; anything else as it is. */
export function activityFailure(err: unknown): unknown {
  if (err instanceof PermanentFailure) return ApplicationFailure.nonRetryable(err.message, err.kind);
  if (!(err instanceof ConnectorError)) return err;
  if (err.permanent) return ApplicationFailure.nonRetryable(err.message, 'ChannelPermanent');
  return ApplicationFailure.create({
    message: err.message,
    type: err.disconnected ? CHANNEL_DISCONNECTED : CHANNEL_TRANSIENT,
    ...(err.retryAfterMs !== undefined ? { details: [err.retryAfterMs] } : {}),
  });
}

/**
 * `fn` with the domain's refusals made the failures workflows read (`activityFailure`); a channel's refusal is
 * also handed to `onChannelError` (the worker logs its words: tenant-safe, never an address or a key).
 */
export function withActivityFailures<A extends unknown[], R>(
  fn: (...args: A) => Promise<R>,
  onChannelError?: (err: ConnectorError) => void,
): (...args: A) => Promise<R> {
  return async (...args: A): Promise<R> => {
    try {
      return await fn(...args);
    } catch (err) {
      if (err instanceof ConnectorError) onChannelError?.(err);
      throw activityFailure(err);
    }
  };
}

/** What a tenant reads for a failure of ours in workflow `workflowId`. */
export const internalErrorText = (workflowId: string): string => `internal error; quote ${workflowId}`;

/** Logs `err` as the cause of a failure in `what`, with the workflow id; the text the tenant reads instead. */
export function reportInternalError(what: string, err: unknown): string {
  const { info, log } = Context.current();
  const workflowId = info.workflowExecution?.workflowId ?? `activity ${info.activityId}`;
  const cause = err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : { message: String(err) };
  log.error(`${what} failed on an internal error`, { workflowId, cause });
  return internalErrorText(workflowId);
}

/**
 * `err` as the failure a tenant may read: an ApplicationFailure or one of
 * the domain's refusals (the texts we write deliberately, a connector's
 * included) as it is; anything else as a retryable failure carrying only the
 * internal-error text, its cause logged.
 */
export function safeFailure(what: string, err: unknown): ApplicationFailure {
  const failure = activityFailure(err);
  if (failure instanceof ApplicationFailure) return failure;
  return ApplicationFailure.retryable(reportInternalError(what, err), 'InternalError');
}

/** `fn` with its failures made safe (`safeFailure`): what the workflow records of a failed run is then fit to show. */
export function withSafeFailures<A extends unknown[], R>(what: string, fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A): Promise<R> => {
    try {
      return await fn(...args);
    } catch (err) {
      throw safeFailure(what, err);
    }
  };
}
