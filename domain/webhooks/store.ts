/** Webhook destinations. The signing secret is stored sealed and never leaves this module in clear but for signing. */
import { Db, Filter } from 'mongodb';
import { WEBHOOK_STATES } from '../../schemas/openapi/webhooks';
import { newId } from '../ids';
import { OutboxEvent, Page, PageResult, Tenant } from '../db';
import { ResourceDoc, resourceStore } from '../resource';
import { subscribedTo } from '../events/awaited';

export type WebhookState = (typeof WEBHOOK_STATES)[number];

export interface WebhookFields {
  url: string;
  events: string[];
  description: string | null;
  state: WebhookState;
  disabled_reason: 'manual' | 'gone' | 'failing' | 'destination_refused' | null;
}

export interface WebhookDoc extends ResourceDoc, WebhookFields {
  secret: string;
  last_delivery_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const store = resourceStore<WebhookDoc>('webhooks');
const webhooks = store.coll;

export function listWebhooks(db: Db, tenant: Tenant, q: { state?: WebhookState }, page: Page): Promise<PageResult<WebhookDoc>> {
  const filter: Filter<WebhookDoc> = q.state ? { state: q.state } : {};
  return webhooks(db, tenant).page(filter, page);
}

export const getWebhook = store.get;

export async function insertWebhook(
  db: Db,
  tenant: Tenant,
  fields: WebhookFields,
  sealedSecret: string,
  describe: (w: WebhookDoc) => OutboxEvent,
): Promise<WebhookDoc> {
  const now = new Date();
  const doc: WebhookDoc = {
    _id: newId('whk', now.getTime()),
    account_id: tenant.accountId,
    env: tenant.env,
    ...fields,
    secret: sealedSecret,
    last_delivery_at: null,
    created_at: now,
    updated_at: now,
  };
  return webhooks(db, tenant).insert(doc, describe(doc));
}

/** Applies `set` unless the webhook changed since it was read (then null). */
export const saveWebhook = (
  db: Db,
  tenant: Tenant,
  current: WebhookDoc,
  set: Partial<WebhookFields>,
  describe: (after: WebhookDoc) => OutboxEvent,
): Promise<WebhookDoc | null> => webhooks(db, tenant).updateFrom(current, set, describe);

/**
 * Notes a delivery attempt. Not a change of the configuration: `updated_at`
 * stays, so it neither emits an event nor makes a concurrent PATCH conflict.
 */
export async function recordDeliveryAttempt(db: Db, tenant: Tenant, id: string, at: Date): Promise<void> {
  await webhooks(db, tenant).updateById(id, { $set: { last_delivery_at: at } });
}

export const deleteWebhook = store.remove;

/** Enabled webhooks subscribed to `kind` (or to every kind). */
export const subscribedWebhooks = (db: Db, tenant: Tenant, kind: string): Promise<WebhookDoc[]> => webhooks(db, tenant).all(subscribedTo(kind));
