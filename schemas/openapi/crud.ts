/**
 * The common operations of a resource — list, get, create, update, delete by
 * id — built from what differs between areas: an area module names its
 * resource once (tag, scope area, path, nouns, schema) and then says per
 * operation only its summary and what is its own (filters, descriptions, an
 * unusual result). Operations of any other shape stay written out in full.
 *
 * The conventions, which every default below follows:
 * - operationIds `<plural>_list`, `<name>_get`, `<name>_create`,
 *   `<name>_update`, `<name>_delete`; a nested resource prefixes its
 *   parent's name (`journey_executions_list`, `store_page_create`);
 * - reads require `<area>:read`, changes `<area>:write`;
 * - bodies are the components `<Schema>Create` (required) and
 *   `<Schema>Update` (optional); results are `<Schema>` in the single, list
 *   or creation envelope, and `<Schema>Deletion` for a delete.
 */
import {
  creationEnvelope,
  HttpMethod,
  JsonSchema,
  listEnvelope,
  OperationDef,
  PAGINATION_PARAMS,
  ParameterDef,
  ref,
  Scope,
  SCOPES,
  singleEnvelope,
} from './common';

type AreaOf<S> = S extends `${infer A}:${string}` ? A : never;
/** The part of a scope before the colon: `offers` of `offers:read`. */
export type ScopeArea = AreaOf<Scope>;

export interface ResourceSpec {
  /** The tag the operations are grouped under. */
  tag: string;
  /** Reads require `<area>:read`, changes `<area>:write`. */
  area: ScopeArea;
  /** The collection path, e.g. `/offers`; one resource is at `/offers/{id}` (at the path itself when `singleton`). */
  path: string;
  /** Singular noun, for operationIds (`offer_get`) and response descriptions (`The offer.`). */
  name: string;
  /** Plural noun, `name` + `s` unless given: `offers_list`, `A page of offers.` */
  plural?: string;
  /** The component schema of one resource, e.g. `Offer`. */
  schema: string;
  /** One resource per account and environment, at `path` itself (no id). */
  singleton?: boolean;
}

/** What every operation says for itself. */
export interface Wording {
  summary: string;
  description?: string;
  /** Instead of the conventional operationId. */
  operationId?: string;
  /** Instead of the conventional description of the success response. */
  success?: string;
}

export interface Resource {
  /** GET the collection, paginated, narrowed by `filters`. */
  list(o: Wording & { filters?: ParameterDef[]; idSchema?: JsonSchema }): OperationDef;
  /** GET one resource. */
  get(o: Wording): OperationDef;
  /** POST to the collection; `result` names the created schema when it is not the resource's own. */
  create(o: Wording & { result?: string; alsoSucceeds?: OperationDef['alsoSucceeds'] }): OperationDef;
  /** PATCH one resource with the fields sent. */
  update(o: Wording): OperationDef;
  /** DELETE one resource; `result` names the envelope schema when it is not `<Schema>Deletion`. */
  delete(o: Wording & { result?: string }): OperationDef;
  /** A resource below one of these: its path continues this one's item path, its operationIds start with this one's name. */
  nested(spec: Pick<ResourceSpec, 'name' | 'plural' | 'schema'>): Resource;
}

function scopeOf(area: ScopeArea, access: 'read' | 'write'): Scope {
  const scope = SCOPES.find((s) => s === `${area}:${access}`);
  if (!scope) throw new Error(`there is no scope ${area}:${access}`);
  return scope;
}

export function resource(spec: ResourceSpec, operationIdPrefix = ''): Resource {
  const { name, schema } = spec;
  const plural = spec.plural ?? `${name}s`;
  const itemPath = spec.singleton ? spec.path : `${spec.path}/{id}`;
  const operation = (
    access: 'read' | 'write',
    method: HttpMethod,
    path: string,
    operationId: string,
    o: Wording,
    success: OperationDef['success'],
  ): OperationDef => ({
    operationId: o.operationId ?? `${operationIdPrefix}${operationId}`,
    method,
    path,
    scope: scopeOf(spec.area, access),
    tag: spec.tag,
    summary: o.summary,
    description: o.description,
    success,
  });
  return {
    list: (o) => ({
      ...operation('read', 'get', spec.path, `${plural}_list`, o, {
        status: 200,
        description: o.success ?? `A page of ${plural}.`,
        schema: listEnvelope(ref(schema)),
      }),
      idSchema: o.idSchema,
      query: [...PAGINATION_PARAMS, ...(o.filters ?? [])],
    }),
    get: (o) =>
      operation('read', 'get', itemPath, `${name}_get`, o, {
        status: 200,
        description: o.success ?? `The ${name}.`,
        schema: singleEnvelope(ref(schema)),
      }),
    create: (o) => ({
      ...operation('write', 'post', spec.path, `${name}_create`, o, {
        status: 201,
        description: o.success ?? `The new ${name}.`,
        schema: creationEnvelope(ref(o.result ?? schema)),
      }),
      body: { schema: ref(`${schema}Create`), required: true },
      alsoSucceeds: o.alsoSucceeds,
    }),
    update: (o) => ({
      ...operation('write', 'patch', itemPath, `${name}_update`, o, {
        status: 200,
        description: o.success ?? `The ${name} after the change.`,
        schema: singleEnvelope(ref(schema)),
      }),
      body: { schema: ref(`${schema}Update`), required: false },
    }),
    delete: (o) =>
      operation('write', 'delete', itemPath, `${name}_delete`, o, {
        status: 200,
        description: o.success ?? 'The deletion envelope.',
        schema: ref(o.result ?? `${schema}Deletion`),
      }),
    nested: (child) =>
      resource({ tag: spec.tag, area: spec.area, ...child, path: `${itemPath}/${child.plural ?? `${child.name}s`}` }, `${name}_`),
  };
}
