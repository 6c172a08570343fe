/**
 * Templates: the API record, body checks (known placeholders, escaped
 * braces), one default per scope (a segment, or the account) and deletion
 * only while no schedule that may still run uses the template. Every change
 * records its event.
 */
import { Schema } from '../../schemas/types';
import { Tenant } from '../db';
import { conflict, invalid } from '../errors';
import { commitEvents } from '../events/commit';
import { prepareEvent } from '../events/store';
import { changedFields, DomainDeps, found, HOLDERS_NAMED, refuseWhileHeld, schedulesThatMayRun, written } from '../resource';
import { countSchedulesByTemplate, schedulesHolding } from '../holders';
import { referencedSegment } from '../segments/service';
import { parseTemplate } from './parse';
import {
  defaultTemplate,
  DefaultTakenError,
  deleteTemplate,
  getTemplate,
  insertTemplate,
  listTemplates,
  saveTemplate,
  TemplateDoc,
  TemplateFields,
} from './store';

export { listTemplates };

const FIELDS = ['name', 'description', 'body', 'format', 'is_default', 'segment_id'] as const satisfies readonly (keyof TemplateFields)[];

export function toTemplate(t: TemplateDoc, scheduleCount: number): Schema<'Template'> {
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

/** How many schedules that may still run use the template. */
export const scheduleCount = async (deps: DomainDeps, tenant: Tenant, t: TemplateDoc): Promise<number> =>
  (await countSchedulesByTemplate(deps.db, tenant, [t._id])).get(t._id) ?? 0;

export const mustGetTemplate = async (deps: DomainDeps, tenant: Tenant, id: string): Promise<TemplateDoc> =>
  found(await getTemplate(deps.db, tenant, id), 'template', id);

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
async function asScopeDefault<T>(
  deps: DomainDeps,
  tenant: Tenant,
  segmentId: string | null,
  selfId: string | null,
  write: () => Promise<T>,
): Promise<T> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const holder = await defaultTemplate(deps.db, tenant, segmentId);
    if (holder && holder._id !== selfId) {
      const count = await scheduleCount(deps, tenant, holder);
      const cleared = await saveTemplate(deps.db, tenant, holder, { is_default: false }, (after) =>
        prepareEvent(tenant, 'template.updated', { template: toTemplate(after, count), changed: ['is_default'] }),
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

export async function createTemplate(deps: DomainDeps, tenant: Tenant, input: Schema<'TemplateCreate'>): Promise<TemplateDoc> {
  checkBody(input.body);
  const segmentId = input.segment_id ?? null;
  if (segmentId) await referencedSegment(deps, tenant, segmentId);
  const fields: TemplateFields = {
    name: input.name,
    description: input.description ?? null,
    body: input.body,
    format: input.format ?? 'plain',
    is_default: input.is_default ?? false,
    segment_id: segmentId,
  };
  const create = () => insertTemplate(deps.db, tenant, fields, (t) => prepareEvent(tenant, 'template.created', { template: toTemplate(t, 0) }));
  const template = fields.is_default ? await asScopeDefault(deps, tenant, segmentId, null, create) : await create();
  await commitEvents(deps, 'templates', template._id);
  return template;
}

/** Changes the fields sent; becoming the default of a scope takes the flag from the scope's current default. */
export async function updateTemplate(
  deps: DomainDeps,
  tenant: Tenant,
  id: string,
  input: Schema<'TemplateUpdate'> | undefined,
): Promise<{ template: TemplateDoc; scheduleCount: number }> {
  const template = await mustGetTemplate(deps, tenant, id);
  const set = changedFields<TemplateFields, (typeof FIELDS)[number]>(template, input ?? {}, FIELDS);
  if (set.body !== undefined) checkBody(set.body);
  if (set.segment_id) await referencedSegment(deps, tenant, set.segment_id);
  const changed = Object.keys(set);
  const count = await scheduleCount(deps, tenant, template);
  if (!changed.length) return { template, scheduleCount: count };
  const update = async () =>
    written(
      await saveTemplate(deps.db, tenant, template, set, (after) =>
        prepareEvent(tenant, 'template.updated', { template: toTemplate(after, count), changed }),
      ),
      'template',
    );
  const after = { ...template, ...set };
  const claims = after.is_default && (!template.is_default || after.segment_id !== template.segment_id);
  const updated = claims ? await asScopeDefault(deps, tenant, after.segment_id, template._id, update) : await update();
  await commitEvents(deps, 'templates', template._id);
  return { template: updated, scheduleCount: count };
}

/** Deletes the template unless a schedule that may still run uses it. */
export async function removeTemplate(deps: DomainDeps, tenant: Tenant, id: string): Promise<void> {
  const template = await mustGetTemplate(deps, tenant, id);
  const holding = await schedulesHolding(deps.db, tenant, { template_id: template._id }, HOLDERS_NAMED);
  refuseWhileHeld([schedulesThatMayRun(holding)], (held) => `The template is used by ${held}; give them another template or delete them first.`);
  if (await deleteTemplate(deps.db, tenant, template._id, prepareEvent(tenant, 'template.deleted', { template_id: template._id }))) {
    await commitEvents(deps, 'templates', template._id);
  }
}
