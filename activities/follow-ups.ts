/**
 * What the dispatch of a domain event does besides handing it to webhooks:
 * the removals a deletion leaves to the background. Riding on the event makes
 * each as sure as the event itself (the outbox sweep dispatches what a crashed
 * API left); each is idempotent, since a dispatch activity may run again.
 * Their kinds are FOLLOW_UP_KINDS (domain/events/commit.ts), which are always
 * dispatched.
 */
import { deleteTemporalSchedule } from '../domain/schedules/temporal';
import { DomainEvent } from '../domain/events/store';
import { startWebhookCleanup } from '../temporal/start';
import type { ActivityDeps } from './deps';

export function createFollowUps(deps: ActivityDeps): (event: DomainEvent) => Promise<void> {
  const temporal = { client: deps.temporal, taskQueue: deps.taskQueue };

  /** `webhook.deleted`: the removal of the webhook's delivery executions (one `webhookCleanup` per webhook). */
  const cleanUpWebhook = (event: DomainEvent): Promise<void> =>
    startWebhookCleanup(temporal, { webhook_id: event.data.webhook_id as string, account: event.account, environment: event.environment });

  /**
   * `schedule.deleted`: the schedule's Temporal Schedule, which the API
   * deletes right after the record — unless it died in between. A paused
   * leftover would never run, so its own run could not remove it.
   */
  async function removeTemporalSchedule(event: DomainEvent): Promise<void> {
    await deleteTemporalSchedule(temporal, event.data.schedule_id as string);
  }

  return async (event) => {
    if (event.kind === 'webhook.deleted') await cleanUpWebhook(event);
    if (event.kind === 'schedule.deleted') await removeTemporalSchedule(event);
  };
}
