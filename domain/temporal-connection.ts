/**
 * The connection to Temporal shared by the API, the CLI and the tools. Apart
 * from config.ts so that a process that only reads MongoDB (most admin
 * commands) does not load the Temporal client (gRPC, protobuf: ~250 ms).
 */
import { Client, ClientInterceptors, Connection } from '@temporalio/client';
import type { ConnectionConfig } from './config';

/** How long a new connection to Temporal may take; each call's deadline is its caller's (the API's request deadline). */
export const TEMPORAL_CONNECT_TIMEOUT_MS = 5_000;

export async function connectTemporal(
  config: Pick<ConnectionConfig, 'temporalAddress' | 'temporalNamespace'>,
): Promise<{ connection: Connection; client: Client }> {
  const connection = await Connection.connect({ address: config.temporalAddress, connectTimeout: TEMPORAL_CONNECT_TIMEOUT_MS });
  return { connection, client: new Client({ connection, namespace: config.temporalNamespace }) };
}

/** A Temporal client that connects on its first call (with `interceptors`: the tracing ones, domain/tracing.ts). */
export function lazyTemporal(
  config: Pick<ConnectionConfig, 'temporalAddress' | 'temporalNamespace'>,
  interceptors?: ClientInterceptors,
): {
  connection: Connection;
  client: Client;
} {
  const connection = Connection.lazy({ address: config.temporalAddress, connectTimeout: TEMPORAL_CONNECT_TIMEOUT_MS });
  return { connection, client: new Client({ connection, namespace: config.temporalNamespace, ...(interceptors ? { interceptors } : {}) }) };
}
