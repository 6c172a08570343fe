/**
 * A Temporal worker in the test process, on the test's own task queue, with
 * the real workflows and activities bound to the test app's database; and
 * polling for what eventually happens.
 */
import { setTimeout as sleep } from 'node:timers/promises';
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

/**
 * Polls `probe` until it returns a value (not undefined), or fails after `timeoutMs` saying what the state was then:
 * `explain`'s text (e.g. a record's status and its workflow's last events). A probe that throws fails the wait at once.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  explain?: () => Promise<string> | string,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) {
      const state = explain ? await Promise.resolve(explain()).catch((err: Error) => `could not read the state: ${err.message}`) : undefined;
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${state ? `; ${state}` : ''}`);
    }
    await sleep(200);
  }
}

/** A workflow's status and its last `count` history events, one line each: what a timed-out wait says of it. */
export async function workflowTail(handle: WorkflowHandle, count = 10): Promise<string> {
  const [description, history] = await Promise.all([handle.describe(), handle.fetchHistory()]);
  const events = (history.events ?? []).slice(-count).map((e) => {
    const type = String(e.eventType ?? '').replace(/^EVENT_TYPE_/, '');
    const summary = e.userMetadata?.summary?.data ? ` "${Buffer.from(e.userMetadata.summary.data).toString('utf8')}"` : '';
    const failure =
      e.activityTaskFailedEventAttributes?.failure?.message ??
      e.workflowExecutionFailedEventAttributes?.failure?.message ??
      e.workflowTaskFailedEventAttributes?.failure?.message;
    return `  #${String(e.eventId)} ${type}${summary}${failure ? `: ${failure}` : ''}`;
  });
  return `workflow ${handle.workflowId} is ${description.status.name}; its last events:\n${events.join('\n')}`;
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
