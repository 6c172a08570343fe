/**
 * `npm run lint:links`: the relative links, anchors and code fences of README.md and
 * docs/ (tools/docs/links.ts). Prints each problem as `file:line: message`; exits 1 on any.
 */
import { resolve } from 'node:path';
import { checkFiles, documentationFiles } from './links';

const root = resolve(__dirname, '../../..');
const files = documentationFiles(root);
const problems = checkFiles(files, root);
for (const p of problems) console.error(`${p.file}:${p.line}: ${p.message}`);
console.log(
  `${files.length} Markdown files, ${problems.length} broken link${problems.length === 1 ? '' : 's'} or fence${problems.length === 1 ? '' : 's'}`,
);
if (problems.length > 0) process.exitCode = 1;
