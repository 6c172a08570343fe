/**
 * The running test stack (started once per `npm test` by tools/stack/test.ts)
 * and an isolated app on it: each test file gets its own MongoDB database and
 * a real HTTP server on loopback.
 */
import { once } from 'node:events';
import { Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Db } from 'mongodb';
import { closeApp, createApp, createAppServer, flushAfterAnswer } from '../../api/app';
import { secretKeyFromEnv } from '../../domain/sealing';
import { API_DB_TIMEOUTS, connectMongo, DbTimeouts } from '../../domain/config';
import { connectTemporal } from '../../domain/temporal-connection';
import { createLogger } from '../../domain/logger';
import { temporalScheduleId } from '../../temporal/names';
import { createAccount, createApiKey, Plan } from '../../domain/accounts/store';
import { Environment, ensureIndexes } from '../../domain/db';
import { startMonthBuckets } from '../../domain/analytics/buckets';
import { SCOPES } from '../../schemas/openapi/common';
import { Client, Connection, ScheduleNotFoundError, WorkflowNotFoundError } from '@temporalio/client';

const TEST_DB_TIMEOUTS: DbTimeouts = { ...API_DB_TIMEOUTS, serverSelectionTimeoutMS: 30_000, connectTimeoutMS: 30_000 };
export function stackEnv() {
  const need = (name: string): string => {
    const v = process.env[name];
    if (!v) throw new Error(`${name} is not set: run the tests with npm test, which starts the stack`);
    return v;
  };
  return {
    mongodbUri: need('MONGODB_URI'),
    temporalAddress: need('TEMPORAL_ADDRESS'),
    temporalNamespace: process.env.TEMPORAL_NAMESPACE || 'offerops',
  };
}

export interface TestApp {
  baseUrl: string;
  origin: string;
  db: Db;
  dbName: string;
  temporal: { client: Client; connection: Connection; namespace: string };
  /** Runs the bookkeeping requests left for after their answers (a publication's queued count and event relay) now. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `dbName` starts a second app on the database of an earlier one (e.g. two API
 * processes sharing MongoDB); such an app leaves the database to its owner on close.
 */
export async function startTestApp(
  opts: {
    rateLimit?: { limit: number; windowMs: number };
    dbName?: string;
    taskQueue?: string;
    webhookAllow?: string[];
    scheduleRunWaitMs?: number;
    shortLinkHosts?: string[];
    shopeeApiUrl?: string;
    clickFlushMs?: number;
    linkCacheMs?: number;
    publicUrl?: string;
    metricsToken?: string;
    /** The publication workflows' batch size (OFFEROPS_PUBLICATION_BATCH_GROUPS). */
    batchGroups?: number;
  } = {},
): Promise<TestApp> {
  const env = stackEnv();
  const dbName = opts.dbName ?? `t_${randomBytes(6).toString('hex')}`;
  // The production socket time-out, but patience to connect: the suite shares two cores with the stack, and a slow
  // first connection is not what these tests are about (test/faults holds the production time-outs to account).
  const mongo = await connectMongo({ mongodbUri: env.mongodbUri, mongodbDb: dbName }, TEST_DB_TIMEOUTS);
  await ensureIndexes(mongo.db);
  await startMonthBuckets(mongo.db);
  const temporal = await connectTemporal(env);
  const closeConnections = () => Promise.allSettled([mongo.client.close(), temporal.connection.close()]);
  let app: ReturnType<typeof createApp>;
  try {
    app = createApp({
      db: mongo.db,
      secretKey: secretKeyFromEnv(),
      temporal: {
        client: temporal.client,
        namespace: env.temporalNamespace,
        ...(opts.taskQueue ? { taskQueue: opts.taskQueue } : {}),
        ...(opts.batchGroups ? { batchGroups: opts.batchGroups } : {}),
      },
      logger: createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent'),
      ...(opts.rateLimit ? { rateLimit: opts.rateLimit } : {}),
      ...(opts.webhookAllow ? { webhookAllow: opts.webhookAllow } : {}),
      ...(opts.scheduleRunWaitMs ? { scheduleRunWaitMs: opts.scheduleRunWaitMs } : {}),
      ...(opts.metricsToken ? { metricsToken: opts.metricsToken } : {}),
      ...(opts.shortLinkHosts ? { shortLinkHosts: opts.shortLinkHosts } : {}),
      ...(opts.shopeeApiUrl ? { shopeeApiUrl: opts.shopeeApiUrl } : {}),
      ...(opts.clickFlushMs ? { clickFlushMs: opts.clickFlushMs } : {}),
      ...(opts.linkCacheMs ? { linkCacheMs: opts.linkCacheMs } : {}),
      ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}),
    });
  } catch (err) {
    // Open connections would keep the test process alive after the failed hook (it would hang, not fail).
    await closeConnections();
    throw err;
  }
  const server: Server = createAppServer(app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: `${origin}/api/v1`,
    db: mongo.db,
    dbName,
    temporal: { ...temporal, namespace: env.temporalNamespace },
    settle: () => flushAfterAnswer(app),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await closeApp(app);
      if (!opts.dbName) {
        // The Temporal Schedules of this database's schedules would outlive it (and fire into nothing).
        for (const s of await mongo.db.collection<{ _id: string }>('schedules').find({}).toArray()) {
          await temporal.client.schedule
            .getHandle(temporalScheduleId(s._id))
            .delete()
            .catch((err: unknown) => {
              if (!(err instanceof ScheduleNotFoundError)) throw err; // deleted by its test already
            });
        }
        await mongo.db.dropDatabase();
      }
      await closeConnections();
    },
  };
}

export interface Tenant {
  accountId: string;
  env: Environment;
  apiKey: string;
  keyId: string;
}

/** An account with one key (every scope unless told otherwise). */
export async function seedTenant(
  db: Db,
  opts: { plan?: Plan; env?: Environment; scopes?: readonly string[]; name?: string } = {},
): Promise<Tenant> {
  const account = await createAccount(db, { name: opts.name ?? 'Test account', plan: opts.plan ?? 'pro' });
  const env = opts.env ?? 'live';
  const key = await createApiKey(db, { accountId: account._id, env, scopes: opts.scopes ?? SCOPES });
  return { accountId: account._id, env, apiKey: key.apiKey, keyId: key.keyId };
}

/** Another key on the same account. */
export async function addKey(
  db: Db,
  tenant: { accountId: string },
  opts: { env?: Environment; scopes?: readonly string[]; expiresInMs?: number | null } = {},
): Promise<{ apiKey: string; keyId: string }> {
  const env = opts.env ?? 'live';
  return createApiKey(db, {
    accountId: tenant.accountId,
    env,
    scopes: opts.scopes ?? SCOPES,
    ...(opts.expiresInMs !== undefined ? { expiresInMs: opts.expiresInMs } : {}),
  });
}

/** Terminates the workflows still running on `taskQueue` (those no worker of the test took). */
export async function terminateRunning(app: TestApp, taskQueue: string): Promise<void> {
  const { client } = app.temporal;
  for await (const wf of client.workflow.list({ query: `TaskQueue = '${taskQueue}' AND ExecutionStatus = 'Running'` })) {
    await client.workflow
      .getHandle(wf.workflowId, wf.runId)
      .terminate('test over')
      .catch((err: unknown) => {
        if (!(err instanceof WorkflowNotFoundError)) throw err; // it ended after visibility listed it
      });
  }
}
