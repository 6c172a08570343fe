/**
 * What the dispatch of a domain event does besides handing it to webhooks:
 * the removals a deletion leaves to the background. Riding on the event makes
 * each as sure as the event itself (the outbox sweep dispatches what a crashed
 * API left); each is idempotent, since a dispatch activity may run again.
 */
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { deleteTemporalSchedule } from '../api/schedules';
import { DomainEvent } from '../api/store/events';
import { cleanupWorkflowId } from '../api/webhooks';
import { TASK_QUEUE } from '../workflows/constants';
import { offeropsSearchAttributes } from '../workflows/search-attributes';
import type { ActivityDeps } from './index';

export function createFollowUps(deps: ActivityDeps): (event: DomainEvent) => Promise<void> {
  const taskQueue = deps.taskQueue ?? TASK_QUEUE;

  /** `webhook.deleted`: the removal of the webhook's delivery executions (one `webhookCleanup` per webhook). */
  async function cleanUpWebhook(event: DomainEvent): Promise<void> {
    const webhookId = event.data.webhook_id as string;
    try {
      await deps.temporal.workflow.start('webhookCleanup', {
        workflowId: cleanupWorkflowId(webhookId),
        taskQueue,
        args: [{ webhook_id: webhookId, account: event.account, environment: event.environment }],
        typedSearchAttributes: offeropsSearchAttributes(event.account, event.environment, webhookId, 'webhook_cleanup'),
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  }

  /**
   * `schedule.deleted`: the schedule's Temporal Schedule, which the API
   * deletes right after the record — unless it died in between. A paused
   * leftover would never run, so its own run could not remove it.
   */
  async function removeTemporalSchedule(event: DomainEvent): Promise<void> {
    await deleteTemporalSchedule({ client: deps.temporal, taskQueue }, event.data.schedule_id as string);
  }

  return async (event) => {
    if (event.kind === 'webhook.deleted') await cleanUpWebhook(event);
    if (event.kind === 'schedule.deleted') await removeTemporalSchedule(event);
  };
}
