import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { openapiDocument } from '../../schemas/openapi/index';
import { OPERATION_TYPES, operationTypes } from '../../tools/openapi/types';

test('schemas/operation-types.d.ts is generated from the document as built (run `npm run openapi` after a change)', async () => {
  assert.equal(readFileSync(OPERATION_TYPES, 'utf8'), await operationTypes(openapiDocument));
});
