/** `npm run docs:operations`: writes docs/operations-index.md (./operations-index.ts) from the contract and the code. */
import { writeFileSync } from 'node:fs';
import { buildIndex, codeProblems, OPERATIONS_INDEX, renderIndex } from './operations-index';

const { tags, entries } = buildIndex();
writeFileSync(OPERATIONS_INDEX, renderIndex(tags, entries));
console.log(`wrote ${OPERATIONS_INDEX}: ${entries.length} operations`);
// The page is written as the code stands; what the test refuses is said here too.
for (const problem of codeProblems(entries)) console.error(problem);
