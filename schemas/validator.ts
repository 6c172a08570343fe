/**
 * The one Ajv 2020 instance. The whole OpenAPI document is registered under
 * the id `openapi.json`, so every `#/components/schemas/…` reference resolves
 * against it; callers compile schemas taken from the operation table.
 */
import Ajv2020, { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { FORM_KEYWORD, JsonSchema, STATE_DECIDED_EXTENSION } from './openapi/common';
import { openapiDocument } from './openapi/index';

export const DOCUMENT_ID = 'https://offerops.dev/openapi.json';

// `verbose`: errors carry the schema they broke, so a message can say what the field takes (api/middleware/validate.ts).
export const ajv = new Ajv2020({ allErrors: true, strict: true, useDefaults: true, verbose: true });
addFormats(ajv);
ajv.addKeyword({ keyword: FORM_KEYWORD, schemaType: 'string' });
// Refusals the state decides, for the fuzzer (schemas/openapi/common.ts): an annotation, nothing to validate.
ajv.addKeyword({ keyword: STATE_DECIDED_EXTENSION, schemaType: 'object' });
// The root of the OpenAPI document is not a schema; these are its keywords.
for (const keyword of ['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'components']) {
  ajv.addKeyword({ keyword });
}
ajv.addSchema(openapiDocument, DOCUMENT_ID);

/** Re-root local `#/…` references on the document so a fragment compiles alone. */
function anchor(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema), (_k, v: unknown) =>
    typeof v === 'string' && v.startsWith('#/components/') ? `${DOCUMENT_ID}${v}` : v,
  ) as JsonSchema;
}

const cache = new WeakMap<JsonSchema, ValidateFunction>();

/** A compiled validator for a schema fragment of the document (memoised). */
export function validatorFor(schema: JsonSchema): ValidateFunction {
  let fn = cache.get(schema);
  if (!fn) {
    fn = ajv.compile(anchor(schema));
    cache.set(schema, fn);
  }
  return fn;
}

export type { ErrorObject };
export { FORM_KEYWORD };
