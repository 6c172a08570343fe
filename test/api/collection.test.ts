/**
 * The request collection: served without a key at /api/v1/collection.json,
 * made from the document (a folder per tag, every operation, example bodies,
 * `base_url`/`api_key` variables, bearer auth), and run with newman against
 * the real API with a sandbox key.
 *
 * What newman runs: every GET operation. Expected: no
 * server error (the collection's own test), 200 for the reads without a path
 * parameter, 404 for the reads by id — the example ids exist in no account.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, test } from 'node:test';
import newman, { NewmanRunSummary } from 'newman';
import { operations } from '../../schemas/operations';
import { Document } from '../../tools/cli/api-commands';
import { COLLECTION_JSON, collectionJson, PostmanCollection, postmanCollection } from '../../tools/openapi/collection';
import { seedTenant, startTestApp, TestApp } from '../helpers/stack';

let app: TestApp;

before(async () => {
  app = await startTestApp();
});
after(async () => {
  await app.close();
});

const documentJson = (): Document => JSON.parse(readFileSync(resolve(__dirname, '../../../schemas/openapi.json'), 'utf8')) as Document;
const requests = (c: PostmanCollection) => c.item.flatMap((folder) => folder.item.map((item) => ({ folder: folder.name, ...item })));

test('schemas/collection.json is the collection of the document (run `npm run openapi` after a change)', () => {
  assert.equal(readFileSync(COLLECTION_JSON, 'utf8'), collectionJson(documentJson()));
});

test('GET /api/v1/collection.json needs no key: Postman v2.1, a folder per tag, every operation, base_url of the server asked', async () => {
  const res = await fetch(`${app.baseUrl}/collection.json`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  const served = (await res.json()) as PostmanCollection;
  assert.equal(served.info.schema, 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
  assert.deepEqual(
    served.variable.map((v) => [v.key, v.value]),
    [
      ['base_url', app.baseUrl],
      ['api_key', ''],
    ],
  );
  assert.deepEqual(served.auth, { type: 'bearer', bearer: [{ key: 'token', value: '{{api_key}}', type: 'string' }] });
  const doc = documentJson();
  const byId = new Map(requests(served).map((r) => [r.id, r]));
  assert.equal(byId.size, operations.length);
  for (const op of operations) {
    const r = byId.get(op.operationId);
    assert.ok(r, op.operationId);
    assert.equal(r.folder, doc.paths[op.path]![op.method]!.tags![0]);
    assert.equal(r.request.method, op.method.toUpperCase());
    assert.equal(`/${r.request.url.path.join('/')}`, op.path.replace(/\{(\w+)\}/g, ':$1'));
    if (op.body) assert.ok(r.request.body && typeof JSON.parse(r.request.body.raw) === 'object', `${op.operationId} has an example body`);
    else assert.equal(r.request.body, undefined);
  }
  const create = byId.get('offer_create')!;
  const body = JSON.parse(create.request.body!.raw) as Record<string, unknown>;
  assert.match(body.url as string, /^https:\/\//);
  assert.equal(typeof body.title, 'string');
  assert.deepEqual(
    byId.get('offer_publish')!.request.url.variable.map((v) => v.key),
    ['id'],
  );
});

test('an operation added to a copy of the document is a request of the collection, with an example body', () => {
  const doc = documentJson();
  doc.tags!.push({ name: 'Widgets', description: 'Widgets that spin' });
  doc.paths['/widgets/{id}/spin'] = {
    post: {
      operationId: 'widget_spin',
      summary: 'Spin a widget',
      tags: ['Widgets'],
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^wdg_[0-9a-z]{8,40}$' } }],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['speed'],
              properties: { speed: { type: 'integer', minimum: 2 }, direction: { type: 'string', enum: ['cw', 'ccw'] } },
            },
          },
        },
      },
      responses: { '200': { description: 'spun' } },
    },
  };
  const folder = postmanCollection(doc).item.find((f) => f.name === 'Widgets');
  assert.ok(folder);
  const [spin] = folder.item;
  assert.equal(spin!.id, 'widget_spin');
  assert.equal(spin!.request.url.raw, '{{base_url}}/widgets/:id/spin');
  assert.deepEqual(spin!.request.url.variable, [{ key: 'id', value: 'wdg_00000000' }]);
  assert.deepEqual(JSON.parse(spin!.request.body!.raw), { speed: 2 });
});

function run(options: newman.NewmanRunOptions): Promise<NewmanRunSummary> {
  return new Promise((done, fail) => newman.run(options, (err, summary) => (err ? fail(err) : done(summary))));
}

test('newman runs the reads of the served collection with a sandbox key: no server error, 200 for lists, 404 for unknown ids', async () => {
  const tenant = await seedTenant(app.db, { env: 'test' });
  const served = (await (await fetch(`${app.baseUrl}/collection.json`)).json()) as PostmanCollection;
  const reads = {
    ...served,
    item: served.item.map((f) => ({ ...f, item: f.item.filter((r) => r.request.method === 'GET') })).filter((f) => f.item.length),
  };
  const summary = await run({ collection: reads as never, envVar: [{ key: 'api_key', value: tenant.apiKey }], reporters: [] });
  assert.deepEqual(
    summary.run.failures.map((f) => `${f.source?.name ?? '?'}: ${f.error.message}`),
    [],
  );
  const expected = requests(reads).map((r) => [r.id, r.request.url.variable.length ? 404 : 200]);
  const seen = summary.run.executions.map((e) => [(e.item as unknown as { id: string }).id, e.response?.code]);
  assert.deepEqual(seen, expected);
  assert.equal(seen.length, operations.filter((o) => o.method === 'get').length);
});
