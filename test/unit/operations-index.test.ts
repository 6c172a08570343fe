/**
 * docs/operations-index.md (tools/docs/operations-index.ts) is as the contract and the code are
 * now: regenerated in memory and compared row by row; every operation has a handler, in its tag's file.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { requestsIn } from '../../tools/docs/operation-code';
import {
  buildIndex,
  codeProblems,
  ContractOperation,
  IndexEntry,
  operationOf,
  OPERATIONS_INDEX,
  REGENERATE,
  renderIndex,
  row,
} from '../../tools/docs/operations-index';

let index: { tags: string[]; entries: IndexEntry[] };
before(() => {
  index = buildIndex();
});

/** The page's table rows by operationId (the first cell, `` `operationId` ``). */
function rowsOf(page: string): Map<string, string> {
  const rows = page.split('\n').flatMap((line) => {
    const id = /^\| `(\w+)` \|/.exec(line)?.[1];
    return id ? [[id, line] as const] : [];
  });
  return new Map(rows);
}

test('every operation of the contract has a handler, in api/handlers/<tag>.ts', () => {
  const problems = codeProblems(index.entries);
  assert.deepEqual(problems, [], `handlers missing or outside their tag's file:\n${problems.join('\n')}`);
});

test(`docs/operations-index.md is the contract and the code as they are (run \`${REGENERATE}\`)`, () => {
  const page = existsSync(OPERATIONS_INDEX) ? readFileSync(OPERATIONS_INDEX, 'utf8') : '';
  const committed = rowsOf(page);
  const missing = index.entries.filter((e) => !committed.has(e.operationId)).map((e) => e.operationId);
  const stale = index.entries.filter((e) => committed.has(e.operationId) && committed.get(e.operationId) !== row(e)).map((e) => e.operationId);
  const extra = [...committed.keys()].filter((id) => !index.entries.some((e) => e.operationId === id));
  const found = [
    ...(missing.length ? [`missing: ${missing.join(', ')}`] : []),
    ...(stale.length ? [`stale: ${stale.join(', ')}`] : []),
    ...(extra.length ? [`not in the contract: ${extra.join(', ')}`] : []),
  ];
  assert.deepEqual(found, [], `docs/operations-index.md is out of date (${found.join('; ')}); run \`${REGENERATE}\``);
  // Rows aside, the header, tags and order too.
  assert.equal(page, renderIndex(index.tags, index.entries), `docs/operations-index.md is out of date; run \`${REGENERATE}\``);
});

const OPS: ContractOperation[] = [
  { operationId: 'commissions_summary', method: 'get', path: '/commissions/summary', tag: 'Commissions' },
  { operationId: 'commission_get', method: 'get', path: '/commissions/{id}', tag: 'Commissions' },
  { operationId: 'webhook_deliveries_list', method: 'get', path: '/webhooks/{id}/deliveries', tag: 'Webhooks' },
  { operationId: 'offers_list', method: 'get', path: '/offers', tag: 'Offers' },
];

test("a test's requests: x.get|post|put|patch|delete(path) and x.call('METHOD', path), literal paths from `/` only", () => {
  const text = [
    "await api.get('/offers?status=active');",
    'await api.post(`/offers/${offer.id}/publish`, { body });',
    "await api.call('DELETE', `/webhooks/${id}`);",
    "res.headers.get('x-request-id');",
    'await api.get(path);',
  ].join('\n');
  assert.deepEqual(requestsIn(text), [
    { method: 'get', path: '/offers?status=active' },
    { method: 'post', path: '/offers/\0/publish' },
    { method: 'delete', path: '/webhooks/\0' },
  ]);
});

test('a request goes to the operation whose template it matches, the fewest parameters first', () => {
  const to = (method: string, path: string): string | undefined => operationOf({ method, path }, OPS)?.operationId;
  assert.equal(to('get', '/commissions/summary'), 'commissions_summary');
  assert.equal(to('get', '/commissions/\0'), 'commission_get');
  assert.equal(to('get', '/webhooks/\0/deliveries\0'), 'webhook_deliveries_list', 'a trailing ${…} after text is a query');
  assert.equal(to('get', '/offers?status=active'), 'offers_list');
  assert.equal(to('post', '/offers'), undefined, 'another method');
  assert.equal(to('get', '/offers/\0/x'), undefined);
});
