/**
 * Connections shared by the API and worker processes, configured from the
 * environment the stack launcher (or an operator) sets.
 */
import { resolve } from 'node:path';
import { Db, MongoClient } from 'mongodb';
import { TASK_QUEUE } from '../temporal/names';

/** The workflow code, bundled once by `npm run build` (tools/build/workflow-bundle.ts); workers load it with `workflowBundle: { codePath }`. */
export const WORKFLOW_BUNDLE = resolve(__dirname, '../workflow-bundle.js');

export interface ConnectionConfig {
  mongodbUri: string;
  mongodbDb: string;
  temporalAddress: string;
  temporalNamespace: string;
  /** The task queue of the offerops worker (OFFEROPS_TASK_QUEUE, default `offerops`). */
  taskQueue: string;
  /** OFFEROPS_PUBLICATION_BATCH_GROUPS: the publication workflows' batch size (temporal/workflows.ts PublicationInput). */
  publicationBatchGroups?: number;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ConnectionConfig {
  const need = (name: string): string => {
    const value = env[name];
    if (!value) throw new Error(`${name} is not set (npm start sets it for you)`);
    return value;
  };
  return {
    mongodbUri: need('MONGODB_URI'),
    mongodbDb: env.MONGODB_DB || 'offerops',
    temporalAddress: need('TEMPORAL_ADDRESS'),
    temporalNamespace: env.TEMPORAL_NAMESPACE || 'offerops',
    taskQueue: env.OFFEROPS_TASK_QUEUE || TASK_QUEUE,
    ...(env.OFFEROPS_PUBLICATION_BATCH_GROUPS ? { publicationBatchGroups: batchGroups(env.OFFEROPS_PUBLICATION_BATCH_GROUPS) } : {}),
  };
}

/** A batch size from the environment: an integer from 1 to 500 (a batch's history stays small), else the process refuses to start. */
function batchGroups(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 500) {
    throw new Error(`OFFEROPS_PUBLICATION_BATCH_GROUPS must be a whole number from 1 to 500, not ${text}`);
  }
  return value;
}

/**
 * How long the driver waits for the database before it gives up: a stalled
 * or dead server is an error within seconds (the API answers 503), never a
 * hang. The socket time-out bounds each wait for a reply, so it is also the
 * longest a single command may run; the worker allows longer ones.
 */
export interface DbTimeouts {
  /** A server to send to (none answering: MongoServerSelectionError). */
  serverSelectionTimeoutMS: number;
  /** A new connection, its handshake included. */
  connectTimeoutMS: number;
  /** A reply on an open connection (MongoNetworkTimeoutError). */
  socketTimeoutMS: number;
}

export const API_DB_TIMEOUTS: DbTimeouts = { serverSelectionTimeoutMS: 3_000, connectTimeoutMS: 3_000, socketTimeoutMS: 5_000 };
/** Activities have their own start-to-close time-outs; sweeps and imports may run longer commands. */
export const WORKER_DB_TIMEOUTS: DbTimeouts = { ...API_DB_TIMEOUTS, socketTimeoutMS: 30_000 };

export async function connectMongo(
  config: Pick<ConnectionConfig, 'mongodbUri' | 'mongodbDb'>,
  timeouts: DbTimeouts = API_DB_TIMEOUTS,
): Promise<{ client: MongoClient; db: Db }> {
  const client = await MongoClient.connect(config.mongodbUri, timeouts);
  return { client, db: client.db(config.mongodbDb) };
}

/** A client that connects on its first operation (and again after losing the server): a process starts while the database is away. */
export function lazyMongo(config: Pick<ConnectionConfig, 'mongodbUri' | 'mongodbDb'>, timeouts: DbTimeouts = API_DB_TIMEOUTS) {
  const client = new MongoClient(config.mongodbUri, timeouts);
  return { client, db: client.db(config.mongodbDb) };
}

/**
 * Connects `client`, for a process that starts while the database is away and tries again. The driver keeps
 * a client whose first connection failed on a closed topology (every later operation: "Topology is closed");
 * closing the client forgets it, so the next attempt connects anew.
 */
export async function connectOrForget(client: MongoClient): Promise<void> {
  try {
    await client.connect();
  } catch (err) {
    await client.close().catch(() => undefined);
    throw err;
  }
}

/** How often a process that starts while a dependency is away tries again. */
const RETRY_START_MS = 2_000;

/**
 * Runs `attempt` until it succeeds, every 2 s, saying each distinct reason
 * it failed: a process started while the database or Temporal is away (or
 * being restarted) waits for it instead of exiting.
 */
export async function untilAvailable<T>(what: string, attempt: () => Promise<T>, log: (message: string) => void): Promise<T> {
  let said = '';
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      const why = (err as Error).message.split('\n')[0]!;
      if (why !== said) log(`waiting for ${what}: ${why}`);
      said = why;
      await new Promise((resolve) => setTimeout(resolve, RETRY_START_MS));
    }
  }
}
