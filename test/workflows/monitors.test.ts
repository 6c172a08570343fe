/**
 * Monitor runs end to end: the API, the monitor's Temporal Schedule
 * (triggered), a worker in this process (its own task queue, the real
 * activities) running `monitorRun`, feeds served by a local HTTP server, the
 * catalogue, and publications through the normal path (sandbox tenants, so
 * the sandbox connector records the sends).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createGroup } from '../../domain/groups/store';
import { putIntegration } from '../../domain/integrations/store';
import { clickById } from '../../domain/links/clicks';
import { secretKeyFromEnv } from '../../domain/sealing';
import { SourceError } from '../../domain/webhooks/sources';
import { runSource, SourceRun } from '../../domain/monitors/run';
import { OfferopsKind, OfferopsResourceId } from '../../temporal/names';
import { ApiClient } from '../helpers/client';
import {
  csvFeed,
  FeedItem,
  FeedServer,
  jsonArray,
  jsonLines,
  merchantAtom,
  merchantRss,
  SEARCH_MAPPING,
  searchAnswer,
  startFeedServer,
} from '../helpers/feed-server';
import { seedTenant, stackEnv, startTestApp, TestApp } from '../helpers/stack';
import { cliEnv, ok, runCli, usage } from '../helpers/cli';
import { startTestWorker } from '../helpers/worker';
import { waitFor } from '../helpers/wait';
import { clicksState, monitorState, publicationState } from '../helpers/states';

const taskQueue = `test-monitors-wf-${randomBytes(4).toString('hex')}`;
let app: TestApp;
let worker: { stop(): Promise<void> };
let feeds: FeedServer;

before(async () => {
  app = await startTestApp({ taskQueue, webhookAllow: ['127.0.0.1'], rateLimit: { limit: 100_000, windowMs: 60_000 } });
  worker = await startTestWorker(app, taskQueue, { webhookAllow: ['127.0.0.1'] });
  feeds = await startFeedServer();
});
after(async () => {
  await worker.stop();
  await feeds.close();
  await app.close();
});

/** What the worker's activities hand runSource (activities/deps.ts), for the tests that call it directly. */
const runDeps = () => ({ db: app.db, temporal: { client: app.temporal.client, taskQueue }, secretKey: secretKeyFromEnv() });

let n = 0;
/** `count` items with URLs of their own (`tag` keeps feeds apart). */
const items = (tag: string, count: number, extra: (i: number) => Partial<FeedItem> = () => ({})): FeedItem[] =>
  Array.from({ length: count }, (_, i) => ({
    title: `Air Fryer ${tag} ${i}`,
    url: `https://shop.example/${tag}/${i}`,
    price: 100 + i,
    original_price: 200,
    brand: 'Loja A',
    category: 'Casa > Cozinha',
    ...extra(i),
  }));

async function tenant(env: 'live' | 'test' = 'live') {
  const t = await seedTenant(app.db, { env });
  return { tenant: t, api: new ApiClient(app.baseUrl, t.apiKey) };
}

/** An active monitor that runs only when triggered here: its schedule's time is 29 February, midnight. */
async function monitor(api: ApiClient, body: Record<string, unknown>) {
  const res = await api.post('/monitors', { name: `Monitor ${++n}`, frequency: { cron: '0 0 29 2 *' }, ...body });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

/** Triggers the monitor's Temporal Schedule and waits for the run's result; the monitor after it. */
async function runOnce(api: ApiClient, id: string) {
  const before = (await api.get(`/monitors/${id}`)).body.data.last_result?.run_id ?? null;
  await app.temporal.client.schedule.getHandle(`monitor-${id}`).trigger();
  try {
    return await waitFor(
      `a run of ${id}`,
      async () => {
        const m = (await api.get(`/monitors/${id}`)).body.data;
        return m.last_result && m.last_result.run_id !== before ? m : undefined;
      },
      90_000,
      async () => `${await monitorState(api, id, app.temporal.client)}\nits runs: ${await runsOf(id)}`,
    );
  } catch (err) {
    throw new Error((err as Error).message, { cause: err });
  }
}

/** What the runs of a monitor are doing (for a failure message): status and the last failure of each pending activity. */
async function runsOf(id: string): Promise<string> {
  const out: string[] = [];
  for await (const wf of app.temporal.client.workflow.list({ query: `${OfferopsResourceId.name} = '${id}'` })) {
    const desc = await app.temporal.client.workflow.getHandle(wf.workflowId, wf.runId).describe();
    const pending = (desc.raw.pendingActivities ?? []).map((a) => `${a.activityType?.name}: ${a.lastFailure?.message ?? 'no failure'}`);
    out.push(`${wf.workflowId} ${wf.status.name} [${pending.join('; ')}]`);
  }
  return out.join(' | ') || 'none';
}

const offersOf = async (api: ApiClient, prefix: string) =>
  ((await api.get('/offers?limit=100')).body.data as any[]).filter((o) => o.url.startsWith(`https://shop.example/${prefix}/`));

test('every format, a missing feed and a feed that is not what it claims, side by side', async () => {
  const { api } = await tenant();
  const sources = [
    { type: 'merchant_xml', name: 'rss', url: feeds.serve('/a/rss.xml', 'application/rss+xml', merchantRss(items('rss', 3))) },
    { type: 'merchant_xml', name: 'atom', url: feeds.serve('/a/atom.xml', 'application/atom+xml', merchantAtom(items('atom', 2))) },
    { type: 'csv', name: 'csv', url: feeds.serve('/a/feed.csv', 'text/csv', csvFeed(items('csv', 2))) },
    { type: 'json', name: 'lines', url: feeds.serve('/a/feed.jsonl', 'application/x-ndjson', jsonLines(items('lines', 2))) },
    { type: 'json', name: 'array', url: feeds.serve('/a/feed.json', 'application/json', jsonArray(items('array', 2))) },
    {
      type: 'search',
      name: 'search',
      url: feeds.serve('/a/search', 'application/json', searchAnswer(items('search', 2))),
      mapping: SEARCH_MAPPING,
      marketplace: 'mkt',
    },
    { type: 'csv', name: 'missing', url: `${feeds.origin}/a/missing.csv` },
    { type: 'merchant_xml', name: 'html', url: feeds.serve('/a/page.xml', 'text/html', '<!doctype html><html><body>hi</body></html>') },
  ];
  const m = await monitor(api, { sources, automation: { mode: 'create' } });
  const done = await runOnce(api, m.id);
  const r = done.last_result;
  const by = Object.fromEntries(r.sources.map((s: any) => [s.name, s]));
  for (const [name, count] of [
    ['rss', 3],
    ['atom', 2],
    ['csv', 2],
    ['lines', 2],
    ['array', 2],
    ['search', 2],
  ] as const) {
    assert.deepEqual([by[name].seen, by[name].matched, by[name].created, by[name].error], [count, count, count, null], name);
  }
  assert.deepEqual([by.missing.seen, by.missing.error], [0, 'the source answered 404']);
  assert.match(by.html.error, /^not (well-formed XML|an RSS or Atom feed)/);
  assert.deepEqual([r.seen, r.matched, r.created, r.published, r.errors], [13, 13, 13, 0, 2]);
  assert.match(r.workflow_id, new RegExp(`^monitor-run-${m.id}-`));

  const rssOffer = (await offersOf(api, 'rss')).find((o) => o.url === 'https://shop.example/rss/0');
  assert.equal(rssOffer.status, 'pending');
  assert.deepEqual([rssOffer.price, rssOffer.original_price, rssOffer.currency, rssOffer.store], [100, 200, 'BRL', 'Loja A']);
  assert.equal((await offersOf(api, 'search'))[0].marketplace, 'mkt');

  const ran = await app.db.collection('events').find({ kind: 'monitor.ran', 'data.monitor_id': m.id }).toArray();
  assert.equal(ran.length, 1);
  assert.equal(ran[0]!.data.result.run_id, r.run_id);
  // The run shows in Temporal UI by its search attributes.
  const listed = await waitFor(
    'the run in visibility',
    async () => {
      for await (const wf of app.temporal.client.workflow.list({
        query: `${OfferopsResourceId.name} = '${m.id}' AND ${OfferopsKind.name} = 'monitor_run'`,
      })) {
        return wf;
      }
      return undefined;
    },
    30_000,
    async () => `${await monitorState(api, m.id, app.temporal.client)}\nits runs: ${await runsOf(m.id)}`,
  );
  assert.deepEqual([listed.workflowId, listed.runId], [r.workflow_id, r.run_id]);
  assert.equal(listed.type, 'monitorRun');

  // DELETE removes the rule; the offers it created stay.
  assert.equal((await api.delete(`/monitors/${m.id}`)).status, 200);
  assert.equal((await offersOf(api, 'rss')).length, 3);
});

test('`admin monitor run` runs it now, as the schedule would; a paused one it refuses, saying why', async () => {
  const { tenant: t, api } = await tenant();
  const url = feeds.serve('/cli/rss.xml', 'application/rss+xml', merchantRss(items('cli', 2)));
  const m = await monitor(api, { sources: [{ type: 'merchant_xml', url }], automation: { mode: 'create' } });
  const env = cliEnv({ MONGODB_URI: stackEnv().mongodbUri, MONGODB_DB: app.dbName, OFFEROPS_TASK_QUEUE: taskQueue });
  const run = ok(await runCli(['admin', 'monitor', 'run', m.id, '--account', t.accountId], env, process.cwd()));
  assert.equal(run.monitor_id, m.id);
  assert.match(run.workflow_id, new RegExp(`^monitor-run-${m.id}-`));
  const done = await waitFor(
    'the run started from the CLI',
    async () => (await api.get(`/monitors/${m.id}`)).body.data.last_result ?? undefined,
    90_000,
    async () => `${await monitorState(api, m.id, app.temporal.client)}\nits runs: ${await runsOf(m.id)}`,
  );
  assert.equal(done.created, 2);
  assert.equal((await api.patch(`/monitors/${m.id}`, { state: 'paused' })).status, 200);
  const paused = await runCli(['admin', 'monitor', 'run', m.id, '--account', t.accountId], env, process.cwd());
  assert.match(usage(paused), new RegExp(`monitor ${m.id} is paused`));
  const other = await seedTenant(app.db);
  const elsewhere = await runCli(['admin', 'monitor', 'run', m.id, '--account', other.accountId], env, process.cwd());
  assert.match(usage(elsewhere), new RegExp(m.id), "another account's monitor is not found");
});

test('a paused monitor runs nothing when its Temporal Schedule is triggered anyway (e.g. from Temporal UI)', async () => {
  const { api } = await tenant();
  const url = feeds.serve('/p/feed.csv', 'text/csv', csvFeed(items('paused', 2)));
  const m = await monitor(api, { sources: [{ type: 'csv', url }], automation: { mode: 'create' }, state: 'paused' });
  await app.temporal.client.schedule.getHandle(`monitor-${m.id}`).trigger();
  const run = await waitFor(
    'the triggered run to close',
    async () => {
      for await (const wf of app.temporal.client.workflow.list({
        query: `${OfferopsResourceId.name} = '${m.id}' AND ExecutionStatus != 'Running'`,
      }))
        return wf;
      return undefined;
    },
    90_000,
    async () => `${await monitorState(api, m.id, app.temporal.client)}\nits runs: ${await runsOf(m.id)}`,
  );
  assert.equal(run.status.name, 'COMPLETED');
  const after = (await api.get(`/monitors/${m.id}`)).body.data;
  assert.deepEqual([after.state, after.last_result], ['paused', null]);
  assert.deepEqual(await offersOf(api, 'paused'), []);
  assert.equal(feeds.hits.get('/p/feed.csv') ?? 0, 0, 'the feed was not even read');
});

test('a merchant CSV whose sale_price cells are mostly empty: each row keeps its price, and price criteria see it', async () => {
  const { api } = await tenant();
  const csv =
    'id,title,link,price,sale_price,brand\r\n' +
    'a1,Air Fryer CSV 0,https://shop.example/msale/0,499.90 BRL,,Loja A\r\n' +
    'a2,Air Fryer CSV 1,https://shop.example/msale/1,399.90 BRL,299.90 BRL,Loja A\r\n' +
    'a3,Air Fryer CSV 2,https://shop.example/msale/2,199.90 BRL, ,Loja A\r\n';
  const url = feeds.serve('/m/merchant.csv', 'text/csv', csv);
  const m = await monitor(api, { sources: [{ type: 'csv', url }], criteria: { max_price: 1000 }, automation: { mode: 'create' } });
  const r = (await runOnce(api, m.id)).last_result;
  assert.deepEqual([r.seen, r.matched, r.created], [3, 3, 3]);
  const prices = Object.fromEntries((await offersOf(api, 'msale')).map((o) => [o.url.split('/').pop(), [o.price, o.original_price]]));
  assert.deepEqual(prices, { '0': [499.9, null], '1': [299.9, 399.9], '2': [199.9, null] });
});

test('criteria filter; dedupe by URL against the catalogue and across runs; none only counts', async () => {
  const { api } = await tenant();
  const feed = items('crit', 8, (i) => ({
    title: [
      'Air Fryer Mondial',
      'Air Fryer Usada',
      'Cafeteira',
      'Air Fryer Philips',
      'Air Fryer Arno',
      'Air Fryer Oster',
      'Air Fryer Britânia',
      'AIR FRYER ÉLITE',
    ][i]!,
    brand: i === 3 ? 'Loja X' : 'Loja A',
    price: i === 4 ? 900 : 100,
    original_price: i === 5 ? 110 : 200,
    commission_pct: i === 6 ? 2 : 10,
  }));
  const url = feeds.serve('/b/feed.json', 'application/json', jsonArray(feed));
  const criteria = {
    keywords_include: ['air', 'fryer'],
    keywords_exclude: ['usada'],
    stores_deny: ['loja x'],
    max_price: 500,
    min_discount_pct: 20,
    min_commission_pct: 5,
    category: 'cozinha',
  };
  // Matches: 0 (Mondial) and 7 (ÉLITE); 1 excluded word, 2 no keyword, 3 denied store, 4 price, 5 discount, 6 commission.
  const counting = await monitor(api, { sources: [{ type: 'json', url }], criteria });
  const counted = (await runOnce(api, counting.id)).last_result;
  assert.deepEqual([counted.seen, counted.matched, counted.created], [8, 2, 0]);
  assert.equal((await offersOf(api, 'crit')).length, 0);

  const existing = (await api.post('/offers', { url: feed[0]!.url, title: 'Already here' })).body.data;
  const creating = await monitor(api, { sources: [{ type: 'json', url }], criteria, automation: { mode: 'create' } });
  const first = (await runOnce(api, creating.id)).last_result;
  assert.deepEqual([first.matched, first.created], [2, 1]);
  const offers = await offersOf(api, 'crit');
  assert.deepEqual(offers.map((o) => o.url).sort(), [feed[0]!.url, feed[7]!.url].sort());
  assert.equal(offers.find((o) => o.id === existing.id).title, 'Already here');
  // The offer the run created names its monitor (journeys filter on it); the one made through the API names none.
  assert.equal(offers.find((o) => o.url === feed[7]!.url).monitor_id, creating.id);
  assert.equal(offers.find((o) => o.id === existing.id).monitor_id, null);
  const second = (await runOnce(api, creating.id)).last_result;
  assert.deepEqual([second.matched, second.created], [2, 0]);
  assert.notEqual(second.run_id, first.run_id);
  assert.equal((await offersOf(api, 'crit')).length, 2);
  const created = await app.db.collection('events').countDocuments({ kind: 'offer.created', 'data.offer.url': feed[7]!.url });
  assert.equal(created, 1);
});

describe('automation publish', () => {
  async function sandbox() {
    const { tenant: t, api } = await tenant('test');
    const segment = (await api.post('/segments', { name: `Pub ${++n}` })).body.data;
    for (const name of ['A', 'B']) await createGroup(app.db, t, { name: `Group ${name}`, segment_id: segment.id });
    return { t, api, segment };
  }

  test('each created offer is published once to the segment through the normal path', async () => {
    const { api, segment } = await sandbox();
    const url = feeds.serve('/c/feed.csv', 'text/csv', csvFeed(items('pub', 3)));
    const m = await monitor(api, { sources: [{ type: 'csv', url }], automation: { mode: 'publish', segment_id: segment.id } });
    const r = (await runOnce(api, m.id)).last_result;
    assert.deepEqual([r.created, r.published, r.errors], [3, 3, 0]);
    for (const offer of await offersOf(api, 'pub')) {
      const pubs = (await api.get(`/publications?offer_id=${offer.id}`)).body.data;
      assert.equal(pubs.length, 1, offer.id);
      assert.equal(pubs[0].segment_id, segment.id);
      await waitFor(
        'the sends',
        async () => ((await api.get(`/publications/${pubs[0].id}`)).body.data.status === 'sent' ? true : undefined),
        30_000,
        () => publicationState(api, pubs[0].id, app.temporal.client),
      );
    }
    // A second run finds nothing new and publishes nothing.
    const again = (await runOnce(api, m.id)).last_result;
    assert.deepEqual([again.created, again.published], [0, 0]);
  });

  test('with an integration, each group is sent its own tracked link, as a publish through the API; a click names the group', async () => {
    const { t, api, segment } = await sandbox();
    await putIntegration(app.db, { accountId: t.accountId, env: t.env }, { marketplace: 'amazon', tag: 'monitor-20' }, secretKeyFromEnv());
    const feed = [{ ...items('tracked', 1)[0]!, url: 'https://www.amazon.com.br/dp/B0MONITOR1?tag=someone-20' }];
    const m = await monitor(api, {
      sources: [{ type: 'json', url: feeds.serve('/c/tracked.json', 'application/json', jsonArray(feed)) }],
      automation: { mode: 'publish', segment_id: segment.id },
    });
    const r = (await runOnce(api, m.id)).last_result;
    assert.deepEqual([r.created, r.published, r.errors], [1, 1, 0]);
    const offer = ((await api.get('/offers?limit=100')).body.data as any[]).find((o) => o.url.includes('B0MONITOR1'));
    const pub = (await api.get(`/publications?offer_id=${offer.id}`)).body.data[0];
    await waitFor(
      'the sends',
      async () => ((await api.get(`/publications/${pub.id}`)).body.data.status === 'sent' ? true : undefined),
      30_000,
      () => publicationState(api, pub.id, app.temporal.client),
    );
    const sent = await app.db
      .collection('sandbox_messages')
      .find({ _id: { $regex: `^${pub.id}:` } } as object)
      .toArray();
    assert.equal(sent.length, 2);
    const codes = sent.map((s) => /\/l\/([a-z2-9]{12})/.exec(String(s.text))?.[1]);
    assert.ok(codes[0] && codes[1] && codes[0] !== codes[1], JSON.stringify(sent.map((s) => s.text)));
    assert.ok(sent.every((s) => !String(s.text).includes('someone-20')));

    const reply = await fetch(`${app.origin}/l/${codes[0]}`, {
      redirect: 'manual',
      headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Mobile' },
    });
    assert.equal(reply.status, 302);
    assert.match(reply.headers.get('location')!, /^https:\/\/www\.amazon\.com\.br\/dp\/B0MONITOR1\?tag=monitor-20&ascsubtag=clk_/);
    const clickId = /ascsubtag=(clk_[0-9a-z]+)$/.exec(reply.headers.get('location')!)![1]!;
    const click = await waitFor(
      'the click',
      async () => (await clickById(app.db, t, clickId)) ?? undefined,
      30_000,
      () => clicksState(app.db, t, [clickId]),
    );
    const receiver = sent.find((s) => String(s.text).includes(`/l/${codes[0]}`))!;
    assert.equal(click.group_id, String(receiver._id).slice(pub.id.length + 1));
    assert.deepEqual([click.publication_id, click.offer_id, click.segment_id], [pub.id, offer.id, segment.id]);
  });

  test('a retried attempt of the same run counts its offers again but publishes each once', async () => {
    const { t, api, segment } = await sandbox();
    const url = feeds.serve('/d/feed.jsonl', 'application/x-ndjson', jsonLines(items('retry', 4)));
    const m = await monitor(api, { sources: [{ type: 'json', url }], automation: { mode: 'publish', segment_id: segment.id } });
    const run: SourceRun = {
      tenant: { accountId: t.accountId, env: t.env },
      monitor_id: m.id,
      run_id: `monitor-run-${m.id}-retried`,
      source: { type: 'json', url, name: 'lines' },
      criteria: {},
      automation: { mode: 'publish', segment_id: segment.id, group_id: null, with_image: true },
    };
    const deps = runDeps();
    const first = await runSource(deps, run, { allow: ['127.0.0.1'] }, () => undefined);
    const retried = await runSource(deps, run, { allow: ['127.0.0.1'] }, () => undefined);
    assert.deepEqual([first.created, first.published], [4, 4]);
    assert.deepEqual([retried.created, retried.published], [4, 4]);
    const offers = await offersOf(api, 'retry');
    assert.equal(offers.length, 4);
    for (const offer of offers) assert.equal((await api.get(`/publications?offer_id=${offer.id}`)).body.data.length, 1);
    // Another run is not this run: nothing of it is new.
    const other = await runSource(deps, { ...run, run_id: `${run.run_id}-2` }, { allow: ['127.0.0.1'] }, () => undefined);
    assert.deepEqual([other.created, other.published], [0, 0]);
  });

  test('a segment with no group to publish to: the offers are created, the source says why nothing was published', async () => {
    const { api } = await tenant('test');
    const empty = (await api.post('/segments', { name: `Empty ${++n}` })).body.data;
    const url = feeds.serve('/e/feed.json', 'application/json', jsonArray(items('nogroup', 2)));
    const m = await monitor(api, { sources: [{ type: 'json', url }], automation: { mode: 'publish', segment_id: empty.id } });
    const r = (await runOnce(api, m.id)).last_result;
    assert.deepEqual([r.created, r.published, r.errors], [2, 0, 1]);
    assert.match(r.sources[0].error, /^publishing stopped: 409 destination_unavailable/);
  });
});

test('a source that stalls is given up after the idle timeout (an error that may pass: the activity retries it)', async () => {
  const { tenant: t } = await tenant();
  const url = feeds.stall('/f/stall.jsonl');
  const run: SourceRun = {
    tenant: { accountId: t.accountId, env: t.env },
    monitor_id: 'mon_0123456789abcdefghij',
    run_id: 'monitor-run-stall',
    source: { type: 'json', url, name: 'stall' },
    criteria: {},
    automation: { mode: 'none', segment_id: null, group_id: null, with_image: true },
  };
  const seen: number[] = [];
  await assert.rejects(
    runSource(runDeps(), run, { allow: ['127.0.0.1'], idleTimeoutMs: 300 }, (r) => seen.push(r.seen)),
    (err: unknown) => err instanceof SourceError && !err.permanent && err.message === 'the source sent nothing for 0.3 s',
  );
  assert.deepEqual(seen, [1]);
});

test('a feed above the size limit ends its source with that error, with what was read before', async () => {
  const { tenant: t } = await tenant();
  const body = jsonLines(items('big', 50));
  const run: SourceRun = {
    tenant: { accountId: t.accountId, env: t.env },
    monitor_id: 'mon_0123456789abcdefghij',
    run_id: 'monitor-run-big',
    source: { type: 'json', url: feeds.serve('/h/big.jsonl', 'application/x-ndjson', body), name: 'big' },
    criteria: {},
    automation: { mode: 'none', segment_id: null, group_id: null, with_image: true },
  };
  const deps = runDeps();
  const limit = body.length - 10;
  const r = await runSource(deps, run, { allow: ['127.0.0.1'], maxBytes: limit }, () => undefined);
  assert.equal(r.error, `the feed is larger than the limit of ${limit} bytes`);
  const whole = await runSource(deps, run, { allow: ['127.0.0.1'], maxBytes: body.length }, () => undefined);
  assert.deepEqual([whole.seen, whole.error], [50, null]);
});

test('a feed broken half-way: the items before the break are kept, the first XML error is the one reported', async () => {
  const { tenant: t } = await tenant();
  // One item a line (the third line holds item 1): item 3 is not well-formed (line 5), item 4 worse still.
  const lines = merchantRss(items('broken', 5)).split('\n');
  lines[4] = '<item><title>Broken</titl></item>';
  lines[5] = '<item><title>Worse & worse</item></channel>';
  const run: SourceRun = {
    tenant: { accountId: t.accountId, env: t.env },
    monitor_id: 'mon_0123456789abcdefghij',
    run_id: 'monitor-run-broken',
    source: { type: 'merchant_xml', url: feeds.serve('/h/broken.xml', 'application/rss+xml', lines.join('\n')), name: 'broken' },
    criteria: {},
    automation: { mode: 'none', segment_id: null, group_id: null, with_image: true },
  };
  const r = await runSource(runDeps(), run, { allow: ['127.0.0.1'] }, () => undefined);
  assert.equal(r.seen, 3, 'the three items before the break');
  assert.match(r.error ?? '', /^not well-formed XML \(line 5: Unexpected close tag\)$/);
});

test('a source on a host outside the allow-list is refused at run time too', async () => {
  const { tenant: t } = await tenant();
  const run: SourceRun = {
    tenant: { accountId: t.accountId, env: t.env },
    monitor_id: 'mon_0123456789abcdefghij',
    run_id: 'monitor-run-ssrf',
    source: { type: 'json', url: feeds.serve('/g/f.json', 'application/json', '[]'), name: 'ssrf' },
    criteria: {},
    automation: { mode: 'none', segment_id: null, group_id: null, with_image: true },
  };
  const r = await runSource(runDeps(), run, { allow: [] }, () => undefined);
  assert.match(r.error ?? '', /^plain http is accepted only for hosts on the allow-list/);
  assert.equal(feeds.hits.get('/g/f.json'), undefined);
});
