/** The activities of event dispatch and webhook delivery, over domain/webhooks/delivery.ts. */
import { Environment, Tenant } from '../domain/db';
import { attemptDelivery, AttemptResult, purgeDeliveries, webhookTargets as targets, WebhookTargets } from '../domain/webhooks/delivery';
import { ActivityDeps, domainDeps } from './deps';
import { reportInternalError, withSafeFailures } from './failures';

export type { AttemptResult, WebhookTargets };

export interface AttemptInput {
  webhook_id: string;
  event_id: string;
  account: string;
  environment: Environment;
}

/** The webhooks subscribed to the event, after its follow-ups. */
export async function webhookTargets(deps: ActivityDeps, input: { event_id: string }): Promise<WebhookTargets> {
  return targets(domainDeps(deps), input.event_id);
}

/**
 * One delivery attempt: its outcome, HTTP status, duration and error. A
 * failure of ours shows as the internal-error text only, in the result and
 * (withSafeFailures) when the activity itself fails.
 */
export const attemptWebhookDelivery = withSafeFailures(
  'a webhook attempt',
  (deps: ActivityDeps, input: AttemptInput): Promise<AttemptResult> => {
    const tenant: Tenant = { accountId: input.account, env: input.environment };
    return attemptDelivery({ ...deps, ...domainDeps(deps), internalError: reportInternalError }, tenant, input.webhook_id, input.event_id);
  },
);

/** Deletes up to one visibility page of a deleted webhook's delivery executions; how many were listed. */
export async function purgeWebhookDeliveries(
  deps: ActivityDeps,
  input: { webhook_id: string; account: string; environment: Environment },
): Promise<{ listed: number }> {
  return { listed: await purgeDeliveries(deps.temporal, { accountId: input.account, env: input.environment }, input.webhook_id) };
}
