/**
 * Journey executions on the real stack (Temporal, FerretDB, a worker in the
 * test process, an HTTPS receiver for http blocks, a fake chat gateway for
 * message blocks): an event of an active
 * journey's trigger whose filter holds starts `journey-<jrn>-<evt>` from its
 * dispatch; a redelivered event starts nothing new; conditions on an http
 * answer; inbox blocks (a message through the reply path to the gateway, tag, stage, assign with DU mode, wait for a reply
 * signalled by the inbound path, close); an edit while an execution waits
 * leaves it on its version; executions from visibility; per-block metrics;
 * DELETE refused once executed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { WorkflowNotFoundError } from '@temporalio/client';
import { connectChannel } from '../../domain/channels/service';
import { dispatchWorkflowId, journeyExecutionWorkflowId } from '../../temporal/names';
import { secretKeyFromEnv } from '../../domain/sealing';
import { ApiClient } from '../helpers/client';
import { FakeGateway, startFakeGateway } from '../helpers/fake-gateway';
import { HttpsReceiver, startHttpsReceiver } from '../helpers/https-receiver';
import { seedTenant, startTestApp, Tenant, terminateRunning, TestApp } from '../helpers/stack';
import { startTestWorker } from '../helpers/worker';
import { waitFor } from '../helpers/wait';
import { messagesState, receivedState, recordOf, storedEventId, tailOf } from '../helpers/states';

let app: TestApp;
let worker: { stop(): Promise<void> };
let receiver: HttpsReceiver;
let gateway: FakeGateway;
const taskQueue = `test-journeys-${Date.now()}`;

before(async () => {
  receiver = await startHttpsReceiver();
  gateway = await startFakeGateway({ token: 'gw-token' });
  app = await startTestApp({ webhookAllow: ['127.0.0.1'], taskQueue });
  worker = await startTestWorker(app, taskQueue, { webhookAllow: ['127.0.0.1'], webhookCa: receiver.ca });
});
after(async () => {
  await terminateRunning(app, taskQueue);
  await worker.stop();
  await app.close();
  await receiver.close();
  await gateway.close();
});

async function tenant(): Promise<{ t: Tenant; api: ApiClient }> {
  const t = await seedTenant(app.db);
  return { t, api: new ApiClient(app.baseUrl, t.apiKey) };
}

async function activeJourney(api: ApiClient, body: Record<string, unknown>): Promise<string> {
  const res = await api.post('/journeys', body);
  assert.equal(res.status, 201, res.text);
  assert.equal((await api.post(`/journeys/${res.body.data.id}/activate`)).status, 200);
  return res.body.data.id;
}

const eventId = (kind: string, path: string, id: string): Promise<string> => storedEventId(app.db, kind, path, id);

/** The journey's executions as the API lists them, once visibility shows what `ready` wants. */
const executionsWhen = (api: ApiClient, id: string, query: string, ready: (items: any[]) => boolean) =>
  waitFor(
    `executions of ${id}${query}`,
    async () => {
      const res = await api.get(`/journeys/${id}/executions${query}`);
      assert.equal(res.status, 200, res.text);
      return ready(res.body.data) ? (res.body as { data: any[]; pagination: { total: number } }) : undefined;
    },
    30_000,
    () => recordOf(api, `/journeys/${id}/executions${query}`, (list: any[]) => list?.map((x) => [x.id, x.status, x.current_step, x.error])),
  );

/** The result of workflow `workflowId` once it has closed (bounded: a wait that never ends fails the test, not hangs it). */
async function closedResult(workflowId: string): Promise<unknown> {
  const handle = app.temporal.client.workflow.getHandle(workflowId);
  await waitFor(
    `${workflowId} to close`,
    async () => ((await handle.describe()).status.name === 'RUNNING' ? undefined : true),
    30_000,
    () => tailOf(handle),
  );
  return handle.result();
}

/** The result of the execution of journey `id` started by event `evt`, once the event's dispatch (which starts it) is done. */
async function executionResult(id: string, evt: string): Promise<unknown> {
  await closedResult(dispatchWorkflowId(evt));
  return closedResult(journeyExecutionWorkflowId(id, evt));
}

const metricsOf = async (api: ApiClient, id: string) => {
  const j = (await api.get(`/journeys/${id}`)).body.data;
  return { journey: j, blocks: Object.fromEntries(j.blocks.map((b: any) => [b.id, b.metrics])) };
};

describe('executions started by domain events', () => {
  test('a matching event starts one execution that walks the graph (http answer → condition); a redelivery starts nothing new', async () => {
    const { api } = await tenant();
    const id = await activeJourney(api, {
      name: 'Caras',
      trigger: 'offer.created',
      filter: [{ field: 'event.data.offer.price', operator: 'gt', value: 100 }],
      blocks: [
        { id: 'start', type: 'trigger', config: {}, next: ['call'] },
        { id: 'call', type: 'http', config: { url: `${receiver.url}/journey-hook`, timeout_ms: 5000 }, next: ['check'] },
        { id: 'check', type: 'condition', config: { field: 'http.call.status', operator: 'eq', value: 200 }, next: ['good', 'bad'] },
        { id: 'good', type: 'end', config: {} },
        { id: 'bad', type: 'end', config: {} },
      ],
    });
    const cheap = (await api.post('/offers', { url: `https://shop.example/j/c${Date.now()}`, title: 'Barata', price: 50 })).body.data;
    const dear = (await api.post('/offers', { url: `https://shop.example/j/d${Date.now()}`, title: 'Cara', price: 150 })).body.data;
    const evt = await eventId('offer.created', 'data.offer.id', dear.id);
    assert.deepEqual(await executionResult(id, evt), { state: 'completed', last_block: 'good', error: null });
    const handle = app.temporal.client.workflow.getHandle(journeyExecutionWorkflowId(id, evt));

    const { data, pagination } = await executionsWhen(api, id, '', (items) => items.length === 1 && items[0].status === 'completed');
    assert.equal(pagination.total, 1, 'the cheap offer (filter false) started none');
    assert.deepEqual(
      { ...data[0], started_at: typeof data[0].started_at, closed_at: typeof data[0].closed_at },
      {
        id: journeyExecutionWorkflowId(id, evt),
        journey_id: id,
        conversation_id: null,
        status: 'completed',
        current_step: null,
        event_id: evt,
        event_kind: 'offer.created',
        version: 1,
        error: null,
        started_at: 'string',
        closed_at: 'string',
      },
    );
    const posted = receiver.on('/journey-hook');
    assert.equal(posted.length, 1);
    assert.equal(JSON.parse(posted[0]!.body).data.offer.id, dear.id, 'POST sends the triggering event by default');
    assert.equal(
      posted.some((r) => r.body.includes(cheap.id)),
      false,
    );

    // A redelivery: the same event dispatched again (as the outbox sweep would) finds the execution and starts no other run.
    const firstRun = (await handle.describe()).runId;
    await app.temporal.client.workflow.execute('dispatchEvent', { workflowId: `redeliver-${evt}`, taskQueue, args: [{ event_id: evt }] });
    assert.equal((await handle.describe()).runId, firstRun);
    assert.equal(receiver.on('/journey-hook').length, 1);

    const { journey, blocks } = await metricsOf(api, id);
    assert.equal(journey.executions, 1);
    assert.deepEqual(journey.metrics, {
      running: 0,
      completed: 1,
      failed: 0,
      completion_rate: 1,
      last_execution_at: journey.metrics.last_execution_at,
    });
    assert.ok(journey.metrics.last_execution_at);
    assert.deepEqual(blocks, {
      start: { entered: 1, completed: 1, failed: 0 },
      call: { entered: 1, completed: 1, failed: 0 },
      check: { entered: 1, completed: 1, failed: 0 },
      good: { entered: 1, completed: 1, failed: 0 },
      bad: { entered: 0, completed: 0, failed: 0 },
    });
    const listed = (await api.get('/journeys')).body.data.find((j: { id: string }) => j.id === id);
    assert.equal(listed.metrics.completed, 1);

    const del = await api.delete(`/journeys/${id}`);
    assert.equal(del.status, 409, del.text);
    assert.equal(del.body.code, 'resource_in_use');
  });

  test('a paused journey starts nothing; a failing destination takes the false branch', async () => {
    const { api } = await tenant();
    receiver.scripts.set('/journey-down', [503]);
    const id = await activeJourney(api, {
      name: 'Queda',
      trigger: 'offer.created',
      blocks: [
        { id: 'start', type: 'trigger', config: {}, next: ['call'] },
        { id: 'call', type: 'http', config: { url: `${receiver.url}/journey-down`, method: 'GET' }, next: ['check'] },
        { id: 'check', type: 'condition', config: { field: 'http.call.status', operator: 'eq', value: 200 }, next: ['good', 'bad'] },
        { id: 'good', type: 'end', config: {} },
        { id: 'bad', type: 'end', config: {} },
      ],
    });
    const offer = (await api.post('/offers', { url: `https://shop.example/j/q${Date.now()}`, title: 'Qualquer' })).body.data;
    const evt = await eventId('offer.created', 'data.offer.id', offer.id);
    assert.deepEqual(await executionResult(id, evt), { state: 'completed', last_block: 'bad', error: null });

    assert.equal((await api.post(`/journeys/${id}/activate`, { active: false })).status, 200);
    const later = (await api.post('/offers', { url: `https://shop.example/j/r${Date.now()}`, title: 'Depois' })).body.data;
    const laterEvent = await app.db.collection('events').findOne({ kind: 'offer.created', 'data.offer.id': later.id });
    assert.ok(laterEvent?.dispatched_at, 'nothing awaited it: marked dispatched without a workflow');
  });
});

describe('a failing block', () => {
  test('fails the execution: status failed with the error naming the block, its failed counter, the status filter', async () => {
    const { api } = await tenant();
    const id = await activeJourney(api, {
      name: 'Sem conversa',
      trigger: 'offer.created',
      blocks: [
        { id: 'start', type: 'trigger', config: {}, next: ['hello'] },
        { id: 'hello', type: 'message', config: { text: 'Oi' }, next: [] },
      ],
    });
    const offer = (await api.post('/offers', { url: `https://shop.example/j/f${Date.now()}`, title: 'Sem conversa' })).body.data;
    const evt = await eventId('offer.created', 'data.offer.id', offer.id);
    const error = 'block hello (message) failed: the triggering event names no conversation';
    assert.deepEqual(await executionResult(id, evt), { state: 'failed', last_block: 'hello', error });
    const failed = await executionsWhen(api, id, '?status=failed', (items) => items.length === 1);
    assert.deepEqual([failed.data[0].status, failed.data[0].error, failed.data[0].current_step], ['failed', error, null]);
    assert.equal((await api.get(`/journeys/${id}/executions?status=completed`)).body.pagination.total, 0);
    const { journey, blocks } = await metricsOf(api, id);
    assert.deepEqual(blocks.hello, { entered: 1, completed: 0, failed: 1 });
    assert.deepEqual([journey.metrics.failed, journey.metrics.completion_rate], [1, 0]);
  });
});

describe('inbox blocks and replies', () => {
  test('message, tag, stage, assign with DU mode off, wait for a reply (signalled by the inbound path), close; an edit meanwhile changes nothing for it', async () => {
    const { t, api } = await tenant();
    const made = await connectChannel(
      app.db,
      { accountId: t.accountId, env: t.env },
      { type: 'http', url: gateway.url, token: 'gw-token', name: 'Gateway', minIntervalMs: 0 },
      secretKeyFromEnv,
    );
    const inbound = async (id: string, text: string) => {
      const res = await fetch(`${app.origin}/inbound/${made.channel._id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${made.inboundSecret}` },
        body: JSON.stringify({ id, from: '5511955554444@s.whatsapp.net', name: 'Bia', text }),
      });
      const answer = await res.text();
      assert.equal(res.status, 201, answer);
      return (JSON.parse(answer) as { data: { conversation_id: string } }).data;
    };
    const id = await activeJourney(api, {
      name: 'Atendimento',
      trigger: 'conversation.created',
      blocks: [
        { id: 'start', type: 'trigger', config: {}, next: ['hello'] },
        { id: 'hello', type: 'message', config: { text: 'Bem-vinda! Já te atendemos.' }, next: ['mark'] },
        { id: 'mark', type: 'tag', config: { add: ['novo'], stage: 'engaged' }, next: ['human'] },
        { id: 'human', type: 'assign', config: { assignee: 'Ana', du_mode: 'off', priority: 'high' }, next: ['answer'] },
        { id: 'answer', type: 'wait_reply', config: { timeout_minutes: 60 }, next: ['replied', 'silent'] },
        { id: 'replied', type: 'tag', config: { add: ['respondeu'], remove: ['novo'] }, next: ['done'] },
        { id: 'done', type: 'end', config: { close_conversation: true } },
        { id: 'silent', type: 'end', config: {} },
      ],
    });
    const telegramOnly = await activeJourney(api, {
      name: 'Só Telegram',
      trigger: 'conversation.created',
      channels: ['telegram'],
      blocks: [{ id: 'start', type: 'trigger', config: {} }],
    });
    const { conversation_id } = await inbound(`wamid.j.${Date.now()}.1`, 'Oi');
    const waiting = await executionsWhen(api, id, '?status=running', (items) => items[0]?.current_step === 'answer');
    assert.equal(waiting.data[0].conversation_id, conversation_id);
    assert.equal(waiting.data[0].closed_at, null);
    const sent = await waitFor(
      'the welcome at the gateway',
      async () => gateway.messages()[0],
      30_000,
      async () => `${receivedState('the gateway', gateway.requests)}\n${await messagesState(api, conversation_id)}`,
    );
    assert.deepEqual({ to: sent.to, text: sent.text }, { to: '5511955554444@s.whatsapp.net', text: 'Bem-vinda! Já te atendemos.' });
    const outbound = (await api.get(`/inbox/conversations/${conversation_id}/messages`)).body.data.filter(
      (m: { direction: string }) => m.direction === 'outbound',
    );
    assert.deepEqual(
      outbound.map((m: { author: string; text: string }) => [m.author, m.text]),
      [['automation', 'Bem-vinda! Já te atendemos.']],
    );

    const edited = await api.patch(`/journeys/${id}`, {
      blocks: [
        { id: 'start', type: 'trigger', config: {}, next: ['stop'] },
        { id: 'stop', type: 'end', config: {} },
      ],
    });
    assert.equal(edited.body.data.version, 2);

    const conv = (await api.get(`/inbox/conversations/${conversation_id}`)).body.data;
    assert.equal(conv.assignee, 'Ana');
    assert.equal(conv.du_mode, 'off');
    assert.equal(conv.priority, 'high');
    assert.deepEqual(conv.tags, ['novo']);
    assert.equal(conv.contact.stage, 'engaged');

    await inbound(`wamid.j.${Date.now()}.2`, 'Quero falar com alguém');
    const executionId = waiting.data[0].id;
    const result = await closedResult(executionId);
    assert.deepEqual(result, { state: 'completed', last_block: 'done', error: null }, 'the version-1 graph, not the edit');
    const after = (await api.get(`/inbox/conversations/${conversation_id}`)).body.data;
    assert.deepEqual(after.tags, ['respondeu']);
    assert.equal(after.status, 'closed');

    const done = await executionsWhen(api, id, '?status=completed', (items) => items.length === 1);
    // The dispatch that started the first journey's execution passed over this one: a whatsapp conversation.
    const created = await eventId('conversation.created', 'data.conversation.id', conversation_id);
    await closedResult(dispatchWorkflowId(created));
    await assert.rejects(
      app.temporal.client.workflow.getHandle(journeyExecutionWorkflowId(telegramOnly, created)).describe(),
      WorkflowNotFoundError,
    );
    assert.equal(done.data[0].version, 1);
    assert.equal((await api.get(`/journeys/${id}/executions?status=running`)).body.pagination.total, 0);
    const { blocks } = await metricsOf(api, id);
    assert.deepEqual(blocks, { start: { entered: 1, completed: 1, failed: 0 }, stop: { entered: 0, completed: 0, failed: 0 } });
  });

  test('the executions of another account’s journey are a 404; a bad status filter is a 400', async () => {
    const { api } = await tenant();
    const other = await tenant();
    const id = (await api.post('/journeys', { name: 'X', trigger: 'offer.created', blocks: [{ id: 's', type: 'trigger', config: {} }] })).body
      .data.id;
    assert.equal((await other.api.get(`/journeys/${id}/executions`)).status, 404);
    assert.equal((await api.get(`/journeys/${id}/executions?status=sleeping`)).status, 400);
    const empty = await api.get(`/journeys/${id}/executions`);
    assert.equal(empty.status, 200, empty.text);
    assert.deepEqual(empty.body.data, []);
  });
});
