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

test('exactly one of two fields (oneOf over present fields): a detail on each field concerned', async () => {
  const offer = (await api.post('/offers', { url: 'https://shop.example/p/validation-1', title: 'Fryer' })).body.data;
  const none = await api.post(`/offers/${offer.id}/publish`, { with_image: true });
  assert.equal(none.status, 400, none.text);
  assert.deepEqual(
    none.body.details.map((d: { field: string; rule: string; message: string }) => [d.field, d.rule, d.message]),
    [
      ['group_id', 'oneOf', 'needs one of group_id, segment_id'],
      ['segment_id', 'oneOf', 'needs one of group_id, segment_id'],
    ],
  );
  const both = await api.post(`/offers/${offer.id}/publish`, { group_id: groupId, segment_id: 'seg_0123456789abcdef' });
  assert.deepEqual(
    both.body.details.map((d: { field: string; message: string }) => [d.field, d.message]),
    [
      ['group_id', 'takes only one of group_id, segment_id'],
      ['segment_id', 'takes only one of group_id, segment_id'],
    ],
  );
  assert.doesNotMatch(both.body.message, REGEX_LIKE);
});

test('never both (not over present fields): a detail on each, naming the pair', async () => {
  const run_at = new Date(Date.now() + 86_400_000).toISOString();
  const s = (await api.post('/schedules', { text: 'x', group_id: groupId, run_at })).body.data;
  const res = await api.patch(`/schedules/${s.id}`, { offer_id: 'off_0123456789abcdef', text: 'y' });
  assert.equal(res.status, 400, res.text);
  assert.deepEqual(
    res.body.details.map((d: { field: string; rule: string; message: string }) => [d.field, d.rule, d.message]),
    [
      ['offer_id', 'oneOf', 'takes only one of offer_id, text'],
      ['text', 'oneOf', 'takes only one of offer_id, text'],
    ],
  );
});

test('a field taken only on a condition (if/else): says the condition', async () => {
  const res = await api.post('/monitors', {
    name: 'M',
    sources: [{ type: 'json', url: 'http://127.0.0.1:9/f.json' }],
    frequency: { every_minutes: 60 },
    automation: { mode: 'create', group_id: groupId },
  });
  assert.equal(oneProblem(res, 'automation.group_id', 'not'), 'is taken only when mode is "publish"');
});

test("alternatives told apart by a constant (a journey block's type): only the chosen branch's errors", async () => {
  const journey = (publish: Record<string, unknown>) =>
    api.post('/journeys', {
      name: 'J',
      trigger: 'offer.created',
      blocks: [
        { id: 'start', type: 'trigger', config: {}, next: ['notify'] },
        { id: 'notify', next: [], ...publish },
      ],
    });
  oneProblem(await journey({ type: 'publish', config: { group_id: '' } }), 'blocks.1.config.group_id', 'pattern');
  assert.match(oneProblem(await journey({ type: 'bogus', config: {} }), 'blocks.1.type', 'enum'), /^must be one of: "trigger", "message"/);
});

test("a coupon's discount by type: the errors of that type's branch only", async () => {
  const res = await api.post('/coupons', { code: 'DEZ', store: 'Amazon', discount: { type: 'percent', value: 200 } });
  oneProblem(res, 'discount.value', 'maximum');
});

test('unknown fields are listed one by one up to 16 past what the object declares; beyond, one detail says how many it has', async () => {
  const extra = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`extra_${i}`, 1]));
  const some = await api.post('/segments', { name: 'S', ...extra(3) });
  assert.equal(some.status, 400, some.text);
  assert.deepEqual(
    some.body.details.map((d: { field: string; rule: string }) => [d.field, d.rule]),
    [0, 1, 2].map((i) => [`extra_${i}`, 'additionalProperties']),
  );
  const crowd = await api.post('/segments', { name: 'S', ...extra(5000) });
  assert.equal(crowd.status, 400, crowd.text);
  assert.deepEqual(
    crowd.body.details.map((d: { field: string; rule: string; message: string }) => [d.field, d.rule, d.message]),
    [['', 'maxProperties', 'has 5001 fields, more than it takes (see its description in the contract)']],
  );
});

test('query parameters: an unknown one is refused, `__proto__` and `constructor` too; a repeated one is a list', async () => {
  for (const name of ['bogus', '__proto__', 'constructor']) {
    const res = await api.get(`/offers?${name}=1`);
    assert.deepEqual(
      res.body.details?.map((d: { location: string; field: string; rule: string }) => [d.location, d.field, d.rule]),
      [['query', name, 'additionalProperties']],
      name,
    );
  }
  assert.deepEqual(
    (await api.get('/offers?limit=1&limit=2')).body.details.map((d: { field: string; rule: string }) => [d.field, d.rule]),
    [['limit', 'type']],
  );
});
