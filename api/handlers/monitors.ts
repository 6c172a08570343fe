/** Monitors: thin over domain/monitors/service.ts (the rule and its Temporal Schedule). */
import { createMonitor, listMonitorRecords, readMonitor, removeMonitor, toMonitor, updateMonitorFields } from '../../domain/monitors/service';
import { Handler, listReply, pageOf } from './types';

export const monitorsList: Handler<'monitors_list'> = async (req, deps) => {
  const page = pageOf(req.query);
  const { state, marketplace } = req.query;
  const { items, total } = await listMonitorRecords(deps, req.tenant, { state, marketplace }, page);
  return listReply(items.map(toMonitor), total, page);
};

export const monitorCreate: Handler<'monitor_create'> = async (req, deps) => {
  const doc = await createMonitor(deps, req.tenant, req.body);
  return { status: 201, body: { data: toMonitor(doc), created: true } };
};

export const monitorGet: Handler<'monitor_get'> = async (req, deps) => ({
  body: { data: toMonitor(await readMonitor(deps, req.tenant, req.params.id)) },
});

export const monitorUpdate: Handler<'monitor_update'> = async (req, deps) => ({
  body: { data: toMonitor(await updateMonitorFields(deps, req.tenant, req.params.id, req.body)) },
});

export const monitorDelete: Handler<'monitor_delete'> = async (req, deps) => {
  await removeMonitor(deps, req.tenant, req.params.id);
  return { body: { deleted: true, id: req.params.id } };
};
