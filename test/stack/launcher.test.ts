/**
 * `npm start` as an operator runs it: a child `npm start` with its own data
 * directory and API port (a stack of its own beside the test stack), stopped
 * each of the ways a terminal, a process manager or a human stops it. After
 * each stop, no process it started may survive, and the next start on the same
 * data directory must work, keep the Temporal UI's port and say how to get a key.
 */
import assert from 'node:assert/strict';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { SANDBOX_SEED } from '../../domain/sandbox/seed';
import { freePorts } from '../../tools/stack/processes';
import { waitFor } from '../helpers/wait';

const REPO = resolve(__dirname, '../../..');
/** Per start-and-stop: a stop that never comes fails the test here. */
const TIMEOUT = 3 * 60_000;

const dataDir = mkdtempSync(join(tmpdir(), 'offerops-launcher-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

interface Started {
  npm: ChildProcess;
  stdout: string;
  stderr: () => string;
  /** Everything running that this start started, npm included: pid → what. */
  pids: Map<number, string>;
  /** Resolves once npm exited. */
  exited: Promise<void>;
  /** Resolves once npm and every process holding its output (the launcher) exited. */
  ended: Promise<void>;
}

/** Live (not zombie) processes: pid → process group. */
function liveProcesses(): Map<number, number> {
  const live = new Map<number, number>();
  for (const line of execFileSync('ps', ['-eo', 'pid=,pgid=,stat='], { encoding: 'utf8' }).split('\n')) {
    const [pid, pgid, stat] = line.trim().split(/\s+/);
    if (pid && pgid && stat && !stat.startsWith('Z')) live.set(Number(pid), Number(pgid));
  }
  return live;
}

const groupMembers = (pgid: number): number[] => [...liveProcesses()].filter(([, group]) => group === pgid).map(([pid]) => pid);

/** `npm start` in its own process group (as a terminal's foreground job), until it prints the banner. */
async function npmStart(port: number): Promise<Started> {
  const env: NodeJS.ProcessEnv = { ...process.env, OFFEROPS_DATA_DIR: dataDir, PORT: String(port) };
  for (const name of ['MONGODB_URI', 'MONGODB_DB', 'TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE', 'OFFEROPS_SECRET_KEY', 'OFFEROPS_TEST_DATA_DIR']) {
    delete env[name];
  }
  const npm = spawn('npm', ['start'], { cwd: REPO, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  npm.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  npm.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(npm, 'exit').then(() => undefined);
  // 'close': npm has exited and so has every process that shares its output (the launcher).
  const ended = once(npm, 'close').then(() => undefined);
  await new Promise<void>((done, fail) => {
    const check = () => {
      if (stdout.includes('Press Ctrl-C to stop.')) done();
    };
    npm.stdout.on('data', check);
    void ended.then(() => fail(new Error(`npm start ended before it was running:\n${stdout}\n${stderr}`)));
  });
  const pids = new Map<number, string>([[npm.pid!, 'npm']]);
  const run = join(dataDir, 'run');
  for (const file of readdirSync(run)) {
    pids.set((JSON.parse(readFileSync(join(run, file), 'utf8')) as { pid: number }).pid, file.replace(/\.json$/, ''));
  }
  const group = groupMembers(npm.pid!);
  for (const pid of group) if (!pids.has(pid)) pids.set(pid, 'in the process group');
  // The launcher (supervisor.json) and its four servers, all in npm's process group.
  assert.deepEqual([...pids.values()].filter((what) => what !== 'in the process group').sort(), [
    'api',
    'ferretdb',
    'npm',
    'supervisor',
    'temporal',
    'worker',
  ]);
  for (const [pid, what] of pids) assert.ok(group.includes(pid), `${what} (pid ${pid}) runs in npm's process group`);
  return { npm, stdout, stderr: () => stderr, pids, exited, ended };
}

/**
 * After the stop: every process the start started has ended, and the launcher
 * said it stopped. `when` npm exits: npm passed the signal on and waited, so a
 * script's `kill $PID; wait; npm start` finds nothing left; when npm itself was
 * killed, once the launcher (which shares its output) exited too.
 */
async function assertAllStopped(started: Started, when: 'npm exits' | 'the launcher exits'): Promise<void> {
  await (when === 'npm exits' ? started.exited : started.ended);
  const live = liveProcesses();
  const survivors = [...started.pids].filter(([pid]) => live.has(pid)).map(([pid, what]) => `${what} (pid ${pid})`);
  assert.deepEqual(survivors, [], 'every process npm start started has ended');
  assert.deepEqual(groupMembers(started.npm.pid!), []);
  await started.ended;
  assert.match(started.stderr(), /offerops: stopped\n/);
  assert.deepEqual(readdirSync(join(dataDir, 'run')), [], 'no pid file or lock left');
}

const uiUrl = (stdout: string): string => /Temporal UI: (http:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(stdout)![1]!;
const savedPorts = (): Record<string, number> => JSON.parse(readFileSync(join(dataDir, 'ports.json'), 'utf8')) as Record<string, number>;

describe('npm start, stopped every way', () => {
  let port: number;
  let accountId: string;
  let ui: string;
  const keyCommand = () => `a new key: OFFEROPS_DATA_DIR=${dataDir} npx offerops admin key create --account ${accountId} --scopes all`;

  test('first start: the demo keys and the key command; SIGTERM to the npm process stops everything', { timeout: TIMEOUT }, async () => {
    [port] = (await freePorts(1)) as [number];
    const started = await npmStart(port);
    accountId = /Demo account (acc_\w+) \(keys shown once, keep them\):/.exec(started.stdout)![1]!;
    assert.match(started.stdout, /live key: oo_live_\w+\n {2}test key: oo_test_\w+\n/);
    // The demo account is made like `admin account create`: its test key finds the seeded sandbox (docs/guides/sandbox.md).
    const testKey = /test key: (oo_test_\w+)/.exec(started.stdout)![1]!;
    const offers = (await (
      await fetch(`http://127.0.0.1:${port}/api/v1/offers`, { headers: { authorization: `Bearer ${testKey}` } })
    ).json()) as {
      data: { url: string }[];
    };
    assert.deepEqual(
      offers.data.map((o) => o.url),
      [SANDBOX_SEED.offer.url],
    );
    assert.ok(started.stdout.includes(keyCommand()), started.stdout);
    assert.ok(started.stdout.includes(`API:         http://127.0.0.1:${port}/api/v1`));
    ui = uiUrl(started.stdout);
    assert.equal(ui, `http://127.0.0.1:${savedPorts().temporal_ui}/namespaces/offerops/workflows`);

    process.kill(started.npm.pid!, 'SIGTERM');
    await assertAllStopped(started, 'npm exits');
  });

  test(
    'restart: same Temporal UI address, no build, the account and the key command again; SIGHUP to the terminal’s process group stops everything',
    { timeout: TIMEOUT },
    async () => {
      const started = await npmStart(port);
      assert.equal(uiUrl(started.stdout), ui);
      assert.doesNotMatch(started.stderr(), /building/, 'nothing changed since the last build');
      assert.ok(started.stdout.includes(`Demo account ${accountId} (its keys were shown at the first start)`), started.stdout);
      assert.doesNotMatch(started.stdout, /live key:/);
      assert.ok(started.stdout.includes(keyCommand()), started.stdout);

      process.kill(-started.npm.pid!, 'SIGHUP'); // npm itself dies of it at once
      await assertAllStopped(started, 'the launcher exits');
    },
  );

  test(
    'a saved port taken by another program: a new one, said and kept; Ctrl-C (SIGINT to the process group) stops everything',
    { timeout: TIMEOUT },
    async () => {
      const squatter = createServer().listen(savedPorts().temporal_ui, '127.0.0.1');
      await once(squatter, 'listening');
      try {
        const started = await npmStart(port);
        const taken = new URL(ui).port;
        assert.match(started.stderr(), new RegExp(`Temporal UI port ${taken} \\(used last time\\) is taken: picking a new one`));
        ui = uiUrl(started.stdout);
        assert.notEqual(new URL(ui).port, taken);
        assert.equal(String(savedPorts().temporal_ui), new URL(ui).port);

        process.kill(-started.npm.pid!, 'SIGINT');
        await assertAllStopped(started, 'npm exits');
      } finally {
        squatter.close();
      }
    },
  );

  test(
    'a client connecting to the port during start-up, never closing, does not hold it up; SIGTERM to the launcher stops everything',
    { timeout: TIMEOUT },
    async () => {
      // A health poller without a time-out: connects again and again, closes nothing, until the start is done.
      const strangers: Socket[] = [];
      let polling = true;
      const poller = (async () => {
        while (polling) {
          const socket = connect(port, '127.0.0.1');
          socket.on('error', () => undefined);
          strangers.push(socket);
          await sleep(5); // the pace of the strangers' connects while npm starts: not a wait for a state
        }
      })();
      let started: Started;
      try {
        started = await npmStart(port);
      } finally {
        polling = false;
        await poller;
        for (const socket of strangers) socket.destroy();
      }
      assert.equal(uiUrl(started.stdout), ui, 'the new port is kept');
      const launcher = [...started.pids].find(([, what]) => what === 'supervisor')![0];
      process.kill(launcher, 'SIGTERM');
      await assertAllStopped(started, 'npm exits');
    },
  );

  test(
    'a server that dies on its own (SIGHUP to FerretDB alone) is restarted and said so; one that keeps crashing stops everything',
    { timeout: TIMEOUT },
    async () => {
      const started = await npmStart(port);
      const current = () => (JSON.parse(readFileSync(join(dataDir, 'run', 'ferretdb.json'), 'utf8')) as { pid: number }).pid;
      const restarted = (old: number): Promise<number> =>
        waitFor(
          `ferretdb (pid ${old}) to be restarted`,
          async () => {
            try {
              const pid = current();
              return pid !== old ? pid : undefined;
            } catch {
              return undefined; // between the crash and the restart there is no pid file
            }
          },
          60_000,
          () => `the launcher wrote:\n${started.stderr()}`,
        );
      let pid = [...started.pids].find(([, what]) => what === 'ferretdb')![0];
      process.kill(pid, 'SIGHUP');
      pid = await restarted(pid);
      assert.match(started.stderr(), /offerops: ferretdb was killed by SIGHUP; restarting it in 1 s/);
      await waitFor(
        'the stack to be healthy again',
        () =>
          fetch(`http://127.0.0.1:${port}/healthz`).then(
            (res) => (res.status === 200 ? true : undefined),
            () => undefined,
          ),
        60_000,
        () => `the launcher wrote:\n${started.stderr()}`,
      );
      // Five more crashes within the window: it keeps crashing.
      for (let crash = 2; crash <= 6; crash++) {
        process.kill(pid, 'SIGKILL');
        if (crash < 6) pid = await restarted(pid);
      }
      await started.ended;
      assert.equal(started.npm.exitCode, 1);
      assert.match(started.stderr(), /ferretdb crashed 6 times within 5 min: it keeps crashing, so the stack stops/);
      assert.match(started.stderr(), /offerops: ferretdb was killed by SIGKILL; last lines of .*ferretdb\.log:\n/);
      const live = liveProcesses();
      assert.deepEqual(
        [...started.pids].filter(([pid]) => live.has(pid)),
        [],
        'every process npm start started has ended',
      );
      assert.deepEqual(readdirSync(join(dataDir, 'run')), [], 'no pid file or lock left');
    },
  );

  test('npm killed (SIGKILL, so it passes nothing on): the launcher notices and stops everything', { timeout: TIMEOUT }, async () => {
    const started = await npmStart(port);
    process.kill(started.npm.pid!, 'SIGKILL');
    await assertAllStopped(started, 'the launcher exits');
    assert.match(started.stderr(), new RegExp(`npm \\(pid ${started.npm.pid}\\) ended`));
  });
});
