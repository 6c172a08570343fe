/**
 * Webhooks: subscriptions to event kinds of the catalogue at an HTTPS URL
 * that passes the destination rules (destinations.ts), with a signing secret
 * shown once and stored sealed; and their deliveries, read from Temporal
 * visibility (search attributes and memo), not from a copy in MongoDB.
 */
import { randomBytes } from 'node:crypto';
import { WorkflowExecutionDescription, WorkflowExecutionInfo, WorkflowNotFoundError } from '@temporalio/client';
import { Schema } from '../../schemas/types';
import { Page, PageResult, Tenant } from '../db';
import { conflict, invalid, notFound } from '../errors';
import { commitEvents } from '../events/commit';
import { prepareEvent } from '../events/store';
import { changedFields, DomainDeps, found, written } from '../resource';
import { seal } from '../sealing';
import { deliveryWorkflowId, OfferopsEventKind } from '../../temporal/names';
import { DeliveryMemo, EARLIER_ATTEMPTS_KEPT } from '../../temporal/workflows';
import { startRedelivery } from '../../temporal/start';
import { deleteDeliveryRun } from './delivery';
import { checkDestination, DestinationError } from './destinations';
import { deliveriesQuery, toWebhook } from './record';
import { deleteWebhook, getWebhook, insertWebhook, saveWebhook, WebhookDoc, WebhookFields, WebhookState } from './store';

export { listWebhooks } from './store';

/** What webhook operations need besides the database and Temporal. */
export interface WebhookDeps extends DomainDeps {
  /** Seals the signing secret. */
  secretKey: Buffer;
  /** Hosts or addresses webhooks may point to although private or loopback (OFFEROPS_WEBHOOK_ALLOW). */
  webhookAllow?: readonly string[];
}

const FIELDS = ['url', 'events', 'description', 'state'] as const satisfies readonly (keyof WebhookFields)[];

async function checkUrl(deps: WebhookDeps, url: string): Promise<void> {
  try {
    await checkDestination(url, deps.webhookAllow ?? []);
  } catch (err) {
    if (!(err instanceof DestinationError)) throw err;
    const hint = err.allowable
      ? ' Loopback and private addresses are refused; an operator allows named hosts or addresses with OFFEROPS_WEBHOOK_ALLOW (a comma list, read by the API and the worker).'
      : '';
    throw invalid('validation_failed', `The URL is not an allowed destination: ${err.message}.${hint}`, [
      { location: 'body', field: 'url', rule: 'destination', message: err.message },
    ]);
  }
}

export const mustGetWebhook = async (deps: DomainDeps, tenant: Tenant, id: string): Promise<WebhookDoc> =>
  found(await getWebhook(deps.db, tenant, id), 'webhook', id);

/** Creates the webhook; the signing secret `whsec_…` is returned here only, and stored sealed. */
export async function createWebhook(
  deps: WebhookDeps,
  tenant: Tenant,
  input: Schema<'WebhookCreate'>,
): Promise<{ webhook: WebhookDoc; secret: string }> {
  const fields: WebhookFields = {
    url: input.url,
    events: input.events,
    description: input.description ?? null,
    state: input.state ?? 'enabled',
    disabled_reason: input.state === 'disabled' ? 'manual' : null,
  };
  await checkUrl(deps, fields.url);
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const webhook = await insertWebhook(deps.db, tenant, fields, seal(secret, deps.secretKey), (w) =>
    prepareEvent(tenant, 'webhook.created', { webhook: toWebhook(w) }),
  );
  await commitEvents(deps, 'webhooks', webhook._id);
  return { webhook, secret };
}

/** Changes the fields sent (never the secret); disabling by hand records the reason `manual`. */
export async function updateWebhook(
  deps: WebhookDeps,
  tenant: Tenant,
  id: string,
  input: Schema<'WebhookUpdate'> | undefined,
): Promise<WebhookDoc> {
  const webhook = await mustGetWebhook(deps, tenant, id);
  const set: Partial<WebhookFields> = changedFields<WebhookFields, (typeof FIELDS)[number]>(webhook, input ?? {}, FIELDS);
  if (set.state !== undefined) set.disabled_reason = set.state === 'disabled' ? 'manual' : null;
  // Re-enabling checks the destination again: it may have been disabled as refused (destination_refused).
  if (set.url !== undefined || set.state === 'enabled') await checkUrl(deps, set.url ?? webhook.url);
  const changed = Object.keys(set);
  if (!changed.length) return webhook;
  const updated = written(
    await saveWebhook(deps.db, tenant, webhook, set, (after) => prepareEvent(tenant, 'webhook.updated', { webhook: toWebhook(after), changed })),
    'webhook',
  );
  await commitEvents(deps, 'webhooks', webhook._id);
  return updated;
}

/**
 * Removes the webhook. Its delivery executions go with it: the dispatch of the
 * `webhook.deleted` event starts `webhookCleanup`, which terminates and
 * deletes them in Temporal (and, riding on the outbox, happens even if this
 * process dies right after the write).
 */
export async function removeWebhook(deps: DomainDeps, tenant: Tenant, id: string): Promise<void> {
  const webhook = await mustGetWebhook(deps, tenant, id);
  if (!(await deleteWebhook(deps.db, tenant, webhook._id, prepareEvent(tenant, 'webhook.deleted', { webhook_id: webhook._id })))) {
    throw notFound('webhook', webhook._id); // deleted by a concurrent request
  }
  await commitEvents(deps, 'webhooks', webhook._id);
}

/** A delivery as the API shows it, from its visibility record (search attributes and memo). */
function toDelivery(webhookId: string, e: Omit<WorkflowExecutionInfo, 'raw'>) {
  const memo = e.memo?.delivery as DeliveryMemo | undefined;
  const running = e.status.name === 'RUNNING';
  let state = memo?.state ?? (running ? 'pending' : 'failed');
  // Stopped from outside (terminated, timed out) while waiting: it will not be retried.
  if (!running && (state === 'pending' || state === 'retrying')) state = 'failed';
  return {
    id: e.workflowId,
    webhook_id: webhookId,
    event_id: e.workflowId.slice(deliveryWorkflowId(webhookId, '').length),
    // Every start sets both (deliveryStartOptions): `unknown.kind` stands for an execution started some other way.
    event_kind: memo?.event_kind || (e.typedSearchAttributes.get(OfferopsEventKind) ?? 'unknown.kind'),
    state,
    attempts: memo?.attempts ?? [],
    next_attempt_at: state === 'pending' || state === 'retrying' ? (memo?.next_attempt_at ?? null) : null,
    created_at: e.startTime.toISOString(),
    updated_at: memo?.updated_at ?? (e.closeTime ?? e.startTime).toISOString(),
  };
}

export type Delivery = ReturnType<typeof toDelivery>;

/**
 * Deliveries straight from Temporal visibility, in its order: those still
 * under way first, then finished ones, the most recently finished first.
 * `offset`/`limit` page through that list; `total` is visibility's count.
 */
export async function listDeliveries(
  deps: DomainDeps,
  tenant: Tenant,
  id: string,
  filter: { state?: string; event_kind?: string },
  page: Page,
): Promise<PageResult<Delivery>> {
  const webhook = await mustGetWebhook(deps, tenant, id);
  const query = deliveriesQuery(tenant, webhook._id, filter);
  const { client } = deps.temporal;
  const items: Delivery[] = [];
  let seen = 0;
  // A redelivered event's failed run stays in visibility a while after its deletion (redeliver): only its newest
  // run, listed first (running, or the most recently closed), is its delivery.
  const ids = new Set<string>();
  for await (const execution of client.workflow.list({ query, pageSize: Math.min(1000, page.offset + page.limit) })) {
    if (ids.has(execution.workflowId)) continue;
    ids.add(execution.workflowId);
    if (seen++ < page.offset) continue;
    items.push(toDelivery(webhook._id, execution));
    if (items.length === page.limit) break;
  }
  const { count } = await client.workflow.count(query);
  return { items, total: Math.max(count, page.offset + items.length) };
}

export type { WebhookState };

/**
 * Delivers the event of a failed delivery of the tenant's webhook `id` again
 * (a new run of the same delivery workflow, so the receiver gets the same
 * `webhook-id`); 409 when the delivery is not failed, 404 when it is not one
 * of this webhook's. The new run carries the earlier attempts (the last
 * EARLIER_ATTEMPTS_KEPT) and the failed run is then deleted: the listing keeps
 * one delivery per event, its attempts in order.
 */
export async function redeliver(deps: DomainDeps, tenant: Tenant, id: string, deliveryId: string): Promise<void> {
  const webhook = await mustGetWebhook(deps, tenant, id);
  const prefix = deliveryWorkflowId(webhook._id, '');
  if (!deliveryId.startsWith(prefix)) throw notFound('delivery', deliveryId);
  const { client } = deps.temporal;
  let failed: WorkflowExecutionDescription;
  try {
    failed = await client.workflow.getHandle(deliveryId).describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw notFound('delivery', deliveryId);
    throw err;
  }
  const delivery = toDelivery(webhook._id, failed);
  if (delivery.state !== 'failed') throw conflict('conflict', `The delivery is ${delivery.state}; only a failed delivery is delivered again.`);
  await startRedelivery(deps.temporal, {
    webhook_id: webhook._id,
    event_id: delivery.event_id,
    event_kind: delivery.event_kind,
    account: tenant.accountId,
    environment: tenant.env,
    host: new URL(webhook.url).hostname,
    earlier_attempts: delivery.attempts.slice(-EARLIER_ATTEMPTS_KEPT),
  });
  // After the start: a failure here leaves the failed run listed beside the new one, nothing lost.
  await deleteDeliveryRun(client, failed.workflowId, failed.runId);
}
