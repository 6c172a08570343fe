import { JsonSchema } from '../../schemas/openapi/common';
import { openapiDocument } from '../../schemas/openapi/index';
import { Operation } from '../../schemas/operations';
import { ErrorObject, FORM_KEYWORD, validatorFor } from '../../schemas/validator';
import { ErrorDetail } from '../../domain/errors';
import { HttpError } from '../errors';
import { AppMiddleware } from './state';

const components = (openapiDocument.components as { schemas: Record<string, JsonSchema> }).schemas;

/** The JSON type a query parameter is declared with (following one `$ref`). */
function declaredType(schema: JsonSchema): unknown {
  const target = typeof schema.$ref === 'string' ? components[schema.$ref.split('/').pop()!] : schema;
  return target?.type;
}

/** Query strings are text: turn numbers and booleans into their JSON types so the schema can judge them. */
function coerceQuery(op: Operation, raw: Record<string, string | string[] | undefined>): Record<string, unknown> {
  const props = (op.querySchema.properties ?? {}) as Record<string, JsonSchema>;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    const type = props[name] ? declaredType(props[name]) : undefined;
    if (typeof value !== 'string') out[name] = value;
    else if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value)) out[name] = Number(value);
    else if (type === 'boolean' && (value === 'true' || value === 'false')) out[name] = value === 'true';
    else out[name] = value;
  }
  return out;
}

const fieldOf = (instancePath: string): string => instancePath.replace(/^\//, '').replace(/\//g, '.');

/** What a broken rule means, in words a client can act on; never a regular expression. */
function explain(e: ErrorObject): string {
  const schema = (e.parentSchema ?? {}) as JsonSchema;
  switch (e.keyword) {
    case 'additionalProperties':
      return 'is not a known field';
    case 'required':
      return 'is required';
    case 'enum':
      return `must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'pattern': {
      const form = schema[FORM_KEYWORD];
      return typeof form === 'string' ? `must be ${form}` : 'does not have the form this field takes (see its description in the contract)';
    }
    case 'format':
      return `must be a valid ${(e.params as { format: string }).format}`;
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
    Object.keys(s).every((k) => k === 'properties' || k === 'required') && Object.values(props).every((p) => !Object.keys(p).length);
  return onlyPresence && required.length ? required : null;
}

const join = (base: string, field: string): string => (base ? `${base}.${field}` : field);

/** The condition an `if` tests, in words: `mode is "publish"`. */
function conditionOf(ifSchema: unknown): string {
  const props = ((ifSchema as JsonSchema | undefined)?.properties ?? {}) as Record<string, JsonSchema>;
  const parts = Object.entries(props).flatMap(([name, p]) => ('const' in p ? [`${name} is ${JSON.stringify(p.const)}`] : []));
  return parts.length ? parts.join(' and ') : 'the other fields allow it';
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
 */
function resolveAlternatives(location: ErrorDetail['location'], errors: ErrorObject[]): { errors: ErrorObject[]; details: ErrorDetail[] } {
  let kept = errors.filter((e) => e.keyword !== 'if');
  const details: ErrorDetail[] = [];
  const dataOf = (e: ErrorObject) => (typeof e.data === 'object' && e.data !== null ? e.data : {}) as Record<string, unknown>;
  // Outer alternatives first: the errors of the branches they drop (an inner `oneOf` among them) are not reported.
  const outerFirst = errors.filter((e) => e.keyword === 'oneOf').sort((a, b) => a.instancePath.length - b.instancePath.length);
  for (const alt of outerFirst) {
    if (!kept.includes(alt)) continue;
    const branches = (Array.isArray(alt.schema) ? alt.schema : []) as JsonSchema[];
    const base = fieldOf(alt.instancePath);
    const data = dataOf(alt);
    const inBranch = (e: ErrorObject, i?: number) =>
      e.instancePath.startsWith(alt.instancePath) && e.schemaPath.startsWith(`${alt.schemaPath}/${i ?? ''}`);
    const presence = branches.map(presenceOnly);
    if (presence.every((p) => p !== null)) {
      const choices = presence.flatMap((p) => p ?? []);
      const sent = choices.filter((f) => data[f] !== undefined);
      const message = sent.length ? `takes only one of ${choices.join(', ')}` : `needs one of ${choices.join(', ')}`;
      for (const f of sent.length ? sent : choices) details.push({ location, field: join(base, f), rule: 'oneOf', message });
      kept = kept.filter((e) => e !== alt && !inBranch(e));
      continue;
    }
    const required = branches.map((b) => (Array.isArray(b.required) ? (b.required as string[]) : []));
    const shared = required.reduce((acc, r) => acc.filter((p) => r.includes(p)));
    const own = required.map((r) => r.filter((p) => !shared.includes(p)));
    // Branches told apart by a constant (a block's `type`): the one whose constants the value has.
    const consts = branches.map((b) =>
      Object.entries((b.properties ?? {}) as Record<string, JsonSchema>).flatMap(([k, p]) => ('const' in p ? [[k, p.const] as const] : [])),
    );
    const tagged = consts.flatMap((c, i) => (c.length && c.every(([k, v]) => data[k] === v) ? [i] : []));
    const fits =
      tagged.length === 1 ? tagged : own.flatMap((props, i) => (props.length && props.every((p) => data[p] !== undefined) ? [i] : []));
    // A branch's errors inside a `$ref` carry that schema's own paths: tell them by validating the value against each branch.
    const keyOf = (e: ErrorObject, prefix = '') => `${prefix}${e.instancePath}|${e.keyword}|${e.message}`;
    const byBranch = branches.map((b) => {
      const v = validatorFor(b);
      return new Set(v(alt.data) ? [] : (v.errors ?? []).map((e) => keyOf(e, alt.instancePath)));
    });
    const chosen = fits.length === 1 ? byBranch[fits[0]!]! : new Set<string>();
    const fromBranch = (e: ErrorObject) => inBranch(e) || byBranch.some((set) => set.has(keyOf(e)));
    kept = kept.filter((e) => e !== alt && (!fromBranch(e) || (fits.length === 1 && (inBranch(e, fits[0]) || chosen.has(keyOf(e))))));
    const tag = consts[0]?.length === 1 && consts.every((c) => c.length === 1 && c[0]![0] === consts[0]![0]![0]) ? consts[0][0]![0] : null;
    if (fits.length !== 1 && tag) {
      const values = consts.map((c) => JSON.stringify(c[0]![1])).join(', ');
      details.push({ location, field: join(base, tag), rule: 'enum', message: `must be one of: ${values}` });
    } else if (fits.length !== 1) {
      const choices = (fits.length ? fits.map((i) => own[i]!) : own).flat();
      const message = fits.length
        ? `takes only one of ${choices.join(', ')}`
        : choices.length
          ? `needs one of ${choices.join(', ')}`
          : 'matches none of its alternatives (see its description in the contract)';
      details.push({ location, field: base, rule: 'oneOf', message });
    }
  }
  for (const never of errors.filter((e) => e.keyword === 'not' && kept.includes(e))) {
    const fields = presenceOnly(never.schema);
    if (!fields) continue;
    kept = kept.filter((e) => e !== never);
    const base = fieldOf(never.instancePath);
    if (fields.length > 1) {
      for (const f of fields) details.push({ location, field: join(base, f), rule: 'oneOf', message: `takes only one of ${fields.join(', ')}` });
      continue;
    }
    // One field refused by a branch of an `if` (on the object itself, or on an object inside it: a source's
    // `mapping`): say on what condition it is taken.
    const branch = /^(.*)\/(then|else)\//.exec(never.schemaPath);
    const cause = branch
      ? errors.find(
          (e) =>
            e.keyword === 'if' &&
            e.schemaPath === `${branch[1]}/if` &&
            (never.instancePath === e.instancePath || never.instancePath.startsWith(`${e.instancePath}/`)),
        )
      : undefined;
    const when = cause ? conditionOf(cause.parentSchema?.if) : null;
    const message = !when ? 'is not taken here' : branch![2] === 'else' ? `is taken only when ${when}` : `is not taken when ${when}`;
    details.push({ location, field: join(base, fields[0]!), rule: 'not', message });
  }
  return { errors: kept, details };
}

export function check(location: ErrorDetail['location'], schema: JsonSchema, value: unknown): ErrorDetail[] {
  const validate = validatorFor(schema);
  if (validate(value)) return [];
  const { errors, details } = resolveAlternatives(location, validate.errors ?? []);
  // anyOf (nullable references) repeats each failure once per branch; keep one line per field and rule.
  const seen = new Set<string>();
  return [...details, ...errors.map((e) => detail(location, e))].filter((d) => {
    const k = `${d.field}|${d.rule}`;
    return d.rule !== 'anyOf' && !seen.has(k) && !!seen.add(k);
  });
}

/** The 400 listing every invalid field. */
export function validationFailed(details: ErrorDetail[]): HttpError {
  const first = details[0]!;
  const where = first.field ? `${first.location} field ${first.field}` : first.location;
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  return new HttpError('validation_failed', `Invalid ${where}: ${first.message}${more}.`, {}, details);
}

/** Validates path, query and body against the operation's schemas; 400 listing every invalid field. */
export function validateRequest(op: Operation): AppMiddleware {
  // Compile now, so a schema Ajv refuses fails the start-up, not a request.
  for (const schema of [op.pathSchema, op.querySchema, ...(op.body ? [op.body.schema] : [])]) validatorFor(schema);
  return (ctx, next) => {
    const params = ctx.state.params ?? {};
    const query = coerceQuery(op, ctx.query);
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
