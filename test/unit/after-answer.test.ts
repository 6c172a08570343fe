import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate, setTimeout as sleep } from 'node:timers/promises';
import { AfterAnswer } from '../../domain/after-answer';

test('tasks wait for the interval, then run together; one failing is reported and stops none of the others', async () => {
  const INTERVAL_MS = 50;
  const reported: unknown[] = [];
  const after = new AfterAnswer((err) => reported.push(err), INTERVAL_MS);
  const ran: { task: string; ms: number }[] = [];
  const added = performance.now();
  after.add(async () => void ran.push({ task: 'a', ms: performance.now() - added }));
  after.add(() => Promise.reject(new Error('count failed')));
  after.add(async () => void ran.push({ task: 'b', ms: performance.now() - added }));
  await setImmediate();
  assert.equal(ran.length, 0, 'nothing runs at once');
  for (const end = Date.now() + 10_000; ran.length < 2 && Date.now() < end;) await sleep(10);
  assert.deepEqual(
    ran.map((r) => r.task),
    ['a', 'b'],
  );
  // Not before the interval (a timer may fire up to a millisecond early); how much later depends on the machine.
  for (const r of ran) assert.ok(r.ms >= INTERVAL_MS - 1, `${r.task} ran ${r.ms} ms after it was added`);
  assert.deepEqual(
    reported.map((e) => (e as Error).message),
    ['count failed'],
  );
  // A task that throws before returning a promise is reported the same way.
  after.add(() => {
    throw new Error('sync');
  });
  await after.flush();
  assert.equal((reported.at(-1) as Error).message, 'sync');
});

test('flush runs what waits at once and resolves when every task started has ended', async () => {
  const after = new AfterAnswer(() => assert.fail('no task fails'), 60_000);
  let done = 0;
  for (let i = 0; i < 3; i++)
    after.add(async () => {
      await sleep(20);
      done++;
    });
  await after.flush();
  assert.equal(done, 3);
  // A flush with nothing waiting still waits for the tasks under way.
  after.add(async () => {
    await sleep(30);
    done++;
  });
  const under = after.flush();
  await after.flush();
  assert.equal(done, 4);
  await under;
});

test('close runs what waits; a task added after it runs at once, and the interval timer is gone', async () => {
  const after = new AfterAnswer(() => assert.fail('no task fails'), 60_000);
  const ran: string[] = [];
  after.add(async () => void ran.push('before close'));
  await after.close();
  assert.deepEqual(ran, ['before close']);
  after.add(async () => void ran.push('after close'));
  await after.flush();
  assert.deepEqual(ran, ['before close', 'after close']);
  // Had a 60 s timer stayed, this test's process would not end.
});
