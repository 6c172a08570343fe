/**
 * What the workflows count, through the SDK's metric meter: the worker's
 * Prometheus exporter serves them (docs/operations/observability.md). The
 * SDK drops what a replay would count twice.
 */
import { metricMeter } from '@temporalio/workflow';

/** A send to a group or a reply ended `sent` or `failed`; or an attempt of it failed and it is `retried`. */
export type SendOutcome = 'sent' | 'failed' | 'retried';

/** Counts `n` sends (publication groups, replies) by outcome. */
export function countSends(outcome: SendOutcome, n = 1): void {
  if (n > 0) metricMeter.createCounter('offerops_sends', 'sends', 'Sends to chat groups and contacts, by outcome').add(n, { outcome });
}

/** Counts a wait for a pacing slot, and how long it is. */
export function countPacingWait(ms: number): void {
  metricMeter
    .createHistogram('offerops_pacing_wait_seconds', 'float', 's', 'Waits for a pacing slot (count and seconds waited)')
    .record(ms / 1000);
}

/** Counts a webhook delivery attempt by outcome (`succeeded`, `failed`, `gone`, `refused`, `stopped`). */
export function countWebhookAttempt(outcome: string): void {
  metricMeter.createCounter('offerops_webhook_attempts', 'attempts', 'Webhook delivery attempts, by outcome').add(1, { outcome });
}
