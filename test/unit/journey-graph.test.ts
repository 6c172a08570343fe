/**
 * The rules of a journey graph (domain/journeys/graph.ts), without the stack: each rule on a graph that breaks
 * only it, the block and the rule each error names, and sound graphs (loops through a wait included) passing.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GraphBlock, graphErrors, templatesNamed } from '../../domain/journeys/graph';

const trigger = (next: string[] = ['a']): GraphBlock => ({ id: 'start', type: 'trigger', config: {}, next });
const msg = (id: string, next: string[] = []): GraphBlock => ({ id, type: 'message', config: { text: 'Oi' }, next });
const wait = (id: string, next: string[] = []): GraphBlock => ({ id, type: 'wait', config: { minutes: 5 }, next });
const cond = (id: string, next: string[], field = 'event.data.x'): GraphBlock => ({
  id,
  type: 'condition',
  config: { field, operator: 'exists' },
  next,
});
const end = (id: string): GraphBlock => ({ id, type: 'end', config: {}, next: [] });

/** `[field, rule]` of each error, sorted. */
const broken = (blocks: GraphBlock[]) =>
  graphErrors(blocks)
    .map((e) => `${e.field} ${e.rule}`)
    .sort();

describe('sound graphs', () => {
  test('a line from the trigger to an end', () => {
    assert.deepEqual(broken([trigger(), msg('a', ['b']), end('b')]), []);
  });

  test('both branches of a condition and a wait_reply, joining again', () => {
    const blocks: GraphBlock[] = [
      trigger(['c']),
      cond('c', ['r', 'b']),
      { id: 'r', type: 'wait_reply', config: { timeout_minutes: 60 }, next: ['b', 'e'] },
      msg('b', ['e']),
      end('e'),
    ];
    assert.deepEqual(broken(blocks), []);
  });

  test('a loop that passes through a wait', () => {
    assert.deepEqual(broken([trigger(), msg('a', ['w']), wait('w', ['c']), cond('c', ['a', 'e']), end('e')]), []);
  });

  test('a condition on the answer of an http block of the graph; a wait until a time of day in a valid zone', () => {
    const blocks: GraphBlock[] = [
      trigger(['h']),
      { id: 'h', type: 'http', config: { url: 'https://api.example/x' }, next: ['w'] },
      { id: 'w', type: 'wait', config: { until: '09:00', timezone: 'America/Sao_Paulo' }, next: ['c'] },
      cond('c', ['e', 'e'], 'http.h.body.ok'),
      end('e'),
    ];
    assert.deepEqual(broken(blocks), []);
  });
});

describe('each rule names the block and the rule', () => {
  test('no trigger block: single_entry', () => {
    assert.deepEqual(broken([msg('a', ['b']), end('b')]), ['blocks[a] single_entry']);
  });

  test('two trigger blocks: single_entry names the second', () => {
    const errors = broken([trigger(), { id: 'start2', type: 'trigger', config: {}, next: ['a'] }, msg('a')]);
    assert.ok(errors.includes('blocks[start2] single_entry'), errors.join());
  });

  test('two blocks with one id: unique_id', () => {
    assert.deepEqual(broken([trigger(), msg('a', ['a2']), msg('a2'), msg('a2')]), ['blocks[a2] unique_id']);
  });

  test('an edge to no block: dangling_edge on that block', () => {
    assert.deepEqual(broken([trigger(), msg('a', ['ghost'])]), ['blocks[a].next dangling_edge']);
  });

  test('a block no path reaches: unreachable', () => {
    assert.deepEqual(broken([trigger(), msg('a'), msg('lost', ['a'])]), ['blocks[lost] unreachable']);
  });

  test('a loop without a wait: cycle_without_wait', () => {
    const errors = broken([trigger(), msg('a', ['b']), cond('b', ['a', 'e']), end('e')]);
    assert.equal(errors.length, 1, errors.join());
    assert.match(errors[0]!, /^blocks\[(a|b)\] cycle_without_wait$/);
  });

  test('a self-loop: cycle_without_wait', () => {
    assert.deepEqual(broken([trigger(), cond('a', ['a', 'e']), end('e')]), ['blocks[a] cycle_without_wait']);
  });

  test('an edge back to the trigger: entry_inbound', () => {
    assert.ok(broken([trigger(), wait('a', ['start'])]).includes('blocks[a].next entry_inbound'));
  });

  test('a condition with one branch, a wait_reply with none: branches', () => {
    const blocks: GraphBlock[] = [trigger(), cond('a', ['r']), { id: 'r', type: 'wait_reply', config: { timeout_minutes: 5 }, next: [] }];
    assert.deepEqual(broken(blocks), ['blocks[a].next branches', 'blocks[r].next branches']);
  });

  test('an unknown time zone: timezone', () => {
    const blocks: GraphBlock[] = [trigger(), { id: 'a', type: 'wait', config: { until: '08:30', timezone: 'Mars/Olympus' }, next: [] }];
    assert.deepEqual(broken(blocks), ['blocks[a].config.timezone timezone']);
  });

  test('a condition on an http block the graph lacks (or that is no http block): unknown_block', () => {
    assert.deepEqual(broken([trigger(), cond('a', ['e', 'e'], 'http.nope.status'), end('e')]), ['blocks[a].config.field unknown_block']);
    assert.deepEqual(broken([trigger(), cond('a', ['e', 'e'], 'http.e.status'), end('e')]), ['blocks[a].config.field unknown_block']);
  });

  test('several rules broken at once: every one is reported', () => {
    const errors = broken([msg('a', ['ghost']), msg('b', ['b'])]);
    assert.deepEqual(errors, ['blocks[a] single_entry', 'blocks[a].next dangling_edge', 'blocks[b] cycle_without_wait']);
  });
});

test('templatesNamed lists the message blocks that send a template', () => {
  const blocks: GraphBlock[] = [trigger(), { id: 'a', type: 'message', config: { template_id: 'tpl_1' }, next: ['b'] }, msg('b')];
  assert.deepEqual(templatesNamed(blocks), [{ blockId: 'a', templateId: 'tpl_1' }]);
});
