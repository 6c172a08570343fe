/**
 * Building blocks of the OpenAPI document: JSON Schema helpers, the shared
 * components (Error, Pagination, envelopes, parameters) and the operation
 * definition type every resource module uses. Pure data, no I/O.
 */

export type JsonSchema = { [key: string]: unknown };

/** The form a `pattern` asks for, in words, for error messages (a regular expression is never shown to a user). */
export const FORM_KEYWORD = 'x-offerops-form';

export const SCOPES = [
  'account:read',
  'offers:read',
  'offers:write',
  'publications:read',
  'publications:write',
  'groups:read',
  'groups:write',
  'segments:read',
  'segments:write',
  'coupons:read',
  'coupons:write',
  'commissions:read',
  'templates:read',
  'templates:write',
  'schedules:read',
  'schedules:write',
  'monitors:read',
  'monitors:write',
  'store:read',
  'store:write',
  'journeys:read',
  'journeys:write',
  'inbox:read',
  'inbox:write',
  'analytics:read',
  'links:write',
  'webhooks:read',
  'webhooks:write',
] as const;
export type Scope = (typeof SCOPES)[number];

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

export interface ParameterDef {
  name: string;
  in: 'query' | 'path';
  required?: boolean;
  description: string;
  schema: JsonSchema;
}

export interface OperationDef {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI path template relative to the server URL, e.g. `/offers/{id}`. */
  path: string;
  scope: Scope;
  tag: string;
  summary: string;
  description?: string;
  /** Query parameters; the `id` path parameter is added from the template. */
  query?: ParameterDef[];
  /** Schema of the path `id` parameter when it differs from the default. */
  idSchema?: JsonSchema;
  body?: { schema: JsonSchema; required: boolean; description?: string };
  success: { status: 200 | 201 | 202; description: string; schema: JsonSchema };
  /** A second success status with the same body, e.g. 200 when a create finds the resource already there. */
  alsoSucceeds?: { status: 200; description: string };
}

/** `$ref` to a component schema. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

export const str = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra });
export const int = (extra: JsonSchema = {}): JsonSchema => ({ type: 'integer', ...extra });
export const num = (extra: JsonSchema = {}): JsonSchema => ({ type: 'number', ...extra });
export const bool = (extra: JsonSchema = {}): JsonSchema => ({ type: 'boolean', ...extra });
/** An array; its `maxItems`, when given, is also said in its description (the API reference shows it in words). */
export const arr = (items: JsonSchema, extra: JsonSchema = {}): JsonSchema => {
  const max = extra.maxItems;
  // An array that is always empty (an `end` block's `next`) says so in its own words.
  if (typeof max !== 'number' || max === 0) return { type: 'array', items, ...extra };
  const said = typeof extra.description === 'string' ? extra.description : '';
  const limit = `at most ${max} ${max === 1 ? 'item' : 'items'}`;
  const description = !said
    ? `${limit[0]!.toUpperCase()}${limit.slice(1)}.`
    : said.endsWith('.')
      ? `${said} ${limit[0]!.toUpperCase()}${limit.slice(1)}.`
      : `${said}; ${limit}`;
  return { type: 'array', items, ...extra, description };
};
export const nullable = (schema: JsonSchema): JsonSchema => {
  const type = schema.type;
  const withNull = Array.isArray(schema.enum) ? { enum: [...(schema.enum as unknown[]), null] } : {};
  if (typeof type === 'string') return { ...schema, type: [type, 'null'], ...withNull };
  return { anyOf: [schema, { type: 'null' }] };
};
/** Forms in words that several fields share. */
export const FORMS = {
  https: 'an https:// URL, e.g. https://example.com/path',
  http: 'an http:// or https:// URL, e.g. https://shop.example/p/123',
  slug: 'lowercase letters and digits in words joined by single hyphens, e.g. black-friday',
  timeOfDay: 'a time of day HH:MM, 00:00 to 23:59',
  color: 'a colour #RRGGBB, e.g. #1A73E8',
} as const;

/** Longest date-time taken (RFC 3339 with nine digits of fraction and an offset is 35 characters). */
export const DATE_TIME_MAX_LENGTH = 40;
export const dateTime = (description: string): JsonSchema => ({
  type: 'string',
  format: 'date-time',
  maxLength: DATE_TIME_MAX_LENGTH,
  description,
});
export const httpsUrl = (extra: JsonSchema = {}): JsonSchema => ({
  type: 'string',
  format: 'uri',
  pattern: '^https://',
  [FORM_KEYWORD]: FORMS.https,
  ...extra,
});
/** An id with a known prefix, e.g. `idOf('seg')` matches `seg_…`. */
export const idOf = (prefix: string, description?: string): JsonSchema => ({
  type: 'string',
  maxLength: prefix.length + 41,
  pattern: `^${prefix}_[0-9a-z]{8,40}$`,
  [FORM_KEYWORD]: `an id starting with ${prefix}_, as the API returns it`,
  ...(description ? { description } : {}),
});

/** Closed object: listed properties only (additionalProperties false). */
export const object = (properties: Record<string, JsonSchema>, required: string[] = [], extra: JsonSchema = {}): JsonSchema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  additionalProperties: false,
  ...extra,
});

/**
 * Holds when every one of `fields` is present: the building block of the
 * alternatives a body takes, e.g. `oneOf: [present('group_id'), present('segment_id')]`
 * (exactly one) or `not: present('offer_id', 'text')` (never both). The
 * validator words these as "needs one of …" / "takes only one of …".
 */
export const present = (...fields: string[]): JsonSchema => ({ properties: Object.fromEntries(fields.map((f) => [f, {}])), required: fields });

/** Exactly one of `fields`. */
export const exactlyOne = (...fields: string[]): JsonSchema => ({ oneOf: fields.map((f) => present(f)) });

/** A response record: every listed property is always present. */
export const record = (properties: Record<string, JsonSchema>, extra: JsonSchema = {}): JsonSchema =>
  object(properties, Object.keys(properties), extra);

// --- envelopes (spec 2.1) ---------------------------------------------------

export const singleEnvelope = (data: JsonSchema): JsonSchema => record({ data, request_id: ref('RequestId') });

export const creationEnvelope = (data: JsonSchema): JsonSchema =>
  record({
    data,
    request_id: ref('RequestId'),
    created: bool({ description: 'true when this request created the resource, false when an existing one was returned' }),
  });

export const listEnvelope = (item: JsonSchema): JsonSchema =>
  record({ data: arr(item), pagination: ref('Pagination'), request_id: ref('RequestId') });

export const eventEnvelope = (data: JsonSchema): JsonSchema => record({ data, event_id: ref('EventId'), request_id: ref('RequestId') });

export const deletionEnvelope = (description: string): JsonSchema =>
  object(
    {
      deleted: bool({ description }),
      id: str({ description: 'id of the resource' }),
      request_id: ref('RequestId'),
    },
    ['deleted', 'id', 'request_id'],
  );

// --- parameters (spec 4.2) --------------------------------------------------

export const PAGINATION_PARAMS: ParameterDef[] = [
  {
    name: 'limit',
    in: 'query',
    description: 'Page size, 1 to 100.',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 30 },
  },
  {
    name: 'offset',
    in: 'query',
    description: 'Number of items to skip, 0 or more.',
    schema: { type: 'integer', minimum: 0, default: 0 },
  },
];

export const DAYS_PARAM: ParameterDef = {
  name: 'days',
  in: 'query',
  description: 'Window in days ending now, 1 to 365.',
  schema: { type: 'integer', minimum: 1, maximum: 365, default: 30 },
};

export const filter = (name: string, description: string, schema: JsonSchema = str({ maxLength: 200 })): ParameterDef => ({
  name,
  in: 'query',
  description,
  schema,
});

export const DEFAULT_ID_SCHEMA: JsonSchema = { type: 'string', minLength: 1, maxLength: 100 };

/**
 * An `Idempotency-Key`: visible ASCII, spaces inside only (HTTP drops a
 * header value's surrounding spaces, so a key cannot keep them), 1 to 255 characters.
 */
export const IDEMPOTENCY_KEY_SCHEMA = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  pattern: '^[!-~]([ -~]*[!-~])?$',
  [FORM_KEYWORD]: 'visible ASCII characters, spaces only between them',
} as const satisfies JsonSchema;

// --- errors (spec 7) --------------------------------------------------------

/** At most this many `details` in an error; `details_omitted` counts the rest. */
export const MAX_ERROR_DETAILS = 20;

/** The deepest nesting of arrays and objects a JSON body may have (api/middleware/body.ts). */
export const MAX_BODY_DEPTH = 32;

/** Every documented error `code`, by HTTP status. Stable: clients may switch on them. */
export const ERROR_CODES = {
  400: [
    'invalid_request',
    'validation_failed',
    'malformed_json',
    'body_not_allowed',
    'invalid_transition',
    'unknown_reference',
    'unknown_marketplace',
    'link_unresolvable',
  ],
  401: ['missing_api_key', 'invalid_api_key', 'expired_api_key', 'revoked_api_key', 'expired_token', 'revoked_token', 'invalid_signature'],
  402: ['plan_required'],
  403: ['insufficient_scope'],
  404: ['not_found', 'route_not_found', 'integration_missing'],
  405: ['method_not_allowed'],
  408: ['request_timeout'],
  409: [
    'conflict',
    'resource_in_use',
    'slug_taken',
    'offer_archived',
    'offer_not_publishable',
    'destination_unavailable',
    'idempotency_key_reused',
    'idempotency_in_progress',
    'conversation_closed',
    'channel_unavailable',
  ],
  413: ['payload_too_large'],
  415: ['unsupported_media_type'],
  431: ['header_too_large'],
  429: ['rate_limited'],
  500: ['internal_error'],
  501: ['not_implemented'],
  503: ['service_unavailable'],
} as const;
export type ErrorStatus = keyof typeof ERROR_CODES;
export type ErrorCode = (typeof ERROR_CODES)[ErrorStatus][number];

/** The HTTP status of each error code (every code belongs to exactly one status). */
export const ERROR_STATUS = Object.fromEntries(
  Object.entries(ERROR_CODES).flatMap(([status, codes]) => codes.map((code) => [code, Number(status)])),
) as Record<ErrorCode, ErrorStatus>;

/**
 * Refusals that the state or the environment decides, not the request's shape: a schema-valid
 * request can meet them. The document carries them on the Error schema (`x-offerops-state-decided`),
 * and the fuzzer (`npm run fuzz`, tools/fuzz/hooks.py) reads them from there: it accepts a refusal of
 * a schema-valid request only when its `code` is one of `codes` (with that status), or when it is a
 * 400 `validation_failed` whose every detail's `rule` is one of `validation_failed_rules`.
 */
export const STATE_DECIDED_EXTENSION = 'x-offerops-state-decided';

const STATE_DECIDED_CODES = [
  'unknown_reference',
  'invalid_transition',
  // following a short link over the network: the world decides
  'link_unresolvable',
  // whether a URL's host is known: the account's `other` integration (its hosts), and where a short link leads
  'unknown_marketplace',
  'not_found',
  'integration_missing',
  ...ERROR_CODES[409],
] as const satisfies readonly ErrorCode[];

/** The rules of `validation_failed` details that no JSON Schema of a request can state, each with why (the names the domain uses). */
export const STATE_DECIDED_RULES = {
  exists: 'the state: a journey block names a template, group or segment this account does not have',
  destination: 'the environment: a webhook, monitor source or journey http URL must resolve to a public address',
  timezone: 'the environment: an IANA time zone of the time zone database',
  future: 'the clock: a schedule runs in the future',
  horizon: 'the clock: a schedule runs no further ahead than its run_at allows (years from now)',
  after_starts_at: 'across fields: a coupon expires after it starts',
  after_run_at: 'across fields: a recurrence ends after its first run',
  after_opens: 'across fields: store hours close after they open',
  reserved: "the service's own names: a store subdomain that is reserved (`www`, `api`, …) or an account's default address (`acc-…`)",
  max_per_day: 'across fields: at most two store-hour periods a day',
  range: 'across values: a range does not run backwards (a monitor max_price below min_price, a cron field 9-7)',
  frequency: 'across values: the times of day a recurrence or monitor frequency gives are at least 15 minutes apart',
  unique_id: 'journey graph: block ids are unique',
  single_entry: 'journey graph: exactly one trigger block',
  branches: 'journey graph: condition and wait_reply blocks have two branches',
  dangling_edge: 'journey graph: every next names a block',
  entry_inbound: 'journey graph: nothing leads back to the trigger',
  unknown_block: 'journey graph: a field names an http block of the journey',
  unreachable: 'journey graph: every block is reachable from the trigger',
  cycle_without_wait: 'journey graph: every loop passes through a wait',
  brace: 'template grammar: a lone { or } in a template body (write {{ and }} for literal braces)',
  placeholder: 'template grammar: a placeholder names one of the known fields',
  transition: "the state: a status change the record's current status allows",
  resolvable: 'the environment: a URL whose marketplace link can be resolved',
  no_private_contact: 'the text: a store contact or network link that reveals no phone number or e-mail address',
} as const;

const STATE_DECIDED = {
  codes: Object.fromEntries(STATE_DECIDED_CODES.map((code) => [code, ERROR_STATUS[code]])),
  validation_failed_rules: STATE_DECIDED_RULES,
};

export const ERROR_RESPONSES: Record<string, string> = {
  '400': 'Invalid parameter, body or transition (`details` lists each invalid field).',
  '401': 'Key missing, invalid, expired or revoked.',
  '402': 'The account plan does not include API access.',
  '403': 'The key lacks the scope this operation requires.',
  '404': 'The resource does not exist in this account and environment.',
  '408': 'The request was not received in time (its head within 60 s, the whole of it within 5 minutes).',
  '409': 'The current state of the resource prevents the operation.',
  '413': 'The JSON body exceeds 128 KB.',
  '415': 'The body is not JSON.',
  '431': 'The request head (request line and headers) exceeds 16 KB.',
  '429': 'More than 120 requests in the current one-minute window of this key.',
  '503':
    'A dependency (the database or Temporal) did not answer in time, or the request ran past its 10 s deadline. A ' +
    'mutation may still have been applied: repeat it after `Retry-After` seconds with the same `Idempotency-Key` (applied ' +
    'at most once), or read the resource first.',
  '5XX': 'Server failure (retry with backoff and jitter), or 501 when the operation is not built yet.',
};

export const COMMON_SCHEMAS: Record<string, JsonSchema> = {
  RequestId: str({ pattern: '^req_[0-9a-z]{8,40}$', description: 'Identifier of the request, also sent as the X-Request-Id header.' }),
  EventId: str({ pattern: '^evt_[0-9a-z]{8,40}$', description: 'Identifier of the domain event the operation recorded.' }),
  Environment: str({ enum: ['live', 'test'], description: 'live data, or the isolated test sandbox' }),
  Pagination: record({
    total: int({ minimum: 0 }),
    limit: int({ minimum: 1, maximum: 100 }),
    offset: int({ minimum: 0 }),
    has_more: bool(),
  }),
  ErrorDetail: object(
    {
      location: str({ enum: ['path', 'query', 'body', 'header'] }),
      field: str({ description: 'JSON-pointer-like path of the field, empty for the whole location' }),
      rule: str({ description: 'the constraint that failed, e.g. maxLength, required, additionalProperties' }),
      message: str(),
    },
    ['location', 'field', 'rule', 'message'],
  ),
  Error: object(
    {
      code: str({
        enum: Object.values(ERROR_CODES).flat(),
        description: 'Stable machine-readable code; docs/api-conventions.md ("Error codes") gives the meaning of each.',
      }),
      message: str({ description: 'Human-readable explanation; never contains secrets.' }),
      request_id: ref('RequestId'),
      details: arr(ref('ErrorDetail'), {
        maxItems: MAX_ERROR_DETAILS,
        description: `Present on validation errors: each invalid field, in the order of the request, the first ${MAX_ERROR_DETAILS} when there are more (\`details_omitted\` says how many more).`,
      }),
      details_omitted: int({
        minimum: 1,
        description: `Present when \`details\` was cut to its first ${MAX_ERROR_DETAILS}: how many further details there were.`,
      }),
    },
    ['code', 'message', 'request_id'],
    { [STATE_DECIDED_EXTENSION]: STATE_DECIDED },
  ),
};
