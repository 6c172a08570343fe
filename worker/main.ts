/**
 * The worker process: runs every workflow and activity of offerops on the
 * `offerops` task queue, and keeps the housekeeping workflows running.
 */
import { Client, Connection, ScheduleNotFoundError } from '@temporalio/client';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createActivities } from '../activities/index';
import {
  configFromEnv,
  ConnectionConfig,
  connectOrForget,
  lazyMongo,
  untilAvailable,
  WORKER_DB_TIMEOUTS,
  WORKFLOW_BUNDLE,
} from '../domain/config';
import { secretKeyFromEnv } from '../domain/sealing';
import { allowListFromEnv, hostListFromEnv } from '../domain/webhooks/destinations';
import type { Logger } from 'pino';
import { createLogger } from '../domain/logger';
import { startTracing, temporalClientInterceptors, Tracing } from '../domain/tracing';
import { temporalLogger, workerTracing } from './tracing';
import { AfterAnswer } from '../domain/after-answer';
import { ensureIndexes } from '../domain/db';
import { startMonthBuckets } from '../domain/analytics/buckets';
import { RETIRED_SCHEDULES } from '../temporal/names';
import { startMaintenance } from '../temporal/start';

/** How often the worker checks that the sweep workflows run. */
const MAINTENANCE_CHECK_MS = 10 * 60_000;

/** Puts the housekeeping in place: its workflows running, and the Schedules that once ran it gone. */
async function ensureMaintenance(client: Client, taskQueue: string): Promise<void> {
  for (const id of RETIRED_SCHEDULES) {
    try {
      await client.schedule.getHandle(id).delete();
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    }
  }
  await startMaintenance({ client, taskQueue });
}

/** The SDK's runtime: its log lines (an activity's carry its workflow and run ids) as ours, and its metrics when asked. */
function installRuntime(logger: Logger): void {
  // Prometheus metrics on their own address (the SDK's exporter: its runtime's metrics and those our workflows count).
  const metricsAddress = process.env.OFFEROPS_WORKER_METRICS_ADDRESS;
  Runtime.install({
    logger: temporalLogger(logger),
    ...(metricsAddress
      ? {
          telemetryOptions: {
            metrics: { prometheus: { bindAddress: metricsAddress, countersTotalSuffix: true, useSecondsForDurations: true } },
          },
        }
      : {}),
  });
  if (metricsAddress) logger.info({ address: `http://${metricsAddress}/metrics` }, 'metrics');
}

/** The database, once it answers: its indexes made (its engine logged) and the month buckets started. */
async function connectDatabase(config: ConnectionConfig, logger: Logger, wait: (message: string) => void) {
  const mongo = lazyMongo(config, WORKER_DB_TIMEOUTS);
  await untilAvailable(
    'the database',
    async () => {
      await connectOrForget(mongo.client);
      const engine = await ensureIndexes(mongo.db);
      logger.info({ engine }, `the database is ${engine.name}`);
      await startMonthBuckets(mongo.db);
    },
    wait,
  );
  return mongo;
}

/** Temporal, once it answers: the worker's connection, and the clients (the sweeps' untraced) over another. */
async function temporalConnections(config: ConnectionConfig, tracing: Tracing | undefined, wait: (message: string) => void) {
  const connection = await untilAvailable('Temporal', () => NativeConnection.connect({ address: config.temporalAddress }), wait);
  const clientConnection = await untilAvailable('Temporal', () => Connection.connect({ address: config.temporalAddress }), wait);
  const interceptors = temporalClientInterceptors(tracing);
  const client = new Client({ connection: clientConnection, namespace: config.temporalNamespace, ...(interceptors ? { interceptors } : {}) });
  // The sweeps run for days: started untraced, they are not one endless trace.
  const maintenance = new Client({ connection: clientConnection, namespace: config.temporalNamespace });
  return { connection, clientConnection, client, maintenance };
}

/** Restarts a sweep workflow ended by hand (terminated, reset) within MAINTENANCE_CHECK_MS; the timer, to clear. */
function keepMaintenance(maintenance: Client, taskQueue: string, logger: Logger): NodeJS.Timeout {
  return setInterval(
    () => void startMaintenance({ client: maintenance, taskQueue }).catch((err: unknown) => logger.warn({ err }, 'starting the sweeps failed')),
    MAINTENANCE_CHECK_MS,
  );
}

async function main(): Promise<void> {
  const logger = createLogger('offerops-worker');
  const config = configFromEnv();
  installRuntime(logger);
  const tracing = startTracing('offerops-worker');
  if (tracing) logger.info({ exporter: tracing.exporter }, 'tracing on');
  // Started while the database or Temporal is away (or being restarted), the worker waits for them instead of exiting.
  const wait = (message: string) => logger.warn(message);
  const mongo = await connectDatabase(config, logger, wait);
  const { connection, clientConnection, client, maintenance } = await temporalConnections(config, tracing, wait);
  await untilAvailable('Temporal', () => ensureMaintenance(maintenance, config.taskQueue), wait);
  // The HTTP client compiles on its first use (tens of ms, more on a busy machine): now, not between the first paced
  // send's slot check and its request.
  await fetch('data:,');
  // The bookkeeping activities leave for after their results: run when the worker has drained (nothing lost on a clean stop).
  const afterAnswer = new AfterAnswer((err) => logger.error({ err }, 'bookkeeping after an activity failed'));
  const worker = await Worker.create({
    connection,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    workflowBundle: { codePath: WORKFLOW_BUNDLE },
    // On SIGTERM or SIGINT: no new tasks, and those under way have this long to finish before they are cancelled.
    shutdownGraceTime: '10 seconds',
    ...workerTracing(tracing),
    activities: createActivities({
      db: mongo.db,
      temporal: client,
      taskQueue: config.taskQueue,
      ...(config.publicationBatchGroups ? { batchGroups: config.publicationBatchGroups } : {}),
      secretKey: secretKeyFromEnv(),
      webhookAllow: allowListFromEnv(),
      shortLinkHosts: hostListFromEnv('OFFEROPS_SHORTLINK_HOSTS'),
      ...(process.env.OFFEROPS_PUBLIC_URL ? { publicUrl: process.env.OFFEROPS_PUBLIC_URL } : {}),
      afterAnswer,
    }),
  });
  logger.info({ taskQueue: config.taskQueue, namespace: config.temporalNamespace }, 'worker running');
  const keeper = keepMaintenance(maintenance, config.taskQueue, logger);
  try {
    // Worker.run installs SIGINT/SIGTERM handlers and drains before it resolves.
    await worker.run();
  } finally {
    clearInterval(keeper);
  }
  await afterAnswer.close();
  await Promise.allSettled([clientConnection.close(), connection.close(), mongo.client.close(), tracing?.shutdown()]);
}

main().catch((err) => {
  console.error('offerops-worker: failed:', err);
  process.exit(1);
});
