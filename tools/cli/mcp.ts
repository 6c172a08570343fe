/**
 * `offerops mcp`: the MCP server over stdio, for an MCP client that starts it
 * as a child process. Its tools are the operations of the OpenAPI document
 * (mcp/tools.ts); each call is a REST request to OFFEROPS_BASE_URL
 * (default http://127.0.0.1:8080/api/v1) with OFFEROPS_API_KEY, so the API
 * decides what the key may do. `tools/list` shows the tools of the key's
 * scopes, read once from `GET /me` (every tool when the key may not read it).
 * Nothing but MCP messages is written on stdout; the key is never printed.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer, httpSend } from '../../mcp/server';
import { mcpTools } from '../../mcp/tools';
import { openapiDocument } from '../../schemas/openapi/index';
import { UsageError } from './errors';
import { DEFAULT_BASE_URL } from './recipes';

export async function runMcp(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const key = env.OFFEROPS_API_KEY;
  if (!key) throw new UsageError('set OFFEROPS_API_KEY to an API key of the account');
  const send = httpSend(env.OFFEROPS_BASE_URL ?? DEFAULT_BASE_URL, `Bearer ${key}`);
  let scopes: Promise<readonly string[] | null> | null = null;
  const readScopes = async (): Promise<readonly string[] | null> => {
    const me = await send('GET', '/me', undefined).catch(() => null);
    const granted = (me?.body as { data?: { actor?: { scopes?: unknown } } } | undefined)?.data?.actor?.scopes;
    return me?.status === 200 && Array.isArray(granted) ? (granted as string[]) : null;
  };
  const server = createMcpServer({
    tools: mcpTools(openapiDocument),
    scopes: () => (scopes ??= readScopes()),
    send,
    version: String((openapiDocument.info as { version: string }).version),
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((done) => (server.onclose = done));
  process.stdin.once('end', () => void server.close());
  await server.connect(transport);
  await closed;
}
