import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { handlers } from '../../api/handlers/index';
import { EVENT_CATALOGUE } from '../../schemas/events/index';
import { ERROR_RESPONSES, JsonSchema, SCOPES } from '../../schemas/openapi/common';
import { openapiDocument, SCOPE_EXTENSION } from '../../schemas/openapi/index';
import { STATE_RULES } from '../../schemas/openapi/state-rules';
import { operations } from '../../schemas/operations';
import { documentAjv, DOCUMENT_ID, validatorFor } from '../../schemas/validator';
import { SPEC_OPERATION_IDS, SPEC_OPERATIONS } from './spec-operations';

const ROOT = resolve(__dirname, '../../..');
const doc = openapiDocument as any;
const components: Record<string, JsonSchema> = doc.components.schemas;
const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

test('document header: OpenAPI 3.1.2, contract 1.1.0, /api/v1 server, bearer ApiKey by default', () => {
  assert.equal(doc.openapi, '3.1.2');
  assert.equal(doc.info.version, '1.1.0');
  assert.match(doc.servers[0].url, /\/api\/v1$/);
  assert.deepEqual(doc.security, [{ ApiKey: [] }]);
  assert.deepEqual(
    { type: doc.components.securitySchemes.ApiKey.type, scheme: doc.components.securitySchemes.ApiKey.scheme },
    { type: 'http', scheme: 'bearer' },
  );
});

test('declares exactly the 73 operations of spec 4.1 with their methods, paths and scopes', () => {
  assert.equal(SPEC_OPERATIONS.length, 73);
  const declared = operations.map((o) => `${key(o.method, o.path)} ${o.scope}`).sort();
  const spec = SPEC_OPERATIONS.map(([m, p, s]) => `${key(m, p)} ${s}`).sort();
  assert.deepEqual(declared, spec);
  assert.deepEqual([...new Set(operations.map((o) => o.scope))].sort(), [...SCOPES].sort());
});

test('operationIds are unique, and the ones the spec names sit on their operations', () => {
  const ids = operations.map((o) => o.operationId);
  assert.equal(new Set(ids).size, ids.length);
  const byRoute = new Map(operations.map((o) => [key(o.method, o.path), o.operationId]));
  const named = SPEC_OPERATIONS.slice(0, 13).map(([m, p]) => byRoute.get(key(m, p)));
  assert.deepEqual(named, [...SPEC_OPERATION_IDS]);
  for (const id of ids) assert.match(id, /^[a-z]+(_[a-z]+)*$/);
});

test('every operation carries its scope extension and the Error schema on every status of spec 7', () => {
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      assert.ok(SCOPES.includes(op[SCOPE_EXTENSION]), `${method} ${path} scope`);
      for (const status of Object.keys(ERROR_RESPONSES)) {
        assert.equal(op.responses[status]?.$ref, `#/components/responses/Error${status}`, `${method} ${path} ${status}`);
      }
      assert.ok(op.summary, `${method} ${path} summary`);
    }
  }
  for (const status of Object.keys(ERROR_RESPONSES)) {
    assert.deepEqual(doc.components.responses[`Error${status}`].content['application/json'].schema, { $ref: '#/components/schemas/Error' });
  }
  assert.deepEqual(components.Error!.required, ['code', 'message', 'request_id']);
});

test('path ids, pagination, filters and days follow spec 4.2', () => {
  for (const op of operations) {
    const params = (op.pathSchema.properties ?? {}) as Record<string, any>;
    if (op.path.includes('{id}')) {
      const expected = op.operationId === 'journey_executions_list' ? { minLength: 2, maxLength: 100 } : {};
      assert.equal(params.id.type, 'string', op.operationId);
      for (const [k, v] of Object.entries(expected)) assert.equal(params.id[k], v, `${op.operationId} id ${k}`);
    }
    const query = (op.querySchema.properties ?? {}) as Record<string, any>;
    const isList = (op.responseSchema as any).properties?.pagination !== undefined;
    if (isList) {
      assert.deepEqual(query.limit, { type: 'integer', minimum: 1, maximum: 100, default: 30 }, op.operationId);
      assert.deepEqual(query.offset, { type: 'integer', minimum: 0, default: 0 }, op.operationId);
    }
    if (op.path.startsWith('/analytics/')) {
      assert.equal(query.days.minimum, 1, op.operationId);
      assert.equal(query.days.maximum, 365, op.operationId);
    }
  }
  const filters = (path: string) => Object.keys(operations.find((o) => o.method === 'get' && o.path === path)!.querySchema.properties as object);
  for (const f of ['status', 'marketplace', 'query']) assert.ok(filters('/offers').includes(f), f);
  for (const f of ['status', 'group_id', 'offer_id']) assert.ok(filters('/publications').includes(f), f);
  for (const f of ['status', 'channel']) assert.ok(filters('/inbox/conversations').includes(f), f);
  assert.ok(filters('/journeys/{id}/executions').includes('status'));
});

/** Every object a request may contain is closed (unknown properties are refused). */
function assertClosed(schema: any, where: string, seen = new Set<any>()): void {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
  seen.add(schema);
  if (typeof schema.$ref === 'string') return assertClosed(components[schema.$ref.split('/').pop()], schema.$ref, seen);
  // A schema whose properties are all `{}` only tests which fields are present (inside oneOf / not): it is no object of its own.
  const presenceTest = schema.properties && Object.values(schema.properties).every((p: any) => Object.keys(p).length === 0);
  if ((schema.type === 'object' || schema.properties) && !presenceTest) {
    if (schema.properties && Object.keys(schema.properties).length) assert.equal(schema.additionalProperties, false, `${where} is closed`);
  }
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'if' || k === 'then' || k === 'else') assertRefines(v, schema, `${where}/${k}`);
    else if (Array.isArray(v)) v.forEach((x) => assertClosed(x, where, seen));
    else if (typeof v === 'object') assertClosed(v, where, seen);
  }
}

const resolved = (schema: any): any => (typeof schema?.$ref === 'string' ? components[schema.$ref.split('/').pop()] : schema);

/**
 * A part of an `if` (the condition, `then`, `else`) is no object of its own: it adds rules to the object it sits on
 * (MonitorAutomation: `mode`, `segment_id`; MonitorSource: `type`, `mapping.items`). Every property it names, down
 * through the properties it refines (a source's `mapping`), must be one the closed object has, or no value could meet it.
 */
function assertRefines(part: any, base: any, where: string): void {
  const object = resolved(base);
  if (!part || typeof part !== 'object' || !object) return;
  const own = object.properties ?? {};
  for (const name of [...Object.keys(part.properties ?? {}), ...(part.required ?? [])])
    assert.ok(name in own, `${where} names ${name}, which the object it refines does not have`);
  for (const [name, p] of Object.entries(part.properties ?? {})) if (own[name]) assertRefines(p, own[name], `${where}.${name}`);
  for (const key of ['not', 'if', 'then', 'else']) if (part[key]) assertRefines(part[key], object, `${where}/${key}`);
  for (const key of ['oneOf', 'anyOf', 'allOf']) for (const p of part[key] ?? []) assertRefines(p, object, `${where}/${key}`);
}

test('request bodies, path and query parameters refuse unknown properties', () => {
  for (const op of operations) {
    if (op.body) assertClosed(op.body.schema, `${op.operationId} body`);
    assert.equal(op.querySchema.additionalProperties, false);
    assert.equal(op.pathSchema.additionalProperties, false);
  }
});

const SCALARS = ['string', 'number', 'integer', 'boolean'];

/**
 * Every value a request may carry is bounded, so no request is expensive to validate (docs/api-conventions.md, Limits):
 * each array has maxItems (said in its description) and unique items only of scalars (Ajv compares other items pairwise),
 * each string maxLength unless an enum or const fixes it, each object is closed or has maxProperties.
 */
function assertBounded(schema: any, where: string, seen = new Set<any>()): void {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
  seen.add(schema);
  if (Array.isArray(schema)) return schema.forEach((s) => assertBounded(s, where, seen));
  if (typeof schema.$ref === 'string') return assertBounded(resolved(schema), `${where} → ${schema.$ref.split('/').pop()}`, seen);
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.includes('array')) {
    assert.equal(typeof schema.maxItems, 'number', `${where}: an array without maxItems`);
    const says = schema.maxItems === 0 ? /always empty/ : new RegExp(`at most ${schema.maxItems} item`, 'i');
    assert.match(schema.description ?? '', says, `${where}: the description says maxItems`);
    if (schema.uniqueItems) assert.ok(SCALARS.includes(resolved(schema.items).type), `${where}: uniqueItems over items that are no scalar`);
  }
  if (types.includes('string') && !schema.enum && !('const' in schema)) {
    assert.equal(typeof schema.maxLength, 'number', `${where}: a string without maxLength`);
  }
  const alternatives = ['oneOf', 'anyOf', 'allOf', 'not', 'if'].some((k) => k in schema);
  if (types.includes('object') && !schema.properties && !alternatives) {
    assert.equal(typeof schema.maxProperties, 'number', `${where}: a free-form object without maxProperties`);
  }
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'properties') for (const [name, p] of Object.entries<any>(v as object)) assertBounded(p, `${where}.${name}`, seen);
    else if (!['enum', 'const', 'default', 'examples', 'example'].includes(k)) assertBounded(v, where, seen);
  }
}

test('every array, string and free-form object of a request is bounded (maxItems, maxLength, maxProperties)', () => {
  for (const op of operations) {
    if (op.body) assertBounded(op.body.schema, `${op.operationId} body`);
    assertBounded(op.querySchema, `${op.operationId} query`);
    assertBounded(op.pathSchema, `${op.operationId} path`);
  }
});

/** Every array of a request body, by the component and property path it is at (`JourneyCreate.blocks`), with its maxItems. */
function requestArrays(): Map<string, Set<number>> {
  const found = new Map<string, Set<number>>();
  const walk = (schema: any, path: string, seen: Set<string>): void => {
    if (!schema || typeof schema !== 'object') return;
    if (Array.isArray(schema)) return schema.forEach((s) => walk(s, path, seen));
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.split('/').pop();
      if (!seen.has(name)) walk(components[name], name, new Set([...seen, name]));
      return;
    }
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (types.includes('array')) found.set(path, new Set([...(found.get(path) ?? []), schema.maxItems]));
    for (const [k, v] of Object.entries<any>(schema)) {
      if (k === 'properties') for (const [name, p] of Object.entries<any>(v)) walk(p, `${path}.${name}`, seen);
      else if (['items', 'oneOf', 'anyOf', 'allOf', 'then', 'else'].includes(k)) walk(v, path, seen);
    }
  };
  for (const op of operations) if (op.body) walk(op.body.schema, 'body', new Set());
  return found;
}

test("docs/api-conventions.md's Limits table lists every array of a request with its maxItems", () => {
  const doc = readFileSync(resolve(ROOT, 'docs/api-conventions.md'), 'utf8');
  const rows = new Map([...doc.matchAll(/^\| `([A-Za-z_.]+)` \|.*\| ([^|]+) \|$/gm)].map((m) => [m[1]!, m[2]!]));
  const arrays = requestArrays();
  assert.deepEqual([...rows.keys()].sort(), [...arrays.keys()].sort());
  for (const [path, limits] of arrays) {
    for (const n of limits) assert.match(rows.get(path)!, new RegExp(`(^|\\D)${n}(\\D|$)`), `${path}: at most ${n}`);
  }
});

test('error details are capped in the contract: at most 20, details_omitted counts the rest', () => {
  const error = components.Error as any;
  assert.equal(error.properties.details.maxItems, 20);
  assert.equal(error.properties.details_omitted.type, 'integer');
  assert.equal(error.properties.details_omitted.minimum, 1);
});

test('spec 2.2 offer constraints are in the contract exactly', () => {
  const p = (components.OfferCreate as any).properties;
  assert.deepEqual((components.OfferCreate as any).required, ['url', 'title']);
  assert.equal(p.url.maxLength, 2000);
  assert.equal(p.url.format, 'uri');
  assert.deepEqual([p.title.minLength, p.title.maxLength], [3, 240]);
  assert.equal(p.marketplace.maxLength, 40);
  assert.deepEqual([p.currency.minLength, p.currency.maxLength, p.currency.default], [3, 8, 'BRL']);
  assert.equal(p.copy.maxLength, 6000);
  assert.equal(p.image.format, 'uri');
  for (const f of ['price', 'original_price']) assert.equal(p[f].type, 'number');
  assert.deepEqual((components.SegmentCreate as any).required, ['name']);
  const body = operations.find((o) => o.operationId === 'store_page_create')!.body!.schema;
  const page = (body.$ref ? components[(body.$ref as string).split('/').pop()!] : body) as any;
  assert.deepEqual(page.required, ['title']);
  assert.deepEqual([page.properties.title.minLength, page.properties.title.maxLength], [2, 160]);
  assert.equal(page.properties.slug.maxLength, 80);
  assert.equal(page.properties.summary.maxLength, 500);
  assert.equal(page.properties.body.maxLength, 50000);
  assert.equal(page.properties.seo_title.maxLength, 70);
  assert.equal(page.properties.seo_description.maxLength, 180);
});

test('every component schema compiles under Ajv 2020 strict mode', () => {
  for (const name of Object.keys(components)) {
    assert.doesNotThrow(() => documentAjv().compile({ $ref: `${DOCUMENT_ID}#/components/schemas/${name}` }), name);
  }
  for (const op of operations) {
    for (const schema of [op.pathSchema, op.querySchema, op.responseSchema, ...(op.body ? [op.body.schema] : [])]) {
      assert.doesNotThrow(() => validatorFor(schema), op.operationId);
    }
  }
});

test('schemas/openapi.json is the document as built, operation by operation (run `npm run openapi` after a change)', () => {
  const text = readFileSync(resolve(ROOT, 'schemas/openapi.json'), 'utf8');
  const committed = JSON.parse(text);
  const built = JSON.parse(JSON.stringify(openapiDocument));
  const routes = (d: any) => Object.entries<any>(d.paths).flatMap(([path, item]) => Object.keys(item).map((method) => key(method, path)));
  assert.deepEqual(routes(built), routes(committed), 'the same operations, in the same order');
  for (const [path, item] of Object.entries<any>(committed.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      assert.deepEqual(built.paths[path][method], op, `${key(method, path)} (${op.operationId}) differs from schemas/openapi.json`);
    }
  }
  assert.deepEqual({ ...built, paths: {} }, { ...committed, paths: {} }, 'the document beside its operations');
  assert.equal(text, `${JSON.stringify(openapiDocument, null, 2)}\n`, 'the file as `npm run openapi` writes it');
});

test('handlers and operations match one to one', () => {
  assert.deepEqual(Object.keys(handlers).sort(), operations.map((o) => o.operationId).sort());
});

test('every event kind has a versioned JSON schema file in schemas/events/', () => {
  const files = readdirSync(resolve(ROOT, 'schemas/events'))
    .filter((f) => f.endsWith('.json'))
    .sort();
  assert.deepEqual(files, EVENT_CATALOGUE.map((e) => `${e.kind}.v${e.version}.json`).sort());
  for (const e of EVENT_CATALOGUE) {
    const schema = e.schema as any;
    assert.equal(schema.$id, `https://offerops.dev/schemas/events/${e.kind}.v${e.version}.json`);
    assert.match(e.kind, /^[a-z_]+\.[a-z_]+$/);
    assert.deepEqual(schema.required, ['id', 'kind', 'version', 'account', 'environment', 'occurred_at', 'data']);
    assert.doesNotThrow(() => validatorFor(schema), e.kind);
  }
});

test('links: every {id} operation is reachable from a create or list response, by operationId, with an id the response has; body links name fields that exist', () => {
  const resolve = (s: any): any => (s?.$ref ? resolve(components[s.$ref.split('/').pop()]) : s);
  const reached = new Map<string, string[]>();
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const op of Object.values<any>(item)) {
      for (const [status, response] of Object.entries<any>(op.responses)) {
        for (const [name, link] of Object.entries<any>(response.links ?? {})) {
          assert.ok(/^2\d\d$/.test(status) && !path.includes('{'), `${op.operationId} ${status}: links only from a create or list`);
          assert.equal(name, link.operationId);
          const data = resolve(resolve(response.content['application/json'].schema).properties.data);
          if (link.requestBody) {
            // Into a body: each field the target's body has, each value a field of the record answered.
            const target = operations.find((o) => o.operationId === link.operationId)!;
            const body = resolve(target.body!.schema);
            for (const [field, expression] of Object.entries<string>(link.requestBody)) {
              assert.ok(body.properties[field], `${op.operationId} → ${name}: the body takes ${field}`);
              const from = /^\$response\.body#\/data\/([a-z_]+)$/.exec(expression)?.[1];
              assert.ok(from && resolve(data).properties[from], `${op.operationId} → ${name}: ${expression} is a field of the record`);
            }
            continue;
          }
          assert.ok(
            operations.some((o) => o.operationId === link.operationId && o.path.startsWith(`${path}/{id}`)),
            `${name} is a by-id operation of ${path}`,
          );
          const expected = data.type === 'array' ? '$response.body#/data/0/id' : '$response.body#/data/id';
          assert.deepEqual(link.parameters, { id: expected }, `${op.operationId} → ${name}`);
          assert.ok(resolve(data.type === 'array' ? data.items : data).properties.id, `${op.operationId}'s data has an id`);
          reached.set(name, [...(reached.get(name) ?? []), op.operationId]);
        }
      }
    }
  }
  const byId = operations.filter((o) => o.path.includes('{id}')).map((o) => o.operationId);
  assert.deepEqual(
    byId.filter((id) => !reached.has(id)),
    [],
    'by-id operations no create or list links to',
  );
  assert.ok(reached.get('offer_publish')!.includes('offer_create') && reached.get('offer_publish')!.includes('offers_list'));
  assert.deepEqual(doc.paths['/offers'].post.responses['201'].links.link_convert.requestBody, {
    url: '$response.body#/data/url',
    offer_id: '$response.body#/data/id',
  });
});

test('state rules: every operation states them; the table names only real operations', () => {
  const ids = new Set(operations.map((o) => o.operationId));
  assert.deepEqual(
    Object.keys(STATE_RULES).filter((id) => !ids.has(id)),
    [],
  );
  for (const item of Object.values<any>(doc.paths)) {
    for (const op of Object.values<any>(item)) {
      assert.match(op.description, /\*\*State rules\*\*/, op.operationId);
      for (const rule of STATE_RULES[op.operationId] ?? []) assert.ok(op.description.includes(rule), `${op.operationId}: ${rule}`);
    }
  }
});
