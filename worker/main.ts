/**
 * The worker process: runs every workflow and activity of offerops on the
 * `offerops` task queue, and keeps the retention Schedule in place.
 */
import { Client, Connection, ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../activities/index';
import { configFromEnv, connectMongo } from '../api/connections';
import { createLogger } from '../api/logger';
import { ensureIndexes } from '../api/store/db';
import { RETENTION_EVERY, RETENTION_SCHEDULE_ID, TASK_QUEUE } from '../workflows/constants';

async function ensureRetentionSchedule(client: Client): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId: RETENTION_SCHEDULE_ID,
      spec: { intervals: [{ every: RETENTION_EVERY }] },
      action: { type: 'startWorkflow', workflowType: 'retentionSweep', taskQueue: TASK_QUEUE, args: [] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
}

async function main(): Promise<void> {
  const logger = createLogger('offerops-worker');
  const config = configFromEnv();
  const mongo = await connectMongo(config);
  await ensureIndexes(mongo.db);
  const connection = await NativeConnection.connect({ address: config.temporalAddress });
  const clientConnection = await Connection.connect({ address: config.temporalAddress });
  await ensureRetentionSchedule(new Client({ connection: clientConnection, namespace: config.temporalNamespace }));
  const worker = await Worker.create({
    connection,
    namespace: config.temporalNamespace,
    taskQueue: TASK_QUEUE,
    workflowsPath: require.resolve('../workflows/index'),
    activities: createActivities({ db: mongo.db }),
  });
  logger.info({ taskQueue: TASK_QUEUE, namespace: config.temporalNamespace }, 'worker running');
  // Worker.run installs SIGINT/SIGTERM handlers and drains before it resolves.
  await worker.run();
  await Promise.allSettled([clientConnection.close(), connection.close(), mongo.client.close()]);
}

main().catch((err) => {
  console.error('offerops-worker: failed:', err);
  process.exit(1);
});
