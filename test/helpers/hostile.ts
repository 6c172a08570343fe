/**
 * Hostile requests for an operation of the table, each within the limits a
 * client can reach (a body of at most 128 KB, a request head well under
 * 16 KB): deep nesting, long arrays, long strings and many properties, both
 * blind and shaped by the operation's schemas (every array of the body
 * filled past its limit, every string long, every object crowded with
 * unknown fields, at every depth the schema reaches).
 */
import { JsonSchema } from '../../schemas/openapi/common';
import { openapiDocument } from '../../schemas/openapi/index';
import { Operation } from '../../schemas/operations';

export const BODY_LIMIT = 128 * 1024;
/** Room for the path and query in a request head (Node refuses a head over 16 KB; that refusal is tested on its own). */
const QUERY_LIMIT = 12 * 1024;

export interface HostileRequest {
  name: string;
  method: string;
  /** Path and query, relative to the API's base URL. */
  path: string;
  body?: string;
}

const components = (openapiDocument.components as { schemas: Record<string, JsonSchema> }).schemas;
const resolved = (s: JsonSchema): JsonSchema => (typeof s.$ref === 'string' ? resolved(components[s.$ref.split('/').pop()!]!) : s);

type Mode = 'items' | 'hollow' | 'strings' | 'fields';

/**
 * A value of `schema` in which, by `mode`, every array holds `n` items (`hollow`: all but the first empty objects), every
 * string is `n` characters long, or every object carries `n` unknown fields besides its own; everything else small. Alternatives: an array's items take the
 * branches in turn, any other value the first branch that is not null.
 */
function shaped(schema: JsonSchema, mode: Mode, n: number, budget = { left: 2 * BODY_LIMIT }, seen: readonly JsonSchema[] = []): unknown {
  // Arrays inside arrays would grow as n to the power of their depth: stop adding once far past the body limit.
  budget.left -= 4;
  const s = resolved(schema);
  if (seen.includes(s) || seen.length > 12) return null;
  const inside = [...seen, s];
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  const branches = (s.oneOf ?? s.anyOf) as JsonSchema[] | undefined;
  const types = (Array.isArray(s.type) ? s.type : [s.type]) as unknown[];
  if (branches && !s.properties) {
    const usable = branches.filter((b) => resolved(b).type !== 'null');
    return shaped(usable[0] ?? branches[0]!, mode, n, budget, inside);
  }
  if (types.includes('object') || s.properties) {
    const out: Record<string, unknown> = {};
    for (const [name, p] of Object.entries((s.properties ?? {}) as Record<string, JsonSchema>)) out[name] = shaped(p, mode, n, budget, inside);
    if (mode === 'fields') for (let i = 0; i < n && budget.left > 0; i++, budget.left -= 8) out[`f${i}`] = 0;
    return out;
  }
  if (types.includes('array')) {
    const items = resolved((s.items ?? {}) as JsonSchema);
    const alternatives = (items.oneOf as JsonSchema[] | undefined) ?? [items];
    const out: unknown[] = [];
    const count = mode === 'items' || mode === 'hollow' ? n : 1;
    for (let i = 0; i < count && budget.left > 0; i++) {
      // Hollow: the first item reaches the arrays inside; the others are empty objects, each wrong in every way it can be.
      out.push(mode === 'hollow' && i > 0 ? {} : shaped(alternatives[i % alternatives.length]!, mode, n, budget, inside));
      if (mode === 'hollow') budget.left -= 3;
    }
    return out;
  }
  if (types.includes('string')) {
    budget.left -= mode === 'strings' ? n : 1;
    return 'x'.repeat(mode === 'strings' ? n : 1);
  }
  if (types.includes('integer') || types.includes('number')) return 1;
  if (types.includes('boolean')) return true;
  return null;
}

/** The text of the largest `n` (up to `max`) whose text fits the body limit; null when even n = 1 does not fit. */
function largest(make: (n: number) => string, max: number): string | null {
  let lo = 0;
  let hi = max;
  let best: string | null = null;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const text = make(mid);
    if (Buffer.byteLength(text) <= BODY_LIMIT) {
      lo = mid;
      best = text;
    } else {
      hi = mid - 1;
    }
  }
  return lo > 0 ? best : null;
}

/** As many `part(i)` joined by commas between `open` and `close` as fit the body limit. */
function crowd(open: string, part: (i: number) => string, close: string): string {
  const parts: string[] = [];
  for (let size = open.length + close.length, i = 0; ; i++) {
    const next = part(i);
    size += next.length + (i ? 1 : 0);
    if (size > BODY_LIMIT) break;
    parts.push(next);
  }
  return `${open}${parts.join(',')}${close}`;
}

/** Bodies of any operation: nesting far past the depth limit, a crowd of properties, a long array, a long string. */
let blind: [string, string][] | undefined;
function blindBodies(): [string, string][] {
  const half = BODY_LIMIT / 2 - 1;
  const sixth = Math.floor(BODY_LIMIT / 6) - 1;
  blind ??= [
    ['deep arrays', '['.repeat(half) + ']'.repeat(half)],
    ['deep objects', `${'{"a":'.repeat(sixth)}0${'}'.repeat(sixth)}`],
    ['a crowd of properties', crowd('{', (i) => `"k${i}":0`, '}')],
    ['a long array of empty objects', crowd('[', () => '{}', ']')],
    ['a long string', JSON.stringify('x'.repeat(BODY_LIMIT - 2))],
  ];
  return blind;
}

/** The body with every string as long as it can be: each of its k strings grows the text by one character per character. */
function longStrings(schema: JsonSchema): string | null {
  const base = Buffer.byteLength(JSON.stringify(shaped(schema, 'strings', 0)));
  const strings = Buffer.byteLength(JSON.stringify(shaped(schema, 'strings', 1))) - base;
  if (!strings) return null;
  return JSON.stringify(shaped(schema, 'strings', Math.floor((BODY_LIMIT - base) / strings)));
}

/** Bodies shaped by the operation's body schema. */
function shapedBodies(schema: JsonSchema): [string, string][] {
  const fields = Object.keys(resolved(schema).properties ?? {});
  const out: [string, string][] = [];
  for (const [mode, name] of [
    ['items', 'every array of the body filled to the size limit'],
    ['hollow', 'every array of the body filled with empty objects'],
    ['strings', 'every string of the body long'],
    ['fields', 'every object of the body crowded with unknown fields'],
  ] as const) {
    const text = mode === 'strings' ? longStrings(schema) : largest((n) => JSON.stringify(shaped(schema, mode, n)), 5_000);
    if (text) out.push([name, text]);
  }
  if (fields.length) {
    const share = Math.floor(BODY_LIMIT / fields.length);
    const each = (value: (room: number) => unknown) => JSON.stringify(Object.fromEntries(fields.map((f) => [f, value(share - f.length - 8)])));
    out.push(['every field a long string', each((room) => 'x'.repeat(room))]);
    out.push(['every field a long array', each((room) => Array.from({ length: Math.floor(room / 3) }, () => ({})))]);
    out.push([
      'every field nested deep',
      each((room) => JSON.parse('['.repeat(Math.min(room / 2, 1000)) + ']'.repeat(Math.min(room / 2, 1000)))),
    ]);
  }
  return out.filter(([, text]) => Buffer.byteLength(text) <= BODY_LIMIT);
}

/** Query strings of at most QUERY_LIMIT characters: unknown parameters by the thousand, each known one long, one repeated. */
function hostileQueries(op: Operation): [string, string][] {
  const known = Object.keys(op.querySchema.properties ?? {});
  const many: string[] = [];
  for (let size = 0, i = 0; size + `p${i}=1&`.length <= QUERY_LIMIT; size += `p${i}=1&`.length, i++) many.push(`p${i}=1`);
  const out: [string, string][] = [['a thousand unknown query parameters', many.join('&')]];
  if (known.length) {
    const room = Math.floor(QUERY_LIMIT / known.length) - 20;
    out.push(['every query parameter long', known.map((k) => `${k}=${'9'.repeat(room)}`).join('&')]);
    out.push([
      'one query parameter repeated',
      Array.from({ length: Math.floor(QUERY_LIMIT / (known[0]!.length + 3)) }, () => `${known[0]}=1`).join('&'),
    ]);
  }
  return out.filter(([, q]) => q.length <= QUERY_LIMIT);
}

/** Every hostile request for `op`, its `{id}` an id no account has. */
export function hostileRequests(op: Operation): HostileRequest[] {
  const path = op.path.replace('{id}', 'zzz_00000000000000000000');
  const method = op.method.toUpperCase();
  const requests: HostileRequest[] = [];
  // A GET carries no body (fetch refuses to send one); a DELETE or POST without one gets one anyway.
  const bodies = op.body ? [...blindBodies(), ...shapedBodies(op.body.schema)] : method === 'GET' ? [] : blindBodies().slice(0, 1);
  for (const [name, body] of bodies) requests.push({ name, method, path, body });
  for (const [name, query] of hostileQueries(op)) requests.push({ name, method, path: `${path}?${query}` });
  if (op.path.includes('{id}')) requests.push({ name: 'a long id', method, path: op.path.replace('{id}', 'z'.repeat(QUERY_LIMIT)) });
  return requests;
}
