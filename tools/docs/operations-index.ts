/**
 * docs/operations-index.md: from each operationId of the contract to its code
 * (route, handler, domain functions, workflows, tests), one table per tag.
 * Written by `npm run docs:operations` (./operations.ts); test/unit/operations-index.test.ts
 * regenerates it in memory and fails when the committed page differs.
 */
import { resolve } from 'node:path';
import { openapiDocument } from '../../schemas/openapi/index';
import { CodeFunction, CodeReader, HandlerCode, TestRequest, testRequests } from './operation-code';

export const ROOT = resolve(__dirname, '../../..');
export const OPERATIONS_INDEX = resolve(ROOT, 'docs/operations-index.md');
export const REGENERATE = 'npm run docs:operations';

/** An operation as the contract declares it. */
export interface ContractOperation {
  operationId: string;
  method: string;
  path: string;
  tag: string;
}

export interface IndexEntry extends ContractOperation {
  /** Undefined when the handler map has no handler for the operation. */
  code: HandlerCode | undefined;
  tests: string[];
}

/** The contract's tags, in its order, and its operations, in path order. */
export function contractOperations(): { tags: string[]; operations: ContractOperation[] } {
  const tags = (openapiDocument.tags as { name: string }[]).map((t) => t.name);
  const paths = openapiDocument.paths as Record<string, Record<string, { operationId: string; tags: string[] }>>;
  const operations = Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => {
      if (op.tags.length !== 1) throw new Error(`${op.operationId} has ${op.tags.length} tags; the index needs exactly one`);
      return { operationId: op.operationId, method, path, tag: op.tags[0]! };
    }),
  );
  return { tags, operations };
}

/** The file an operation's handler belongs in: its tag, lower case, hyphens for spaces. */
export const handlerFileOf = (tag: string): string => `api/handlers/${tag.toLowerCase().replace(/ /g, '-')}.ts`;

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A request's path as the router sees it: the query cut, and a trailing `${…}` right after text taken as a query too. */
function bareRequestPath(path: string): string {
  const bare = path.split('?')[0]!;
  return /[^/]\0$/.test(bare) ? bare.slice(0, -1) : bare;
}

/**
 * The operation a request goes to: same method, the path matching the
 * template with each `{param}` (and each `${…}`) one segment; among several,
 * the one with the fewest parameters (`/commissions/summary` over `/commissions/{id}`).
 */
export function operationOf(request: TestRequest, operations: ContractOperation[]): ContractOperation | undefined {
  const path = bareRequestPath(request.path);
  const params = (op: ContractOperation): number => op.path.split('{').length;
  return operations
    .filter(
      (op) =>
        op.method === request.method &&
        new RegExp(
          `^${op.path
            .split(/\{\w+\}/)
            .map(escapeRegExp)
            .join('[^/]+')}$`,
        ).test(path),
    )
    .sort((a, b) => params(a) - params(b))[0];
}

/** Every operation of the contract with its code and the test files that request its route. */
export function buildIndex(root = ROOT): { tags: string[]; entries: IndexEntry[] } {
  const { tags, operations } = contractOperations();
  const handlers = new Map(new CodeReader(root).handlers().map((h) => [h.operationId, h]));
  const tests = new Map<string, Set<string>>();
  for (const [file, requests] of testRequests(root)) {
    for (const request of requests) {
      const op = operationOf(request, operations);
      if (op) tests.set(op.operationId, (tests.get(op.operationId) ?? new Set()).add(file));
    }
  }
  const entries = operations.map((op) => ({ ...op, code: handlers.get(op.operationId), tests: [...(tests.get(op.operationId) ?? [])].sort() }));
  return { tags, entries };
}

/** What is wrong with the code beside the contract: an operation without a handler, a handler outside its tag's file. */
export function codeProblems(entries: IndexEntry[]): string[] {
  return entries.flatMap((e) => {
    if (!e.code) return [`${e.operationId}: no handler in api/handlers/index.ts`];
    const want = handlerFileOf(e.tag);
    return e.code.handler.file === want
      ? []
      : [`${e.operationId}: handler ${e.code.handler.name} is in ${e.code.handler.file}, its tag ${e.tag} puts it in ${want}`];
  });
}

/** A repository file as a link from docs/, shown as `shown`. */
const link = (file: string, shown: string): string => `[${shown}](../${file})`;
const code = (s: string): string => `\`${s}\``;
const NONE = '—';

/** The domain functions, grouped by file: `[offers/service.ts](…) `createOffer`, `toOffer``; groups split by `;`. */
function domainCell(functions: CodeFunction[]): string {
  const byFile = new Map<string, string[]>();
  for (const f of functions) byFile.set(f.file, [...(byFile.get(f.file) ?? []), f.name]);
  const groups = [...byFile].map(([file, names]) => `${link(file, file.replace(/^domain\//, ''))} ${names.map(code).join(', ')}`);
  return groups.join('; ') || NONE;
}

/** One row of a tag's table; the first cell, `` `operationId` ``, is what the staleness check keys rows by. */
export function row(e: IndexEntry): string {
  const handler = e.code
    ? `${link(e.code.handler.file, e.code.handler.file.replace(/^api\/handlers\//, ''))} ${code(e.code.handler.name)}`
    : 'none';
  const cells = [
    code(e.operationId),
    code(`${e.method.toUpperCase()} ${e.path}`),
    handler,
    e.code ? domainCell(e.code.domain) : NONE,
    e.code?.workflows.map(code).join(', ') || NONE,
    e.tests.map((t) => link(t, t.replace(/^test\//, ''))).join(', ') || NONE,
  ];
  return `| ${cells.join(' | ')} |`;
}

const HEADER = `# Operations index

<!-- Generated by \`${REGENERATE}\` (tools/docs/operations-index.ts) from the contract and the code: do not edit by hand. -->

From each operationId of the contract to the code behind it, one table per tag, in the
contract's order. Regenerate with \`${REGENERATE}\`;
[test/unit/operations-index.test.ts](../test/unit/operations-index.test.ts) fails when a row is
missing or stale, when an operation has no handler, and when a handler is not in its tag's file.
Every column is derived mechanically:

- **Route**: the method and path template of the operation in the OpenAPI document
  ([schemas/openapi](../schemas/openapi)).
- **Handler**: where the function that \`api/handlers/index.ts\`'s \`handlers\` map gives the
  operationId is defined (resolved with the TypeScript compiler). It is always
  \`api/handlers/<tag>.ts\`, the operation's tag in lower case.
- **Domain functions**: the functions declared under \`domain/\` that the handler's body names,
  called or passed on (\`items.map(toOffer)\`), grouped by file in order of first use. Only the
  handler's own body: what those functions call in turn is not listed.
- **Workflows**: the workflow types whose start is reachable from the handler, found by
  following every function of \`api/\`, \`domain/\` and \`temporal/\` that a reached function names,
  and reading the \`OfferopsWorkflows['…']\` each names (the typed starts of \`temporal/start.ts\`).
  One start names no workflow, a Temporal Schedule's trigger: the small table \`UNNAMED_STARTS\`
  of [tools/docs/operation-code.ts](../tools/docs/operation-code.ts) gives its workflow, and
  the generator fails when no handler reaches one of its entries. Reachable means possible, not
  certain: \`dispatchEvent\` is listed wherever a write may hand a domain event to delivery,
  though it starts only when a webhook, journey or follow-up awaits the event; \`scheduleRun\` and
  \`monitorRun\` are the workflows of a Temporal Schedule the operation creates, updates, triggers
  or brings back in line with its record (a read or a delete may do that).
  Workflows that other workflows start (deliveries, journey executions) are not listed.
- **Tests**: the test files (\`test/**/*.test.ts\`; helpers are not scanned) that send a request
  to the operation's route: a call \`x.get|post|put|patch|delete(path, …)\` or
  \`x.call('METHOD', path, …)\` whose path is a string or template literal starting with \`/\`.
  The query is cut; each \`\${…}\` stands for one path segment (a trailing one right after text,
  for a query); a request matching several templates goes to the one with the fewest parameters.
  Tests that reach an operation otherwise (through the operation table, as every-operation and
  the contract tests do, or as a CLI command or an MCP tool) are not listed for it.
`;

/** The page: the header, then a table per tag. */
export function renderIndex(tags: string[], entries: IndexEntry[]): string {
  const tables = tags.map((tag) =>
    [
      `## ${tag}`,
      '',
      '| Operation | Route | Handler | Domain functions | Workflows | Tests |',
      '|---|---|---|---|---|---|',
      ...entries.filter((e) => e.tag === tag).map(row),
    ].join('\n'),
  );
  return `${[HEADER.trimEnd(), ...tables].join('\n\n')}\n`;
}
