/**
 * OpenAPI Link Objects that say where the `{id}` of an operation comes from:
 * a resource's create answers with its id (`data.id`), its list with ids
 * (`data[0].id`), and every operation whose path starts with that
 * collection's `/{id}` takes one. Derived from the operation table, so a new
 * by-id operation is linked with no further code; the few links into request
 * bodies are listed (BODY_LINKS).
 */
import { JsonSchema, OperationDef } from './common';

/**
 * Links into a request body: what one operation's answer holds that another
 * takes in its body (schemathesis merges the values into the body it makes).
 * Only where no path `{id}` and no shared name connects them.
 */
const BODY_LINKS: { source: string; target: string; requestBody: Record<string, string>; description: string }[] = [
  {
    source: 'offer_create',
    target: 'link_convert',
    requestBody: { url: '$response.body#/data/url', offer_id: '$response.body#/data/id' },
    description: "Convert a URL into an affiliate link: the offer's own URL, its clicks counted for the offer.",
  },
];

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
  for (const link of BODY_LINKS) {
    if (!operations.some((op) => op.operationId === link.target)) continue;
    const links = out.get(link.source) ?? {};
    links[link.target] = { operationId: link.target, requestBody: link.requestBody, description: link.description };
    out.set(link.source, links);
  }
  return out;
}
