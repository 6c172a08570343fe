/**
 * `offerops recipes list` and `offerops recipes install NAME` as child
 * processes against the real API: every recipe installs as a draft journey
 * through the public POST /journeys with the account's key; the usage errors
 * (unknown recipe, no key, a key the API refuses) exit 2 and install nothing.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createGroup } from '../../domain/groups/store';
import { ApiClient } from '../helpers/client';
import { cliEnv, ok, runCli, usage } from '../helpers/cli';
import { seedTenant, startTestApp, Tenant, TestApp } from '../helpers/stack';

let app: TestApp;
let tmp: string;
let me: Tenant;

before(async () => {
  app = await startTestApp();
  me = await seedTenant(app.db);
  tmp = mkdtempSync(join(tmpdir(), 'offerops-cli-recipes-'));
});
after(async () => {
  rmSync(tmp, { recursive: true, force: true });
  await app.close();
});

const cli = (env: Record<string, string | undefined>, ...args: string[]) =>
  runCli(args, cliEnv({ OFFEROPS_API_KEY: undefined, OFFEROPS_BASE_URL: undefined, ...env }), tmp);

test('recipes list: each recipe with its name, trigger and size', async () => {
  const { recipes } = ok(await cli({}, 'recipes', 'list'));
  assert.deepEqual(
    recipes.map((r: { recipe: string; trigger: string }) => [r.recipe, r.trigger]),
    [
      ['hand-over-on-keyword', 'message.received'],
      ['notify-group-on-monitor-match', 'offer.created'],
      ['re-engage-after-silence', 'message.received'],
      ['thank-after-commission-approved', 'commission.approved'],
      ['welcome-new-contact', 'conversation.created'],
    ],
  );
  assert.deepEqual(
    recipes
      .filter((r: { parameters: string[] }) => r.parameters.length)
      .map((r: { recipe: string; parameters: string[] }) => [r.recipe, r.parameters]),
    [['notify-group-on-monitor-match', ['group_id']]],
  );
  for (const r of recipes) {
    assert.equal(typeof r.name, 'string');
    assert.equal(typeof r.description, 'string');
    assert.ok(r.blocks >= 2);
  }
});

test('recipes install NAME: a draft journey made through POST /journeys, the same graph as the file', async () => {
  const api = new ApiClient(app.baseUrl, me.apiKey);
  const env = { OFFEROPS_API_KEY: me.apiKey, OFFEROPS_BASE_URL: app.baseUrl };
  const group = await createGroup(app.db, { accountId: me.accountId, env: me.env }, { name: 'Alertas' });
  const listed = ok(await cli({}, 'recipes', 'list')).recipes as { recipe: string; name: string; parameters: string[] }[];
  for (const { recipe, name, parameters } of listed) {
    const set = parameters.length ? ['--set', `group_id=${group._id}`] : [];
    const made = ok(await cli(env, 'recipes', 'install', recipe, ...set));
    assert.match(made.journey_id, /^jrn_/);
    assert.deepEqual({ name: made.name, active: made.active }, { name, active: 0 });
    const journey = (await api.get(`/journeys/${made.journey_id}`)).body.data;
    assert.equal(journey.active, 0);
    assert.equal(journey.name, name);
    const created = await app.db
      .collection('events')
      .findOne({ account_id: me.accountId, kind: 'journey.created', 'data.journey.id': made.journey_id });
    assert.ok(created, 'recorded like any API create');
  }
  assert.equal((await api.get('/journeys')).body.pagination.total, listed.length);
  const notify = (await api.get('/journeys?trigger=offer.created')).body.data[0];
  assert.equal(notify.blocks.find((b: { type: string }) => b.type === 'publish').config.group_id, group._id);
});

test('usage errors exit 2 and install nothing: an unknown recipe, no key, a key the API refuses', async () => {
  const before = await app.db.collection('journeys').countDocuments({});
  const unknown = usage(await cli({ OFFEROPS_API_KEY: me.apiKey, OFFEROPS_BASE_URL: app.baseUrl }, 'recipes', 'install', 'teleport'));
  assert.match(
    unknown,
    /no recipe teleport; known: hand-over-on-keyword, notify-group-on-monitor-match, re-engage-after-silence, thank-after-commission-approved, welcome-new-contact/,
  );
  const env = { OFFEROPS_API_KEY: me.apiKey, OFFEROPS_BASE_URL: app.baseUrl };
  assert.match(usage(await cli(env, 'recipes', 'install', 'notify-group-on-monitor-match')), /needs group_id=… \(--set\)/);
  assert.match(
    usage(await cli(env, 'recipes', 'install', 'notify-group-on-monitor-match', '--set', 'group_id=grp_x,colour=red')),
    /no parameter colour/,
  );
  assert.match(usage(await cli(env, 'recipes', 'install', 'notify-group-on-monitor-match', '--set', 'group_id')), /name=value pairs/);
  assert.match(
    usage(await cli(env, 'recipes', 'install', 'notify-group-on-monitor-match', '--set', 'group_id=')),
    /needs a value for group_id: --set group_id=…/,
  );
  // A group of no account: the API refuses the graph (its reference rule), nothing is installed.
  assert.match(
    usage(await cli(env, 'recipes', 'install', 'notify-group-on-monitor-match', '--set', 'group_id=grp_0000000000000000000000')),
    /400 validation_failed.*blocks\[notify\]\.config\.group_id exists/,
  );
  assert.match(usage(await cli({ OFFEROPS_BASE_URL: app.baseUrl }, 'recipes', 'install', 'welcome-new-contact')), /OFFEROPS_API_KEY/);
  const refused = usage(
    await cli({ OFFEROPS_API_KEY: 'oo_live_nope', OFFEROPS_BASE_URL: app.baseUrl }, 'recipes', 'install', 'welcome-new-contact'),
  );
  assert.match(refused, /401 invalid_api_key/);
  assert.match(usage(await cli({}, 'recipes', 'install')), /missing NAME/);
  assert.equal(await app.db.collection('journeys').countDocuments({}), before);
});
