/**
 * Writes the OpenAPI document to `schemas/openapi.json` (for tools outside
 * this code base: collections, schemathesis, client generators). The
 * contract tests fail when the file and the document differ.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openapiDocument } from '../../schemas/openapi/index';

export const OPENAPI_JSON = resolve(__dirname, '../../../schemas/openapi.json');

writeFileSync(OPENAPI_JSON, `${JSON.stringify(openapiDocument, null, 2)}\n`);
console.log(`wrote ${OPENAPI_JSON}`);
