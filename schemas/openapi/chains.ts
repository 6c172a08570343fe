/**
 * OpenAPI Link Objects that say where the `{id}` of an operation comes from:
 * a resource's create answers with its id (`data.id`), its list with ids
 * (`data[0].id`), and every operation whose path starts with that
 * collection's `/{id}` takes one. Derived from the operation table, so a new
 * by-id operation is linked with no further code.
 */
import { JsonSchema, OperationDef } from './common';

const collectionOf = (path: string): string | null => (path.includes('/{id}') ? path.slice(0, path.indexOf('/{id}')) : null);

/** The links of each source operation (a create or a list of a collection that has by-id operations), by operationId. */
export function linksBySource(operations: readonly OperationDef[]): Map<string, Record<string, JsonSchema>> {
  const out = new Map<string, Record<string, JsonSchema>>();
  for (const source of operations) {
    const kind = source.method === 'post' ? 'create' : source.method === 'get' ? 'list' : null;
    if (!kind || source.path.includes('{')) continue;
    const targets = operations.filter((op) => collectionOf(op.path) === source.path);
    if (!targets.length) continue;
    const id = kind === 'create' ? '$response.body#/data/id' : '$response.body#/data/0/id';
    const from = kind === 'create' ? 'the id of the resource created (or found)' : 'the id of the first item of the page';
    out.set(
      source.operationId,
      Object.fromEntries(
        targets.map((t) => [t.operationId, { operationId: t.operationId, parameters: { id }, description: `${t.summary}: with ${from}.` }]),
      ),
    );
  }
  return out;
}
