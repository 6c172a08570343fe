/**
 * The `publish` block on the real stack (Temporal, FerretDB, a worker in the
 * test process, a fake chat gateway): the offer of the triggering event or a
 * text, to a group, a segment or the group the event names, as a publication
 * of the publish path (one per execution and block); the graph's reference
 * rules for its group, segment and template; a block that cannot publish
 * fails the execution naming why; the thank-after-commission-approved recipe
 * from a signed postback attributed through a click to the group it thanks.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createHmac } from 'node:crypto';
import { readRecipes } from '../../tools/cli/recipes';
import { connectChannel } from '../../domain/channels/service';
import { createPostbackSecret } from '../../domain/commissions/postbacks';
import { createGroup } from '../../domain/groups/store';
import { putIntegration } from '../../domain/integrations/store';
import { secretKeyFromEnv } from '../../domain/sealing';
import { dispatchWorkflowId, journeyExecutionWorkflowId } from '../../temporal/names';
import { ApiClient } from '../helpers/client';
import { recordClick } from '../helpers/clicks';
import { FakeGateway, startFakeGateway } from '../helpers/fake-gateway';
import { seedTenant, startTestApp, terminateRunning, TestApp } from '../helpers/stack';
import { startTestWorker } from '../helpers/worker';
import { waitFor } from '../helpers/wait';
import { publicationsState, receivedState, storedEventId, tailOf } from '../helpers/states';

let app: TestApp;
let worker: { stop(): Promise<void> };
let gateway: FakeGateway;
const taskQueue = `test-journey-publish-${Date.now()}`;

before(async () => {
  gateway = await startFakeGateway({ token: 'gw-token' });
  app = await startTestApp({ taskQueue });
  worker = await startTestWorker(app, taskQueue);
});
after(async () => {
  await terminateRunning(app, taskQueue);
  await worker.stop();
  await app.close();
  await gateway.close();
});

/** An account with a group on the fake gateway (address `address`). */
async function tenantWithGroup(address: string) {
  const t = await seedTenant(app.db);
  const tenant = { accountId: t.accountId, env: t.env };
  const made = await connectChannel(
    app.db,
    tenant,
    { type: 'http', url: gateway.url, token: 'gw-token', name: 'Gateway', minIntervalMs: 0 },
    secretKeyFromEnv,
  );
  const group = await createGroup(app.db, tenant, { name: 'Alertas', channel: { id: made.channel._id, type: 'http', address } });
  return { t, tenant, api: new ApiClient(app.baseUrl, t.apiKey), group };
}

async function activeJourney(api: ApiClient, body: Record<string, unknown>): Promise<string> {
  const res = await api.post('/journeys', body);
  assert.equal(res.status, 201, res.text);
  assert.equal((await api.post(`/journeys/${res.body.data.id}/activate`)).status, 200);
  return res.body.data.id;
}

/** The result of the execution of journey `id` started by event `evt`, once closed. */
async function executionResult(id: string, evt: string): Promise<any> {
  for (const workflowId of [dispatchWorkflowId(evt), journeyExecutionWorkflowId(id, evt)]) {
    const handle = app.temporal.client.workflow.getHandle(workflowId);
    await waitFor(
      `${workflowId} to close`,
      async () => ((await handle.describe()).status.name === 'RUNNING' ? undefined : true),
      30_000,
      () => tailOf(handle),
    );
  }
  return app.temporal.client.workflow.getHandle(journeyExecutionWorkflowId(id, evt)).result();
}

const eventOf = (kind: string, path: string, id: string): Promise<string> => storedEventId(app.db, kind, path, id);

test('the offer of the triggering event, published to a group: one publication, delivered through the gateway', async () => {
  const { api, group } = await tenantWithGroup('120363000000000001@g.us');
  const id = await activeJourney(api, {
    name: 'Alert the team',
    trigger: 'offer.created',
    blocks: [
      { id: 'start', type: 'trigger', config: {}, next: ['tell'] },
      { id: 'tell', type: 'publish', config: { group_id: group._id, with_image: false }, next: ['done'] },
      { id: 'done', type: 'end', config: {} },
    ],
  });
  const offer = (await api.post('/offers', { url: 'https://shop.example/p/1', title: 'Cafeteira Expresso', price: 399.9 })).body.data;
  const result = await executionResult(id, await eventOf('offer.created', 'data.offer.id', offer.id));
  assert.equal(result.state, 'completed', JSON.stringify(result));
  const sent = await waitFor(
    'the offer at the gateway',
    async () => gateway.messages('120363000000000001@g.us')[0],
    30_000,
    async () => `${receivedState('the gateway', gateway.messages())}\n${await publicationsState(api, '?limit=5')}`,
  );
  assert.match(sent.text, /Cafeteira Expresso/);
  const publications = (await api.get(`/publications?offer_id=${offer.id}`)).body.data;
  assert.equal(publications.length, 1);
  assert.equal(publications[0].group_id, group._id);
  const journey = (await api.get(`/journeys/${id}`)).body.data;
  assert.deepEqual(journey.blocks.find((b: { id: string }) => b.id === 'tell').metrics, { entered: 1, completed: 1, failed: 0 });
});

test('with an integration, the publish block sends the tracked link of its group, as a publish through the API', async () => {
  const { tenant, api, group } = await tenantWithGroup('120363000000000009@g.us');
  await putIntegration(app.db, tenant, { marketplace: 'amazon', tag: 'journey-20' }, secretKeyFromEnv());
  const id = await activeJourney(api, {
    name: 'Alert with a link',
    trigger: 'offer.created',
    blocks: [
      { id: 'start', type: 'trigger', config: {}, next: ['tell'] },
      { id: 'tell', type: 'publish', config: { group_id: group._id, with_image: false } },
    ],
  });
  const offer = (await api.post('/offers', { url: 'https://www.amazon.com.br/dp/B0JOURNEY1', title: 'Moedor', price: 99.9 })).body.data;
  assert.equal((await executionResult(id, await eventOf('offer.created', 'data.offer.id', offer.id))).state, 'completed');
  const sent = await waitFor(
    'the offer at the gateway',
    async () => gateway.messages('120363000000000009@g.us')[0],
    30_000,
    async () => `${receivedState('the gateway', gateway.messages())}\n${await publicationsState(api, '?limit=5')}`,
  );
  const code = /\/l\/([a-z2-9]{12})/.exec(sent.text)?.[1];
  assert.ok(code, sent.text);
  const publication = (await api.get(`/publications?offer_id=${offer.id}`)).body.data[0];
  const link = await app.db.collection('links').findOne({ _id: `lnk_${code}` } as object);
  assert.deepEqual([link?.publication_id, link?.group_id, link?.offer_id], [publication.id, group._id, offer.id]);
  assert.equal(link?.affiliate_url, 'https://www.amazon.com.br/dp/B0JOURNEY1?tag=journey-20');
});

test('a text to the group the event names; an event that names no offer fails a block without text', async () => {
  const { api, group } = await tenantWithGroup('120363000000000002@g.us');
  const thanks = await activeJourney(api, {
    name: 'Thank the group',
    trigger: 'group.updated',
    blocks: [
      { id: 'start', type: 'trigger', config: {}, next: ['thank'] },
      { id: 'thank', type: 'publish', config: { event_group: true, text: 'Obrigado, pessoal!' } },
    ],
  });
  const offerless = await activeJourney(api, {
    name: 'Nothing to publish',
    trigger: 'group.updated',
    blocks: [
      { id: 'start', type: 'trigger', config: {}, next: ['offer'] },
      { id: 'offer', type: 'publish', config: { event_group: true } },
    ],
  });
  assert.equal((await api.patch(`/groups/${group._id}`, { name: 'Alertas VIP' })).status, 200);
  const evt = await eventOf('group.updated', 'data.group.id', group._id);
  assert.equal((await executionResult(thanks, evt)).state, 'completed');
  const sent = await waitFor(
    'the thanks at the gateway',
    async () => gateway.messages('120363000000000002@g.us')[0],
    30_000,
    async () => `${receivedState('the gateway', gateway.messages())}\n${await publicationsState(api, '?limit=5')}`,
  );
  assert.equal(sent.text, 'Obrigado, pessoal!');
  const failed = await executionResult(offerless, evt);
  assert.equal(failed.state, 'failed');
  assert.match(failed.error, /block offer \(publish\) failed: the triggering group.updated event names no offer/);
  assert.equal(gateway.messages('120363000000000002@g.us').length, 1);
});

test('the graph rules: a group, segment or template of the block must exist; one destination; text or template', async () => {
  const { api, group } = await tenantWithGroup('120363000000000003@g.us');
  const other = await tenantWithGroup('120363000000000004@g.us');
  const body = (config: Record<string, unknown>) => ({
    name: 'Publish',
    trigger: 'offer.created',
    blocks: [
      { id: 'start', type: 'trigger', config: {}, next: ['pub'] },
      { id: 'pub', type: 'publish', config },
    ],
  });
  const theirs = await api.post('/journeys', body({ group_id: other.group._id }));
  assert.equal(theirs.status, 400, theirs.text);
  assert.deepEqual(
    theirs.body.details.map((d: { field: string; rule: string }) => `${d.field} ${d.rule}`),
    ['blocks[pub].config.group_id exists'],
  );
  const segment = await api.post('/journeys', body({ segment_id: 'seg_0000000000000000000000' }));
  assert.equal(segment.status, 400, segment.text);
  assert.match(segment.body.message, /segment seg_0+ is not one of this account's/);
  for (const config of [
    {},
    { group_id: group._id, event_group: true },
    { group_id: group._id, text: 'x', template_id: 'tpl_0000000000000000000000' },
  ]) {
    const res = await api.post('/journeys', body(config));
    assert.equal(res.status, 400, `${JSON.stringify(config)}: ${res.text}`);
    assert.equal(res.body.code, 'validation_failed');
  }
  assert.equal((await api.get('/journeys')).body.data.length, 0);
  assert.equal((await api.post('/journeys', body({ group_id: group._id, text: 'Oi' }))).status, 201);
});

test('the thank-after-commission-approved recipe: an approved commission attributed through a click thanks that group', async () => {
  const { tenant, api, group } = await tenantWithGroup('120363000000000005@g.us');
  const recipe = readRecipes().find((r) => r.recipe === 'thank-after-commission-approved')!;
  const id = await activeJourney(api, recipe.body);
  const endpoint = await createPostbackSecret(app.db, tenant, 'amazon', secretKeyFromEnv());
  const clickId = await recordClick(app.db, tenant, { group_id: group._id });
  const postback = async (fields: Record<string, unknown>) => {
    const body = JSON.stringify({ currency: 'BRL', commission: '12.34', occurred_at: new Date().toISOString(), ...fields });
    const signature = `sha256=${createHmac('sha256', endpoint.secret).update(body).digest('hex')}`;
    const res = await fetch(`${app.origin}/postbacks/${endpoint.integration_id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-offerops-signature': signature },
      body,
    });
    assert.ok(res.status < 300, await res.text());
  };
  // Pending starts nothing; approved (attributed to the group through the click) thanks it once.
  await postback({ transaction_id: 'TX-thanks-1', status: 'pending', sub_id: clickId, updated_at: '2026-11-20T10:00:00Z' });
  await postback({ transaction_id: 'TX-thanks-1', status: 'approved', sub_id: clickId, updated_at: '2026-11-21T10:00:00Z' });
  const evt = await eventOf('commission.approved', 'data.group_id', group._id);
  assert.equal((await executionResult(id, evt)).state, 'completed');
  const sent = await waitFor(
    'the thanks at the gateway',
    async () => gateway.messages('120363000000000005@g.us')[0],
    30_000,
    async () => `${receivedState('the gateway', gateway.messages())}\n${await publicationsState(api, '?limit=5')}`,
  );
  assert.match(sent.text, /Obrigado, pessoal!/);
  assert.equal(gateway.messages('120363000000000005@g.us').length, 1);
});
