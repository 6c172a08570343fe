import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { openapiDocument } from '../../schemas/openapi/index';
import { ERROR_CODES } from '../../schemas/openapi/common';
import { API_CONVENTIONS, withErrorTable } from '../../tools/openapi/generated-docs';
import { OPERATION_TYPES, operationTypes } from '../../tools/openapi/types';

test('schemas/operation-types.d.ts is generated from the document as built (run `npm run openapi` after a change)', async () => {
  assert.equal(readFileSync(OPERATION_TYPES, 'utf8'), await operationTypes(openapiDocument));
});

test("docs/api-conventions.md's error table is the contract's error codes, each with its status and meaning (run `npm run openapi` after a change)", () => {
  const page = readFileSync(API_CONVENTIONS, 'utf8');
  assert.equal(page, withErrorTable(page));
  for (const code of Object.values(ERROR_CODES).flat()) assert.match(page, new RegExp(`\\| \`${code}\` \\|`), code);
});
