/**
 * Worker crashes while sending, on a stack of its own per test started as
 * `npm start` starts it (test/helpers/launched-stack.ts): the worker is
 * killed with SIGKILL (by the pid the launcher recorded, nothing else) in the
 * middle of a fan-out — twice in a row — or while a send waits for its pacing
 * slot, and the launcher starts it again; a 300-group fan-out three times, from
 * its start to its last sends; a paced 1,000-group publication, sent in child
 * batches of 250, twice. Every group ends with exactly one
 * message at the gateway, the publication ends `sent` with no delivery
 * `failed`, and a wait for a slot is never counted as an attempt. Replies
 * (and the journey messages that queue them) go the same way. Through the
 * WhatsApp gateways, which cannot deduplicate, only a send the kill cut short
 * (its answer lost) may reach its group a second time.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Db, MongoClient } from 'mongodb';
import { Client, Connection } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { secretKeyFor } from '../../tools/cli/stack-config';
import { setAccountRateLimit } from '../../domain/accounts/store';
import { accountTimeZone, localDayHour, readBuckets } from '../../domain/analytics/buckets';
import { connectChannel } from '../../domain/channels/service';
import { createChannel } from '../../domain/channels/store';
import { createGroup } from '../../domain/groups/store';
import { secretKeyFromEnv } from '../../domain/sealing';
import { publicationWorkflowId, replyWorkflowId } from '../../temporal/names';
import { ApiClient } from '../helpers/client';
import { FakeGateway, startFakeGateway } from '../helpers/fake-gateway';
import { startTestGateway, TestGateway } from '../helpers/gateways';
import { launchStack, LaunchedStack } from '../helpers/launched-stack';
import { waitFor } from '../helpers/wait';
import { messagesState, publicationState } from '../helpers/states';
import { groupsOverChannels } from '../helpers/publications';

const GROUPS = 30;
const TOKEN = 'faults-gateway-token';

interface Scene {
  stack: LaunchedStack;
  db: Db;
  api: ApiClient;
  tenant: { accountId: string; env: 'live' };
  secretKey: Buffer;
  gateway: FakeGateway;
  /** A client of the stack's Temporal. */
  temporal: Client;
  /** The workflow's history: the messages of the activities that failed in it (a worker lost is a timeout, not a failure). */
  failedActivities(workflowId: string): Promise<string[]>;
  /** The workflow's history: for each group, how many of its sends (deliverToGroup) timed out, cut short by a kill. */
  cutSends(workflowId: string): Promise<Map<string, number>>;
}

/** Runs `body` on a stack of its own (its worker's restarts counted for this test alone; `env` for its processes), and a fake gateway. */
async function onOwnStack(body: (scene: Scene) => Promise<void>, env?: Record<string, string>): Promise<void> {
  const stack = await launchStack(env ? { env } : {});
  const mongo = await MongoClient.connect(stack.info.mongodb_uri);
  const connection = await Connection.connect({ address: stack.info.temporal_address });
  const gateway = await startFakeGateway({ token: TOKEN });
  try {
    const db = mongo.db(stack.info.mongodb_db);
    // The test polls the API while the worker comes back: the rate limit should not be what it meets.
    await setAccountRateLimit(db, stack.accountId, 100_000);
    const temporal = new Client({ connection, namespace: stack.info.temporal_namespace });
    await body({
      stack,
      db,
      api: new ApiClient(stack.baseUrl, stack.keys!.live),
      tenant: { accountId: stack.accountId, env: 'live' },
      secretKey: secretKeyFromEnv({ OFFEROPS_SECRET_KEY: secretKeyFor(stack.dataDir, {}) }),
      gateway,
      temporal,
      async failedActivities(workflowId) {
        const events = (await temporal.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
        return events.flatMap((e) => (e.activityTaskFailedEventAttributes ? [e.activityTaskFailedEventAttributes.failure?.message ?? ''] : []));
      },
      async cutSends(workflowId) {
        const events = (await temporal.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
        const groupOf = new Map<string, string>();
        for (const e of events) {
          const scheduled = e.activityTaskScheduledEventAttributes;
          if (scheduled?.activityType?.name !== 'deliverToGroup') continue;
          // Its one argument: the send's reference, the group's id in it.
          const input = defaultPayloadConverter.fromPayload<{ group_id: string }>(scheduled.input!.payloads![0]!);
          groupOf.set(String(e.eventId), input.group_id);
        }
        const cut = new Map<string, number>();
        for (const e of events) {
          const group = groupOf.get(String(e.activityTaskTimedOutEventAttributes?.scheduledEventId));
          if (group) cut.set(group, (cut.get(group) ?? 0) + 1);
        }
        return cut;
      },
    });
  } finally {
    await Promise.allSettled([gateway.close(), mongo.close(), connection.close()]);
    await stack.stop();
  }
}

/** Kills the worker (SIGKILL) and waits until the launcher has started it again. */
async function killWorker(stack: LaunchedStack): Promise<void> {
  const pid = stack.signal('worker', 'SIGKILL');
  await stack.restarted('worker', pid);
}

/**
 * Waits until `probe` holds (a worker coming back and resuming takes a while on a busy machine); past the bound it says
 * what `explain` reads, else only what it waited for (a count of the gateway's requests, which the assertions then print).
 */
const until = (what: string, probe: () => Promise<boolean> | boolean, explain?: () => Promise<string>): Promise<true> =>
  waitFor(what, async () => ((await probe()) ? true : undefined), 120_000, explain);

/** An http channel to the gateway (`channelIntervalMs` between its sends) with `count` groups in a segment, and an offer. */
async function fanOut({ db, api, tenant, secretKey, gateway }: Scene, prefix: string, count: number, channelIntervalMs: number) {
  const channel = await createChannel(db, tenant, { type: 'http', url: gateway.url, token: TOKEN, minIntervalMs: channelIntervalMs }, secretKey);
  const segment = (await api.post('/segments', { name: `Faults ${prefix}` })).body.data;
  const addresses: string[] = [];
  for (let i = 0; i < count; i++) {
    const address = `${prefix}${String(i).padStart(4, '0')}@g.us`;
    addresses.push(address);
    await createGroup(db, tenant, {
      name: `Faults ${prefix} ${i}`,
      segment_id: segment.id,
      channel: { id: channel._id, type: 'http', address },
      minIntervalMs: 0,
    });
  }
  const offer = (await api.post('/offers', { url: `https://shop.example/faults/${prefix}`, title: `Faults ${prefix} offer` })).body.data;
  const publish = async (): Promise<{ id: string; queued_at: string }> =>
    (await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id })).body.data.publications[0];
  return { addresses, publish, channelId: channel._id };
}

/**
 * Pacing held on a channel: the cells its sends reserved (domain/channels/pacing.ts) lie an interval apart, and
 * no send reached the gateway before its cell (the k-th arrival is not before the k-th cell). Arrival gaps alone
 * are not the promise: on a loaded machine the time from a send's start to its arrival varies by more than the
 * pacing margin, and two sends started 400 ms apart arrived 184 ms apart in CI at a load average of 16.
 */
async function assertPaced(db: Db, channelId: string, arrivals: number[], intervalMs: number): Promise<void> {
  const cells = (
    await db
      .collection<{ _id: string; at: Date }>('send_slots')
      .find({ _id: { $regex: `^channel:${channelId}/` } })
      .toArray()
  )
    .map((c) => c.at.getTime())
    .sort((a, b) => a - b);
  const cellGaps = gapsOf(cells.map((at) => ({ at })));
  assert.ok(
    cellGaps.every((gap) => gap >= intervalMs),
    `cells ${cellGaps.join(', ')} ms apart`,
  );
  const sorted = [...arrivals].sort((a, b) => a - b);
  assert.ok(cells.length >= sorted.length, `${sorted.length} sends, ${cells.length} cells`);
  sorted.forEach((at, k) => assert.ok(at >= cells[k]!, `arrival ${k + 1} ${cells[k]! - at} ms before the ${k + 1}th cell`));
}

/** Waits for the publication to finish; its final record. */
async function finished(api: ApiClient, publicationId: string) {
  let done: { status: string; completed_at: string | null; deliveries: { group_id: string; status: string; attempts: number }[] } | undefined;
  await until(
    'the publication to finish',
    async () => {
      done = (await api.get(`/publications/${publicationId}`)).body.data;
      return done !== undefined && done.completed_at !== null && done.status !== 'sending';
    },
    () => publicationState(api, publicationId),
  );
  return done!;
}

/** The requests the gateway received for `addresses` (duplicates and failures included), in arrival order. */
const requestsTo = (gateway: FakeGateway, addresses: string[]) => {
  const wanted = new Set(addresses);
  return gateway.requests.filter((r) => wanted.has(r.to)).sort((a, b) => a.at - b.at);
};

/** The gaps between the arrivals of those requests (ms). */
const gapsOf = (requests: { at: number }[]) => requests.slice(1).map((r, i) => r.at - requests[i]!.at);

/** Every delivery sent, none failed; each group exactly one message, every request under its group's one key. */
function assertExactlyOnce(gateway: FakeGateway, done: { status: string; deliveries: { status: string }[] }, addresses: string[]) {
  assert.equal(done.status, 'sent');
  assert.deepEqual(
    done.deliveries.map((d) => d.status),
    addresses.map(() => 'sent'),
  );
  for (const address of addresses) assert.equal(gateway.messages(address).length, 1, `${address} received exactly one message`);
  const requests = requestsTo(gateway, addresses);
  for (const address of addresses) {
    const keys = new Set(requests.filter((r) => r.to === address).map((r) => r.idempotency_key));
    assert.equal(keys.size, 1, `${address}: one idempotency key`);
  }
  assert.equal(new Set(requests.map((r) => r.idempotency_key)).size, addresses.length, 'one key per group');
}

test('a paced fan-out (30 groups, one channel at 300 ms), the worker SIGKILLed twice mid-fan-out: sent, one message each, pacing held', () =>
  onOwnStack(async (scene) => {
    const INTERVAL_MS = 300;
    const { stack, api, gateway } = scene;
    const { addresses, publish, channelId } = await fanOut(scene, '55110', GROUPS, INTERVAL_MS);
    gateway.delayMs = 150;
    const reached = () => new Set(requestsTo(gateway, addresses).map((r) => r.to)).size;

    const queued = await publish();
    const state = () => publicationState(api, queued.id);
    await until('6 groups to be reached', () => reached() >= 6, state);
    await killWorker(stack);
    const atFirstKill = reached();
    await until('6 more groups to be reached', () => reached() >= atFirstKill + 6, state);
    await killWorker(stack);
    const atSecondKill = reached();
    assert.ok(atSecondKill < GROUPS, `killed mid-fan-out (${atFirstKill}, then ${atSecondKill} of ${GROUPS} groups reached)`);

    const done = await finished(api, queued.id);
    assertExactlyOnce(gateway, done, addresses);
    // Pacing holds between the real sends, the ones cut short by a kill included.
    await assertPaced(
      scene.db,
      channelId,
      requestsTo(gateway, addresses).map((r) => r.at),
      INTERVAL_MS,
    );
    assert.deepEqual(await scene.failedActivities(publicationWorkflowId(queued.id)), [], 'waits and crashes are no failed activity');
  }));

/** The ids of the batches (child workflows) a publication's workflow started, from its history. */
async function batchesOf(temporal: Client, publicationId: string): Promise<string[]> {
  const events = (await temporal.workflow.getHandle(publicationWorkflowId(publicationId)).fetchHistory()).events ?? [];
  return events.flatMap((e) => e.childWorkflowExecutionStartedEventAttributes?.workflowExecution?.workflowId ?? []);
}

test('a paced 1,000-group publication in batches of 250 (25 channels at 100 ms), the worker SIGKILLed twice: one message each', () =>
  onOwnStack(
    async (scene) => {
      const CHANNELS = 25;
      const PER_CHANNEL = 40;
      const { stack, api, gateway, db, tenant, secretKey } = scene;
      const segment = (await api.post('/segments', { name: 'Faults batches' })).body.data;
      const addresses = await groupsOverChannels(db, tenant, {
        gateway: { url: gateway.url, token: TOKEN },
        secretKey,
        segmentId: segment.id,
        channels: CHANNELS,
        perChannel: PER_CHANNEL,
        intervalMs: 100,
        name: 'Faults batch',
        prefix: '5515',
      });
      const offer = (await api.post('/offers', { url: 'https://shop.example/faults/batches', title: 'Faults batches offer' })).body.data;
      const all = [...addresses.values()];
      const reached = () => new Set(requestsTo(gateway, all).map((r) => r.to)).size;

      const queued = (await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id })).body.data.publications[0];
      const state = () => publicationState(api, queued.id);
      await until('100 groups to be reached', () => reached() >= 100, state);
      await killWorker(stack);
      const atFirstKill = reached();
      await until('300 more groups to be reached', () => reached() >= atFirstKill + 300, state);
      await killWorker(stack);
      const atSecondKill = reached();
      assert.ok(atSecondKill < all.length, `killed mid-publication (${atFirstKill}, then ${atSecondKill} of ${all.length} groups reached)`);

      // Sends through a worker that comes back twice take a while on a busy 2-core machine: a longer bound, and the
      // state as counts (the deliveries' list would be too long to read). The wait reads the stored publication (by
      // _id): the API's answer carries every delivery, too much to ask five times a second while the sends go.
      type Done = Awaited<ReturnType<typeof finished>>;
      const stored = () => db.collection<{ _id: string; status: string; completed_at: Date | null }>('publications').findOne({ _id: queued.id });
      const counts = async () => {
        const by = new Map<string, number>();
        const deliveries = await db.collection<{ status: string; attempts: number }>('deliveries').find({ publication_id: queued.id }).toArray();
        for (const key of deliveries.map((d) => `${d.status}/${d.attempts}`)) by.set(key, (by.get(key) ?? 0) + 1);
        return `${(await stored())?.status}, ${reached()} groups reached, deliveries (status/attempts): ${JSON.stringify(Object.fromEntries(by))}`;
      };
      await waitFor(
        'the publication to finish',
        async () => {
          const p = await stored();
          return p?.completed_at && p.status !== 'sending' ? true : undefined;
        },
        420_000,
        counts,
      );
      let answer = '';
      const done = await waitFor(
        'the API to answer with the finished publication',
        async () => {
          const reply = await api.get(`/publications/${queued.id}`);
          answer = `${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`;
          return reply.status === 200 ? (reply.body.data as Done) : undefined;
        },
        60_000,
        () => `its last answer: ${answer}`,
      );
      assertExactlyOnce(
        gateway,
        done,
        done.deliveries.map((d) => addresses.get(d.group_id)!),
      );
      // A send cut short by a kill counts as an attempt and goes again under its key: at most one per kill.
      for (const d of done.deliveries) {
        const requests = requestsTo(gateway, [addresses.get(d.group_id)!]).length;
        assert.ok(d.attempts >= 1 && d.attempts <= 3 && requests <= d.attempts, `${d.group_id}: ${d.attempts} attempts, ${requests} requests`);
      }
      const { temporal } = scene;
      assert.equal((await batchesOf(temporal, queued.id)).length, 4);
    },
    { OFFEROPS_PUBLICATION_BATCH_GROUPS: '250' },
  ));

test('an unpaced fan-out in chunks (30 groups), the worker SIGKILLed twice while the sends are under way: sent, one message each, counted once', () =>
  onOwnStack(async (scene) => {
    const { stack, api, gateway, db, tenant } = scene;
    const { addresses, publish } = await fanOut(scene, '55120', GROUPS, 0);
    // A slow gateway: every send has reached it, unanswered, when the worker dies.
    gateway.delayMs = 1500;
    const requests = (address: string) => gateway.requests.filter((r) => r.to === address).length;
    const day = localDayHour(new Date(), await accountTimeZone(db, tenant.accountId)).day;
    const sentOn = async () => Number((await readBuckets(db, tenant, 'totals', [day]))[0]?.c.deliveries_sent ?? 0);
    const sentBefore = await sentOn();
    const counted = async () => `${(await sentOn()) - sentBefore} of ${GROUPS} sends counted`;

    const queued = await publish();
    const state = () => publicationState(api, queued.id);
    await until('every send to reach the gateway', () => addresses.every((a) => requests(a) >= 1), state);
    await killWorker(stack);
    await until('every send to reach the gateway again', () => addresses.every((a) => requests(a) >= 2), state);
    await killWorker(stack);

    const done = await finished(api, queued.id);
    assertExactlyOnce(gateway, done, addresses);
    // Each delivery counts the attempts that reached the gateway: every one was a real send.
    for (const d of done.deliveries) assert.equal(d.attempts, 3, `${d.group_id}: two attempts cut short by a kill, one answered`);
    assert.equal(
      done.deliveries.reduce((n, d) => n + d.attempts, 0),
      requestsTo(gateway, addresses).length,
      'the attempts recorded are the requests the gateway received',
    );
    // The sends recorded by the workflow are counted once each, whatever the kills repeated.
    // (Counted right after the completion's answer, within a quarter second.)
    await until('the sends to be counted', async () => (await sentOn()) - sentBefore >= GROUPS, counted);
    assert.equal((await sentOn()) - sentBefore, GROUPS);
    assert.deepEqual(await scene.failedActivities(publicationWorkflowId(queued.id)), []);
  }));

test('a 300-group unpaced fan-out, the worker SIGKILLed as it starts, halfway and once every group is reached: one message each', () =>
  onOwnStack(async (scene) => {
    const COUNT = 300;
    const { stack, api, gateway, db, tenant } = scene;
    const { addresses, publish } = await fanOut(scene, '55140', COUNT, 0);
    gateway.delayMs = 100;
    const reached = () => new Set(requestsTo(gateway, addresses).map((r) => r.to)).size;
    const day = localDayHour(new Date(), await accountTimeZone(db, tenant.accountId)).day;
    const sentOn = async () => Number((await readBuckets(db, tenant, 'totals', [day]))[0]?.c.deliveries_sent ?? 0);
    const sentBefore = await sentOn();
    const counted = async () => `${(await sentOn()) - sentBefore} of ${COUNT} sends counted`;

    const queued = await publish();
    const state = () => publicationState(api, queued.id);
    // Three points of the fan-out: its first chunks, its middle, and its end (the sends answered, being recorded).
    await killWorker(stack);
    await until('half the groups to be reached', () => reached() >= COUNT / 2, state);
    await killWorker(stack);
    await until('every group to be reached', () => reached() === COUNT, state);
    await killWorker(stack);

    const done = await finished(api, queued.id);
    assertExactlyOnce(gateway, done, addresses);
    await until('the sends to be counted', async () => (await sentOn()) - sentBefore >= COUNT, counted);
    assert.equal((await sentOn()) - sentBefore, COUNT, 'each send counted once');
  }));

test('the worker SIGKILLed while a send waits for its slot, back after the slot passed: the send takes the next slot, one attempt', () =>
  onOwnStack(async (scene) => {
    const INTERVAL_MS = 2000;
    const { stack, api, gateway } = scene;
    const { addresses, publish } = await fanOut(scene, '55130', 2, INTERVAL_MS);
    const queued = await publish();
    // One group is sent at once (and recorded: a kill before that would retry its send); the other waits on a
    // durable timer for its slot, an interval later.
    await until(
      'one group to be sent and the other to wait for its slot',
      async () => {
        const deliveries = (await api.get(`/publications/${queued.id}`)).body.data.deliveries as { status: string }[];
        return (
          requestsTo(gateway, addresses).length === 1 &&
          deliveries.some((d) => d.status === 'sent') &&
          deliveries.some((d) => d.status === 'waiting')
        );
      },
      () => publicationState(api, queued.id),
    );
    // Killed twice in a row (the launcher waits 1 s, then 2 s, before each restart): down past the waiting send's
    // slot, so its timer fires late, when a worker is back.
    await killWorker(stack);
    await killWorker(stack);

    const done = await finished(api, queued.id);
    assertExactlyOnce(gateway, done, addresses);
    assert.deepEqual(
      done.deliveries.map((d) => d.attempts),
      [1, 1],
      'the wait is no attempt',
    );
    const [gap] = gapsOf(requestsTo(gateway, addresses));
    assert.ok(gap! >= INTERVAL_MS, `${gap} ms apart`);
    assert.deepEqual(await scene.failedActivities(publicationWorkflowId(queued.id)), []);
  }));

test('a paced fan-out through Evolution API and WAHA (15 groups on each, 300 ms), the worker SIGKILLed twice: a second message only where a kill cut the send', () =>
  onOwnStack(async (scene) => {
    const INTERVAL_MS = 300;
    const PER_CHANNEL = 15;
    const { stack, api, db, tenant, secretKey } = scene;
    const gateways: TestGateway[] = [];
    try {
      for (const type of ['evolution', 'waha'] as const) gateways.push(await startTestGateway(type));
      const segment = (await api.post('/segments', { name: 'Faults WhatsApp' })).body.data;
      const addresses = new Map<string, { gateway: TestGateway; address: string }>();
      const channels = new Map<TestGateway, string>();
      for (const [g, gateway] of gateways.entries()) {
        const channel = await createChannel(db, tenant, { ...gateway.connection, minIntervalMs: INTERVAL_MS }, secretKey);
        channels.set(gateway, channel._id);
        for (let i = 0; i < PER_CHANNEL; i++) {
          const address = `5514${g}${String(i).padStart(4, '0')}@g.us`;
          const group = await createGroup(db, tenant, {
            name: `Faults ${gateway.type} ${i}`,
            segment_id: segment.id,
            channel: { id: channel._id, type: gateway.type, address },
            minIntervalMs: 0,
          });
          addresses.set(group._id, { gateway, address });
        }
      }
      const offer = (await api.post('/offers', { url: 'https://shop.example/faults/whatsapp', title: 'Faults WhatsApp offer' })).body.data;
      const reached = () => [...addresses.values()].filter(({ gateway, address }) => gateway.requestsTo(address).length > 0).length;

      const queued = (await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id })).body.data.publications[0];
      const state = () => publicationState(api, queued.id);
      await until('6 groups to be reached', () => reached() >= 6, state);
      await killWorker(stack);
      const atFirstKill = reached();
      await until('6 more groups to be reached', () => reached() >= atFirstKill + 6, state);
      await killWorker(stack);
      assert.ok(reached() < addresses.size, `killed mid-fan-out (${atFirstKill}, then ${reached()} of ${addresses.size} groups reached)`);

      const done = await finished(api, queued.id);
      assert.equal(done.status, 'sent');
      assert.ok(done.deliveries.every((d) => d.status === 'sent'));
      // These gateways cannot deduplicate: a send whose answer a kill cut off may have gone, and goes again.
      // Any other group receives the publication exactly once.
      const cut = await scene.cutSends(publicationWorkflowId(queued.id));
      for (const [groupId, { gateway, address }] of addresses) {
        const received = gateway.delivered(address).length;
        assert.ok(
          received >= 1 && received <= 1 + (cut.get(groupId) ?? 0),
          `${groupId}: ${received} messages, ${cut.get(groupId) ?? 0} sends cut`,
        );
      }
      // Each channel's pacing holds across the kills.
      for (const gateway of gateways) {
        const arrivals = [...addresses.values()]
          .filter((a) => a.gateway === gateway)
          .flatMap(({ address }) => gateway.requestsTo(address).map((r) => r.at));
        await assertPaced(db, channels.get(gateway)!, arrivals, INTERVAL_MS);
      }
      assert.deepEqual(await scene.failedActivities(publicationWorkflowId(queued.id)), []);
    } finally {
      await Promise.allSettled(gateways.map((g) => g.close()));
    }
  }));

test('replies on a paced channel (1 s), the worker SIGKILLed twice while they go: each sent once, the interval held', () =>
  onOwnStack(async (scene) => {
    const INTERVAL_MS = 1000;
    const phone = '5511977770001@s.whatsapp.net';
    const { stack, api, gateway, db, tenant, secretKey } = scene;
    const { channel, inboundSecret } = await connectChannel(
      db,
      tenant,
      { type: 'http', url: gateway.url, token: TOKEN, name: 'Faults replies', minIntervalMs: INTERVAL_MS },
      () => secretKey,
    );
    const inbound = await fetch(`${stack.origin}/inbound/${channel._id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${inboundSecret}` },
      body: JSON.stringify({ id: 'wamid.faults', from: phone, name: 'Ana', text: 'Oi!' }),
    });
    assert.equal(inbound.status, 201, await inbound.clone().text());
    const conversationId = ((await inbound.json()) as { data: { conversation_id: string } }).data.conversation_id;
    gateway.delayMs = 150;
    const reached = () => requestsTo(gateway, [phone]).length;

    const ids: string[] = [];
    for (let i = 0; i < 8; i++)
      ids.push((await api.post(`/inbox/conversations/${conversationId}/reply`, { text: `resposta ${i}` })).body.data.id);
    const state = () => messagesState(api, conversationId);
    await until('2 replies to reach the gateway', () => reached() >= 2, state);
    await killWorker(stack);
    const atFirstKill = reached();
    await until('2 more replies to reach the gateway', () => reached() >= atFirstKill + 2, state);
    await killWorker(stack);
    assert.ok(new Set(requestsTo(gateway, [phone]).map((r) => r.idempotency_key)).size < ids.length, 'killed while replies were still going');

    await until(
      'every reply to be sent',
      async () => {
        const messages: { id: string; status: string }[] = (await api.get(`/inbox/conversations/${conversationId}/messages`)).body.data;
        return ids.every((id) => messages.find((m) => m.id === id)?.status === 'sent');
      },
      state,
    );
    // One message per reply at the gateway, under its own key; every request an interval after the one before.
    assert.deepEqual(
      gateway
        .messages(phone)
        .map((m) => m.idempotency_key)
        .sort(),
      [...ids].sort(),
    );
    const gaps = gapsOf(requestsTo(gateway, [phone]));
    assert.ok(
      gaps.every((gap) => gap >= INTERVAL_MS),
      `gaps ${gaps.join(', ')} ms`,
    );
    for (const id of ids) assert.deepEqual(await scene.failedActivities(replyWorkflowId(id)), [], id);
  }));
