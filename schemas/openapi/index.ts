/**
 * The offerops OpenAPI 3.1 document, assembled from one module per area.
 * `schemas/openapi.json` is this object written out (`npm run openapi`); a
 * contract test fails when the two differ.
 */
import { titleAlternatives } from './titles';
import { COMMON_SCHEMAS, DEFAULT_ID_SCHEMA, ERROR_CODES, IDEMPOTENCY_KEY_SCHEMA, ERROR_RESPONSES, JsonSchema, OperationDef } from './common';
import * as account from './account';
import * as analytics from './analytics';
import * as commissions from './commissions';
import * as coupons from './coupons';
import * as groups from './groups';
import * as inbox from './inbox';
import * as journeys from './journeys';
import * as links from './links';
import * as monitors from './monitors';
import * as offers from './offers';
import * as publications from './publications';
import * as schedules from './schedules';
import * as segments from './segments';
import * as store from './store';
import * as templates from './templates';
import * as webhooks from './webhooks';
import { GUIDE, TAG_DESCRIPTIONS } from './guide';
import { exampleOf } from './examples';
import { linksBySource } from './chains';
import { STATE_RULES } from './state-rules';

export const SCOPE_EXTENSION = 'x-offerops-scope';

const modules: { schemas: Record<string, JsonSchema>; operations: OperationDef[] }[] = [
  account,
  offers,
  groups,
  segments,
  coupons,
  commissions,
  publications,
  templates,
  schedules,
  monitors,
  store,
  journeys,
  inbox,
  analytics,
  links,
  webhooks,
];

/**
 * The "State rules" line: what a request the schemas accept can still be
 * refused for, because only the stored state decides it (`state-rules.ts`).
 */
function stateRulesLine(op: OperationDef): string {
  const rules = [
    ...(op.path.includes('{id}') ? ["an `id` that does not exist in the key's account and environment → 404 `not_found`"] : []),
    ...(STATE_RULES[op.operationId] ?? []),
  ];
  return rules.length
    ? `**State rules** (the schemas say everything about the request's shape; only these depend on the stored state): ${rules.join('; ')}.`
    : '**State rules**: none beyond the schemas (and authentication, scope, rate limit, idempotency keys).';
}

function operationObject(op: OperationDef, links: Record<string, JsonSchema> | undefined): JsonSchema {
  const parameters: JsonSchema[] = [];
  if (op.path.includes('{id}')) {
    parameters.push({
      name: 'id',
      in: 'path',
      required: true,
      description: 'Identifier of the resource.',
      schema: op.idSchema ?? DEFAULT_ID_SCHEMA,
    });
  }
  for (const p of op.query ?? []) {
    parameters.push({ name: p.name, in: p.in, required: p.required ?? false, description: p.description, schema: p.schema });
  }
  if (op.method === 'post') parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  const responses: JsonSchema = {
    [String(op.success.status)]: {
      description: op.success.description,
      headers: { 'X-Request-Id': { $ref: '#/components/headers/XRequestId' } },
      content: { 'application/json': { schema: op.success.schema } },
      ...(links ? { links } : {}),
    },
  };
  if (op.alsoSucceeds) {
    responses[String(op.alsoSucceeds.status)] = {
      description: op.alsoSucceeds.description,
      headers: { 'X-Request-Id': { $ref: '#/components/headers/XRequestId' } },
      content: { 'application/json': { schema: op.success.schema } },
      ...(links ? { links } : {}),
    };
  }
  for (const status of Object.keys(ERROR_RESPONSES)) {
    responses[status] = { $ref: `#/components/responses/Error${status}` };
  }
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: [op.description, `Needs the \`${op.scope}\` scope.`, stateRulesLine(op)].filter(Boolean).join('\n\n'),
    tags: [op.tag],
    [SCOPE_EXTENSION]: op.scope,
    ...(parameters.length ? { parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: op.body.required,
            ...(op.body.description ? { description: op.body.description } : {}),
            content: { 'application/json': { schema: op.body.schema } },
          },
        }
      : {}),
    responses,
  };
}

type MediaTypes = Record<string, { schema: JsonSchema; example?: unknown }>;

/** An example on each request body (its required fields) and each success response (every field), made from its schema. */
function addExamples(paths: Record<string, Record<string, JsonSchema>>, schemas: Record<string, JsonSchema>): void {
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      const body = (op.requestBody as { content: MediaTypes } | undefined)?.content['application/json'];
      if (body) body.example = exampleOf(body.schema, schemas, false);
      for (const [status, response] of Object.entries(op.responses as Record<string, { content?: MediaTypes }>)) {
        const json = /^2\d\d$/.test(status) ? response.content?.['application/json'] : undefined;
        if (json) json.example = exampleOf(json.schema, schemas, true);
      }
    }
  }
}

function build(): JsonSchema {
  const schemas: Record<string, JsonSchema> = { ...COMMON_SCHEMAS };
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const tags: string[] = [];
  const chains = linksBySource(modules.flatMap((m) => m.operations));
  for (const m of modules) {
    for (const [name, schema] of Object.entries(m.schemas)) {
      if (schemas[name]) throw new Error(`schema ${name} declared twice`);
      schemas[name] = schema;
    }
    for (const op of m.operations) {
      const item = (paths[op.path] ??= {});
      if (item[op.method]) throw new Error(`${op.method} ${op.path} declared twice`);
      item[op.method] = operationObject(op, chains.get(op.operationId));
      if (!tags.includes(op.tag)) tags.push(op.tag);
    }
  }
  titleAlternatives(schemas);
  addExamples(paths, schemas);
  const responses: Record<string, JsonSchema> = {};
  for (const [status, description] of Object.entries(ERROR_RESPONSES)) {
    responses[`Error${status}`] = {
      description,
      headers: {
        'X-Request-Id': { $ref: '#/components/headers/XRequestId' },
        ...(status === '429'
          ? {
              'Retry-After': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
              RateLimit: { description: 'Remaining requests and seconds to reset: `"default";r=0;t=42`.', schema: { type: 'string' } },
              'RateLimit-Policy': { description: 'The policy: `"default";q=120;w=60`.', schema: { type: 'string' } },
            }
          : status === '503'
            ? { 'Retry-After': { description: 'Seconds to wait before repeating the request.', schema: { type: 'integer' } } }
            : {}),
      },
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          example: {
            code: (ERROR_CODES as Record<string, readonly string[]>)[status]?.[0] ?? 'internal_error',
            message: description,
            request_id: 'req_0a1b2c3d4e5f6a7b',
          },
        },
      },
    };
  }
  return {
    openapi: '3.1.2',
    info: {
      title: 'offerops Operations API',
      version: '1.1.0',
      description: GUIDE,
    },
    servers: [{ url: 'http://127.0.0.1:8080/api/v1', description: 'local stack started by `npm start`' }],
    security: [{ ApiKey: [] }],
    tags: tags.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    components: {
      securitySchemes: {
        ApiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API key: `Authorization: Bearer oo_live_…` (live data) or `oo_test_…` (sandbox); or an access token of an ' +
            "application (`oo_at_…`, from `POST /api/developer/oauth/token`), acting in its application's environment.",
        },
      },
      headers: {
        XRequestId: { description: 'The request id (`req_…`), also in every JSON body.', schema: { type: 'string' } },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes a POST safe to repeat (a retry after a timeout): the first answer to a key (status and body) is kept 24 hours ' +
            'per credential and returned again for a repeat of the same request, with the header `Idempotent-Replayed: true`. ' +
            'The same key with another method, path or body is a 409 `idempotency_key_reused`; a repeat while the first request ' +
            'is still running is a 409 `idempotency_in_progress`. Server failures (5xx) are not kept: a repeat runs again.',
          schema: IDEMPOTENCY_KEY_SCHEMA,
        },
      },
      responses,
      schemas,
    },
  };
}

export const openapiDocument: JsonSchema = build();
