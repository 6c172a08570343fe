/**
 * The recipe library (recipes/*.json): each file is a body POST /journeys
 * accepts — valid against the contract's JourneyCreate schema, a trigger of
 * the event catalogue, a graph that breaks none of the graph rules — and the
 * library has the recipes the README lists.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { graphErrors, GraphBlock } from '../../domain/journeys/graph';
import { EVENT_KINDS } from '../../schemas/events/index';
import { DOCUMENT_ID, validatorFor } from '../../schemas/validator';
import { readRecipes } from '../../tools/cli/recipes';

const recipes = readRecipes();
const validate = validatorFor({ $ref: `${DOCUMENT_ID}#/components/schemas/JourneyCreate` });

test('the library ships the welcome, re-engage and hand-over recipes', () => {
  assert.deepEqual(
    recipes.map((r) => r.recipe),
    ['hand-over-on-keyword', 're-engage-after-silence', 'welcome-new-contact'],
  );
});

for (const { recipe, body } of recipes) {
  test(`${recipe}: a valid journey body with a catalogue trigger and a sound graph`, () => {
    const copy = structuredClone(body); // the validator fills defaults in
    assert.equal(validate(copy), true, JSON.stringify(validate.errors));
    assert.ok(EVENT_KINDS.includes(body.trigger), body.trigger);
    assert.deepEqual(graphErrors(body.blocks as GraphBlock[]), []);
    assert.equal('active' in body, false, 'installed as a draft: the API decides active 0');
  });
}

test('the checks catch a broken recipe (a dangling edge, an unknown field)', () => {
  const body = structuredClone(recipes[0]!.body);
  const blocks = body.blocks as GraphBlock[];
  blocks[0] = { ...blocks[0]!, next: ['nowhere'] };
  assert.deepEqual(
    graphErrors(blocks).map((e) => `${e.field} ${e.rule}`),
    ['blocks[start].next dangling_edge', ...blocks.slice(1).map((b) => `blocks[${b.id}] unreachable`)],
  );
  assert.equal(validate({ ...structuredClone(recipes[0]!.body), colour: 'red' }), false);
});
