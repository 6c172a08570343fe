/**
 * A Temporal worker in the test process, on the test's own task queue, with
 * the real workflows and activities bound to the test app's database.
 */
import { inspect } from 'node:util';
import { DefaultLogger, LogEntry, LogLevel, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { WorkflowHandle } from '@temporalio/client';
import { WORKFLOW_BUNDLE } from '../../domain/config';
import type { ActivityDeps } from '../../activities/deps';
import { createActivities } from '../../activities/index';
import { secretKeyFromEnv } from '../../domain/sealing';
import { stackEnv, TestApp } from './stack';

let runtimeInstalled = false;

/**
 * What the in-process workers logged (errors only, unless the first worker of
 * the process was started with a lower `logLevel`), for tests that check a
 * cause reached the log, or that nothing disclosed did; errors are also printed.
 */
export const workerLog: LogEntry[] = [];

export async function startTestWorker(
  app: TestApp,
  taskQueue: string,
  extra: Partial<Pick<ActivityDeps, 'webhookAllow' | 'webhookCa' | 'webhookTimeoutMs' | 'monitorIdleTimeoutMs' | 'afterAnswer'>> & {
    logLevel?: LogLevel;
  } = {},
): Promise<{ stop(): Promise<void> }> {
  const { logLevel, ...deps } = extra;
  if (!runtimeInstalled) {
    const print = (entry: LogEntry) => process.stderr.write(`[${entry.level}] ${entry.message} ${inspect(entry.meta ?? {}, { depth: 4 })}\n`);
    Runtime.install({
      logger: new DefaultLogger(logLevel ?? 'ERROR', (entry) => {
        workerLog.push(entry);
        if (entry.level === 'ERROR') print(entry);
      }),
    });
    runtimeInstalled = true;
  }
  const connection = await NativeConnection.connect({ address: stackEnv().temporalAddress });
  const worker = await Worker.create({
    connection,
    namespace: stackEnv().temporalNamespace,
    taskQueue,
    workflowBundle: { codePath: WORKFLOW_BUNDLE },
    activities: createActivities({ db: app.db, temporal: app.temporal.client, taskQueue, secretKey: secretKeyFromEnv(), ...deps }),
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

/** A workflow's history as text, its payloads (bytes) decoded as UTF-8: what Temporal UI shows of it. */
export async function historyText(handle: WorkflowHandle): Promise<string> {
  const history = await handle.fetchHistory();
  return JSON.stringify(history, (_key, value: unknown) => {
    if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
    const bytes = value as { type?: unknown; data?: unknown };
    return bytes?.type === 'Buffer' && Array.isArray(bytes.data) ? Buffer.from(bytes.data as number[]).toString('utf8') : value;
  });
}
