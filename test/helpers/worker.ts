/**
 * A Temporal worker in the test process, on the test's own task queue, with
 * the real workflows and activities bound to the test app's database; and
 * polling for what eventually happens.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { WORKFLOW_BUNDLE } from '../../domain/config';
import { ActivityDeps, createActivities } from '../../activities/index';
import { secretKeyFromEnv } from '../../domain/sealing';
import { stackEnv, TestApp } from './stack';

let runtimeInstalled = false;

export async function startTestWorker(
  app: TestApp,
  taskQueue: string,
  extra: Partial<Pick<ActivityDeps, 'webhookAllow' | 'webhookCa' | 'webhookTimeoutMs'>> = {},
): Promise<{ stop(): Promise<void> }> {
  if (!runtimeInstalled) {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
    runtimeInstalled = true;
  }
  const connection = await NativeConnection.connect({ address: stackEnv().temporalAddress });
  const worker = await Worker.create({
    connection,
    namespace: stackEnv().temporalNamespace,
    taskQueue,
    workflowBundle: { codePath: WORKFLOW_BUNDLE },
    activities: createActivities({ db: app.db, temporal: app.temporal.client, taskQueue, secretKey: secretKeyFromEnv(), ...extra }),
  });
  const running = worker.run();
  return {
    async stop() {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

/** Polls `probe` until it returns a value (not undefined), or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}
