import { JsonSchema } from '../../schemas/openapi/common';
import { openapiDocument } from '../../schemas/openapi/index';
import { Operation } from '../../schemas/operations';
import { ErrorObject, FORM_KEYWORD, isGuard, validatorFor } from '../../schemas/validator';
import { ErrorDetail } from '../../domain/errors';
import { closest } from '../../domain/nearest-word';
import { HttpError } from '../errors';
import { AppMiddleware } from './state';

const components = (openapiDocument.components as { schemas: Record<string, JsonSchema> }).schemas;

/** The JSON type a query parameter is declared with (following one `$ref`). */
function declaredType(schema: JsonSchema): unknown {
  const target = typeof schema.$ref === 'string' ? components[schema.$ref.split('/').pop()!] : schema;
  return target?.type;
}

/**
 * The query's parameters, a repeated one as a list, in one pass (Koa's `ctx.query` reads every repeat of a name
 * again for each: quadratic in the parameters).
 */
function queryOf(search: string): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of new URLSearchParams(search)) {
    const had = out[name];
    if (had === undefined) out[name] = value;
    else if (Array.isArray(had)) had.push(value);
    else out[name] = [had, value];
  }
  return out;
}

/** Query strings are text: turn numbers and booleans into their JSON types so the schema can judge them. */
function coerceQuery(op: Operation, raw: Record<string, string | string[] | undefined>): Record<string, unknown> {
  const props = (op.querySchema.properties ?? {}) as Record<string, JsonSchema>;
  // No prototype: a `__proto__` parameter stays a parameter, refused as unknown like any other.
  const out = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(raw)) {
    const type = Object.hasOwn(props, name) ? declaredType(props[name]!) : undefined;
    if (typeof value !== 'string') out[name] = value;
    else if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value)) out[name] = Number(value);
    else if (type === 'boolean' && (value === 'true' || value === 'false')) out[name] = value === 'true';
    else out[name] = value;
  }
  return out;
}

const fieldOf = (instancePath: string): string => instancePath.replace(/^\//, '').replace(/\//g, '.');

/** Lists of allowed values longer than this are not written out in a message: the contract has them. */
const LISTED_VALUES = 12;

function oneOfValues(value: unknown, allowed: unknown[]): string {
  const guess = closest(value, allowed);
  const hint = guess ? `; did you mean ${JSON.stringify(guess)}?` : '';
  if (allowed.length <= LISTED_VALUES) return `must be one of: ${allowed.map((v) => JSON.stringify(v)).join(', ')}${hint}`;
  return `is not one of the ${allowed.length} values it takes${hint || ' (see the list in its description in the contract)'}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const FORMATS: Record<string, string> = {
  uri: 'an absolute URL, e.g. https://example.com/path',
  'date-time': 'an RFC 3339 date-time with a UTC offset, e.g. 2030-01-01T09:00:00-03:00',
  date: 'a date YYYY-MM-DD',
  email: 'an e-mail address',
  hostname: 'a host name, e.g. example.com',
};

const TYPES: Record<string, string> = {
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

/** What a broken rule means, in words a client can act on; never a regular expression. */
function explain(e: ErrorObject): string {
  const schema = (e.parentSchema ?? {}) as JsonSchema;
  const limit = (e.params as { limit?: number }).limit ?? 0;
  switch (e.keyword) {
    case 'additionalProperties':
      return 'is not a known field';
    case 'required':
      return 'is required';
    case 'enum':
      return oneOfValues(e.data, (e.params as { allowedValues: unknown[] }).allowedValues);
    case 'const':
      return `must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
    case 'type': {
      const types = String((e.params as { type: string }).type).split(',');
      return `must be ${types.map((t) => TYPES[t] ?? t).join(' or ')}`;
    }
    case 'pattern': {
      const form = schema[FORM_KEYWORD];
      return typeof form === 'string' ? `must be ${form}` : 'does not have the form this field takes (see its description in the contract)';
    }
    case 'format': {
      const format = (e.params as { format: string }).format;
      return `must be ${FORMATS[format] ?? `a valid ${format}`}`;
    }
    case 'minLength':
      return limit === 1 ? 'must not be empty' : `must be at least ${plural(limit, 'character')} long`;
    case 'maxLength':
      return `must be at most ${plural(limit, 'character')} long`;
    case 'minimum':
      return `must be ${limit} or more`;
    case 'maximum':
      return `must be ${limit} or less`;
    case 'exclusiveMinimum':
      return `must be more than ${limit}`;
    case 'exclusiveMaximum':
      return `must be less than ${limit}`;
    case 'multipleOf':
      return `must be a multiple of ${limit}`;
    case 'minItems':
      return limit === 1 ? 'must list at least one item' : `must list at least ${limit} items`;
    case 'maxItems':
      return `must list at most ${plural(limit, 'item')}`;
    case 'uniqueItems':
      return 'must not list the same item twice';
    case 'minProperties':
      return limit === 1 ? 'must set at least one field' : `must set at least ${limit} fields`;
    case 'maxProperties':
      // Also a closed object's cut-off (schemas/validator.ts): past it, its unknown fields are not listed one by one.
      return `has ${typeof e.data === 'object' && e.data !== null ? Object.keys(e.data).length : 'more'} fields, more than it takes (see its description in the contract)`;
    default:
      return e.message ?? 'is invalid';
  }
}

function detail(location: ErrorDetail['location'], e: ErrorObject): ErrorDetail {
  let field = fieldOf(e.instancePath);
  const params = e.params as { missingProperty?: string; additionalProperty?: string };
  const extra = params.missingProperty ?? params.additionalProperty;
  if (extra) field = field ? `${field}.${extra}` : extra;
  return { location, field, rule: e.keyword, message: explain(e) };
}

/** A schema that only tests which fields are present (`present()` in the contract): the fields it requires. */
function presenceOnly(schema: unknown): string[] | null {
  if (typeof schema !== 'object' || schema === null) return null;
  const s = schema as JsonSchema;
  const props = (s.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(s.required) ? (s.required as string[]) : [];
  const onlyPresence =
    Object.keys(s).every((k) => k === 'properties' || k === 'required' || k === 'title') &&
    Object.values(props).every((p) => !Object.keys(p).length);
  return onlyPresence && required.length ? required : null;
}

const join = (base: string, field: string): string => (base ? `${base}.${field}` : field);

/** The condition an `if` tests, in words: `mode is "publish"`. */
function conditionOf(ifSchema: unknown): string {
  const props = ((ifSchema as JsonSchema | undefined)?.properties ?? {}) as Record<string, JsonSchema>;
  const parts = Object.entries(props).flatMap(([name, p]) => ('const' in p ? [`${name} is ${JSON.stringify(p.const)}`] : []));
  return parts.length ? parts.join(' and ') : 'the other fields allow it';
}

/** True when the JSON pointer `path` is `ancestor` or lies below it. */
const within = (path: string, ancestor: string): boolean => path === ancestor || path.startsWith(`${ancestor}/`);

/** The index of the branch of the alternative `alt` an error arose in; -1 when it arose outside `alt`. */
function branchOf(e: ErrorObject, alt: ErrorObject): number {
  if (!within(e.instancePath, alt.instancePath) || !e.schemaPath.startsWith(`${alt.schemaPath}/`)) return -1;
  return Number(e.schemaPath.slice(alt.schemaPath.length + 1).split('/', 1)[0]);
}

/** The `if` error that decides the `then`/`else` branch holding `never` (a `not`), if any: the innermost. */
function causeOf(never: ErrorObject, ifErrors: ReadonlyMap<string, ErrorObject>): { cause: ErrorObject; branch: string } | null {
  // The `if` sits on the object `never` is in, or on one it is inside of.
  const parts = never.instancePath.split('/');
  const ancestors = parts.map((_, i) => parts.slice(0, parts.length - i).join('/'));
  for (const m of [...never.schemaPath.matchAll(/\/(then|else)\//g)].reverse()) {
    const ifPath = `${never.schemaPath.slice(0, m.index)}/if`;
    for (const at of ancestors) {
      const cause = ifErrors.get(`${ifPath}|${at}`);
      if (cause) return { cause, branch: m[1]! };
    }
  }
  return null;
}

/** A tagged `oneOf` (`discriminator`) whose tag is missing or names no branch: the values the tag takes. */
function untagged(location: ErrorDetail['location'], e: ErrorObject): ErrorDetail {
  const tag = (e.params as { tag: string }).tag;
  const branches = ((e.parentSchema?.oneOf ?? []) as JsonSchema[]).map((b) => (b.properties as Record<string, JsonSchema>)[tag]?.const);
  return {
    location,
    field: join(fieldOf(e.instancePath), tag),
    rule: 'enum',
    message: oneOfValues((e.data as Record<string, unknown> | null)?.[tag], branches),
  };
}

/**
 * Alternatives fail once per branch, which reads as noise ("cron is
 * required", "rrule is not a known field", "must match exactly one schema").
 * - `oneOf` over presence tests (`present()`): one detail per field
 *   concerned, rule `oneOf`: "needs one of group_id, segment_id" on each when
 *   none is sent, "takes only one of …" on each sent when several are.
 * - `not` over a presence test of several fields (never together): the same
 *   "takes only one of …" on each; of one field under an `if`: "is taken only
 *   when mode is …" (rule `not`).
 * - Any other `oneOf` (object branches): each branch is told apart by its
 *   constants (a block's `type`), else by the properties only it requires;
 *   when the value has those of exactly one branch, only that branch's
 *   errors are kept; with none or several, one error says which values or
 *   fields to choose from.
 * The `if` errors themselves say nothing a client can act on and are dropped.
 *
 * Linear in the errors: Ajv reports an alternative right after the errors of
 * its branches (schemas/validator.ts inlines references, so their schema
 * paths lie below the alternative's). Walking from the end meets an outer
 * alternative before the ones inside it, and its branches' errors are the run
 * just before it.
 */
function resolveAlternatives(location: ErrorDetail['location'], errors: ErrorObject[]): ErrorDetail[] {
  const r: Resolution = { location, errors, dropped: errors.map((e) => e.keyword === 'if'), byError: errors.map(() => []) };
  for (let k = errors.length - 1; k >= 0; k--) {
    const alt = errors[k]!;
    if (alt.keyword === 'discriminator') r.byError[k]!.push(untagged(location, alt));
    if (alt.keyword === 'oneOf' && !r.dropped[k]) resolveOneOf(r, k);
  }
  resolveNots(r);
  return errors.flatMap((e, k) => (r.byError[k]!.length ? r.byError[k]! : r.dropped[k] || e.keyword === 'anyOf' ? [] : [detail(location, e)]));
}

/** What resolveAlternatives works on: the errors, which are dropped, and the details each gives by its place (read in the body's order). */
interface Resolution {
  location: ErrorDetail['location'];
  errors: ErrorObject[];
  dropped: boolean[];
  byError: ErrorDetail[][];
}

const dataOf = (e: ErrorObject) => (typeof e.data === 'object' && e.data !== null ? e.data : {}) as Record<string, unknown>;

/** The `oneOf` at `k` (its branches' errors the run before it): presence tests become one choice; object branches keep the fitting one's. */
function resolveOneOf(r: Resolution, k: number): void {
  const alt = r.errors[k]!;
  let start = k;
  while (start > 0 && branchOf(r.errors[start - 1]!, alt) >= 0) start--;
  r.dropped[k] = true;
  const branches = (Array.isArray(alt.schema) ? alt.schema : []) as JsonSchema[];
  const presence = branches.map(presenceOnly);
  if (presence.every((p) => p !== null)) {
    const choices = presence.flatMap((p) => p ?? []);
    r.byError[k]!.push(...presenceChoice(r.location, alt, choices));
    for (let j = start; j < k; j++) r.dropped[j] = true;
    return;
  }
  const { fits, refusal } = objectBranches(r.location, alt, branches);
  for (let j = start; j < k; j++) if (fits.length !== 1 || branchOf(r.errors[j]!, alt) !== fits[0]) r.dropped[j] = true;
  if (refusal) r.byError[k]!.push(refusal);
}

/** A `oneOf` over presence tests: on each field sent, "takes only one of …"; with none sent, "needs one of …" on each. */
function presenceChoice(location: ErrorDetail['location'], alt: ErrorObject, choices: string[]): ErrorDetail[] {
  const base = fieldOf(alt.instancePath);
  const data = dataOf(alt);
  const sent = choices.filter((f) => data[f] !== undefined);
  const message = sent.length ? `takes only one of ${choices.join(', ')}` : `needs one of ${choices.join(', ')}`;
  return (sent.length ? sent : choices).map((f) => ({ location, field: join(base, f), rule: 'oneOf', message }));
}

/**
 * A `oneOf` of object branches: the branches the value fits — by their constants (a block's `type`),
 * else by the properties only each requires — and, unless exactly one fits, the one detail that says
 * which values or fields to choose from.
 */
function objectBranches(
  location: ErrorDetail['location'],
  alt: ErrorObject,
  branches: JsonSchema[],
): { fits: number[]; refusal: ErrorDetail | null } {
  const base = fieldOf(alt.instancePath);
  const data = dataOf(alt);
  const required = branches.map((b) => (Array.isArray(b.required) ? (b.required as string[]) : []));
  const shared = required.reduce((acc, r) => acc.filter((p) => r.includes(p)));
  const own = required.map((r) => r.filter((p) => !shared.includes(p)));
  const consts = branches.map((b) =>
    Object.entries((b.properties ?? {}) as Record<string, JsonSchema>).flatMap(([key, p]) => ('const' in p ? [[key, p.const] as const] : [])),
  );
  const tagged = consts.flatMap((c, i) => (c.length && c.every(([key, v]) => data[key] === v) ? [i] : []));
  const fits = tagged.length === 1 ? tagged : own.flatMap((props, i) => (props.length && props.every((p) => data[p] !== undefined) ? [i] : []));
  if (fits.length === 1) return { fits, refusal: null };
  const tag = consts[0]?.length === 1 && consts.every((c) => c.length === 1 && c[0]![0] === consts[0]![0]![0]) ? consts[0][0]![0] : null;
  const values = consts.map((c) => c[0]?.[1]);
  if (tag) return { fits, refusal: { location, field: join(base, tag), rule: 'enum', message: oneOfValues(data[tag], values) } };
  const choices = (fits.length ? fits.map((i) => own[i]!) : own).flat();
  const message = fits.length
    ? `takes only one of ${choices.join(', ')}`
    : choices.length
      ? `needs one of ${choices.join(', ')}`
      : 'matches none of its alternatives (see its description in the contract)';
  return { fits, refusal: { location, field: base, rule: 'oneOf', message } };
}

/** Each `not` over a presence test not yet dropped: "takes only one of …" for several fields; for one, when it is taken (its `if`). */
function resolveNots(r: Resolution): void {
  const ifErrors = new Map<string, ErrorObject>();
  for (const e of r.errors) if (e.keyword === 'if' && !isGuard(e.parentSchema?.if)) ifErrors.set(`${e.schemaPath}|${e.instancePath}`, e);
  r.errors.forEach((never, k) => {
    if (never.keyword !== 'not' || r.dropped[k]) return;
    const fields = presenceOnly(never.schema);
    if (!fields) return;
    r.dropped[k] = true;
    const base = fieldOf(never.instancePath);
    if (fields.length > 1) {
      for (const f of fields)
        r.byError[k]!.push({ location: r.location, field: join(base, f), rule: 'oneOf', message: `takes only one of ${fields.join(', ')}` });
      return;
    }
    // One field refused by a branch of an `if` (on the object itself, or on an object inside it: a source's
    // `mapping`): say on what condition it is taken.
    const found = causeOf(never, ifErrors);
    const when = found ? conditionOf(found.cause.parentSchema?.if) : null;
    const message = !when ? 'is not taken here' : found!.branch === 'else' ? `is taken only when ${when}` : `is not taken when ${when}`;
    r.byError[k]!.push({ location: r.location, field: join(base, fields[0]!), rule: 'not', message });
  });
}

export function check(location: ErrorDetail['location'], schema: JsonSchema, value: unknown): ErrorDetail[] {
  const validate = validatorFor(schema);
  if (validate(value)) return [];
  // One problem per field, the first found (a URL without a scheme breaks its pattern and its format; anyOf, for
  // nullable references, repeats each failure once per branch).
  const seen = new Set<string>();
  return resolveAlternatives(location, validate.errors ?? []).filter((d) => !seen.has(d.field) && !!seen.add(d.field));
}

/** Where a detail is, in words: a choice between fields ("needs one of group_id, segment_id") is on the object holding them. */
function whereOf(d: ErrorDetail): string {
  const path = d.field.split('.');
  const choice = d.rule === 'oneOf' && d.message.split(/[ ,]+/).includes(path.at(-1)!);
  const field = choice ? path.slice(0, -1).join('.') : d.field;
  return field ? `${d.location} field ${field}` : d.location;
}

/** The 400 listing every invalid field; its message says the first problem, and how many others the details hold. */
export function validationFailed(details: ErrorDetail[]): HttpError {
  const first = details[0]!;
  // A choice told on each field it names is one problem.
  const sameChoice = (d: ErrorDetail) => first.rule === 'oneOf' && d.rule === 'oneOf' && d.message === first.message;
  const others = details.filter((d) => d !== first && !sameChoice(d)).length;
  const more = others ? ` (and ${plural(others, 'more problem')}, listed in details)` : '';
  // A message that ends in a question (did you mean …?) takes no full stop after it.
  const stop = more || !first.message.endsWith('?') ? '.' : '';
  return new HttpError('validation_failed', `Invalid ${whereOf(first)}: ${first.message}${more}${stop}`, {}, details);
}

/**
 * Compiles every operation's request validators, one operation per turn of the event loop: the API answers while it
 * does (about 1 s of CPU for the whole document), and its first requests find them compiled.
 */
export async function warmValidators(ops: readonly Operation[]): Promise<void> {
  for (const op of ops) {
    for (const schema of [op.pathSchema, op.querySchema, ...(op.body ? [op.body.schema] : [])]) validatorFor(schema);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Validates path, query and body against the operation's schemas; 400 listing every invalid field. */
export function validateRequest(op: Operation): AppMiddleware {
  // Compiled on first use (api/main.ts warms them all after listening); that every one compiles is a contract test.
  return (ctx, next) => {
    const params = ctx.state.params ?? {};
    const query = coerceQuery(op, queryOf(ctx.querystring));
    const body: unknown = ctx.state.body;
    const details = [...check('path', op.pathSchema, params), ...check('query', op.querySchema, query)];
    if (op.body) {
      if (body === undefined) {
        if (op.body.required) details.push({ location: 'body', field: '', rule: 'required', message: 'a JSON body is required' });
      } else {
        details.push(...check('body', op.body.schema, body));
      }
    }
    if (details.length) throw validationFailed(details);
    ctx.state.params = params;
    ctx.state.query = query;
    return next();
  };
}
