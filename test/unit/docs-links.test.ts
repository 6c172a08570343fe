/** The documentation's link checker (tools/docs/links.ts) on small trees of its own. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { anchorsOf, checkFiles, documentationFiles, slug } from '../../tools/docs/links';

const roots: string[] = [];
after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

/** A repository of the given files (path → text); the docs files to check, as the lint finds them. */
function tree(files: Record<string, string>): { root: string; check: () => string[] } {
  const root = mkdtempSync(join(tmpdir(), 'offerops-docs-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { root, check: () => checkFiles(documentationFiles(root), root).map((p) => `${p.file}:${p.line}: ${p.message}`) };
}

const GUIDE = '# Guide\n\n## Error codes\n\n## `POST /offers` and its limits\n\n## Notes\n\n## Notes\n\n<a id="custom"></a>\n';

test('good links pass: files, folders, headings, repeated headings, code in headings, ids, same-file anchors, external links', () => {
  const { check } = tree({
    'README.md': [
      '# offerops',
      '',
      '[guide](docs/guide.md), [codes](docs/guide.md#error-codes), [offers](docs/guide.md#post-offers-and-its-limits),',
      '[second notes](docs/guide.md#notes-1), [custom](docs/guide.md#custom), [folder](schemas), [file](schemas/openapi.json),',
      '[here](#offerops), [site](https://example.com/x#y), [mail](mailto:a@example.com), ![logo](docs/logo.png)',
      '',
      '```sh',
      'echo "[not a link](nowhere.md)"',
      '```',
      '',
    ].join('\n'),
    'docs/guide.md': GUIDE,
    'docs/logo.png': 'png',
    'docs/sub/deep.md': '# Deep\n\n[up](../guide.md#notes) [root](/README.md#offerops)\n',
    'schemas/openapi.json': '{}',
  });
  assert.deepEqual(check(), []);
});

test('a link to a missing file fails, naming the file and line', () => {
  const { check } = tree({ 'README.md': '# offerops\n\nSee [the guide](docs/missing.md).\n' });
  assert.deepEqual(check(), ['README.md:3: link to docs/missing.md: no such file or folder (docs/missing.md)']);
});

test('a link to a missing anchor fails, in another file and in the same one', () => {
  const { check } = tree({
    'README.md': '# offerops\n\n[codes](docs/guide.md#errors)\n',
    'docs/guide.md': `${GUIDE}\n[self](#nowhere)\n`,
  });
  assert.deepEqual(check(), [
    'README.md:3: link to docs/guide.md#errors: docs/guide.md has no heading or id "errors"',
    'docs/guide.md:13: link to #nowhere: docs/guide.md has no heading or id "nowhere"',
  ]);
});

test('a fence closed with text after it fails (the block would swallow what follows), and so does one never closed', () => {
  const runOn = tree({ 'README.md': '# offerops\n\n```sh\nnpm start\n``` Then stop it.\n\n## Next\n\n```\nmore\n```\n' });
  // The block opened on line 3 runs on to the bare fence of line 9; the one of line 11 then opens a block never closed.
  assert.deepEqual(runOn.check(), [
    'README.md:5: a fence line inside the code block opened on line 3: a closing fence must stand alone (text after it keeps the block open)',
    'README.md:11: a code block that is never closed',
  ]);
  const open = tree({ 'docs/a.md': '# A\n\n~~~\nnever closed\n' });
  assert.deepEqual(open.check(), ['docs/a.md:3: a code block that is never closed']);
  const indented = tree({ 'docs/a.md': '# A\n\n- a step:\n\n  ```sh\n  npm test\n  ```\n' });
  assert.deepEqual(indented.check(), []);
});

test("anchors follow GitHub's slugs", () => {
  assert.equal(slug('Using an existing MongoDB or Temporal'), 'using-an-existing-mongodb-or-temporal');
  assert.equal(slug('bench:links — what it measures'), 'benchlinks--what-it-measures');
  assert.equal(slug('Links: integrations, conversion, tracked links and clicks'), 'links-integrations-conversion-tracked-links-and-clicks');
  assert.deepEqual([...anchorsOf('# A\n\n## A\n\n### The `http` connector\n')], ['a', 'a-1', 'the-http-connector']);
});
