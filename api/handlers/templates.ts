import { invalid, conflict, notFound } from '../../domain/errors';
import { commitEvents } from '../../domain/events/commit';
import { parseTemplate } from '../../domain/templates/render';
import { prepareEvent } from '../../domain/events/store';
import { countSchedulesByTemplate } from '../../domain/schedules/store';
import {
  createTemplate,
  defaultTemplate,
  DefaultTakenError,
  deleteTemplate,
  getTemplate,
  listTemplates,
  TemplateDoc,
  TemplateFields,
  TemplateFormat,
  updateTemplate,
} from '../../domain/templates/store';
import { referencedSegment } from './offers';
import { AppDeps, Handler, listReply, pageOf, Request } from './types';

const FIELDS = ['name', 'description', 'body', 'format', 'is_default', 'segment_id'] as const satisfies readonly (keyof TemplateFields)[];

export function toTemplate(t: TemplateDoc, scheduleCount: number): Record<string, unknown> {
  return {
    id: t._id,
    name: t.name,
    description: t.description,
    body: t.body,
    format: t.format,
    is_default: t.is_default,
    segment_id: t.segment_id,
    placeholders: parseTemplate(t.body).placeholders,
    schedule_count: scheduleCount,
    created_at: t.created_at.toISOString(),
    updated_at: t.updated_at.toISOString(),
  };
}

const scheduleCount = async (deps: AppDeps, req: Request, t: TemplateDoc): Promise<number> =>
  (await countSchedulesByTemplate(deps.db, req.tenant, [t._id])).get(t._id) ?? 0;

async function mustGetTemplate(req: Request, deps: AppDeps): Promise<TemplateDoc> {
  const template = await getTemplate(deps.db, req.tenant, req.params.id!);
  if (!template) throw notFound('template', req.params.id!);
  return template;
}

/** Refuses a body with an unknown placeholder or a lone brace, naming each. */
function checkBody(body: string): void {
  const { problems } = parseTemplate(body);
  if (!problems.length) return;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  throw invalid(
    'validation_failed',
    `Invalid body field body: ${problems[0]!.message}${more}.`,
    problems.map((p) => ({ location: 'body', field: 'body', rule: p.rule, message: p.message })),
  );
}

/**
 * Runs `write`, which makes a template the default of the scope of
 * `segmentId`, after clearing the flag on the scope's current default (its
 * own `template.updated` event). The unique index refuses the write when a
 * concurrent request made another default meanwhile; then clear and retry.
 */
async function asScopeDefault<T>(req: Request, deps: AppDeps, segmentId: string | null, selfId: string | null, write: () => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const holder = await defaultTemplate(deps.db, req.tenant, segmentId);
    if (holder && holder._id !== selfId) {
      const count = await scheduleCount(deps, req, holder);
      const cleared = await updateTemplate(deps.db, req.tenant, holder, { is_default: false }, (after) =>
        prepareEvent(req.tenant, 'template.updated', { template: toTemplate(after, count), changed: ['is_default'] }),
      );
      if (cleared) await commitEvents(deps, 'templates', holder._id);
    }
    try {
      return await write();
    } catch (err) {
      if (!(err instanceof DefaultTakenError)) throw err;
    }
  }
  throw conflict('conflict', 'Another template became the default of this scope meanwhile; read the templates again and retry.');
}

export const templatesList: Handler = async (req, deps) => {
  const page = pageOf(req.query);
  const { segment_id, format, is_default } = req.query as { segment_id?: string; format?: TemplateFormat; is_default?: boolean };
  const { items, total } = await listTemplates(deps.db, req.tenant, { segment_id, format, is_default }, page);
  const counts = await countSchedulesByTemplate(deps.db, req.tenant, items.map((t) => t._id));
  return listReply(items.map((t) => toTemplate(t, counts.get(t._id) ?? 0)), total, page);
};

export const templateCreate: Handler = async (req, deps) => {
  const body = req.body!;
  checkBody(body.body as string);
  const segmentId = (body.segment_id as string | undefined) ?? null;
  if (segmentId) await referencedSegment(deps, req, segmentId);
  const fields: TemplateFields = {
    name: body.name as string,
    description: (body.description as string | undefined) ?? null,
    body: body.body as string,
    format: (body.format as TemplateFormat | undefined) ?? 'plain',
    is_default: (body.is_default as boolean | undefined) ?? false,
    segment_id: segmentId,
  };
  const create = () =>
    createTemplate(deps.db, req.tenant, fields, (t) => prepareEvent(req.tenant, 'template.created', { template: toTemplate(t, 0) }));
  const template = fields.is_default ? await asScopeDefault(req, deps, segmentId, null, create) : await create();
  await commitEvents(deps, 'templates', template._id);
  return { status: 201, body: { data: toTemplate(template, 0), created: true } };
};

export const templateGet: Handler = async (req, deps) => {
  const template = await mustGetTemplate(req, deps);
  return { body: { data: toTemplate(template, await scheduleCount(deps, req, template)) } };
};

export const templateUpdate: Handler = async (req, deps) => {
  const template = await mustGetTemplate(req, deps);
  const body = req.body ?? {};
  const set = Object.fromEntries(FIELDS.filter((k) => k in body && body[k] !== template[k]).map((k) => [k, body[k]])) as Partial<TemplateFields>;
  if (set.body !== undefined) checkBody(set.body);
  if (set.segment_id) await referencedSegment(deps, req, set.segment_id);
  const changed = Object.keys(set);
  const count = await scheduleCount(deps, req, template);
  if (!changed.length) return { body: { data: toTemplate(template, count) } };
  const update = async () => {
    const updated = await updateTemplate(deps.db, req.tenant, template, set, (after) =>
      prepareEvent(req.tenant, 'template.updated', { template: toTemplate(after, count), changed }),
    );
    if (!updated) throw conflict('conflict', 'The template changed while this request ran; read it again and retry.');
    return updated;
  };
  const after = { ...template, ...set };
  const claims = after.is_default && (!template.is_default || after.segment_id !== template.segment_id);
  const updated = claims ? await asScopeDefault(req, deps, after.segment_id, template._id, update) : await update();
  await commitEvents(deps, 'templates', template._id);
  return { body: { data: toTemplate(updated, count) } };
};

export const templateDelete: Handler = async (req, deps) => {
  const template = await mustGetTemplate(req, deps);
  const count = await scheduleCount(deps, req, template);
  if (count) {
    throw conflict('resource_in_use', `${count} schedule(s) use this template; give them another template or delete them first.`);
  }
  if (await deleteTemplate(deps.db, req.tenant, template._id, prepareEvent(req.tenant, 'template.deleted', { template_id: template._id }))) {
    await commitEvents(deps, 'templates', template._id);
  }
  return { body: { deleted: true, id: template._id } };
};
