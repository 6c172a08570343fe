/**
 * Connections shared by the API and worker processes, configured from the
 * environment the stack launcher (or an operator) sets.
 */
import { resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { Db, MongoClient } from 'mongodb';
import { TASK_QUEUE } from './temporal/names';

/** The workflow code, bundled once by `npm run build` (tools/build/workflow-bundle.ts); workers load it with `workflowBundle: { codePath }`. */
export const WORKFLOW_BUNDLE = resolve(__dirname, '../workflow-bundle.js');

export interface ConnectionConfig {
  mongodbUri: string;
  mongodbDb: string;
  temporalAddress: string;
  temporalNamespace: string;
  /** The task queue of the offerops worker (OFFEROPS_TASK_QUEUE, default `offerops`). */
  taskQueue: string;
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
  };
}

export async function connectMongo(config: Pick<ConnectionConfig, 'mongodbUri' | 'mongodbDb'>): Promise<{ client: MongoClient; db: Db }> {
  const client = await MongoClient.connect(config.mongodbUri, { serverSelectionTimeoutMS: 10_000 });
  return { client, db: client.db(config.mongodbDb) };
}

export async function connectTemporal(
  config: Pick<ConnectionConfig, 'temporalAddress' | 'temporalNamespace'>,
): Promise<{ connection: Connection; client: Client }> {
  const connection = await Connection.connect({ address: config.temporalAddress });
  return { connection, client: new Client({ connection, namespace: config.temporalNamespace }) };
}
