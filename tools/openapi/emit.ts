/**
 * Writes the OpenAPI document to `schemas/openapi.json` (for tools outside
 * this code base: collections, schemathesis, client generators), the Postman
 * collection made from it to `schemas/collection.json`, and the
 * operation types generated from it to `schemas/operation-types.d.ts`, and the
 * error table of docs/api-conventions.md. The contract tests fail when any differs from the document.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openapiDocument } from '../../schemas/openapi/index';
import { Document } from '../cli/api-commands';
import { COLLECTION_JSON, collectionJson } from './collection';
import { oauthDocument } from '../../schemas/openapi/oauth';
import { API_CONVENTIONS, withErrorTable } from './generated-docs';
import { OPERATION_TYPES, operationTypes } from './types';

export const OPENAPI_JSON = resolve(__dirname, '../../../schemas/openapi.json');
export const OAUTH_OPENAPI_JSON = resolve(__dirname, '../../../schemas/oauth-openapi.json');

async function main(): Promise<void> {
  writeFileSync(OPENAPI_JSON, `${JSON.stringify(openapiDocument, null, 2)}\n`);
  console.log(`wrote ${OPENAPI_JSON}`);
  writeFileSync(COLLECTION_JSON, collectionJson(openapiDocument as unknown as Document));
  console.log(`wrote ${COLLECTION_JSON}`);
  writeFileSync(OAUTH_OPENAPI_JSON, `${JSON.stringify(oauthDocument, null, 2)}\n`);
  console.log(`wrote ${OAUTH_OPENAPI_JSON}`);
  writeFileSync(OPERATION_TYPES, await operationTypes(openapiDocument));
  console.log(`wrote ${OPERATION_TYPES}`);
  writeFileSync(API_CONVENTIONS, withErrorTable(readFileSync(API_CONVENTIONS, 'utf8')));
  console.log(`wrote the error table of ${API_CONVENTIONS}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
