/**
 * `/mcp`: the MCP Streamable HTTP transport on the API process (stateless:
 * each POST carries its own JSON-RPC messages, answered as JSON; GET and
 * DELETE, which only sessions use, answer 405).
 *
 * The Authorization header authenticates as on REST (`authenticate`): its
 * key's scopes decide which tools `tools/list` shows. Each tool call is a
 * REST request sent back to this same server over loopback HTTP (the local
 * address and port the MCP request came in on) with the caller's header, so
 * it runs through the whole middleware chain — authentication, rate limit,
 * scope, validation, handler, request log — like any other REST request.
 */
import { isIPv6 } from 'node:net';
import { Db } from 'mongodb';
import { openapiDocument } from '../schemas/openapi/index';
import { HttpError } from './errors';
import { authenticate } from './middleware/auth';
import { AppMiddleware, authOf } from './middleware/state';
import { mcpTools } from '../mcp/tools';

export const MCP_PATH = '/mcp';

const TOOLS = mcpTools(openapiDocument);
const VERSION = String((openapiDocument.info as { version: string }).version);

export function mcpEndpoint(db: Db, apiPrefix: string): AppMiddleware {
  const auth = authenticate(db);
  return async (ctx, next) => {
    if (ctx.path !== MCP_PATH) {
      await next();
      return;
    }
    if (ctx.method !== 'POST') throw new HttpError('method_not_allowed', `${ctx.method} is not allowed here; use POST.`, { Allow: 'POST' });
    await auth(ctx, async () => {
      const { credential } = authOf(ctx.state);
      const socket = ctx.req.socket;
      const host = isIPv6(socket.localAddress ?? '') ? `[${socket.localAddress}]` : socket.localAddress;
      const { answerMcp } = await import('./mcp-session.js');
      ctx.respond = false;
      await answerMcp(ctx.req, ctx.res, {
        tools: TOOLS,
        scopes: () => Promise.resolve(credential.scopes),
        apiBase: `http://${host}:${socket.localPort}${apiPrefix}`,
        authorization: ctx.get('Authorization'),
        version: VERSION,
      });
    });
  };
}
