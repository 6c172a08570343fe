/**
 * Message templates. At most one default per scope (the account, or one of
 * its segments) and environment, enforced by a unique index without partial
 * indexes: every template has a `default_key` — its scope's key while it is
 * the default, its own id otherwise — and (account, env, default_key) is unique.
 */
import { Db, Filter } from 'mongodb';
import { TEMPLATE_FORMATS } from '../../schemas/openapi/templates';
import { newId } from '../ids';
import { isDuplicateKey, OutboxEvent, Page, PageResult, Tenant } from '../db';
import { ResourceDoc, resourceStore } from '../resource';

export type TemplateFormat = (typeof TEMPLATE_FORMATS)[number];

export interface TemplateFields {
  name: string;
  description: string | null;
  body: string;
  format: TemplateFormat;
  is_default: boolean;
  segment_id: string | null;
}

export interface TemplateDoc extends ResourceDoc, TemplateFields {
  default_key: string;
  created_at: Date;
  updated_at: Date;
}

/** Another template of the same scope became the default first (the unique index refused this write). */
export class DefaultTakenError extends Error {}

const store = resourceStore<TemplateDoc>('templates');
const templates = store.coll;

/** The key the default of a scope holds: `default:seg_…` for a segment, `default:account` for the account. */
const scopeKey = (segmentId: string | null): string => `default:${segmentId ?? 'account'}`;

const defaultKey = (id: string, f: Pick<TemplateFields, 'is_default' | 'segment_id'>): string => (f.is_default ? scopeKey(f.segment_id) : id);

export interface TemplateQuery {
  segment_id?: string;
  format?: TemplateFormat;
  is_default?: boolean;
}

export function listTemplates(db: Db, tenant: Tenant, q: TemplateQuery, page: Page): Promise<PageResult<TemplateDoc>> {
  const filter: Filter<TemplateDoc> = {};
  if (q.segment_id !== undefined) filter.segment_id = q.segment_id;
  if (q.format !== undefined) filter.format = q.format;
  if (q.is_default !== undefined) filter.is_default = q.is_default;
  return templates(db, tenant).page(filter, page);
}

export const getTemplate = store.get;

/** The default template of a segment (or, with null, of the account), if any. */
export const defaultTemplate = (db: Db, tenant: Tenant, segmentId: string | null): Promise<TemplateDoc | null> =>
  templates(db, tenant).findOne({ default_key: scopeKey(segmentId) });

export async function insertTemplate(
  db: Db,
  tenant: Tenant,
  fields: TemplateFields,
  describe: (t: TemplateDoc) => OutboxEvent,
): Promise<TemplateDoc> {
  const now = new Date();
  const id = newId('tpl', now.getTime());
  const doc = { _id: id, ...fields, default_key: defaultKey(id, fields), created_at: now, updated_at: now };
  try {
    return await templates(db, tenant).insert(doc, describe({ ...doc, account_id: tenant.accountId, env: tenant.env }));
  } catch (err) {
    if (isDuplicateKey(err)) throw new DefaultTakenError(scopeKey(fields.segment_id));
    throw err;
  }
}

/** Applies `set` unless the template changed since it was read (then null). */
export async function saveTemplate(
  db: Db,
  tenant: Tenant,
  current: TemplateDoc,
  set: Partial<TemplateFields>,
  describe: (after: TemplateDoc) => OutboxEvent,
): Promise<TemplateDoc | null> {
  const merged = { ...current, ...set };
  try {
    return await templates(db, tenant).updateFrom(current, { ...set, default_key: defaultKey(current._id, merged) }, describe);
  } catch (err) {
    if (isDuplicateKey(err)) throw new DefaultTakenError(scopeKey(merged.segment_id));
    throw err;
  }
}

export const deleteTemplate = store.remove;
