/**
 * Puts a Temporal server in the shape offerops needs: our namespace with at
 * least 30 days of retention and our custom search attributes. Idempotent,
 * and only public service APIs, so the same code configures the embedded dev
 * server and a self-hosted cluster.
 */
import { Connection, isGrpcServiceError } from '@temporalio/client';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { msToTs, optionalTsToMs } from '@temporalio/common/lib/time';
import { OFFEROPS_SEARCH_ATTRIBUTES } from '../../temporal/names';
import { Log, poll } from './processes';

const RETENTION = '30 days';
const GRPC_NOT_FOUND = 5;
const GRPC_ALREADY_EXISTS = 6;

/** Whether `err` is a gRPC error with status `code` (grpc-js's Status enum, widened to the protocol's numbers). */
const hasCode = (err: unknown, code: number): boolean => isGrpcServiceError(err) && (err.code as number) === code;

/** Resolves once the server at `address` answers; `check` throws to give up early. */
export async function waitForTemporal(address: string, opts: { timeoutMs?: number; check?: () => void } = {}): Promise<void> {
  await poll(
    `Temporal at ${address}`,
    async () => {
      const connection = await Connection.connect({ address, connectTimeout: 2_000 });
      try {
        await connection.withDeadline(Date.now() + 2_000, () => connection.workflowService.getSystemInfo({}));
      } finally {
        await connection.close();
      }
    },
    { timeoutMs: opts.timeoutMs ?? 60_000, intervalMs: 500, check: opts.check },
  );
}

export async function ensureNamespace(address: string, namespace: string, log: Log): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    await ensureRegistered(connection, namespace, log);
    await ensureSearchAttributes(connection, namespace, log);
  } finally {
    await connection.close();
  }
}

async function ensureRegistered(connection: Connection, namespace: string, log: Log): Promise<void> {
  const retention = msToTs(RETENTION);
  let described;
  try {
    described = await connection.workflowService.describeNamespace({ namespace });
  } catch (err) {
    if (!hasCode(err, GRPC_NOT_FOUND)) throw err;
    try {
      await connection.workflowService.registerNamespace({
        namespace,
        description: 'offerops',
        workflowExecutionRetentionPeriod: retention,
      });
      log(`registered Temporal namespace ${namespace} (retention ${RETENTION})`);
    } catch (registerErr) {
      if (!hasCode(registerErr, GRPC_ALREADY_EXISTS)) throw registerErr;
    }
    return;
  }
  const current = optionalTsToMs(described.config?.workflowExecutionRetentionTtl) ?? 0;
  if (current < optionalTsToMs(retention)!) {
    await connection.workflowService.updateNamespace({ namespace, config: { workflowExecutionRetentionTtl: retention } });
    log(`raised the retention of Temporal namespace ${namespace} to ${RETENTION}`);
  }
}

async function ensureSearchAttributes(connection: Connection, namespace: string, log: Log): Promise<void> {
  const wanted = new Map(OFFEROPS_SEARCH_ATTRIBUTES.map((key) => [key.name, encodeSearchAttributeIndexedValueType(key.type)!]));
  const list = async () => (await connection.operatorService.listSearchAttributes({ namespace })).customAttributes ?? {};
  const missingIn = (present: Awaited<ReturnType<typeof list>>): string[] => {
    const names: string[] = [];
    for (const [name, type] of wanted) {
      const existing = present[name];
      if (existing === undefined || existing === null) names.push(name);
      else if (existing !== type) throw new Error(`search attribute ${name} already exists on namespace ${namespace} with another type`);
    }
    return names;
  };
  // A namespace registered a moment ago may take a while to reach every frontend.
  const toAdd = missingIn(await poll(`namespace ${namespace}`, list, { timeoutMs: 60_000, intervalMs: 500 }));
  if (toAdd.length === 0) return;
  try {
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(toAdd.map((name) => [name, wanted.get(name)!])),
    });
  } catch (err) {
    // A concurrent start may have added them first; only a real gap is an error.
    if (missingIn(await list()).length > 0) throw err;
  }
  await poll(
    `search attributes ${toAdd.join(', ')} on ${namespace}`,
    async () => {
      const left = missingIn(await list());
      if (left.length > 0) throw new Error(`not yet visible: ${left.join(', ')}`);
    },
    { timeoutMs: 60_000, intervalMs: 500 },
  );
  log(`registered search attributes ${toAdd.join(', ')} on Temporal namespace ${namespace}`);
}
