/**
 * Webhook delivery: who receives an event, one signed HTTPS attempt, and the
 * removal of a deleted webhook's deliveries. Each attempt is signed as
 * Standard Webhooks says (./signature.ts), its `webhook-id` the event id,
 * the same on every retry.
 */
import { request } from 'node:https';
import { LookupFunction } from 'node:net';
import { Client, isGrpcServiceError } from '@temporalio/client';
import { Tenant } from '../db';
import { networkCause } from '../network-cause';
import { commitEvents } from '../events/commit';
import { followUp } from '../events/follow-ups';
import { eventById, getEvent, prepareEvent } from '../events/store';
import { DomainDeps } from '../resource';
import { unseal } from '../sealing';
import { checkDestination, DestinationError, pinnedLookup } from './destinations';
import { deliveriesQuery, toWebhook } from './record';
import { signatureHeaders } from './signature';
import { getWebhook, recordDeliveryAttempt, saveWebhook, subscribedWebhooks } from './store';

/** A 2xx within this time succeeds: connection, TLS, request and response headers, all told. */
export const ATTEMPT_TIMEOUT_MS = 15_000;
/** Executions one purge pass deletes at most (one visibility page). */
const PURGE_BATCH = 500;
const GRPC_NOT_FOUND = 5;

/** What an attempt needs besides the database and Temporal. */
export interface AttemptDeps extends DomainDeps {
  /** Unseals the webhook's secret. */
  secretKey: Buffer;
  /** Hosts or addresses webhooks may reach although private or loopback (OFFEROPS_WEBHOOK_ALLOW). */
  webhookAllow?: readonly string[];
  /** Extra CA certificate (PEM) trusted for webhook destinations. */
  webhookCa?: string;
  /** How long an attempt may take in all (default ATTEMPT_TIMEOUT_MS). */
  webhookTimeoutMs?: number;
  /** Logs a failure of ours in `what`; the text the tenant reads instead. */
  internalError: (what: string, err: unknown) => string;
}

export interface AttemptResult {
  /**
   * `stopped`: nothing was sent, the webhook was deleted or disabled (or the event is gone).
   * `gone` (410) disables the webhook and is not retried.
   */
  outcome: 'succeeded' | 'failed' | 'gone' | 'stopped';
  at: string;
  http_status: number | null;
  duration_ms: number;
  error: string | null;
}

export interface WebhookTargets {
  account: string;
  environment: Tenant['env'];
  /** The event's kind ('' when the event does not exist). */
  kind: string;
  webhook_ids: string[];
  /** The host of each webhook's URL (never its path or query), for summaries. */
  hosts: string[];
}

/** A failure of the attempt itself (no answer in time, no connection, TLS refused), worded for the tenant. */
class AttemptError extends Error {}

/** The network failure `err` as the tenant reads it: its cause in words and code (domain/network-cause.ts). */
const unreachable = (err: unknown): AttemptError => new AttemptError(`the destination could not be reached: ${networkCause(err)}`);

/**
 * One POST to the checked addresses only (the resolver is replaced, so the
 * connection cannot reach an address that was not checked); never follows a
 * redirect; gives up after `timeoutMs` in all. Resolves with the status; rejects with
 * an AttemptError when the destination did not answer.
 */
function post(url: string, pinned: LookupFunction, headers: Record<string, string>, body: string, tls: { ca?: string; timeoutMs: number }) {
  return new Promise<number>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
        lookup: pinned,
        agent: false, // a fresh connection per attempt: nothing pooled from an earlier resolution
        ...(tls.ca ? { ca: tls.ca } : {}),
      },
      (res) => {
        clearTimeout(timer);
        res.on('error', () => undefined); // the body is not needed, nor its errors
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    const timer = setTimeout(() => req.destroy(new AttemptError(`no answer within ${tls.timeoutMs / 1000} s`)), tls.timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err instanceof AttemptError ? err : unreachable(err));
    });
    req.end(body);
  });
}

/** Disables the webhook (with its event) on a 410 answer: the destination is gone for good. */
async function disableGone(deps: DomainDeps, tenant: Tenant, id: string): Promise<void> {
  for (let tries = 0; tries < 5; tries++) {
    const current = await getWebhook(deps.db, tenant, id);
    if (!current || current.state === 'disabled') return;
    const changed = ['state', 'disabled_reason'];
    const done = await saveWebhook(deps.db, tenant, current, { state: 'disabled', disabled_reason: 'gone' }, (after) =>
      prepareEvent(tenant, 'webhook.updated', { webhook: toWebhook(after), changed }),
    );
    if (done) {
      await commitEvents(deps, 'webhooks', id);
      return;
    }
  }
  throw new Error('the webhook kept changing; the disable will be retried');
}

/**
 * The enabled webhooks of the event's account and environment subscribed
 * to its kind, after the event's follow-ups (domain/events/follow-ups.ts:
 * a deleted webhook's deliveries, a deleted schedule's Temporal Schedule).
 */
export async function webhookTargets(deps: DomainDeps, eventId: string): Promise<WebhookTargets> {
  const event = await eventById(deps.db, eventId);
  if (!event) return { account: '', environment: 'live', kind: '', webhook_ids: [], hosts: [] };
  await followUp(deps.temporal, event);
  const hooks = await subscribedWebhooks(deps.db, { accountId: event.account, env: event.environment }, event.kind);
  return {
    account: event.account,
    environment: event.environment,
    kind: event.kind,
    webhook_ids: hooks.map((h) => h._id),
    hosts: hooks.map((h) => new URL(h.url).hostname),
  };
}

/**
 * One delivery attempt of event `eventId` to webhook `webhookId`: its
 * outcome, HTTP status, duration and error. The tenant reads the error: a
 * failure of ours (the database, unsealing the secret) shows as the
 * internal-error text only (`deps.internalError`).
 */
export async function attemptDelivery(deps: AttemptDeps, tenant: Tenant, webhookId: string, eventId: string): Promise<AttemptResult> {
  const started = Date.now();
  const at = new Date(started).toISOString();
  const [webhook, event] = await Promise.all([getWebhook(deps.db, tenant, webhookId), getEvent(deps.db, tenant, eventId)]);
  const result = (outcome: AttemptResult['outcome'], http_status: number | null, error: string | null) => ({
    outcome,
    at,
    http_status,
    duration_ms: Date.now() - started,
    error,
  });
  if (!webhook || !event) return result('stopped', null, 'not sent: the webhook or the event no longer exists');
  if (webhook.state !== 'enabled') return result('stopped', null, 'not sent: the webhook is disabled');
  const body = JSON.stringify(event);
  let status: number;
  try {
    const addresses = await checkDestination(webhook.url, deps.webhookAllow ?? []);
    await recordDeliveryAttempt(deps.db, tenant, webhook._id, new Date(started));
    const headers = signatureHeaders(unseal(webhook.secret, deps.secretKey), event.id, new Date(started), body);
    status = await post(webhook.url, pinnedLookup(addresses, deps.webhookAllow ?? []), headers, body, {
      ca: deps.webhookCa,
      timeoutMs: deps.webhookTimeoutMs ?? ATTEMPT_TIMEOUT_MS,
    });
  } catch (err) {
    // A refusal by this worker's allow-list fails this attempt only: another worker (or this one, reconfigured)
    // may be allowed to reach the host, so the schedule goes on and the webhook stays as it is.
    const why =
      err instanceof DestinationError && err.allowable
        ? `destination refused by this worker: ${err.message} (its OFFEROPS_WEBHOOK_ALLOW does not name it)`
        : err instanceof DestinationError
          ? `destination refused: ${err.message}`
          : err instanceof AttemptError
            ? err.message
            : deps.internalError('a webhook attempt', err);
    return result('failed', null, why);
  }
  if (status >= 200 && status < 300) return result('succeeded', status, null);
  if (status === 410) {
    await disableGone(deps, tenant, webhook._id);
    return result('gone', status, 'the destination answered 410 Gone: webhook disabled');
  }
  const why = status >= 300 && status < 400 ? `redirect (${status}) not followed` : `the destination answered ${status}`;
  return result('failed', status, why);
}

/** Deletes one run of a delivery execution (a running one is terminated by it); gone already is fine. */
export async function deleteDeliveryRun(client: Client, workflowId: string, runId: string): Promise<void> {
  try {
    await client.workflowService.deleteWorkflowExecution({ namespace: client.options.namespace, workflowExecution: { workflowId, runId } });
  } catch (err) {
    if (!(isGrpcServiceError(err) && Number(err.code) === GRPC_NOT_FOUND)) throw err;
  }
}

/**
 * Deletes up to one visibility page of a webhook's delivery executions
 * (a running one is terminated by its deletion); how many were listed.
 * Visibility lags, so some listed may be deleted already: not found is fine.
 */
export async function purgeDeliveries(client: Client, tenant: Tenant, webhookId: string): Promise<number> {
  const query = deliveriesQuery(tenant, webhookId);
  let listed = 0;
  for await (const execution of client.workflow.list({ query, pageSize: PURGE_BATCH })) {
    await deleteDeliveryRun(client, execution.workflowId, execution.runId);
    if (++listed >= PURGE_BATCH) break;
  }
  return listed;
}
