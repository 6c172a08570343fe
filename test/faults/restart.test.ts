/**
 * A whole stack stopped and started again on its data, as `npm start` twice
 * does: once the launcher says it is up (/readyz says ready), every
 * acknowledged write reads back at the first try — none answers 503 — those
 * Temporal serves (schedules) included.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { MongoClient } from 'mongodb';
import { setAccountRateLimit } from '../../domain/accounts/store';
import { ApiClient, Reply } from '../helpers/client';
import { launchStack, LaunchedStack } from '../helpers/launched-stack';

const dataDir = mkdtempSync(join(tmpdir(), 'offerops-restart-'));
let stack: LaunchedStack | undefined;
after(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Acknowledged writes of several kinds: the paths that read each back. */
async function write(live: ApiClient, sandbox: ApiClient): Promise<string[]> {
  const created = (reply: Reply, what: string): string => {
    assert.equal(reply.status, 201, `${what}: ${reply.text}`);
    return reply.body.data.id as string;
  };
  const paths: string[] = [];
  for (let i = 0; i < 40; i++) {
    const offer = await live.post('/offers', { url: `https://shop.example/restart/${i}`, title: `Kept across a restart ${i}` });
    paths.push(`/offers/${created(offer, 'POST /offers')}`);
  }
  for (let i = 0; i < 10; i++) paths.push(`/segments/${created(await live.post('/segments', { name: `Restart ${i}` }), 'POST /segments')}`);
  const [group] = (await sandbox.get('/groups')).body.data;
  for (let i = 0; i < 10; i++) {
    const recurring = i % 2 ? { recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=MO', timezone: 'America/Sao_Paulo' } } : {};
    const schedule = await sandbox.post('/schedules', {
      text: `Bom dia ${i}`,
      group_id: group.id,
      run_at: `2031-01-0${(i % 5) + 1}T09:00:00-03:00`,
      ...recurring,
    });
    paths.push(`/schedules/${created(schedule, 'POST /schedules')}`);
  }
  return paths;
}

test(
  'restarted on its data: once the launcher says it is up, every acknowledged write reads back at the first try',
  { timeout: 5 * 60_000 },
  async () => {
    stack = await launchStack({ dataDir });
    const keys = stack.keys!;
    // Every request here is the test's own: the key's rate limit (120 a minute) is not what it measures.
    const mongo = await MongoClient.connect(stack.info.mongodb_uri);
    await setAccountRateLimit(mongo.db(stack.info.mongodb_db), stack.accountId, 100_000).finally(() => mongo.close());
    const paths = await write(new ApiClient(stack.baseUrl, keys.live), new ApiClient(stack.baseUrl, keys.test));
    const listed = ['/offers?limit=20', '/segments', '/schedules'];
    await stack.stop();

    // The launcher says the stack is up once /readyz does: what it acknowledged reads back at once.
    stack = await launchStack({ dataDir });
    const live = new ApiClient(stack.baseUrl, keys.live);
    const sandbox = new ApiClient(stack.baseUrl, keys.test);
    const reads = await Promise.all(
      [...paths, ...listed, ...listed].map(async (path, i) => {
        const client = path.startsWith('/schedules') || i >= paths.length + listed.length ? sandbox : live;
        const reply = await client.get(path);
        return `${reply.status} GET ${path}${reply.status === 200 ? '' : `: ${reply.text}`}`;
      }),
    );
    assert.deepEqual(
      reads.filter((read) => !read.startsWith('200 ')),
      [],
      `right after the launcher said the stack was up (the API's log:\n${stack.logTail('api')})`,
    );
  },
);
