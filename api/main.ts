/** The API process: wires MongoDB and Temporal into the app and listens. */
import { once } from 'node:events';
import pino from 'pino';
import { closeApp, createApp, createAppServer, drainApp } from './app';
import { warmValidators } from './middleware/validate';
import { operations } from '../schemas/operations';
import { secretKeyFromEnv } from '../domain/sealing';
import { allowListFromEnv, hostListFromEnv } from '../domain/webhooks/destinations';
import { configFromEnv, connectOrForget, lazyMongo, untilAvailable } from '../domain/config';
import { lazyTemporal } from '../domain/temporal-connection';
import { createLogger } from '../domain/logger';
import { startTracing, temporalClientInterceptors } from '../domain/tracing';
import { ensureIndexes } from '../domain/db';
import { startMonthBuckets } from '../domain/analytics/buckets';

/** A duration in ms from the environment: a positive integer, else the process refuses to start. */
function positiveMs(name: string): number {
  const value = Number(process.env[name]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive number of milliseconds, not ${process.env[name]}`);
  return value;
}

async function main(): Promise<void> {
  // Asynchronous writes: a batch of access-log lines (RequestLog) leaves in few writes, off the response path.
  const out = pino.destination({ dest: 1, sync: false });
  const logger = createLogger('offerops-api', undefined, out);
  const config = configFromEnv();
  const tracing = startTracing('offerops-api');
  if (tracing) logger.info({ exporter: tracing.exporter }, 'tracing on');
  // The API listens at once; until the database has its indexes it answers 503 (a restart while the database is away waits for it).
  const mongo = lazyMongo(config);
  const temporal = lazyTemporal(config, temporalClientInterceptors(tracing));
  const ready = untilAvailable(
    'the database',
    async () => {
      await connectOrForget(mongo.client);
      const engine = await ensureIndexes(mongo.db);
      logger.info({ engine }, `the database is ${engine.name}`);
      await startMonthBuckets(mongo.db);
    },
    (message) => logger.warn(message),
  );
  const app = createApp({
    ready,
    db: mongo.db,
    secretKey: secretKeyFromEnv(),
    temporal: {
      client: temporal.client,
      namespace: config.temporalNamespace,
      taskQueue: config.taskQueue,
      ...(config.publicationBatchGroups ? { batchGroups: config.publicationBatchGroups } : {}),
    },
    logger,
    webhookAllow: allowListFromEnv(),
    shortLinkHosts: hostListFromEnv('OFFEROPS_SHORTLINK_HOSTS'),
    ...(process.env.OFFEROPS_SHOPEE_API_URL ? { shopeeApiUrl: process.env.OFFEROPS_SHOPEE_API_URL } : {}),
    ...(process.env.OFFEROPS_TEMPORAL_UI_URL ? { temporalUiUrl: process.env.OFFEROPS_TEMPORAL_UI_URL } : {}),
    publicUrl: process.env.OFFEROPS_PUBLIC_URL || `http://${process.env.HOST ?? '127.0.0.1'}:${process.env.PORT ?? 8080}`,
    ...(process.env.OFFEROPS_REQUEST_TIMEOUT_MS ? { requestTimeoutMs: positiveMs('OFFEROPS_REQUEST_TIMEOUT_MS') } : {}),
    ...(process.env.OFFEROPS_METRICS_TOKEN ? { metricsToken: process.env.OFFEROPS_METRICS_TOKEN } : {}),
    ...(tracing ? { tracer: tracing.tracer } : {}),
  });
  const server = createAppServer(app);
  server.listen(Number(process.env.PORT ?? 8080), process.env.HOST ?? '127.0.0.1');
  await once(server, 'listening');
  logger.info({ address: server.address() }, 'listening');
  void warmValidators(operations);
  void ready.then(() => logger.info('ready'));

  const stop = async () => {
    // Not ready any more (/readyz 503), answer what is under way (at most 10 s), then run the bookkeeping left after
    // answers, write the waiting log lines, give unused rate-limit slots back and export the last spans.
    drainApp(app);
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeIdleConnections();
    const cut = setTimeout(() => server.closeAllConnections(), 10_000).unref();
    await closed;
    clearTimeout(cut);
    await closeApp(app).catch((err: unknown) => logger.error({ err }, 'closing the app failed'));
    out.flushSync();
    await Promise.allSettled([mongo.client.close(), temporal.connection.close(), tracing?.shutdown()]);
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

main().catch((err) => {
  console.error('offerops-api: failed to start:', err);
  process.exit(1);
});
