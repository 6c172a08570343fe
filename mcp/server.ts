/**
 * The MCP server of offerops over either transport, shared by the API's `/mcp`
 * (api/mcp.ts) and the CLI's `offerops mcp` (tools/cli/mcp.ts): its tools come
 * from the OpenAPI document (tools.ts), and every call is a REST request made
 * by `send` — over HTTP to the API (stdio) or back into the API process
 * through its own middleware chain (`/mcp`) — with the caller's credential, so
 * authentication, scopes, rate limit, validation and the request log apply
 * exactly as for REST.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpTool, requestOf } from './tools';

/** One REST request: method, target relative to the API base (`/offers?limit=5`), JSON body. */
export type Send = (method: string, target: string, body: unknown) => Promise<{ status: number; body: unknown }>;

export interface McpServerOptions {
  tools: McpTool[];
  /** The credential's scopes; null when they cannot be known (every tool is listed, the API refuses what the key may not do). */
  scopes: () => Promise<readonly string[] | null>;
  send: Send;
  version: string;
}

/** A tool error in the contract's shape, for a failure that never reached the API (an argument no tool takes, a network failure). */
function toolError(code: string, message: string, requestId: string | null = null): CallToolResult {
  const error = { code, message, request_id: requestId };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(error) }], structuredContent: error };
}

/** The API's answer as a tool result: its JSON as structured content (and as text); 4xx/5xx as tool errors. */
function resultOf(status: number, body: unknown): CallToolResult {
  const json = (typeof body === 'object' && body !== null ? body : { value: body }) as Record<string, unknown>;
  const isError = status >= 400;
  const say = (v: unknown, otherwise: string) => (typeof v === 'string' ? v : otherwise);
  const text = isError
    ? `${say(json.code, String(status))}: ${say(json.message, 'request failed')} (request_id ${say(json.request_id, 'none')})`
    : JSON.stringify(json);
  return { ...(isError ? { isError: true } : {}), content: [{ type: 'text', text }], structuredContent: json };
}

export function createMcpServer(opts: McpServerOptions): Server {
  const server = new Server({ name: 'offerops', version: opts.version }, { capabilities: { tools: { listChanged: false } } });
  const byName = new Map(opts.tools.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const scopes = await opts.scopes();
    const allowed = opts.tools.filter((t) => scopes === null || scopes.includes(t.scope));
    return {
      tools: allowed.map(({ name, title, description, inputSchema, annotations }) => ({ name, title, description, inputSchema, annotations })),
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) return toolError('unknown_tool', `No tool ${request.params.name}.`);
    const args = request.params.arguments ?? {};
    const known = new Set([...tool.pathParams, ...tool.queryParams, ...(tool.hasBody ? ['body'] : [])]);
    const unknown = Object.keys(args).filter((k) => !known.has(k));
    if (unknown.length) return toolError('validation_failed', `${tool.name} takes no argument ${unknown.join(', ')}.`);
    const { target, body } = requestOf(tool, args);
    let answer;
    try {
      answer = await opts.send(tool.method, target, body);
    } catch (err) {
      return toolError('network_error', `The API did not answer: ${(err as Error).message}`);
    }
    return resultOf(answer.status, answer.body);
  });
  return server;
}

/** `send` over HTTP: `base` is the API's base URL (…/api/v1), `authorization` the caller's header. */
export function httpSend(base: string, authorization: string): Send {
  const root = base.replace(/\/+$/, '');
  return async (method, target, body) => {
    const res = await fetch(`${root}${target}`, {
      method,
      headers: { authorization, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = { code: 'invalid_response', message: `The API answered ${res.status} without JSON.`, request_id: res.headers.get('x-request-id') };
    }
    return { status: res.status, body: json };
  };
}
