import { proxyActivities, sleep, upsertMemo } from '@temporalio/workflow';
import type { Activities } from '../activities/index';
import type { AttemptResult } from '../activities/webhooks';

/** Standard Webhooks / Svix schedule: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_DELAYS_MS = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

export interface DeliveryInput {
  webhook_id: string;
  event_id: string;
  account: string;
  environment: 'live' | 'test';
  /** The retry schedule (tests shorten it). */
  delays_ms?: number[];
}

/** Each attempt is its own activity run, so history holds every attempt with its outcome. */
const { attemptWebhookDelivery } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 1 },
});

/** ±10% jitter, deterministic under replay (the workflow's Math.random is seeded). */
const jitter = (ms: number): number => Math.round(ms * (0.9 + Math.random() * 0.2));

/**
 * Delivers one event to one webhook (`webhook-delivery-<whk>-<evt>`): one
 * signed attempt after each delay until a 2xx; 410 disables the webhook and
 * stops; a deleted or disabled webhook stops it. The memo mirrors the state
 * and every attempt, which is what GET /webhooks/{id}/deliveries lists.
 */
export async function webhookDelivery(input: DeliveryInput): Promise<{ state: string; attempts: number }> {
  const delays = input.delays_ms ?? RETRY_DELAYS_MS;
  const attempts: (Omit<AttemptResult, 'outcome'> & { attempt: number })[] = [];
  let kind = '';
  const record = (state: string, nextAt: number | null) =>
    upsertMemo({
      delivery: {
        webhook_id: input.webhook_id,
        event_id: input.event_id,
        event_kind: kind,
        state,
        attempts,
        next_attempt_at: nextAt === null ? null : new Date(nextAt).toISOString(),
        updated_at: new Date().toISOString(),
      },
    });
  for (let i = 0; i < delays.length; i++) {
    if (delays[i]! > 0) {
      const wait = jitter(delays[i]!);
      record(i === 0 ? 'pending' : 'retrying', Date.now() + wait);
      await sleep(wait);
    }
    const { outcome, event_kind, ...attempt } = await attemptWebhookDelivery(input);
    kind = event_kind;
    attempts.push({ attempt: i + 1, ...attempt });
    if (outcome === 'succeeded') {
      record('succeeded', null);
      return { state: 'succeeded', attempts: attempts.length };
    }
    if (outcome === 'gone' || outcome === 'stopped') break;
  }
  record('failed', null);
  return { state: 'failed', attempts: attempts.length };
}
