/**
 * Validation messages say the one problem in words: alternatives (`oneOf`)
 * report the branch the body chose, enums list their values, and no message
 * shows a regular expression.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createGroup } from '../../domain/groups/store';
import { ApiClient, Reply } from '../helpers/client';
import { seedTenant, startTestApp, TestApp } from '../helpers/stack';

let app: TestApp;
let api: ApiClient;
let groupId: string;

before(async () => {
  app = await startTestApp();
  const me = await seedTenant(app.db);
  api = new ApiClient(app.baseUrl, me.apiKey);
  groupId = (await createGroup(app.db, me, { name: 'G' }))._id;
});
after(() => app.close());

const REGEX_LIKE = /\^|\$"|\\d|\(\?:|\[A-Z/;

function oneProblem(res: Reply, field: string, rule: string): string {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.code, 'validation_failed');
  assert.deepEqual(
    res.body.details.map((d: { field: string; rule: string }) => [d.field, d.rule]),
    [[field, rule]],
    res.text,
  );
  assert.doesNotMatch(res.body.message, REGEX_LIKE);
  assert.doesNotMatch(res.body.message, /and \d+ more/);
  return res.body.details[0].message as string;
}

const schedule = (recurrence: unknown) =>
  api.post('/schedules', { text: 'x', group_id: groupId, run_at: new Date(Date.now() + 86_400_000).toISOString(), recurrence });

test('a recurrence with neither rrule nor cron: one error saying to choose one', async () => {
  assert.equal(oneProblem(await schedule({ timezone: 'UTC' }), 'recurrence', 'oneOf'), 'needs one of rrule, cron');
});

test('a recurrence with both: one error saying only one', async () => {
  assert.equal(oneProblem(await schedule({ rrule: 'FREQ=DAILY', cron: '0 9 * * *' }), 'recurrence', 'oneOf'), 'takes only one of rrule, cron');
});

test('a malformed rrule: the error of the rrule branch only, without the cron branch noise', async () => {
  oneProblem(await schedule({ rrule: 'RRULE:FREQ=DAILY' }), 'recurrence.rrule', 'pattern');
});

test('an enum lists its values', async () => {
  const res = await api.get('/offers?status=bogus');
  assert.match(oneProblem(res, 'status', 'enum'), /^must be one of: "pending", "approved", "rejected", "archived"$/);
});

test('a pattern error never shows the expression', async () => {
  const res = await api.post('/segments', { name: 'S', store_color: 'red' });
  oneProblem(res, 'store_color', 'pattern');
  assert.doesNotMatch(res.body.details[0].message, REGEX_LIKE);
});
