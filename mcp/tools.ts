/**
 * The MCP tools, read out of an OpenAPI document (the served one, or any
 * other of the same form): one tool per operation, nothing listed by hand.
 *
 * The rule, per operation:
 * - name: the operationId;
 * - description: the summary, a blank line, the description (when there is one);
 * - input schema: one closed object whose top-level properties are the path
 *   parameters and the query parameters (each with its schema and description),
 *   plus `body` holding the request body's schema when the operation takes one;
 *   required: the required parameters, and `body` when the body is required.
 *   The document's `#/components/schemas/X` references become `#/$defs/X`,
 *   and the schemas they reach are copied into `$defs`;
 * - annotations: `readOnlyHint` for GET, `destructiveHint` for DELETE
 *   (`idempotentHint` for PUT and DELETE as HTTP defines them);
 * - scope: the operation's `x-offerops-scope`, which decides whether the tool is listed.
 */
import { JsonSchema } from '../schemas/openapi/common';
import { SCOPE_EXTENSION } from '../schemas/openapi/index';

export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  scope: string;
  method: string;
  /** OpenAPI template, e.g. `/offers/{id}`. */
  path: string;
  pathParams: string[];
  queryParams: string[];
  hasBody: boolean;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema: JsonSchema;
}

interface OperationObject {
  operationId: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  [SCOPE_EXTENSION]?: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const COMPONENT = '#/components/schemas/';

/** `value` with component references rewritten to `#/$defs/…`; the names it reaches are added to `reached`. */
function localise(value: unknown, reached: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => localise(v, reached));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith(COMPONENT)) {
      const name = v.slice(COMPONENT.length);
      reached.add(name);
      out[k] = `#/$defs/${name}`;
    } else {
      out[k] = localise(v, reached);
    }
  }
  return out;
}

/** The input schema of one operation, self-contained. */
function inputSchema(op: OperationObject, components: Record<string, JsonSchema>): JsonSchema & { type: 'object' } {
  const reached = new Set<string>();
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const p of op.parameters ?? []) {
    if (p.in !== 'path' && p.in !== 'query') continue;
    properties[p.name] = localise(p.description ? { ...p.schema, description: p.description } : p.schema, reached);
    if (p.required) required.push(p.name);
  }
  const body = op.requestBody?.content['application/json'];
  if (body) {
    properties.body = localise(body.schema, reached);
    if (op.requestBody?.required) required.push('body');
  }
  // Follow the references of the referenced schemas until no new name appears.
  const defs: Record<string, unknown> = {};
  for (let pending = [...reached]; pending.length;) {
    const more = new Set<string>();
    for (const name of pending) defs[name] = localise(components[name], more);
    pending = [...more].filter((n) => !(n in defs) && !reached.has(n));
    for (const n of pending) reached.add(n);
  }
  return {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
    ...(Object.keys(defs).length ? { $defs: defs } : {}),
  };
}

export function mcpTools(document: JsonSchema): McpTool[] {
  const components = (document.components as { schemas?: Record<string, JsonSchema> } | undefined)?.schemas ?? {};
  const tools: McpTool[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, OperationObject>>)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const title = op.summary ?? op.operationId;
      const params = op.parameters ?? [];
      tools.push({
        name: op.operationId,
        title,
        description: [title, op.description].filter(Boolean).join('\n\n'),
        inputSchema: inputSchema(op, components),
        annotations: {
          title,
          readOnlyHint: method === 'get',
          destructiveHint: method === 'delete',
          idempotentHint: method === 'get' || method === 'put' || method === 'delete',
          openWorldHint: false,
        },
        scope: op[SCOPE_EXTENSION] ?? '',
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        hasBody: !!op.requestBody?.content['application/json'],
      });
    }
  }
  return tools;
}

/** A path or query value as text (objects as JSON, which the API then refuses by its schema). */
const scalar = (v: unknown): string =>
  typeof v === 'string'
    ? v
    : typeof v === 'number' || typeof v === 'boolean'
      ? String(v)
      : v === undefined || v === null
        ? ''
        : JSON.stringify(v);

/** The path and query string a tool call addresses, relative to the API base (`/offers/off_1?limit=5`). */
export function requestOf(tool: McpTool, args: Record<string, unknown>): { target: string; body: unknown } {
  const path = tool.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(scalar(args[name])));
  const query = new URLSearchParams();
  for (const name of tool.queryParams) {
    const value = args[name];
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) query.append(name, scalar(v));
  }
  const qs = query.toString();
  return { target: qs ? `${path}?${qs}` : path, body: tool.hasBody ? args.body : undefined };
}
