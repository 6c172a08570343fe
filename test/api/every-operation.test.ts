/**
 * Every operation of the contract is built: a well-formed request of a
 * fully-scoped key gets neither 501 nor any other server error.
 *
 * Requests are built from the operation table: path ids, required query
 * parameters and, when the body is required, a minimal body generated from
 * its schema and checked against it before it is sent (so a 400 here means
 * the generator failed). Where the
 * generator cannot satisfy a schema, add the body to BODIES.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { JsonSchema } from '../../schemas/openapi/common';
import { openapiDocument } from '../../schemas/openapi/index';
import { Operation, operations } from '../../schemas/operations';
import { validatorFor } from '../../schemas/validator';
import { ApiClient } from '../helpers/client';
import { addKey, seedTenant, startTestApp, TestApp } from '../helpers/stack';

/** Hand-written valid bodies, by operationId, for schemas the generator below cannot satisfy. */
const BODIES: Record<string, unknown> = {};

const components = (openapiDocument.components as { schemas: Record<string, JsonSchema> }).schemas;

const isValid = (schema: JsonSchema, value: unknown): boolean => validatorFor(schema)(structuredClone(value));

function resolve(schema: JsonSchema): JsonSchema {
  let s = schema;
  for (let i = 0; typeof s.$ref === 'string' && i < 20; i++) {
    const ref = s.$ref;
    const target = components[ref.split('/').pop()!];
    assert.ok(target && ref.startsWith('#/components/schemas/'), `cannot resolve ${ref}`);
    s = { ...target, ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$ref')) };
  }
  return s;
}

/** Strings tried, in order, against a `pattern` the generator does not otherwise understand. */
const PATTERN_CANDIDATES = [
  'abc',
  'abc-def',
  'abc_def',
  'ABC',
  'Abc123',
  '123',
  'https://example.com/a',
  'example.com',
  '#aabbcc',
  'aabbcc',
  '0 9 * * *',
  '*/5 * * * *',
  '09:00',
  '09:00:00',
  '2030-01-01',
  '2030-01-01T09:00:00Z',
  'America/Sao_Paulo',
  'UTC',
  'BRL',
  'pt-BR',
  'en',
  '+5511999999999',
  'offer.created',
  'offer.created.v1',
  'ops@example.com',
  'a',
  '1',
  'x_1',
];

function stringFor(schema: JsonSchema): string {
  const min = (schema.minLength as number | undefined) ?? 0;
  const max = (schema.maxLength as number | undefined) ?? Infinity;
  const fits = (s: string) => s.length >= min && s.length <= max;
  const format = schema.format as string | undefined;
  const pattern = schema.pattern as string | undefined;
  const byFormat: Record<string, string> = {
    'date-time': new Date(Date.now() + 7 * 86_400_000).toISOString(),
    date: '2030-01-01',
    time: '09:00:00Z',
    email: 'ops@example.com',
    uri: 'https://example.com/a',
    url: 'https://example.com/a',
    'uri-reference': 'https://example.com/a',
    hostname: 'example.com',
    uuid: '123e4567-e89b-42d3-a456-426614174000',
    ipv4: '203.0.113.1',
    duration: 'P1D',
  };
  const candidates: string[] = [];
  const idOf = pattern && /^\^([a-z]+)_\[0-9a-z\]\{(\d+),(\d+)\}\$$/.exec(pattern);
  if (idOf) candidates.push(`${idOf[1]}_${'a1b2c3d4e5f6g7h8i9j0'.slice(0, Math.max(Number(idOf[2]), 12))}`);
  if (format && byFormat[format]) candidates.push(byFormat[format]);
  // A literal prefix such as `^acc_` or `^whsec_`.
  const prefix = pattern && /^\^([\w:/.#-]+)$/.exec(pattern);
  if (prefix) candidates.push(`${prefix[1]}abc123`);
  candidates.push(...PATTERN_CANDIDATES);
  const base = min > 3 ? 'a'.repeat(min) : 'abc';
  candidates.unshift(...(pattern || format ? [] : [base]));
  for (const c of candidates) {
    if (!fits(c)) continue;
    if (pattern && !new RegExp(pattern, 'u').test(c)) continue;
    if (format && byFormat[format] && !isValid({ type: 'string', format }, c)) continue;
    return c;
  }
  return 'a'.repeat(Math.max(min, 1));
}

function numberFor(schema: JsonSchema, integer: boolean): number {
  let value = 1;
  if (typeof schema.minimum === 'number') value = Math.max(value, schema.minimum);
  if (typeof schema.exclusiveMinimum === 'number') value = Math.max(value, schema.exclusiveMinimum + (integer ? 1 : 0.5));
  if (typeof schema.maximum === 'number') value = Math.min(value, schema.maximum);
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) value = schema.exclusiveMaximum - (integer ? 1 : 0.5);
  if (typeof schema.multipleOf === 'number') value = Math.ceil(value / schema.multipleOf) * schema.multipleOf;
  return integer ? Math.ceil(value) : value;
}

/** A schema that only tests which fields are present (`present()` in the contract). */
const isPresenceTest = (s: JsonSchema): boolean =>
  typeof s.properties === 'object' && Object.values(s.properties as object).every((p) => !Object.keys(p as object).length);

/** A minimal value that satisfies `schema` (best effort; the caller checks it). */
function generate(input: JsonSchema, depth = 0): unknown {
  assert.ok(depth < 12, 'schema too deep to generate a body');
  const schema = resolve(input);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((v) => v !== null) ?? schema.enum[0];
  // Alternatives over present fields (`present()`, inside an object or its allOf): the first branch's fields are required.
  const chosen = (s: JsonSchema): string[] =>
    Array.isArray(s.oneOf) && (s.oneOf as JsonSchema[]).every(isPresenceTest) ? ((s.oneOf as JsonSchema[])[0]!.required as string[]) : [];
  const parts = [schema, ...((schema.allOf as JsonSchema[] | undefined) ?? [])];
  if (schema.properties && parts.some((s) => chosen(s).length)) {
    const rest = (s: JsonSchema) => (chosen(s).length ? { ...s, oneOf: undefined } : s);
    const required = [...((schema.required as string[]) ?? []), ...parts.flatMap(chosen)];
    return generate({ ...rest(schema), allOf: undefined, required: [...new Set(required)] }, depth + 1);
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = schema[key] as JsonSchema[] | undefined;
    if (branches && !schema.type && !schema.properties) {
      for (const branch of branches) {
        const value = generate(branch, depth + 1);
        if (isValid(input, value)) return value;
      }
      return generate(branches[0]!, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf)) {
    const merged: JsonSchema = {
      ...schema,
      allOf: undefined,
      properties: { ...(schema.properties as object) },
      required: [...((schema.required as string[]) ?? [])],
    };
    for (const part of (schema.allOf as JsonSchema[]).map(resolve)) {
      Object.assign(merged.properties as object, part.properties ?? {});
      (merged.required as string[]).push(...((part.required as string[]) ?? []));
      merged.type ??= part.type;
    }
    delete merged.allOf;
    return generate(merged, depth + 1);
  }
  let type = schema.type as string | string[] | undefined;
  if (Array.isArray(type)) type = type.find((t) => t !== 'null') ?? 'null';
  if (!type && schema.properties) type = 'object';
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return true;
    case 'integer':
      return numberFor(schema, true);
    case 'number':
      return numberFor(schema, false);
    case 'string':
      return 'default' in schema && typeof schema.default === 'string' ? schema.default : stringFor(schema);
    case 'array': {
      const items = (schema.items as JsonSchema | undefined) ?? {};
      const count = (schema.minItems as number | undefined) ?? 0;
      const resolved = resolve(items);
      if (Array.isArray(resolved.enum) && schema.uniqueItems) return resolved.enum.slice(0, count);
      return Array.from({ length: count }, (_, i) => {
        const v = generate(items, depth + 1);
        return typeof v === 'string' && schema.uniqueItems && i > 0 ? `${v}${i}` : v;
      });
    }
    case 'object': {
      const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
      const required = (schema.required as string[] | undefined) ?? [];
      const out: Record<string, unknown> = {};
      for (const name of required) out[name] = generate(properties[name] ?? {}, depth + 1);
      if (isValid(input, out)) return out;
      // Constraints beyond `required` (minProperties, anyOf of required sets, …): add optional fields until valid.
      const optional = Object.keys(properties).filter((p) => !required.includes(p));
      for (const name of optional) {
        const attempt = { ...out, [name]: generate(properties[name]!, depth + 1) };
        if (isValid(input, attempt)) return attempt;
      }
      for (const name of optional) out[name] = generate(properties[name]!, depth + 1);
      return out;
    }
    default:
      return {};
  }
}

/** A well-formed request of `op`: path parameters, required query parameters, and a body when one is required. */
function validRequest(op: Operation): { path: string; body: unknown } {
  const pathProps = (op.pathSchema.properties ?? {}) as Record<string, JsonSchema>;
  const params: Record<string, string> = {};
  for (const [name, raw] of Object.entries(pathProps)) {
    const s = resolve(raw);
    params[name] = !s.pattern && !s.format && !s.enum ? 'x_1'.padEnd((s.minLength as number | undefined) ?? 0, '1') : String(generate(s));
  }
  assert.ok(isValid(op.pathSchema, params), `generated path parameters of ${op.operationId} are invalid: ${JSON.stringify(params)}`);
  let path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? 'x_1'));

  const queryProps = (op.querySchema.properties ?? {}) as Record<string, JsonSchema>;
  const query: Record<string, unknown> = {};
  for (const name of (op.querySchema.required as string[] | undefined) ?? []) query[name] = generate(queryProps[name] ?? {});
  const validateQuery = validatorFor(op.querySchema);
  assert.ok(validateQuery(structuredClone(query)), `generated query of ${op.operationId} is invalid: ${JSON.stringify(validateQuery.errors)}`);
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  if (qs) path += `?${qs}`;

  let body: unknown;
  if (op.body?.required) {
    body = op.operationId in BODIES ? BODIES[op.operationId] : generate(op.body.schema);
    const validate = validatorFor(op.body.schema);
    assert.ok(
      validate(structuredClone(body)),
      `the body generated for ${op.operationId} is invalid (${JSON.stringify(validate.errors)}): ${JSON.stringify(body)} — add one to BODIES`,
    );
  }
  return { path, body };
}

let app: TestApp;
let api: ApiClient;
let accountId: string;

before(async () => {
  app = await startTestApp();
  const tenant = await seedTenant(app.db);
  accountId = tenant.accountId;
  api = new ApiClient(app.baseUrl, tenant.apiKey);
});
after(() => app.close());

describe('built operations', () => {
  test('no operation answers 501', async () => {
    assert.ok(operations.length > 0);
    for (const op of operations) {
      const key = await addKey(app.db, { accountId });
      const { path, body } = validRequest(op);
      const res = await api.withKey(key.apiKey).call(op.method.toUpperCase(), path, body === undefined ? {} : { body });
      assert.notEqual(res.status, 501, `${op.operationId} answered 501: ${res.text}`);
      assert.ok(res.status < 500, `${op.operationId}: ${res.status} ${res.text}`);
    }
  });
});
