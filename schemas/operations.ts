/**
 * The operation table: everything the API needs to mount, authorise and
 * validate an operation, read out of the OpenAPI document (never declared
 * twice). operationId is the only link between the document and the code.
 */
import { HttpMethod, JsonSchema, Scope } from './openapi/common';
import { openapiDocument, SCOPE_EXTENSION } from './openapi/index';

export interface Operation {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI template, e.g. `/offers/{id}`. */
  path: string;
  scope: Scope;
  /** Closed object schema of the path parameters. */
  pathSchema: JsonSchema;
  /** Closed object schema of the query parameters (unknown parameters are refused). */
  querySchema: JsonSchema;
  body: { schema: JsonSchema; required: boolean } | null;
  successStatus: number;
  responseSchema: JsonSchema;
}

interface ParameterObject {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
  schema: JsonSchema;
}

type OperationObject = {
  operationId: string;
  [SCOPE_EXTENSION]: Scope;
  parameters?: ParameterObject[];
  requestBody?: { required: boolean; content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, { content?: { 'application/json': { schema: JsonSchema } } }>;
};

function paramsSchema(params: ParameterObject[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const p of params) {
    properties[p.name] = p.schema;
    if (p.required) required.push(p.name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

function readOperations(): Operation[] {
  const paths = openapiDocument.paths as Record<string, Record<HttpMethod, OperationObject>>;
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item) as [HttpMethod, OperationObject][]) {
      const params = op.parameters ?? [];
      // The documented success; 200 beside another 2xx is the alternate (e.g. create → 201, found → 200).
      const successes = Object.entries(op.responses).filter(([s]) => /^2\d\d$/.test(s));
      const [status, success] = successes.find(([s]) => s !== '200') ?? successes[0]!;
      out.push({
        operationId: op.operationId,
        method,
        path,
        scope: op[SCOPE_EXTENSION],
        pathSchema: paramsSchema(params.filter((p) => p.in === 'path')),
        querySchema: paramsSchema(params.filter((p) => p.in === 'query')),
        body: op.requestBody ? { schema: op.requestBody.content['application/json'].schema, required: op.requestBody.required } : null,
        successStatus: Number(status),
        responseSchema: success.content!['application/json'].schema,
      });
    }
  }
  return out;
}

export const operations: readonly Operation[] = readOperations();

export const operationsById: ReadonlyMap<string, Operation> = new Map(operations.map((o) => [o.operationId, o]));
