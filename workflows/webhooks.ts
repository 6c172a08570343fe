import { ActivityFailure, continueAsNew, proxyActivities, sleep, upsertMemo, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities/index';
import type { AttemptResult } from '../activities/webhooks';
import { OfferopsState } from '../temporal/names';
import { DeliveryAttempt, DeliveryInput, DeliveryMemo, DeliveryState, WebhookCleanupInput } from '../temporal/workflows';
import { countWebhookAttempt } from './metrics';
import { spoken } from './send-timing';

/** Standard Webhooks / Svix schedule: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_DELAYS_MS = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** Each attempt is its own activity run, so history holds every attempt with its outcome. */
const { attemptWebhookDelivery } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 1 },
});

const { purgeWebhookDeliveries } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** ±10% jitter, deterministic under replay (the workflow's Math.random is seeded). */
const jitter = (ms: number): number => Math.round(ms * (0.9 + Math.random() * 0.2));

/**
 * Delivers one event to one webhook (`webhook-delivery-<whk>-<evt>`): one
 * signed attempt after each delay until a 2xx; 410 disables the webhook
 * and stops; a deleted or disabled webhook stops it. A destination the
 * attempting worker refuses is a failed attempt like any other. The memo mirrors the state
 * and every attempt, which is what GET /webhooks/{id}/deliveries lists.
 */
export async function webhookDelivery(input: DeliveryInput): Promise<{ state: DeliveryState; attempts: number }> {
  const delays = input.delays_ms ?? RETRY_DELAYS_MS;
  // A redelivery lists the attempts of the runs before it first, and numbers its own after them.
  const attempts: DeliveryAttempt[] = [...(input.earlier_attempts ?? [])];
  const earlier = attempts.length;
  const after = attempts[earlier - 1]?.attempt ?? 0;
  const numbered = (i: number) => after + i + 1;
  let mirrored: DeliveryState = 'pending'; // what the start set
  const record = (state: DeliveryState, nextAt: number | null) => {
    const delivery: DeliveryMemo = {
      webhook_id: input.webhook_id,
      event_id: input.event_id,
      event_kind: input.event_kind,
      state,
      attempts,
      next_attempt_at: nextAt === null ? null : new Date(nextAt).toISOString(),
      updated_at: new Date().toISOString(),
    };
    upsertMemo({ delivery });
    if (state !== mirrored) {
      upsertSearchAttributes([{ key: OfferopsState, value: state }]);
      mirrored = state;
    }
  };
  for (let i = 0; i < delays.length; i++) {
    if (delays[i]! > 0) {
      const wait = jitter(delays[i]!);
      record(i === 0 ? 'pending' : 'retrying', Date.now() + wait);
      await sleep(wait, { summary: `wait ${spoken(delays[i]!)} before attempt ${numbered(i)}` });
    }
    let result: AttemptResult;
    try {
      // The host is the one the URL had at dispatch.
      result = await attemptWebhookDelivery.executeWithOptions({ summary: `POST to ${input.host} attempt ${numbered(i)}` }, [input]);
    } catch (err) {
      // An attempt that did not complete (a worker lost, a failure of ours) is a failed attempt: the schedule goes on.
      if (!(err instanceof ActivityFailure)) throw err;
      const why = err.cause?.message ?? err.message;
      result = {
        outcome: 'failed',
        at: new Date().toISOString(),
        http_status: null,
        duration_ms: 0,
        error: `the attempt did not complete: ${why}`,
      };
    }
    const { outcome, ...attempt } = result;
    countWebhookAttempt(outcome);
    attempts.push({ attempt: numbered(i), ...attempt });
    if (outcome === 'succeeded') {
      record('succeeded', null);
      return { state: 'succeeded', attempts: attempts.length - earlier };
    }
    if (outcome === 'gone' || outcome === 'stopped') break;
  }
  record('failed', null);
  return { state: 'failed', attempts: attempts.length - earlier };
}

/** Pause between two purge passes: long enough for visibility to show what was just started or deleted. */
export const CLEANUP_INTERVAL_MS = 10_000;

/**
 * Removes the delivery executions of a deleted webhook
 * (`webhook-cleanup-<whk>`, started by the dispatch of its `webhook.deleted`
 * event). Visibility lags and a dispatch already under way may still start a
 * delivery, so it purges pass after pass, and ends on a pass, at least one
 * interval after the first, that finds nothing.
 */
export async function webhookCleanup(input: WebhookCleanupInput): Promise<{ passes: number }> {
  for (let pass = 1; ; pass++) {
    const { listed } = await purgeWebhookDeliveries.executeWithOptions({ summary: `purge pass ${pass}` }, [input]);
    if (listed === 0 && pass > 1) return { passes: pass };
    if (workflowInfo().continueAsNewSuggested) return continueAsNew<typeof webhookCleanup>(input);
    await sleep(CLEANUP_INTERVAL_MS, { summary: `let visibility catch up before pass ${pass + 1}` });
  }
}
