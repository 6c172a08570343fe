import { toWebhook } from '../../domain/webhooks/record';
import { createWebhook, listDeliveries, listWebhooks, mustGetWebhook, removeWebhook, updateWebhook } from '../../domain/webhooks/service';
import { Handler, listReply, pageOf } from './types';

export const webhooksList: Handler<'webhooks_list'> = async (req, deps) => {
  const page = pageOf(req.query);
  const { items, total } = await listWebhooks(deps.db, req.tenant, { state: req.query.state }, page);
  return listReply(items.map(toWebhook), total, page);
};

export const webhookCreate: Handler<'webhook_create'> = async (req, deps) => {
  const { webhook, secret } = await createWebhook(deps, req.tenant, req.body);
  return { status: 201, body: { data: { ...toWebhook(webhook), secret }, created: true } };
};

export const webhookGet: Handler<'webhook_get'> = async (req, deps) => ({
  body: { data: toWebhook(await mustGetWebhook(deps, req.tenant, req.params.id)) },
});

export const webhookUpdate: Handler<'webhook_update'> = async (req, deps) => ({
  body: { data: toWebhook(await updateWebhook(deps, req.tenant, req.params.id, req.body)) },
});

export const webhookDelete: Handler<'webhook_delete'> = async (req, deps) => {
  await removeWebhook(deps, req.tenant, req.params.id);
  return { body: { deleted: true, id: req.params.id } };
};

export const webhookDeliveriesList: Handler<'webhook_deliveries_list'> = async (req, deps) => {
  const page = pageOf(req.query);
  const { state, event_kind } = req.query;
  const { items, total } = await listDeliveries(deps, req.tenant, req.params.id, { state, event_kind }, page);
  return listReply(items, total, page);
};
