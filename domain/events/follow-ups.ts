/**
 * What the dispatch of a domain event does besides handing it to webhooks:
 * the removals a deletion leaves to the background. Riding on the event makes
 * each as sure as the event itself (the outbox sweep dispatches what a crashed
 * API left); each is idempotent, since a dispatch activity may run again.
 * Their kinds are FOLLOW_UP_KINDS (./commit.ts), which are always dispatched.
 */
import { startWebhookCleanup, TemporalDeps } from '../../temporal/start';
import { deleteTemporalSchedule } from '../schedule-handle';
import { DomainEvent } from './store';

/**
 * `webhook.deleted`: the removal of the webhook's delivery executions (one
 * `webhookCleanup` per webhook). `schedule.deleted`: the schedule's Temporal
 * Schedule, which the API deletes right after the record — unless it died in
 * between (a paused leftover would never run, so its own run could not remove it).
 */
export async function followUp(temporal: TemporalDeps, event: DomainEvent): Promise<void> {
  if (event.kind === 'webhook.deleted') {
    await startWebhookCleanup(temporal, { webhook_id: event.data.webhook_id as string, account: event.account, environment: event.environment });
  }
  if (event.kind === 'schedule.deleted') await deleteTemporalSchedule(temporal, event.data.schedule_id as string);
}
