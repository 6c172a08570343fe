import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { AfterAnswer } from '../../domain/after-answer';

test('tasks wait for the interval, then run together; one failing is reported and stops none of the others', async () => {
  const reported: unknown[] = [];
  const after = new AfterAnswer((err) => reported.push(err), 50);
  const ran: string[] = [];
  after.add(async () => void ran.push('a'));
  after.add(() => Promise.reject(new Error('count failed')));
  after.add(async () => void ran.push('b'));
  await sleep(10);
  assert.deepEqual(ran, [], 'nothing runs before the interval');
  await sleep(120);
  assert.deepEqual(ran, ['a', 'b']);
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
