/**
 * One request on `/mcp` (api/mcp.ts), past its authentication: a stateless MCP server over the SDK's Streamable HTTP
 * transport, answering as JSON. Loaded at the first MCP request only: the SDK is about a sixth of an API process's start.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpServer, httpSend, McpServerOptions } from '../mcp/server';

export async function answerMcp(
  req: IncomingMessage,
  res: ServerResponse,
  options: Omit<McpServerOptions, 'send'> & { apiBase: string; authorization: string },
): Promise<void> {
  const { apiBase, authorization, ...rest } = options;
  const server = createMcpServer({ ...rest, send: httpSend(apiBase, authorization) });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => void server.close());
  await server.connect(transport);
  await transport.handleRequest(req, res);
}
