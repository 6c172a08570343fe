import { countSchedulesByTemplate } from '../../domain/holders';
import {
  createTemplate,
  listTemplates,
  mustGetTemplate,
  removeTemplate,
  scheduleCount,
  toTemplate,
  updateTemplate,
} from '../../domain/templates/service';
import { Handler, listReply, pageOf } from './types';

export const templatesList: Handler<'templates_list'> = async (req, deps) => {
  const page = pageOf(req.query);
  const { segment_id, format, is_default } = req.query;
  const { items, total } = await listTemplates(deps.db, req.tenant, { segment_id, format, is_default }, page);
  const counts = await countSchedulesByTemplate(
    deps.db,
    req.tenant,
    items.map((t) => t._id),
  );
  return listReply(
    items.map((t) => toTemplate(t, counts.get(t._id) ?? 0)),
    total,
    page,
  );
};

export const templateCreate: Handler<'template_create'> = async (req, deps) => {
  const template = await createTemplate(deps, req.tenant, req.body);
  return { status: 201, body: { data: toTemplate(template, 0), created: true } };
};

export const templateGet: Handler<'template_get'> = async (req, deps) => {
  const template = await mustGetTemplate(deps, req.tenant, req.params.id);
  return { body: { data: toTemplate(template, await scheduleCount(deps, req.tenant, template)) } };
};

export const templateUpdate: Handler<'template_update'> = async (req, deps) => {
  const { template, scheduleCount: count } = await updateTemplate(deps, req.tenant, req.params.id, req.body);
  return { body: { data: toTemplate(template, count) } };
};

export const templateDelete: Handler<'template_delete'> = async (req, deps) => {
  await removeTemplate(deps, req.tenant, req.params.id);
  return { body: { deleted: true, id: req.params.id } };
};
