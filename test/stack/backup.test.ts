/**
 * `admin backup` while a stack runs, `admin restore` into an empty data
 * directory, and `npm start`'s launcher on it: offers, publications,
 * schedules and workflow histories are back as they were at the backup.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection, Client } from '@temporalio/client';
import { ApiClient } from '../helpers/client';
import { launchStack, LaunchedStack } from '../helpers/launched-stack';
import { publicationState } from '../helpers/states';

const CLI = resolve(__dirname, '../../tools/cli/offerops.js');
const work = mkdtempSync(join(tmpdir(), 'offerops-backup-'));
const stacks: LaunchedStack[] = [];
after(async () => {
  await Promise.all(stacks.map((s) => s.stop()));
  rmSync(work, { recursive: true, force: true });
});

/** An admin command on data directory `dataDir`; its printed JSON. */
async function admin(dataDir: string, ...args: string[]): Promise<any> {
  const env: NodeJS.ProcessEnv = { ...process.env, OFFEROPS_DATA_DIR: dataDir };
  for (const name of ['MONGODB_URI', 'MONGODB_DB', 'TEMPORAL_ADDRESS', 'OFFEROPS_SECRET_KEY']) delete env[name];
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'admin', ...args, '--json'], { env });
  return JSON.parse(stdout);
}

/**
 * Polls `probe` twice a second (the key's rate limit is 120 a minute: waitFor's pace would exceed it) for up to
 * 120 s; then fails saying what `explain` reads of the state.
 */
async function until<T>(what: string, probe: () => Promise<T | undefined>, explain: () => Promise<string>): Promise<T> {
  for (let i = 0; i < 240; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(500);
  }
  const state = await explain().catch((err: Error) => `could not read the state: ${err.message}`);
  throw new Error(`timed out after 120 s waiting for ${what}; ${state}`);
}

test(
  'a backup taken while the stack runs, restored into an empty data directory: everything of that moment is back',
  { timeout: 10 * 60_000 },
  async () => {
    const first = await launchStack();
    stacks.push(first);
    const keys = first.keys!;
    const live = new ApiClient(first.baseUrl, keys.live);
    const sandbox = new ApiClient(first.baseUrl, keys.test);

    const offer = (await live.post('/offers', { url: 'https://shop.example/backup/1', title: 'Kept by the backup' })).body.data;
    const [seeded] = (await sandbox.get('/offers')).body.data;
    const [group] = (await sandbox.get('/groups')).body.data;
    const queued = (await sandbox.post(`/offers/${seeded.id}/publish`, { group_id: group.id })).body.data.publications[0];
    // Read at most twice a second (the key's rate limit is 120 a minute); an answer that is not a 200 is read again.
    await until(
      'the publication to be sent',
      async () => {
        const read = await sandbox.get(`/publications/${queued.id}`);
        return read.status === 200 && read.body.data.status === 'sent' ? true : undefined;
      },
      () => publicationState(sandbox, queued.id),
    );
    const schedule = await sandbox.post('/schedules', {
      offer_id: seeded.id,
      group_id: group.id,
      run_at: '2031-01-06T09:00:00-03:00',
      recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=MO', timezone: 'America/Sao_Paulo' },
    });
    assert.equal(schedule.status, 201, schedule.text);

    const backupDir = join(work, 'backup');
    const taken = await admin(first.dataDir, 'backup', '--to', backupDir);
    assert.ok(taken.files.some((f: { path: string }) => f.path === 'temporal/temporal.db'));
    assert.ok(taken.files.some((f: { path: string }) => f.path.startsWith('ferretdb/')));
    assert.ok(taken.files.some((f: { path: string }) => f.path === 'secret.key'));
    const later = (await live.post('/offers', { url: 'https://shop.example/backup/2', title: 'Made after the backup' })).body.data;
    await first.stop();

    const restoredDir = join(work, 'restored');
    const restored = await admin(restoredDir, 'restore', '--from', backupDir);
    assert.equal(restored.files, taken.files.length);
    const second = await launchStack({ dataDir: restoredDir });
    stacks.push(second);
    assert.equal(second.accountId, first.accountId, 'the demo account is the one backed up');
    const live2 = new ApiClient(second.baseUrl, keys.live);
    const sandbox2 = new ApiClient(second.baseUrl, keys.test);

    // Up means ready (/readyz): it answers at the first try (test/faults/restart.test.ts).
    const keptOffer = await live2.get(`/offers/${offer.id}`);
    assert.equal(keptOffer.status, 200, keptOffer.text);
    assert.equal(keptOffer.body.data.title, 'Kept by the backup');
    assert.equal((await live2.get(`/offers/${later.id}`)).status, 404, 'what came after the backup is not in it');
    assert.equal((await sandbox2.get(`/publications/${queued.id}`)).body.data.status, 'sent');
    const kept = await sandbox2.get(`/schedules/${schedule.body.data.id}`);
    assert.equal(kept.status, 200, kept.text);
    assert.equal(kept.body.data.next_run_at, schedule.body.data.next_run_at, "the Temporal Schedule's next run is back");

    const connection = await Connection.connect({ address: second.info.temporal_address });
    try {
      const client = new Client({ connection, namespace: second.info.temporal_namespace });
      const history = await client.workflow.getHandle(`publication-${queued.id}`).fetchHistory();
      assert.ok((history.events ?? []).length > 0, "the publication's workflow history is back");
    } finally {
      await connection.close();
    }

    // A backup is restored only into an empty data directory.
    await assert.rejects(admin(restoredDir, 'restore', '--from', backupDir), /is not empty/);
  },
);
