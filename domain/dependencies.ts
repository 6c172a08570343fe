/**
 * Which dependency an error says is unreachable or too slow: the database or
 * Temporal. Such errors are the dependency's trouble, not a bug of ours: the
 * API answers them with 503 `service_unavailable` and `Retry-After`.
 */
import { isGrpcServiceError } from '@temporalio/client';
import {
  MongoClientClosedError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';

/** `connection`: a raw socket error that reached us unwrapped (the driver lets some through, e.g. EPIPE on a server just killed). */
export type Dependency = 'database' | 'temporal' | 'connection';

/** Node's codes of a connection refused, reset or cut. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);

/** gRPC statuses of a server that did not answer (in time), or refused for load: CANCELLED, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, UNAVAILABLE. */
const UNAVAILABLE_GRPC = new Set([1, 4, 8, 14]);

const MONGO_UNAVAILABLE = [
  MongoNetworkError,
  MongoServerSelectionError,
  MongoOperationTimeoutError,
  MongoNotConnectedError,
  MongoServerClosedError,
  MongoTopologyClosedError,
  MongoClientClosedError,
];

const MAX_TIME_MS_EXPIRED = 50;

/** The dependency `err` (or an error it wraps) says did not answer, or null for any other error. */
export function unavailableDependency(err: unknown): Dependency | null {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (MONGO_UNAVAILABLE.some((type) => e instanceof type)) return 'database';
    // MaxTimeMSExpired: the server stopped a query at its time limit (a list's, see TenantCollection.page).
    if (e instanceof MongoServerError && e.code === MAX_TIME_MS_EXPIRED) return 'database';
    if (isGrpcServiceError(e) && UNAVAILABLE_GRPC.has(e.code)) return 'temporal';
    const { code } = e as { code?: unknown };
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return 'connection';
  }
  return null;
}
