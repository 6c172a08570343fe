/** boundedMemo: one computation per key while kept, the oldest key forgotten beyond the bound. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundedMemo } from '../../domain/memo';

test('boundedMemo computes a key once while it is kept and forgets the oldest beyond its bound', () => {
  const computed: string[] = [];
  const upper = boundedMemo(2, (k) => {
    computed.push(k);
    return k.toUpperCase();
  });
  assert.equal(upper('a'), 'A');
  assert.equal(upper('a'), 'A');
  assert.equal(upper('b'), 'B');
  assert.deepEqual(computed, ['a', 'b']);
  assert.equal(upper('c'), 'C'); // a, the oldest, is forgotten
  assert.equal(upper('b'), 'B');
  assert.equal(upper('a'), 'A');
  assert.deepEqual(computed, ['a', 'b', 'c', 'a']);
});
