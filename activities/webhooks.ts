/**
 * Webhook delivery: who receives an event, and one signed HTTPS attempt.
 * Signing follows Standard Webhooks: `webhook-id` (the event id, the same on
 * every retry), `webhook-timestamp`, `webhook-signature: v1,<base64
 * HMAC-SHA256(secret, "id.timestamp.body")>`.
 */
import { createHmac } from 'node:crypto';
import { request } from 'node:https';
import { commitEvents } from '../api/events';
import { checkDestination, DestinationError } from '../api/destinations';
import { unseal } from '../api/crypto';
import { Environment, Tenant } from '../api/store/db';
import { eventById, getEvent, prepareEvent } from '../api/store/events';
import { getWebhook, subscribedWebhooks, updateWebhook } from '../api/store/webhooks';
import { toWebhook } from '../api/webhooks';
import type { ActivityDeps } from './index';

export const ATTEMPT_TIMEOUT_MS = 15_000;

export interface AttemptInput {
  webhook_id: string;
  event_id: string;
  account: string;
  environment: Environment;
}

export interface AttemptResult {
  outcome: 'succeeded' | 'failed' | 'gone' | 'stopped';
  at: string;
  http_status: number | null;
  duration_ms: number;
  error: string | null;
}

export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** One POST to a checked, pinned address; never follows a redirect. */
function post(url: string, address: { address: string; family: 4 | 6 }, headers: Record<string, string>, body: string, ca?: string) {
  return new Promise<number>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
        timeout: ATTEMPT_TIMEOUT_MS,
        lookup: (_host, _opts, callback) => callback(null, address.address, address.family),
        ...(ca ? { ca } : {}),
      },
      (res) => {
        res.resume(); // the body is not needed
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    req.end(body);
  });
}

export function createWebhookActivities(deps: ActivityDeps) {
  const eventDeps = { db: deps.db, temporal: { client: deps.temporal, taskQueue: deps.taskQueue } };
  const allow = deps.webhookAllow ?? [];

  /** A 410 answer: the destination is gone for good, so the webhook is disabled (with its event). */
  async function disableGone(tenant: Tenant, id: string): Promise<void> {
    for (let tries = 0; tries < 5; tries++) {
      const current = await getWebhook(deps.db, tenant, id);
      if (!current || current.state === 'disabled') return;
      const changed = ['state', 'disabled_reason'];
      const done = await updateWebhook(deps.db, tenant, current, { state: 'disabled', disabled_reason: 'gone', last_delivery_at: new Date() }, (after) =>
        prepareEvent(tenant, 'webhook.updated', { webhook: toWebhook(after), changed }),
      );
      if (done) {
        await commitEvents(eventDeps, 'webhooks', id);
        return;
      }
    }
    throw new Error('the webhook kept changing; the disable will be retried');
  }

  return {
    /** The enabled webhooks of the event's account and environment subscribed to its kind. */
    async webhookTargets(input: { event_id: string }): Promise<{ account: string; environment: Environment; webhook_ids: string[] }> {
      const event = await eventById(deps.db, input.event_id);
      if (!event) return { account: '', environment: 'live', webhook_ids: [] };
      const hooks = await subscribedWebhooks(deps.db, { accountId: event.account, env: event.environment }, event.kind);
      return { account: event.account, environment: event.environment, webhook_ids: hooks.map((h) => h._id) };
    },

    /** One delivery attempt: its outcome, HTTP status, duration and error. */
    async attemptWebhookDelivery(input: AttemptInput): Promise<AttemptResult & { event_kind: string }> {
      const tenant: Tenant = { accountId: input.account, env: input.environment };
      const started = Date.now();
      const at = new Date(started).toISOString();
      const result = (outcome: AttemptResult['outcome'], http_status: number | null, error: string | null) => ({
        outcome,
        at,
        http_status,
        duration_ms: Date.now() - started,
        error,
      });
      const [webhook, event] = await Promise.all([getWebhook(deps.db, tenant, input.webhook_id), getEvent(deps.db, tenant, input.event_id)]);
      const kind = event?.kind ?? '';
      if (!webhook || !event) return { ...result('stopped', null, 'the webhook or the event no longer exists'), event_kind: kind };
      if (webhook.state !== 'enabled') return { ...result('stopped', null, 'the webhook is disabled'), event_kind: kind };
      const body = JSON.stringify(event);
      const timestamp = Math.floor(started / 1000);
      try {
        const address = await checkDestination(webhook.url, allow);
        const status = await post(
          webhook.url,
          address,
          {
            'webhook-id': event.id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signature(unseal(webhook.secret, deps.secretKey), event.id, timestamp, body),
          },
          body,
          deps.webhookCa,
        );
        if (status >= 200 && status < 300) {
          await updateWebhook(deps.db, tenant, webhook, { last_delivery_at: new Date() });
          return { ...result('succeeded', status, null), event_kind: kind };
        }
        if (status === 410) {
          await disableGone(tenant, webhook._id);
          return { ...result('gone', status, 'the destination answered 410 Gone: webhook disabled'), event_kind: kind };
        }
        await updateWebhook(deps.db, tenant, webhook, { last_delivery_at: new Date() });
        const why = status >= 300 && status < 400 ? `redirect (${status}) not followed` : `the destination answered ${status}`;
        return { ...result('failed', status, why), event_kind: kind };
      } catch (err) {
        const why = err instanceof DestinationError ? `destination refused: ${err.message}` : (err as Error).message;
        return { ...result('failed', null, why), event_kind: kind };
      }
    },
  };
}
