/**
 * The one Ajv 2020 instance. The whole OpenAPI document is registered under
 * the id `openapi.json`, so every `#/components/schemas/…` reference resolves
 * against it; callers compile schemas taken from the operation table.
 *
 * What a validator compiles is the fragment made cheap to run on any value
 * (`compilable`): references inlined, and each value's inner checks guarded
 * by its size limit. Both keep the set of valid values exactly as the
 * document says; they bound the work spent on an invalid one.
 */
import Ajv2020, { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { FORM_KEYWORD, JsonSchema, STATE_DECIDED_EXTENSION } from './openapi/common';
import { openapiDocument } from './openapi/index';

export const DOCUMENT_ID = 'https://offerops.dev/openapi.json';

let instance: Ajv2020 | undefined;

/**
 * The instance, made on first use: adding the document costs a process about 0.2 s of CPU, which one that never
 * validates (most CLI commands, the worker) does not spend.
 */
export function documentAjv(): Ajv2020 {
  if (instance) return instance;
  // `verbose`: errors carry the schema they broke, so a message can say what the field takes (api/middleware/validate.ts).
  // `discriminator`: a tagged `oneOf` (a journey block's `type`) judges only the branch the tag names.
  const ajv = new Ajv2020({ allErrors: true, strict: true, useDefaults: true, verbose: true, discriminator: true });
  addFormats(ajv);
  ajv.addKeyword({ keyword: FORM_KEYWORD, schemaType: 'string' });
  // Refusals the state decides, for the fuzzer (schemas/openapi/common.ts): an annotation, nothing to validate.
  ajv.addKeyword({ keyword: STATE_DECIDED_EXTENSION, schemaType: 'object' });
  // The root of the OpenAPI document is not a schema; these are its keywords.
  for (const keyword of ['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'components']) {
    ajv.addKeyword({ keyword });
  }
  ajv.addSchema(openapiDocument, DOCUMENT_ID);
  return (instance = ajv);
}

const components = (openapiDocument.components as { schemas: Record<string, JsonSchema> }).schemas;

/** The component a `$ref` names (`#/components/schemas/X`, with or without the document's id), or null for another reference. */
function componentOf(ref: string): string | null {
  const local = ref.startsWith(DOCUMENT_ID) ? ref.slice(DOCUMENT_ID.length) : ref;
  return local.startsWith('#/components/schemas/') ? local.slice('#/components/schemas/'.length) : null;
}

/**
 * The checks inside a value that its size limit guards, by limit: an array's
 * items, a string's form, an object's members. Run only when the value is
 * within the limit (`if`/`then`), so a value far over it costs one error, not
 * one per item. Ajv's `allErrors` would otherwise judge every item of a
 * 20,000-item array whose limit is 20.
 */
const GUARDED: Record<string, readonly string[]> = {
  maxItems: ['items', 'prefixItems', 'contains', 'minContains', 'maxContains', 'uniqueItems'],
  maxLength: ['pattern', 'format'],
  maxProperties: ['properties', 'patternProperties', 'additionalProperties', 'propertyNames', 'dependentSchemas'],
};

/** The `if` schemas of guards (see GUARDED): their errors say nothing of the request (api/middleware/validate.ts drops them). */
const guardConditions = new WeakSet<object>();
export const isGuard = (ifSchema: unknown): boolean => typeof ifSchema === 'object' && ifSchema !== null && guardConditions.has(ifSchema);

/**
 * Unknown fields a closed object reports one by one; past them, one error says it has too many. A closed object
 * with more fields than it declares plus these is invalid anyway, so the bound changes no verdict.
 */
const UNKNOWN_FIELDS_REPORTED = 16;

/** The guard of `limit` over `keywords` moved out of `schema` (see GUARDED): `schema` without them, and the guard. */
function guard(schema: JsonSchema, limit: string, keywords: readonly string[]): JsonSchema {
  const moved = keywords.filter((k) => schema[k] !== undefined);
  if (!moved.length) return schema;
  const condition = { [limit]: schema[limit] };
  guardConditions.add(condition);
  // The words of a pattern (FORM_KEYWORD) go with it: a message reads them from the schema the error names.
  const then = Object.fromEntries([...moved, ...(FORM_KEYWORD in schema ? [FORM_KEYWORD] : [])].map((k) => [k, schema[k]]));
  const rest = Object.fromEntries(Object.entries(schema).filter(([k]) => !moved.includes(k)));
  const rule = { if: condition, then };
  // A schema with a condition of its own keeps it; the guard joins through allOf.
  return 'if' in rest ? { ...rest, allOf: [...((rest.allOf as JsonSchema[] | undefined) ?? []), rule] } : { ...rest, ...rule };
}

/**
 * A closed object (no limit of its own): its unknown fields are judged only up to a count. Its properties stay where
 * they are (a discriminator reads them); the guard repeats their names so `additionalProperties` knows them.
 */
function closedGuarded(schema: JsonSchema): JsonSchema {
  const names = Object.keys(schema.properties ?? {});
  const { additionalProperties, ...rest } = schema;
  const condition = { maxProperties: names.length + UNKNOWN_FIELDS_REPORTED };
  guardConditions.add(condition);
  const rule = { if: condition, then: { properties: Object.fromEntries(names.map((n) => [n, true])), additionalProperties } };
  return { ...rest, ...condition, allOf: [...((rest.allOf as JsonSchema[] | undefined) ?? []), rule] };
}

function guarded(schema: JsonSchema): JsonSchema {
  const closed = schema.additionalProperties === false && schema.maxProperties === undefined && !schema.patternProperties;
  let out = closed ? closedGuarded(schema) : schema;
  for (const [limit, keywords] of Object.entries(GUARDED)) {
    if (out[limit] !== undefined && !(closed && limit === 'maxProperties')) out = guard(out, limit, keywords);
  }
  return out;
}

const inlined = new Map<string, JsonSchema>();

/** Keywords whose value is a schema or a list of schemas; every other keyword's value is data (enum, const, default, annotations). */
const SCHEMA_KEYWORDS = new Set([
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'allOf',
  'anyOf',
  'oneOf',
]);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs']);

/** `schema` with every component reference replaced by the component (the document's references have no cycle) and guarded. */
function compilable(schema: unknown, path: readonly string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((s) => compilable(s, path));
  if (typeof schema !== 'object' || schema === null) return schema;
  const s = schema as JsonSchema;
  const name = typeof s.$ref === 'string' ? componentOf(s.$ref) : null;
  if (name !== null) {
    if (path.includes(name)) throw new Error(`schema ${name} refers to itself (${[...path, name].join(' → ')}): it cannot be inlined`);
    let done = inlined.get(name);
    if (!done) {
      const target = components[name];
      if (!target) throw new Error(`no schema ${name} in the document`);
      done = compilable(target, [...path, name]) as JsonSchema;
      inlined.set(name, done);
    }
    return done;
  }
  const out = Object.fromEntries(
    Object.entries(s).map(([k, v]) => {
      if (SCHEMA_MAPS.has(k)) return [k, Object.fromEntries(Object.entries(v as JsonSchema).map(([n, sub]) => [n, compilable(sub, path)]))];
      return [k, SCHEMA_KEYWORDS.has(k) ? compilable(v, path) : v];
    }),
  );
  return guarded(tagged(out));
}

/**
 * A `oneOf` whose every branch requires one property and fixes it to a constant of its own (a journey block's
 * `type`) becomes a discriminated one: Ajv judges only the branch the value's tag names, one error when it names
 * none. The verdict is the same: a value matches at most the branch of its tag.
 */
function tagged(schema: JsonSchema): JsonSchema {
  const branches = schema.oneOf;
  if (!Array.isArray(branches) || schema.discriminator) return schema;
  const constOf = (b: JsonSchema, name: string): unknown => ((b.properties as Record<string, JsonSchema> | undefined)?.[name] ?? {}).const;
  const first = branches[0] as JsonSchema | undefined;
  const tag = Object.keys((first?.properties ?? {}) as JsonSchema).find((name) =>
    (branches as JsonSchema[]).every(
      (b) => b.type === 'object' && typeof constOf(b, name) === 'string' && Array.isArray(b.required) && b.required.includes(name),
    ),
  );
  if (!tag) return schema;
  const values = (branches as JsonSchema[]).map((b) => constOf(b, tag));
  if (new Set(values).size !== values.length) return schema;
  return { ...schema, type: 'object', discriminator: { propertyName: tag } };
}

const cache = new WeakMap<JsonSchema, ValidateFunction>();

/** A compiled validator for a schema fragment of the document (memoised: compiled on first use). */
export function validatorFor(schema: JsonSchema): ValidateFunction {
  let fn = cache.get(schema);
  if (!fn) {
    fn = documentAjv().compile(compilable(schema) as JsonSchema);
    cache.set(schema, fn);
  }
  return fn;
}

export type { ErrorObject };
export { FORM_KEYWORD };
