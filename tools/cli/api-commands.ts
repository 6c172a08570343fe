/**
 * The API commands of `offerops`, derived at run time from the OpenAPI
 * document (`schemas/openapi.json`, or the file OFFEROPS_OPENAPI names): no
 * operation, parameter or scope is written here. The rule, also in docs/guides/cli.md:
 *
 * - group: the operation's first tag in lower case, spaces as `-` (no tag: the
 *   first segment of its path); a tag that would shadow a built-in command
 *   (`admin`, `dev`, `login`, …) gets the prefix `api-`.
 * - command: the operationId split into words (`_`, `-`, camelCase), less its
 *   first word when that is the group's name or its singular, less a last word
 *   `list` when other words remain, joined by `-`: `offer_publish` → `offers
 *   publish`, `journey_executions_list` → `journeys executions`, `offers_list` →
 *   `offers list`. Two operations of a group with the same name both take their
 *   whole operationId instead.
 * - path parameters are positional, in the order of the path; query parameters
 *   and the top-level fields of the JSON body are flags (`segment_id` →
 *   `--segment-id`); a flag that would collide with a common option or another
 *   flag is prefixed with where it goes (`--query-…`, `--body-…`).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The document shipped with the package (this file runs from dist/tools/cli/). */
export const DEFAULT_DOCUMENT = resolve(__dirname, '../../../schemas/openapi.json');

/** The parts of a JSON Schema (OpenAPI 3.1) the CLI and the collection read. */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  description?: string;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  minItems?: number;
  [keyword: string]: unknown;
}

interface OperationObject {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Schema }[];
  requestBody?: { required?: boolean; description?: string; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, unknown>;
  [extension: `x-${string}`]: unknown;
}

export interface Document {
  info?: { title?: string; description?: string };
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components?: Record<string, Record<string, Schema>>;
}

export type FlagKind = 'string' | 'number' | 'integer' | 'boolean' | 'list' | 'json';

export interface Flag {
  /** As typed, without the dashes: `segment-id`. */
  flag: string;
  /** As the API names it: `segment_id`. */
  name: string;
  in: 'query' | 'body';
  kind: FlagKind;
  /** The type of each item of a `list`. */
  itemKind?: 'string' | 'number' | 'integer' | 'boolean';
  enum?: (string | number | boolean)[];
  nullable: boolean;
  required: boolean;
  description?: string;
  default?: unknown;
}

export interface ApiCommand {
  group: string;
  name: string;
  operationId: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  /** The `x-…scope` extension of the operation, when the document has one. */
  scope?: string;
  args: { name: string; description?: string }[];
  flags: Flag[];
  body: { required: boolean; description?: string } | null;
  /** Takes `limit` and `offset`: `--all` follows the pages. */
  pageable: boolean;
  /** The largest `limit` the document allows. */
  maxLimit?: number;
}

export interface ApiGroup {
  name: string;
  description: string;
  commands: ApiCommand[];
}

/** Words of the CLI itself; a document group of the same name is prefixed `api-`. */
export const BUILT_IN = ['admin', 'dev', 'recipes', 'login', 'completion', 'help', 'mcp', 'api', 'worker'];
/** Options every API command takes; a parameter of the same name is prefixed with where it goes. */
export const COMMON_FLAGS = ['help', 'json', 'all', 'data', 'profile'];

export function loadDocument(env: NodeJS.ProcessEnv = process.env): Document {
  const file = env.OFFEROPS_OPENAPI || DEFAULT_DOCUMENT;
  return JSON.parse(readFileSync(file, 'utf8')) as Document;
}

/** The schema a `$ref` (`#/components/…`) points to, followed until it is not a reference. */
export function deref(doc: Document, schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let hops = 0; typeof s.$ref === 'string' && hops < 20; hops++) {
    let target: unknown = doc;
    for (const part of s.$ref.replace(/^#\//, '').split('/')) {
      target = (target as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    s = (target as Schema | undefined) ?? {};
  }
  return s;
}

const kebab = (s: string): string => s.replace(/_/g, '-');

export function words(operationId: string): string[] {
  return operationId
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .split(/[_\-\s.]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

export function groupName(tag: string | undefined, path: string): string {
  const name = (tag ?? path.split('/').find(Boolean) ?? 'api').toLowerCase().replace(/\s+/g, '-');
  return BUILT_IN.includes(name) ? `api-${name}` : name;
}

export function commandName(group: string, operationId: string): string {
  const w = words(operationId);
  const singular = group.replace(/s$/, '');
  if (w.length > 1 && (w[0] === group || w[0] === singular)) w.shift();
  if (w.length > 1 && w[w.length - 1] === 'list') w.pop();
  return w.join('-');
}

/** Non-null JSON types of a schema, following `anyOf`/`oneOf` of one type and null. */
function typesOf(doc: Document, schema: Schema): { types: string[]; nullable: boolean; schema: Schema } {
  const s = deref(doc, schema);
  const branches = s.anyOf ?? s.oneOf;
  if (branches && !s.type) {
    const resolved = branches.map((b) => deref(doc, b));
    const nonNull = resolved.filter((b) => b.type !== 'null');
    if (nonNull.length === 1) {
      const inner = typesOf(doc, nonNull[0]!);
      return { ...inner, nullable: inner.nullable || nonNull.length < resolved.length };
    }
    return { types: [], nullable: nonNull.length < resolved.length, schema: s };
  }
  const all = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  const types = all.filter((t) => t !== 'null');
  if (!types.length && Array.isArray(s.enum)) {
    const kinds = new Set(s.enum.filter((v) => v !== null).map((v) => typeof v));
    if (kinds.size === 1) types.push([...kinds][0] === 'number' ? 'number' : [...kinds][0]!);
  }
  return { types, nullable: all.includes('null') || (Array.isArray(s.enum) && s.enum.includes(null)), schema: s };
}

const SCALARS = ['string', 'number', 'integer', 'boolean'] as const;
type Scalar = (typeof SCALARS)[number];
const isScalar = (t: string | undefined): t is Scalar => (SCALARS as readonly string[]).includes(t ?? '');

function flagOf(doc: Document, name: string, where: 'query' | 'body', schema: Schema, required: boolean, description?: string): Flag {
  const { types, nullable, schema: s } = typesOf(doc, schema);
  const flag: Flag = { flag: kebab(name), name, in: where, kind: 'json', nullable, required };
  const about = description ?? s.description;
  if (about) flag.description = about;
  if (s.default !== undefined) flag.default = s.default;
  const type = types.length === 1 ? types[0] : undefined;
  if (isScalar(type)) {
    flag.kind = type;
    if (Array.isArray(s.enum)) flag.enum = s.enum.filter((v): v is string | number | boolean => v !== null);
  } else if (type === 'array') {
    const items = typesOf(doc, s.items as Schema);
    const itemType = items.types.length === 1 ? items.types[0] : undefined;
    if (isScalar(itemType)) {
      flag.kind = 'list';
      flag.itemKind = itemType;
      if (Array.isArray(items.schema.enum)) flag.enum = items.schema.enum.filter((v): v is string | number => v !== null);
    }
  }
  return flag;
}

/** The top-level fields of a body schema: its own properties and those of its `allOf`/`oneOf`/`anyOf` branches. */
function bodyFields(doc: Document, schema: Schema, seen = new Set<Schema>()): { properties: Record<string, Schema>; required: Set<string> } {
  const s = deref(doc, schema);
  const properties: Record<string, Schema> = {};
  const required = new Set<string>();
  if (seen.has(s)) return { properties, required };
  seen.add(s);
  Object.assign(properties, s.properties ?? {});
  for (const r of s.required ?? []) required.add(r);
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    for (const branch of s[key] ?? []) {
      const inner = bodyFields(doc, branch, seen);
      for (const [k, v] of Object.entries(inner.properties)) properties[k] ??= v;
      if (key === 'allOf') for (const r of inner.required) required.add(r);
    }
  }
  return { properties, required };
}

function scopeOf(op: OperationObject): string | undefined {
  const ext = Object.entries(op).find(([k, v]) => k.startsWith('x-') && k.includes('scope') && typeof v === 'string');
  return ext?.[1] as string | undefined;
}

function commandOf(doc: Document, path: string, method: string, op: OperationObject): ApiCommand {
  const group = groupName(op.tags?.[0], path);
  const params = op.parameters ?? [];
  const order = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const args = order.map((name) => {
    const p = params.find((x) => x.in === 'path' && x.name === name);
    return p?.description ? { name, description: p.description } : { name };
  });
  const flags: Flag[] = params
    .filter((p) => p.in === 'query')
    .map((p) => flagOf(doc, p.name, 'query', p.schema ?? {}, p.required === true, p.description));
  const media = op.requestBody?.content?.['application/json'];
  if (media?.schema) {
    const { properties, required } = bodyFields(doc, media.schema);
    for (const [name, schema] of Object.entries(properties)) flags.push(flagOf(doc, name, 'body', schema, required.has(name)));
  }
  const taken = new Set(COMMON_FLAGS);
  const dup = new Set(flags.map((f) => f.flag).filter((f, i, all) => all.indexOf(f) !== i));
  for (const f of flags) {
    if (taken.has(f.flag) || dup.has(f.flag)) f.flag = `${f.in}-${f.flag}`;
    taken.add(f.flag);
  }
  const limit = flags.find((f) => f.in === 'query' && f.name === 'limit');
  const pageable = Boolean(limit && flags.some((f) => f.in === 'query' && f.name === 'offset'));
  const limitSchema = limit ? deref(doc, params.find((p) => p.in === 'query' && p.name === 'limit')?.schema) : {};
  const command: ApiCommand = {
    group,
    name: commandName(group, op.operationId),
    operationId: op.operationId,
    method: method.toUpperCase(),
    path,
    summary: op.summary ?? op.operationId,
    description: op.description ?? '',
    args,
    flags,
    body: op.requestBody
      ? { required: op.requestBody.required === true, ...(op.requestBody.description ? { description: op.requestBody.description } : {}) }
      : null,
    pageable,
  };
  const scope = scopeOf(op);
  if (scope) command.scope = scope;
  if (typeof limitSchema.maximum === 'number') command.maxLimit = limitSchema.maximum;
  return command;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every operation of the document as a command, grouped by tag in the document's tag order. */
export function apiGroups(doc: Document): ApiGroup[] {
  const commands: ApiCommand[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (METHODS.includes(method) && op?.operationId) commands.push(commandOf(doc, path, method, op));
    }
  }
  for (const c of commands) {
    if (commands.some((o) => o !== c && o.group === c.group && commandName(o.group, o.operationId) === commandName(c.group, c.operationId))) {
      c.name = words(c.operationId).join('-');
    }
  }
  const tagOrder = (doc.tags ?? []).map((t) => groupName(t.name, ''));
  const names = [...new Set(commands.map((c) => c.group))].sort((a, b) => {
    const ia = tagOrder.indexOf(a);
    const ib = tagOrder.indexOf(b);
    return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib) || a.localeCompare(b);
  });
  return names.map((name) => {
    const tag = (doc.tags ?? []).find((t) => groupName(t.name, '') === name);
    return { name, description: tag?.description ?? tag?.name ?? name, commands: commands.filter((c) => c.group === name) };
  });
}
