import { randomBytes } from 'node:crypto';
import { WorkflowExecutionInfo } from '@temporalio/client';
import { seal } from '../../domain/sealing';
import { checkDestination, DestinationError } from '../../domain/webhooks/destinations';
import { invalid, conflict, notFound } from '../../domain/errors';
import { commitEvents } from '../../domain/events/commit';
import { prepareEvent } from '../../domain/events/store';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, updateWebhook, WebhookDoc, WebhookFields, WebhookState } from '../../domain/webhooks/store';
import { deliveriesQuery, toWebhook } from '../../domain/webhooks/record';
import { EVENT_KINDS } from '../../schemas/events/index';
import { DeliveryMemo, deliveryWorkflowId, OfferopsEventKind } from '../../domain/temporal/names';
import { AppDeps, Handler, listReply, pageOf, Request } from './types';

/** 400 unless every subscribed kind is in the catalogue (or `*`). */
function checkKinds(events: string[]): void {
  const unknown = events.filter((k) => k !== '*' && !EVENT_KINDS.includes(k));
  if (unknown.length) {
    throw invalid(
      'validation_failed',
      `Unknown event kind ${unknown.join(', ')}; known: ${EVENT_KINDS.join(', ')}.`,
      unknown.map((k) => ({ location: 'body' as const, field: 'events', rule: 'catalogue', message: `${k} is not an event kind` })),
    );
  }
}

async function checkUrl(deps: AppDeps, url: string): Promise<void> {
  try {
    await checkDestination(url, deps.webhookAllow ?? []);
  } catch (err) {
    if (!(err instanceof DestinationError)) throw err;
    throw invalid('validation_failed', `The URL is not an allowed destination: ${err.message}.`, [
      { location: 'body', field: 'url', rule: 'destination', message: err.message },
    ]);
  }
}

async function mustGet(req: Request, deps: AppDeps): Promise<WebhookDoc> {
  const webhook = await getWebhook(deps.db, req.tenant, req.params.id!);
  if (!webhook) throw notFound('webhook', req.params.id!);
  return webhook;
}

export const webhooksList: Handler = async (req, deps) => {
  const page = pageOf(req.query);
  const { items, total } = await listWebhooks(deps.db, req.tenant, { state: req.query.state as WebhookState | undefined }, page);
  return listReply(items.map(toWebhook), total, page);
};

export const webhookCreate: Handler = async (req, deps) => {
  const body = req.body!;
  const fields: WebhookFields = {
    url: body.url as string,
    events: body.events as string[],
    description: (body.description as string | undefined) ?? null,
    state: (body.state as WebhookState | undefined) ?? 'enabled',
    disabled_reason: body.state === 'disabled' ? 'manual' : null,
  };
  checkKinds(fields.events);
  await checkUrl(deps, fields.url);
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const webhook = await createWebhook(deps.db, req.tenant, fields, seal(secret, deps.secretKey), (w) =>
    prepareEvent(req.tenant, 'webhook.created', { webhook: toWebhook(w) }),
  );
  await commitEvents(deps, 'webhooks', webhook._id);
  return { status: 201, body: { data: { ...toWebhook(webhook), secret }, created: true } };
};

export const webhookGet: Handler = async (req, deps) => ({ body: { data: toWebhook(await mustGet(req, deps)) } });

export const webhookUpdate: Handler = async (req, deps) => {
  const webhook = await mustGet(req, deps);
  const body = req.body ?? {};
  const set: Partial<WebhookFields> = {};
  if (body.url !== undefined && body.url !== webhook.url) set.url = body.url as string;
  if (body.events !== undefined && JSON.stringify(body.events) !== JSON.stringify(webhook.events)) set.events = body.events as string[];
  if (body.description !== undefined && body.description !== webhook.description) set.description = body.description as string | null;
  if (body.state !== undefined && body.state !== webhook.state) {
    set.state = body.state as WebhookState;
    set.disabled_reason = set.state === 'disabled' ? 'manual' : null;
  }
  if (set.events) checkKinds(set.events);
  if (set.url) await checkUrl(deps, set.url);
  const changed = Object.keys(set);
  if (!changed.length) return { body: { data: toWebhook(webhook) } };
  const updated = await updateWebhook(deps.db, req.tenant, webhook, set, (after) =>
    prepareEvent(req.tenant, 'webhook.updated', { webhook: toWebhook(after), changed }),
  );
  if (!updated) throw conflict('conflict', 'The webhook changed while this request ran; read it again and retry.');
  await commitEvents(deps, 'webhooks', webhook._id);
  return { body: { data: toWebhook(updated) } };
};

/**
 * Removes the webhook. Its delivery executions go with it: the dispatch of the
 * `webhook.deleted` event starts `webhookCleanup`, which terminates and
 * deletes them in Temporal (and, riding on the outbox, happens even if this
 * process dies right after the write).
 */
export const webhookDelete: Handler = async (req, deps) => {
  const webhook = await mustGet(req, deps);
  if (!(await deleteWebhook(deps.db, req.tenant, webhook._id, prepareEvent(req.tenant, 'webhook.deleted', { webhook_id: webhook._id })))) {
    throw notFound('webhook', webhook._id); // deleted by a concurrent request
  }
  await commitEvents(deps, 'webhooks', webhook._id);
  return { body: { deleted: true, id: webhook._id } };
};

/** A delivery as the API shows it, from its visibility record (search attributes and memo). */
function toDelivery(webhookId: string, e: WorkflowExecutionInfo) {
  const memo = e.memo?.delivery as DeliveryMemo | undefined;
  const running = e.status.name === 'RUNNING';
  let state = memo?.state ?? (running ? 'pending' : 'failed');
  // Stopped from outside (terminated, timed out) while waiting: it will not be retried.
  if (!running && (state === 'pending' || state === 'retrying')) state = 'failed';
  return {
    id: e.workflowId,
    webhook_id: webhookId,
    event_id: e.workflowId.slice(deliveryWorkflowId(webhookId, '').length),
    // Only a delivery started before kinds were passed along lacks both, until its first attempt.
    event_kind: memo?.event_kind || (e.typedSearchAttributes.get(OfferopsEventKind) ?? 'unknown.kind'),
    state,
    attempts: memo?.attempts ?? [],
    next_attempt_at: state === 'pending' || state === 'retrying' ? (memo?.next_attempt_at ?? null) : null,
    created_at: e.startTime.toISOString(),
    updated_at: memo?.updated_at ?? (e.closeTime ?? e.startTime).toISOString(),
  };
}

/**
 * Deliveries straight from Temporal visibility, in its order: those still
 * under way first, then finished ones, the most recently finished first.
 * `offset`/`limit` page through that list; `total` is visibility's count.
 */
export const webhookDeliveriesList: Handler = async (req, deps) => {
  const webhook = await mustGet(req, deps);
  const page = pageOf(req.query);
  const query = deliveriesQuery(req.tenant, webhook._id, {
    state: req.query.state as string | undefined,
    event_kind: req.query.event_kind as string | undefined,
  });
  const { client } = deps.temporal;
  const items: ReturnType<typeof toDelivery>[] = [];
  let seen = 0;
  for await (const execution of client.workflow.list({ query, pageSize: Math.min(1000, page.offset + page.limit) })) {
    if (seen++ < page.offset) continue;
    items.push(toDelivery(webhook._id, execution));
    if (items.length === page.limit) break;
  }
  const { count } = await client.workflow.count(query);
  return listReply(items, Math.max(count, page.offset + items.length), page);
};
