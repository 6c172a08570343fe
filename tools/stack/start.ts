/**
 * `npm start`: the whole service on the embedded stack (OFFEROPS_DATA_DIR,
 * default ./.offerops; the API on PORT, default 8080). On the first start it
 * creates a demo account and prints its keys once; every start prints the
 * account and the command that makes a new key. Ctrl-C, SIGTERM or SIGHUP
 * stops everything (run through tools/build/run.mjs, which builds first when
 * the sources changed).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { connectMongo } from '../../domain/config';
import { connectTemporal } from '../../domain/temporal-connection';
import { createApiKey, getAccount, TEST_KEY_LIFETIMES } from '../../domain/accounts/store';
import { createSeededAccount, seedSandbox } from '../../domain/sandbox/seed';
import { TASK_QUEUE } from '../../temporal/names';
import { SCOPES } from '../../schemas/openapi/common';
import { log, onStopSignal, Supervisor } from './processes';
import { Stack, startStack } from './stack';

interface DemoAccount {
  accountId: string;
  /** Only when the account was just created: its keys, shown once. */
  keys?: { live: string; test: string };
}

/**
 * Creates the demo account unless `<data>/demo.json` says it exists (the
 * file keeps ids, never secrets). It is made like `admin account create`
 * makes an account, its sandbox seeded; a demo account of an older data
 * folder is seeded now (seeding is idempotent).
 */
async function demoAccount(stack: Stack, dataDir: string): Promise<DemoAccount | null> {
  const file = join(dataDir, 'demo.json');
  let existing: string | null | undefined;
  if (existsSync(file)) {
    try {
      existing = (JSON.parse(readFileSync(file, 'utf8')) as { account_id: string }).account_id;
    } catch {
      return null;
    }
  }
  const mongo = await connectMongo({ mongodbUri: stack.mongodbUri, mongodbDb: stack.mongodbDb });
  const temporal = await connectTemporal(stack).catch(async (err: unknown) => {
    await mongo.client.close();
    throw err;
  });
  const deps = { db: mongo.db, temporal: { client: temporal.client, taskQueue: process.env.OFFEROPS_TASK_QUEUE || TASK_QUEUE } };
  try {
    if (existing) {
      if (await getAccount(mongo.db, existing)) await seedSandbox(deps, existing);
      return { accountId: existing };
    }
    const { account } = await createSeededAccount(deps, { name: 'Demo account', plan: 'pro' });
    const live = await createApiKey(mongo.db, { accountId: account._id, env: 'live', scopes: SCOPES, name: 'demo live key' });
    const test = await createApiKey(mongo.db, {
      accountId: account._id,
      env: 'test',
      scopes: SCOPES,
      name: 'demo test key',
      expiresInMs: TEST_KEY_LIFETIMES['7d'],
    });
    const record = { account_id: account._id, live_key_id: live.keyId, test_key_id: test.keyId, created_at: new Date().toISOString() };
    writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
    return { accountId: account._id, keys: { live: live.apiKey, test: test.apiKey } };
  } finally {
    await Promise.allSettled([mongo.client.close(), temporal.connection.close()]);
  }
}

/** A word as the shell reads it back: quoted unless plainly safe. */
const shellWord = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** The operator command that makes a key for `accountId` on this stack (run from this directory). */
function keyCreateCommand(accountId: string, dataDir: string): string {
  const where = dataDir === resolve('.offerops') ? '' : `OFFEROPS_DATA_DIR=${shellWord(dataDir)} `;
  return `${where}npx offerops admin key create --account ${accountId} --scopes all`;
}

function banner(stack: Stack, dataDir: string, demo: DemoAccount | null): string {
  const lines = [
    'offerops is running',
    `  API:         ${stack.apiUrl}`,
    `  OpenAPI:     ${stack.apiUrl}/openapi.json`,
    `  Metrics:     ${new URL('/metrics', stack.apiUrl).href} (API), ${stack.workerMetricsUrl} (worker)`,
    stack.temporalUiUrl
      ? `  Temporal UI: ${stack.temporalUiUrl}`
      : `  Temporal:    ${stack.temporalAddress} (namespace ${stack.temporalNamespace})`,
    `  Data:        ${dataDir}`,
  ];
  if (demo?.keys) {
    lines.push(`Demo account ${demo.accountId} (keys shown once, keep them):`, `  live key: ${demo.keys.live}`, `  test key: ${demo.keys.test}`);
  } else if (demo) {
    lines.push(`Demo account ${demo.accountId} (its keys were shown at the first start)`);
  }
  if (demo) lines.push(`  a new key: ${keyCreateCommand(demo.accountId, dataDir)}`);
  lines.push('Press Ctrl-C to stop.');
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const dataDir = resolve(process.env.OFFEROPS_DATA_DIR || '.offerops');
  const port = Number(process.env.PORT || 8080);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`PORT must be a port number, not ${process.env.PORT}`);

  const supervisor = await Supervisor.open(dataDir, log);
  let interrupted = false;
  onStopSignal(async () => {
    interrupted = true;
    log('stopping …');
    await supervisor.stop();
    log('stopped');
  });
  try {
    const stack = await startStack({ supervisor, withApp: true, port, log });
    // A server that crashes is started again; one that keeps crashing stops everything.
    supervisor.restartCrashed();
    supervisor.onUnexpectedExit = (child) => {
      log(child.failure().message);
      log('stopping …');
      void supervisor.stop().finally(() => process.exit(1));
    };
    const demo = await demoAccount(stack, dataDir);
    process.stdout.write(banner(stack, dataDir, demo));
  } catch (err) {
    if (interrupted) return; // the signal handler finishes stopping and exits
    await supervisor.stop();
    throw err;
  }
}

main().catch((err: Error) => {
  log(`could not start: ${err.message}`);
  process.exit(1);
});
