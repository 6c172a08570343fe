import { Middleware } from 'koa';
import { JsonSchema } from '../../schemas/openapi/common';
import { openapiDocument } from '../../schemas/openapi/index';
import { Operation } from '../../schemas/operations';
import { ErrorObject, validatorFor } from '../../schemas/validator';
import { ErrorDetail } from '../../domain/errors';
import { HttpError } from '../errors';

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

function detail(location: ErrorDetail['location'], e: ErrorObject): ErrorDetail {
  let field = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const params = e.params as { missingProperty?: string; additionalProperty?: string };
  const extra = params.missingProperty ?? params.additionalProperty;
  if (extra) field = field ? `${field}.${extra}` : extra;
  const message =
    e.keyword === 'additionalProperties' ? 'is not a known field' : e.keyword === 'required' ? 'is required' : e.message ?? 'is invalid';
  return { location, field, rule: e.keyword, message };
}

function check(location: ErrorDetail['location'], schema: JsonSchema, value: unknown): ErrorDetail[] {
  const validate = validatorFor(schema);
  if (validate(value)) return [];
  // anyOf (nullable references) repeats each failure once per branch; keep one line per field and rule.
  const seen = new Set<string>();
  return (validate.errors ?? [])
    .map((e) => detail(location, e))
    .filter((d) => {
      const k = `${d.field}|${d.rule}`;
      return d.rule !== 'anyOf' && !seen.has(k) && !!seen.add(k);
    });
}

/** Validates path, query and body against the operation's schemas; 400 listing every invalid field. */
export function validateRequest(op: Operation): Middleware {
  // Compile now, so a schema Ajv refuses fails the start-up, not a request.
  for (const schema of [op.pathSchema, op.querySchema, ...(op.body ? [op.body.schema] : [])]) validatorFor(schema);
  return async (ctx, next) => {
    const params = { ...(ctx.params as Record<string, string>) };
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
    if (details.length) {
      const first = details[0]!;
      const where = first.field ? `${first.location} field ${first.field}` : first.location;
      const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
      throw new HttpError('validation_failed', `Invalid ${where}: ${first.message}${more}.`, {}, details);
    }
    ctx.state.params = params;
    ctx.state.query = query;
    await next();
  };
}
