/**
 * The fuzzer's exceptions to "a schema-valid request is accepted"
 * (tools/fuzz/hooks.py): the policy the document carries
 * (`x-offerops-state-decided`, schemas/openapi/common.ts) names rules the
 * server really uses and no JSON Schema keyword, and the Python decision on it
 * passes its unit test (tools/fuzz/test_state_decided.py, stdlib only).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { STATE_DECIDED_RULES } from '../../schemas/openapi/common';
import { documentAjv } from '../../schemas/validator';

const ROOT = resolve(__dirname, '../../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

test('every listed rule is a rule name of the domain, none a JSON Schema keyword', () => {
  const domain = sources(join(ROOT, 'domain')).join('\n');
  for (const rule of Object.keys(STATE_DECIDED_RULES)) {
    assert.ok(domain.includes(`'${rule}'`), `no domain module uses the rule '${rule}'`);
    assert.equal(documentAjv().getKeyword(rule), false, `'${rule}' is a JSON Schema keyword: a shape rule the fuzzer must hold the server to`);
  }
});

test("every rule the domain refuses with is listed, or a JSON Schema keyword the contract's schemas state", () => {
  const domain = sources(join(ROOT, 'domain')).join('\n');
  const used = new Set([...domain.matchAll(/rule: '(\w+)'|detail\([^,]+, '(\w+)'/g)].map((m) => m[1] ?? m[2]!));
  assert.ok(used.size > 10, `${used.size} rules found: the patterns above no longer match the domain's code`);
  const unlisted = [...used].filter((rule) => !(rule in STATE_DECIDED_RULES) && documentAjv().getKeyword(rule) === false);
  assert.deepEqual(unlisted, [], 'rules a schema-valid request can meet, missing from STATE_DECIDED_RULES');
});

test('the Python decision passes its unit test on the committed document', () => {
  const run = spawnSync('python3', [join(ROOT, 'tools', 'fuzz', 'test_state_decided.py')], { encoding: 'utf8' });
  assert.equal(run.error, undefined, `python3 does not run: ${run.error?.message}`);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stderr, /^OK$/m);
});
