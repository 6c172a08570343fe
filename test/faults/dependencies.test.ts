/**
 * Faults of the dependencies, on a stack of its own started as `npm start`
 * starts it (test/helpers/launched-stack.ts): the database or Temporal
 * stalled (SIGSTOP), the database killed mid-burst (SIGKILL), the API killed
 * between its write and the workflow start. Every request gets an answer —
 * a 503 in the contract's envelope while a dependency is away — nothing
 * acknowledged is lost, nothing is done twice, and everything recovers on its own.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient } from 'mongodb';
import { secretKeyFor } from '../../tools/cli/stack-config';
import { setAccountRateLimit } from '../../domain/accounts/store';
import { createChannel } from '../../domain/channels/store';
import { createGroup } from '../../domain/groups/store';
import { secretKeyFromEnv } from '../../domain/sealing';
import { ApiClient, Reply } from '../helpers/client';
import { FakeGateway, startFakeGateway } from '../helpers/fake-gateway';
import { launchStack, LaunchedStack } from '../helpers/launched-stack';
import { publicationState, publicationsState } from '../helpers/states';

/** The API's request deadline is 10 s: an answer must come well before a client would give up. */
const ANSWER_WITHIN_MS = 15_000;
/** /healthz answers within 2 s whatever happens. */
const HEALTH_WITHIN_MS = 3_000;

let stack: LaunchedStack;
let mongo: MongoClient;
let api: ApiClient;
let gateway: FakeGateway;
let groupId: string;

before(async () => {
  stack = await launchStack();
  mongo = await MongoClient.connect(stack.info.mongodb_uri);
  // The tests poll the API while it recovers: the rate limit should not be what they meet.
  await setAccountRateLimit(mongo.db(stack.info.mongodb_db), stack.accountId, 100_000);
  api = new ApiClient(stack.baseUrl, stack.keys!.live);
  gateway = await startFakeGateway({ token: 'faults-token' });
  const tenant = { accountId: stack.accountId, env: 'live' as const };
  const db = mongo.db(stack.info.mongodb_db);
  const secretKey = secretKeyFromEnv({ OFFEROPS_SECRET_KEY: secretKeyFor(stack.dataDir, {}) });
  const channel = await createChannel(db, tenant, { type: 'http', url: gateway.url, token: 'faults-token', minIntervalMs: 0 }, secretKey);
  groupId = (
    await createGroup(db, tenant, {
      name: 'Fault group',
      channel: { id: channel._id, type: 'http', address: '5511900000001@g.us' },
      minIntervalMs: 0,
    })
  )._id;
});

after(async () => {
  await mongo?.close();
  await gateway?.close();
  await stack?.stop();
});

/** Polls `probe` until it returns something, up to `ms`; then fails with the probe's last answer and `explain`'s text. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, explain: () => Promise<string> | string, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: string;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
      last = 'no value';
    } catch (err) {
      last = `it threw: ${(err as Error).message}`; // not yet
    }
    if (Date.now() > deadline) {
      const state = await Promise.resolve(explain()).catch((err: Error) => `could not read the state: ${err.message}`);
      throw new Error(`timed out after ${ms / 1000} s waiting for ${what}; the probe's last answer: ${last}; ${state}\n${stack.stderr()}`);
    }
    await sleep(250);
  }
}

function assertUnavailable(reply: Reply, what: string): void {
  assert.equal(reply.status, 503, `${what}: ${reply.status} ${reply.text}`);
  assert.equal(reply.body.code, 'service_unavailable', what);
  assert.match(reply.headers.get('retry-after') ?? '', /^\d+$/, `${what}: Retry-After`);
}

async function health(path = '/healthz'): Promise<{ status: number; body: any }> {
  const res = await fetch(stack.origin + path, { signal: AbortSignal.timeout(HEALTH_WITHIN_MS) });
  return { status: res.status, body: await res.json() };
}

/** Whether the database answers this test's own client (not the API's): tells a stuck database from a stuck API. */
async function databaseAnswers(): Promise<string> {
  const ping = mongo
    .db(stack.info.mongodb_db)
    .command({ ping: 1 })
    .then(
      () => 'answers',
      (err: Error) => `refuses (${err.message})`,
    );
  return `the database ${await Promise.race([ping, sleep(1_500).then(() => 'gives no answer within 1.5 s')])} to the test's own client`;
}

let lastReady = '';
const healthy = () =>
  until(
    'the stack to be ready again',
    async () => {
      const ready = await health('/readyz');
      lastReady = JSON.stringify(ready.body);
      return ready.status === 200 ? true : undefined;
    },
    // What it may be waiting for, so that a stack that stays unready explains itself.
    async () =>
      `/readyz said ${lastReady}; ${await databaseAnswers()}; ${stack.processState('ferretdb')}; ` +
      `FerretDB's log:\n${stack.logTail('ferretdb')}\nthe API's log:\n${stack.logTail('api')}`,
    90_000,
  );

// Each test starts from a whole stack, whatever the one before left.
beforeEach(() => healthy());

describe('a stalled dependency answers 503 within the deadline, and recovery is automatic', () => {
  test('the database stopped (SIGSTOP): reads and writes answer 503, /healthz names it within 2 s; after SIGCONT all answers again', async () => {
    const offer = (await api.post('/offers', { url: 'https://shop.example/stall/1', title: 'Before the stall' })).body.data;
    const pid = await stack.stall('ferretdb');
    try {
      const timeout = { timeoutMs: ANSWER_WITHIN_MS };
      const [me, one, list, create, probe] = await Promise.all([
        api.get('/me', timeout),
        api.get(`/offers/${offer.id}`, timeout),
        api.get('/offers', timeout),
        api.post('/offers', { url: 'https://shop.example/stall/2', title: 'During the stall' }, timeout),
        health(),
      ]);
      // The key and its account were checked within the last seconds: /me may be answered from that.
      if (me.status !== 200) assertUnavailable(me, 'GET /me');
      assertUnavailable(one, 'GET /offers/{id}');
      assertUnavailable(list, 'GET /offers');
      assertUnavailable(create, 'POST /offers');
      assert.equal(probe.status, 503);
      assert.equal(probe.body.mongodb, false);
      assert.equal(probe.body.temporal, true);
      assert.ok(probe.body.down.mongodb, 'the database is named as down');
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await healthy();
    assert.equal((await api.get(`/offers/${offer.id}`)).status, 200);
    // The write refused with 503 may or may not have been applied; repeating it leaves exactly one offer.
    const again = await api.post('/offers', { url: 'https://shop.example/stall/2', title: 'During the stall' });
    assert.ok([200, 201].includes(again.status), again.text);
    const found = (await api.get(`/offers?query=${encodeURIComponent('During the stall')}`)).body.data;
    assert.equal(found.length, 1);
  });

  test('Temporal stopped (SIGSTOP): publish answers 503 within the deadline, /healthz names it; after SIGCONT the same Idempotency-Key publishes once', async () => {
    const offer = (await api.post('/offers', { url: 'https://shop.example/stall/3', title: 'Published across a stall' })).body.data;
    const key = { headers: { 'Idempotency-Key': `stall-${Date.now()}` }, timeoutMs: ANSWER_WITHIN_MS };
    const pid = await stack.stall('temporal');
    try {
      const [published, probe] = await Promise.all([api.post(`/offers/${offer.id}/publish`, { group_id: groupId }, key), health()]);
      assertUnavailable(published, 'POST /offers/{id}/publish');
      assert.equal(probe.status, 503);
      assert.equal(probe.body.temporal, false);
      assert.equal(probe.body.mongodb, true);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await healthy();
    let lastReply = '';
    const again = await until(
      'the repeated publish to be answered',
      async () => {
        const reply = await api.post(`/offers/${offer.id}/publish`, { group_id: groupId }, key);
        lastReply = `${reply.status} ${reply.text}`;
        return reply.status === 200 ? reply : undefined;
      },
      () => `the last answer was ${lastReply}`,
    );
    const publication = again.body.data.publications[0];
    await until(
      'the publication to be sent',
      async () => {
        const p = (await api.get(`/publications/${publication.id}`)).body.data;
        return p.status === 'sent' ? p : undefined;
      },
      () => publicationState(api, publication.id),
    );
    const keys = gateway.requests.filter((r) => r.idempotency_key.startsWith(`${publication.id}:`));
    assert.equal(new Set(keys.map((r) => r.idempotency_key)).size, 1, 'one send to the group');
    const publications = (await api.get(`/publications?offer_id=${offer.id}`)).body.data;
    assert.equal(publications.length, 1, 'one publication for the two requests');
  });
});

describe('a crashed process loses nothing acknowledged', () => {
  test('the database killed (SIGKILL) mid-burst: the launcher restarts it, and every write answered 201 is there', async () => {
    const acknowledged: string[] = [];
    const answers: number[] = [];
    let killedPid = 0;
    const burst = Array.from({ length: 60 }, async (_, i) => {
      await sleep(i * 50); // spreads the burst's writes over 3 s so the kill lands mid-burst: not a wait for a state
      if (i === 20) killedPid = stack.signal('ferretdb', 'SIGKILL');
      try {
        const reply = await api.post(
          '/offers',
          { url: `https://shop.example/burst/${i}`, title: `Burst offer ${i}` },
          { timeoutMs: ANSWER_WITHIN_MS },
        );
        answers.push(reply.status);
        if (reply.status === 201) acknowledged.push(reply.body.data.id);
        else assertUnavailable(reply, `POST /offers #${i} (the API's log:\n${stack.logTail('api')})`);
      } catch (err) {
        assert.fail(`POST /offers #${i} got no answer: ${(err as Error).message}`);
      }
    });
    await Promise.all(burst);
    assert.equal(answers.length, 60, 'every write was answered');
    await stack.restarted('ferretdb', killedPid);
    assert.match(stack.stderr(), /ferretdb was killed by SIGKILL; restarting it in/);
    await healthy();
    for (const id of acknowledged) assert.equal((await api.get(`/offers/${id}`)).status, 200, `acknowledged offer ${id} is there`);
  });

  test('the API killed while the database is stalled: restarted, it answers 503 until the database is back, then serves', async () => {
    const db = await stack.stall('ferretdb');
    try {
      const old = stack.signal('api', 'SIGKILL');
      await stack.restarted('api', old);
      const reply = await until(
        'the restarted API to answer',
        () => api.get('/offers', { timeoutMs: ANSWER_WITHIN_MS }),
        () => `the API's log:\n${stack.logTail('api')}`,
      );
      assertUnavailable(reply, 'GET /offers while the database is away');
      const ready = await health('/readyz');
      assert.equal(ready.status, 503);
    } finally {
      process.kill(db, 'SIGCONT');
    }
    await healthy();
    assert.equal((await api.get('/offers')).status, 200);
    assert.doesNotMatch(stack.stderr(), /keeps crashing/);
  });

  test('the API killed between its write and the workflow start: restarted, and the publication is sent exactly once', async () => {
    const offer = (await api.post('/offers', { url: 'https://shop.example/api-kill/1', title: 'Published across an API crash' })).body.data;
    const temporal = await stack.stall('temporal');
    let apiPid: number;
    try {
      // The publication is written, then its workflow start waits for the stalled Temporal: the API dies there.
      const request = api.post(`/offers/${offer.id}/publish`, { group_id: groupId }).catch(() => undefined);
      await until(
        'the publication to be written',
        async () => {
          const found = await mongo.db(stack.info.mongodb_db).collection('publications').findOne({ offer_id: offer.id });
          return found ?? undefined;
        },
        () => `no publication of ${offer.id} stored; the API's log:\n${stack.logTail('api')}`,
      );
      apiPid = stack.signal('api', 'SIGKILL');
      await request;
    } finally {
      process.kill(temporal, 'SIGCONT');
    }
    await stack.restarted('api', apiPid);
    assert.match(stack.stderr(), /api was killed by SIGKILL; restarting it in/);
    await healthy();
    const publication = await until(
      'the publication to be sent',
      async () => {
        const [p] = (await api.get(`/publications?offer_id=${offer.id}`)).body.data;
        return p?.status === 'sent' ? p : undefined;
      },
      () => publicationsState(api, `?offer_id=${offer.id}`),
      150_000,
    );
    const sends = gateway.messages().filter((m) => m.idempotency_key.startsWith(`${publication.id}:`));
    assert.equal(sends.length, 1, 'the group got the publication once');
  });
});
