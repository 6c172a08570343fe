import { randomBytes } from 'node:crypto';
import { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { seal } from '../crypto';
import { checkDestination, DestinationError } from '../destinations';
import { badRequest, conflict, notFound } from '../errors';
import { commitEvents } from '../events';
import { Tenant } from '../store/db';
import { prepareEvent } from '../store/events';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, updateWebhook, WebhookDoc, WebhookFields, WebhookState } from '../store/webhooks';
import { toWebhook } from '../webhooks';
import { EVENT_KINDS } from '../../schemas/events/index';
import { AppDeps, Handler, listReply, pageOf, Request } from './types';

/** 400 unless every subscribed kind is in the catalogue (or `*`). */
function checkKinds(events: string[]): void {
  const unknown = events.filter((k) => k !== '*' && !EVENT_KINDS.includes(k));
  if (unknown.length) {
    throw badRequest(
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
    throw badRequest('validation_failed', `The URL is not an allowed destination: ${err.message}.`, [
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

/** The visibility query of a webhook's delivery workflows. */
const deliveriesQuery = (tenant: Tenant, webhookId: string): string =>
  `OfferopsKind = 'webhook_delivery' AND OfferopsResourceId = '${webhookId}' AND ` +
  `OfferopsAccountId = '${tenant.accountId}' AND OfferopsEnvironment = '${tenant.env}'`;

async function deliveryExecutions(client: Client, tenant: Tenant, webhookId: string): Promise<WorkflowExecutionInfo[]> {
  const out: WorkflowExecutionInfo[] = [];
  for await (const execution of client.workflow.list({ query: deliveriesQuery(tenant, webhookId) })) out.push(execution);
  return out;
}

export const webhookDelete: Handler = async (req, deps) => {
  const webhook = await mustGet(req, deps);
  if (await deleteWebhook(deps.db, req.tenant, webhook._id, prepareEvent(req.tenant, 'webhook.deleted', { webhook_id: webhook._id }))) {
    await commitEvents(deps, 'webhooks', webhook._id);
  }
  // Its delivery history lives in Temporal: stop what still runs, then delete every execution.
  const { client, namespace } = deps.temporal;
  for (const execution of await deliveryExecutions(client, req.tenant, webhook._id)) {
    if (execution.status.name === 'RUNNING') {
      await client.workflow.getHandle(execution.workflowId, execution.runId).terminate('webhook deleted').catch(() => undefined);
    }
    await client.workflowService
      .deleteWorkflowExecution({ namespace, workflowExecution: { workflowId: execution.workflowId, runId: execution.runId } })
      .catch(() => undefined);
  }
  return { body: { deleted: true, id: webhook._id } };
};

interface DeliveryMemo {
  webhook_id: string;
  event_id: string;
  event_kind: string;
  state: string;
  attempts: { attempt: number; at: string; http_status: number | null; duration_ms: number; error: string | null }[];
  next_attempt_at: string | null;
  updated_at: string;
}

export const webhookDeliveriesList: Handler = async (req, deps) => {
  const webhook = await mustGet(req, deps);
  const page = pageOf(req.query);
  const executions = await deliveryExecutions(deps.temporal.client, req.tenant, webhook._id);
  const deliveries = executions
    .map((e) => {
      const memo = (e.memo?.delivery as DeliveryMemo | undefined) ?? null;
      const eventId = e.workflowId.slice(`webhook-delivery-${webhook._id}-`.length);
      return {
        id: e.workflowId,
        webhook_id: webhook._id,
        event_id: eventId,
        event_kind: memo?.event_kind || 'unknown.kind',
        state: memo?.state ?? (e.status.name === 'RUNNING' ? 'pending' : 'failed'),
        attempts: memo?.attempts ?? [],
        next_attempt_at: memo?.next_attempt_at ?? null,
        created_at: e.startTime.toISOString(),
        updated_at: memo?.updated_at ?? e.startTime.toISOString(),
      };
    })
    .filter((d) => (req.query.state === undefined || d.state === req.query.state) && (req.query.event_kind === undefined || d.event_kind === req.query.event_kind))
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
  return listReply(deliveries.slice(page.offset, page.offset + page.limit), deliveries.length, page);
};
