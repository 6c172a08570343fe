/**
 * The recipe library (recipes/*.json): each file is a body POST /journeys
 * accepts — valid against the contract's JourneyCreate schema, a trigger of
 * the event catalogue, a graph that breaks none of the graph rules — and the
 * library has the recipes docs/guides/journeys.md lists.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { graphErrors, GraphBlock } from '../../domain/journeys/graph';
import { EVENT_KINDS } from '../../schemas/events/index';
import { DOCUMENT_ID, validatorFor } from '../../schemas/validator';
import { fillRecipe, readRecipes } from '../../tools/cli/recipes';

const recipes = readRecipes();
const validate = validatorFor({ $ref: `${DOCUMENT_ID}#/components/schemas/JourneyCreate` });

test('the library ships the welcome, re-engage, hand-over, monitor-match and commission-thanks recipes', () => {
  assert.deepEqual(
    recipes.map((r) => r.recipe),
    [
      'hand-over-on-keyword',
      'notify-group-on-monitor-match',
      're-engage-after-silence',
      'thank-after-commission-approved',
      'welcome-new-contact',
    ],
  );
});

/** Sample values of the parameters recipes have: ids of the right shape. */
const SAMPLES: Record<string, string> = { group_id: 'grp_0000000000000000000000' };

for (const recipe of recipes) {
  test(`${recipe.recipe}: a valid journey body (its parameters filled in) with a catalogue trigger and a sound graph`, () => {
    const body = fillRecipe(recipe, Object.fromEntries(recipe.parameters.map((p) => [p, SAMPLES[p]!])));
    const copy = structuredClone(body); // the validator fills defaults in
    assert.equal(validate(copy), true, JSON.stringify(validate.errors));
    assert.ok(EVENT_KINDS.includes(body.trigger), body.trigger);
    assert.deepEqual(graphErrors(body.blocks as GraphBlock[]), []);
    assert.equal('active' in body, false, 'installed as a draft: the API decides active 0');
  });
}

test('parameters: found in the body, filled in everywhere, each required, no others', () => {
  const notify = recipes.find((r) => r.recipe === 'notify-group-on-monitor-match')!;
  assert.deepEqual(notify.parameters, ['group_id']);
  assert.equal(JSON.stringify(notify.body).includes('{{group_id}}'), true);
  const filled = JSON.stringify(fillRecipe(notify, { group_id: 'grp_abc' }));
  assert.equal(filled.includes('{{'), false);
  assert.equal(filled.includes('"group_id":"grp_abc"'), true);
  assert.throws(() => fillRecipe(notify, {}), /needs group_id=…/);
  assert.throws(() => fillRecipe(notify, { group_id: '' }), /needs a value for group_id: --set group_id=…/);
  assert.throws(() => fillRecipe(notify, { group_id: 'grp_abc', colour: 'red' }), /no parameter colour/);
});

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
