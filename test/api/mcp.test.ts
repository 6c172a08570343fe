/**
 * The MCP server, with the SDK's own client: over Streamable HTTP at `/mcp`
 * on the API, over stdio (`offerops mcp` as a child process), and over an
 * in-memory pair for a document with an operation the contract does not have.
 */
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from '../../mcp/server';
import { mcpTools } from '../../mcp/tools';
import { openapiDocument } from '../../schemas/openapi/index';
import { operations } from '../../schemas/operations';
import { addKey, seedTenant, startTestApp, TestApp } from '../helpers/stack';

const CLI = resolve(__dirname, '../../tools/cli/offerops.js');

let app: TestApp;

before(async () => {
  app = await startTestApp();
});
after(() => app.close());

let n = 0;
const offer = () => ({ url: `https://shop.example/mcp/${Date.now()}-${++n}`, title: 'Cafeteira' });

async function httpClient(apiKey: string): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${app.origin}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
  });
  await client.connect(transport);
  return client;
}

async function stdioClient(apiKey: string): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', OFFEROPS_API_KEY: apiKey, OFFEROPS_BASE_URL: app.baseUrl };
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], env, stderr: 'pipe' }));
  return client;
}

type Result = { isError?: boolean; structuredContent?: any; content: any };

/** Lists, reads, writes and is refused, the same over either transport. */
function transportSuite(name: string, connect: (apiKey: string) => Promise<Client>) {
  describe(name, () => {
    test('tools/list: every operation for a key with every scope, with its schema and hints', async () => {
      const client = await connect((await seedTenant(app.db)).apiKey);
      try {
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((t) => t.name).sort(), operations.map((o) => o.operationId).sort());
        const create = tools.find((t) => t.name === 'offer_create')!;
        assert.match(create.description!, /^Create a pending offer/);
        assert.deepEqual(create.inputSchema.required, ['body']);
        assert.equal(create.annotations?.readOnlyHint, false);
        const get = tools.find((t) => t.name === 'offer_get')!;
        assert.deepEqual(get.inputSchema.required, ['id']);
        assert.equal(get.annotations?.readOnlyHint, true);
        assert.equal(tools.find((t) => t.name === 'offer_archive')!.annotations?.destructiveHint, true);
        assert.ok((tools.find((t) => t.name === 'offers_list')!.inputSchema.properties as Record<string, unknown>).limit);
      } finally {
        await client.close();
      }
    });

    test('a write then a read: the API JSON as structured content', async () => {
      const client = await connect((await seedTenant(app.db)).apiKey);
      try {
        const body = offer();
        const created = (await client.callTool({ name: 'offer_create', arguments: { body } })) as Result;
        assert.equal(created.isError, undefined, JSON.stringify(created));
        assert.equal(created.structuredContent.created, true);
        const id = created.structuredContent.data.id as string;
        assert.match(id, /^off_/);
        assert.deepEqual(JSON.parse(created.content[0].text), created.structuredContent);
        const got = (await client.callTool({ name: 'offer_get', arguments: { id } })) as Result;
        assert.equal(got.structuredContent.data.url, body.url);
        const listed = (await client.callTool({ name: 'offers_list', arguments: { limit: 1, query: 'Cafeteira' } })) as Result;
        assert.equal(listed.structuredContent.data.length, 1);
        assert.equal(listed.structuredContent.pagination.limit, 1);
      } finally {
        await client.close();
      }
    });

    test('errors are tool errors with code, message and request_id', async () => {
      const client = await connect((await seedTenant(app.db)).apiKey);
      try {
        const invalid = (await client.callTool({ name: 'offer_create', arguments: { body: { url: 'not a url' } } })) as Result;
        assert.equal(invalid.isError, true);
        assert.equal(invalid.structuredContent.code, 'validation_failed');
        assert.match(invalid.structuredContent.request_id, /^req_/);
        assert.match(invalid.content[0].text, /^validation_failed: .*\(request_id req_/);
        const missing = (await client.callTool({ name: 'offer_get', arguments: { id: 'off_doesnotexist' } })) as Result;
        assert.equal(missing.isError, true);
        assert.equal(missing.structuredContent.code, 'not_found');
        const stray = (await client.callTool({ name: 'offer_get', arguments: { id: 'off_x', color: 'red' } })) as Result;
        assert.equal(stray.isError, true);
        assert.equal(stray.structuredContent.code, 'validation_failed');
      } finally {
        await client.close();
      }
    });

    test("a key's scopes: only its tools are listed, and the others are refused by the API", async () => {
      const tenant = await seedTenant(app.db);
      const reader = await addKey(app.db, tenant, { scopes: ['offers:read', 'account:read'] });
      const client = await connect(reader.apiKey);
      try {
        const { tools } = await client.listTools();
        const scopeOf = new Map(operations.map((o) => [o.operationId, o.scope]));
        assert.ok(tools.some((t) => t.name === 'offers_list'));
        assert.ok(tools.every((t) => ['offers:read', 'account:read'].includes(scopeOf.get(t.name)!)));
        assert.ok(!tools.some((t) => t.name === 'offer_create'));
        const refused = (await client.callTool({ name: 'offer_create', arguments: { body: offer() } })) as Result;
        assert.equal(refused.isError, true);
        assert.equal(refused.structuredContent.code, 'insufficient_scope');
        assert.match(refused.structuredContent.request_id, /^req_/);
      } finally {
        await client.close();
      }
    });

    test("tool calls count against the key's rate limit like REST requests", async () => {
      const tenant = await seedTenant(app.db);
      await app.db.collection<{ _id: string }>('accounts').updateOne({ _id: tenant.accountId }, { $set: { rate_limit: 2 } });
      const client = await connect(tenant.apiKey);
      try {
        const codes: unknown[] = [];
        for (let i = 0; i < 3; i++) {
          const r = (await client.callTool({ name: 'offers_list', arguments: {} })) as Result;
          codes.push(r.isError ? r.structuredContent.code : 'ok');
        }
        // stdio reads the key's scopes with one more request (GET /me) when it first lists tools; neither lists here.
        assert.deepEqual(codes, ['ok', 'ok', 'rate_limited']);
      } finally {
        await client.close();
      }
    });
  });
}

transportSuite('Streamable HTTP at /mcp', httpClient);
transportSuite('stdio (offerops mcp)', stdioClient);

describe('/mcp itself', () => {
  test('without a key: 401 in the contract error shape; GET is not allowed', async () => {
    const res = await fetch(`${app.origin}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { code: string }).code, 'missing_api_key');
    const get = await fetch(`${app.origin}/mcp`, { headers: { authorization: 'Bearer x' } });
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
  });
});

describe('tools come from the document', () => {
  test('an operation added to a copy of the document is a tool, listed and called like the others', async () => {
    const doc = structuredClone(openapiDocument) as any;
    doc.components.schemas.WidgetPatch = {
      type: 'object',
      properties: { colour: { type: 'string', enum: ['red', 'blue'] } },
      additionalProperties: false,
    };
    doc.paths['/widgets/{id}'] = {
      patch: {
        operationId: 'widget_paint',
        summary: 'Paint a widget',
        description: 'Changes its colour.',
        'x-offerops-scope': 'widgets:write',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^wid_' } },
          { name: 'dry_run', in: 'query', schema: { type: 'boolean' } },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/WidgetPatch' } } } },
        responses: { '200': { description: 'Painted.' } },
      },
    };
    const sent: unknown[] = [];
    const server = createMcpServer({
      tools: mcpTools(doc),
      scopes: () => Promise.resolve(['widgets:write']),
      send: (method, target, body) => {
        sent.push({ method, target, body });
        return Promise.resolve({ status: 200, body: { data: { id: 'wid_1', colour: 'red' }, request_id: 'req_1' } });
      },
      version: '0',
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'mcp-test', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        ['widget_paint'],
      );
      const tool = tools[0]!;
      assert.equal(tool.description, 'Paint a widget\n\nChanges its colour.');
      assert.deepEqual(tool.inputSchema, {
        type: 'object',
        properties: {
          id: { type: 'string', pattern: '^wid_' },
          dry_run: { type: 'boolean' },
          body: { $ref: '#/$defs/WidgetPatch' },
        },
        required: ['id', 'body'],
        additionalProperties: false,
        $defs: { WidgetPatch: doc.components.schemas.WidgetPatch },
      });
      assert.deepEqual(tool.annotations, {
        title: 'Paint a widget',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      });
      const result = (await client.callTool({
        name: 'widget_paint',
        arguments: { id: 'wid_1', dry_run: true, body: { colour: 'red' } },
      })) as Result;
      assert.deepEqual(result.structuredContent, { data: { id: 'wid_1', colour: 'red' }, request_id: 'req_1' });
      assert.deepEqual(sent, [{ method: 'PATCH', target: '/widgets/wid_1?dry_run=true', body: { colour: 'red' } }]);
    } finally {
      await client.close();
    }
  });
});
