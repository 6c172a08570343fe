/**
 * The Postman collection (v2.1) made from the OpenAPI document, written by
 * `npm run openapi` to `schemas/collection.json` and served at
 * `/api/v1/collection.json`: a folder per tag, a request per operation (its
 * path parameters as `:name` variables, its query parameters listed and
 * disabled unless required, its example body), collection variables
 * `base_url` and `api_key`, bearer auth from `{{api_key}}`, and a test on
 * every request that the answer is not a server error.
 *
 * Example bodies: the schema's `example`/`examples`, else made from the
 * schema — its required fields (or, with none required, its first one),
 * each from its own example, const, default or first enum value, else a value
 * of its type and format within its bounds.
 */
import { resolve } from 'node:path';
import { deref, Document, groupName, Schema } from '../cli/api-commands';

export const COLLECTION_JSON = resolve(__dirname, '../../../schemas/collection.json');
export const POSTMAN_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

interface OperationObject {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Schema; example?: unknown }[];
  requestBody?: {
    required?: boolean;
    content?: Record<string, { schema?: Schema; example?: unknown; examples?: Record<string, { value?: unknown }> }>;
  };
  [extension: string]: unknown;
}

export interface PostmanRequestItem {
  id: string;
  name: string;
  request: {
    method: string;
    description: string;
    header: { key: string; value: string }[];
    url: {
      raw: string;
      host: string[];
      path: string[];
      query: { key: string; value: string; description?: string; disabled: boolean }[];
      variable: { key: string; value: string; description?: string }[];
    };
    body?: { mode: 'raw'; raw: string; options: { raw: { language: 'json' } } };
  };
}

export interface PostmanCollection {
  info: { name: string; description: string; schema: string };
  auth: { type: 'bearer'; bearer: { key: string; value: string; type: string }[] };
  variable: { key: string; value: string; type: string; description: string }[];
  event: { listen: string; script: { type: string; exec: string[] } }[];
  item: { name: string; description: string; item: PostmanRequestItem[] }[];
}

const STRING_FORMATS: Record<string, string> = {
  uri: 'https://shop.example.com/item/123',
  url: 'https://shop.example.com/item/123',
  'date-time': '2030-01-01T12:00:00Z',
  date: '2030-01-01',
  time: '12:00:00',
  hostname: 'ofertas.example.com',
  email: 'team@example.com',
};

/** A string the pattern accepts, for the patterns of this document (id prefixes, colours, slugs, event kinds), else null. */
function fromPattern(pattern: string): string | null {
  const id = /^\^([a-z]+_)\[0-9a-z\]\{(\d+),/.exec(pattern);
  if (id) return `${id[1]}${'0'.repeat(Number(id[2]))}`;
  if (pattern.startsWith('^#[0-9A-Fa-f]{6}')) return '#1a73e8';
  if (pattern.startsWith('^[a-z_]+\\.[a-z_]+')) return 'offer.created';
  if (pattern.startsWith('^[a-z0-9]')) return 'example';
  if (pattern.startsWith('^https://')) return 'https://shop.example.com/item/123';
  if (pattern.startsWith('^/')) return '/';
  if (pattern.startsWith('^\\d{4}-\\d{2}-\\d{2}')) return '2030-01-01T12:00:00Z';
  return null;
}

export function exampleOf(doc: Document, schema: Schema | undefined, depth = 0): unknown {
  const s = deref(doc, schema);
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum)) return s.enum.find((v) => v !== null) ?? null;
  if (depth > 8) return null;
  if (s.allOf) return Object.assign({}, ...s.allOf.map((b) => exampleOf(doc, b, depth + 1) as object));
  const branches = s.oneOf ?? s.anyOf;
  if (branches && !s.type) {
    const first = branches.map((b) => deref(doc, b)).find((b) => b.type !== 'null');
    return first ? exampleOf(doc, first, depth + 1) : null;
  }
  const type = (Array.isArray(s.type) ? s.type : [s.type]).find((t) => t && t !== 'null') ?? (s.properties ? 'object' : undefined);
  switch (type) {
    case 'object': {
      const props = s.properties ?? {};
      const keys = s.required?.length ? s.required : Object.keys(props).slice(0, 1);
      return Object.fromEntries(keys.filter((k) => props[k]).map((k) => [k, exampleOf(doc, props[k], depth + 1)]));
    }
    case 'array':
      return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => exampleOf(doc, s.items, depth + 1));
    case 'integer':
    case 'number': {
      const n = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
      return s.maximum !== undefined ? Math.min(n, s.maximum) : n;
    }
    case 'boolean':
      return false;
    case 'string': {
      const fromFormat = s.format ? STRING_FORMATS[s.format] : undefined;
      const value = fromFormat ?? (s.pattern ? fromPattern(s.pattern) : null) ?? 'example';
      return value.padEnd(s.minLength ?? 0, 'x');
    }
    default:
      return null;
  }
}

function bodyExample(doc: Document, op: OperationObject): unknown {
  const media = op.requestBody?.content?.['application/json'];
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const named = Object.values(media.examples ?? {}).find((e) => e.value !== undefined);
  if (named) return named.value;
  return exampleOf(doc, media.schema);
}

const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function requestItem(doc: Document, path: string, method: string, op: OperationObject): PostmanRequestItem {
  const params = op.parameters ?? [];
  const segments = path
    .split('/')
    .filter(Boolean)
    .map((seg) => seg.replace(/^\{(.+)\}$/, ':$1'));
  const query = params
    .filter((p) => p.in === 'query')
    .map((p) => ({
      key: p.name,
      value: text(p.example ?? exampleOf(doc, p.schema)),
      ...(p.description ? { description: p.description } : {}),
      disabled: p.required !== true,
    }));
  const variable = params
    .filter((p) => p.in === 'path')
    .map((p) => ({ key: p.name, value: text(p.example ?? exampleOf(doc, p.schema)), ...(p.description ? { description: p.description } : {}) }));
  const enabled = query.filter((q) => !q.disabled);
  const qs = enabled.length ? `?${enabled.map((q) => `${q.key}=${encodeURIComponent(q.value)}`).join('&')}` : '';
  const scope = Object.entries(op).find(([k, v]) => k.startsWith('x-') && k.includes('scope') && typeof v === 'string')?.[1] as
    string | undefined;
  const body = bodyExample(doc, op);
  return {
    id: op.operationId,
    name: op.summary ?? op.operationId,
    request: {
      method: method.toUpperCase(),
      description: [op.description ?? op.summary ?? '', `Operation \`${op.operationId}\`${scope ? `, scope \`${scope}\`` : ''}.`]
        .filter(Boolean)
        .join('\n\n'),
      header: body === undefined ? [] : [{ key: 'Content-Type', value: 'application/json' }],
      url: { raw: `{{base_url}}/${segments.join('/')}${qs}`, host: ['{{base_url}}'], path: segments, query, variable },
      ...(body === undefined
        ? {}
        : { body: { mode: 'raw' as const, raw: JSON.stringify(body, null, 2), options: { raw: { language: 'json' as const } } } }),
    },
  };
}

export function postmanCollection(doc: Document): PostmanCollection {
  const folders = new Map<string, { name: string; description: string; item: PostmanRequestItem[] }>();
  for (const tag of doc.tags ?? []) folders.set(tag.name, { name: tag.name, description: tag.description ?? '', item: [] });
  for (const [path, pathItem] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(pathItem as Record<string, OperationObject>)) {
      if (!METHODS.includes(method) || !op?.operationId) continue;
      const tag = op.tags?.[0] ?? groupName(undefined, path);
      if (!folders.has(tag)) folders.set(tag, { name: tag, description: '', item: [] });
      folders.get(tag)!.item.push(requestItem(doc, path, method, op));
    }
  }
  return {
    info: { name: doc.info?.title ?? 'API', description: doc.info?.description ?? '', schema: POSTMAN_SCHEMA },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{api_key}}', type: 'string' }] },
    variable: [
      { key: 'base_url', value: doc.servers?.[0]?.url ?? '', type: 'string', description: 'the API, ending in /api/v1' },
      { key: 'api_key', value: '', type: 'string', description: 'an API key: oo_live_… (live data) or oo_test_… (sandbox)' },
    ],
    event: [
      {
        listen: 'test',
        script: {
          type: 'text/javascript',
          exec: ["pm.test('no server error', function () {", '  pm.expect(pm.response.code).to.be.below(500);', '});'],
        },
      },
    ],
    item: [...folders.values()].filter((f) => f.item.length),
  };
}

/** The collection file's text for a document (the contract test compares it with the file). */
export const collectionJson = (doc: Document): string => `${JSON.stringify(postmanCollection(doc), null, 2)}\n`;
