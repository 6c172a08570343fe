/**
 * `node dist/tools/deploy/temporal-setup.js`: the one-shot Temporal setup of a deployment (the
 * compose service `temporal-setup`, the Kubernetes Job `offerops-temporal-setup`). Waits for the
 * server at TEMPORAL_ADDRESS, then registers TEMPORAL_NAMESPACE (30 days of retention) and our
 * search attributes where missing: the code `npm start` runs at every start. Idempotent.
 */
import { log } from '../stack/processes';
import { ensureNamespace, waitForTemporal } from '../stack/temporal-setup';

/** A fresh cluster may still be creating its database schema. */
const WAIT_MS = 5 * 60_000;

async function main(): Promise<void> {
  const address = process.env.TEMPORAL_ADDRESS;
  if (!address) throw new Error('TEMPORAL_ADDRESS is not set');
  const namespace = process.env.TEMPORAL_NAMESPACE || 'offerops';
  log(`waiting for Temporal at ${address} …`);
  await waitForTemporal(address, { timeoutMs: WAIT_MS });
  await ensureNamespace(address, namespace, log);
  log(`Temporal namespace ${namespace} is ready for offerops`);
}

main().catch((err: unknown) => {
  log(`Temporal setup failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
