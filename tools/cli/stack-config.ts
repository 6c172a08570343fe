/**
 * Where the running stack is: `npm start` writes `<data dir>/stack.json`
 * while it runs; MONGODB_URI / MONGODB_DB in the environment take precedence.
 * The data directory is found from any folder of the checkout.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { newSecretKey, secretKeyFromEnv } from '../../domain/sealing';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from './errors';

export interface StackInfo {
  mongodb_uri: string;
  mongodb_db: string;
  api_url?: string;
  temporal_address?: string;
  temporal_namespace?: string;
  temporal_ui_url?: string | null;
  /** OFFEROPS_WEBHOOK_ALLOW of the stack's own API and worker (null: none). */
  webhook_allow?: string | null;
  /** NODE_EXTRA_CA_CERTS of the stack's own API and worker: the sample receiver's certificate (null: none). */
  ca_file?: string | null;
}

/** The offerops checkout `from` is in: the nearest folder up with a `.offerops/stack.json` or the package.json of offerops. */
export function projectRoot(from = process.cwd()): string | null {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.offerops', 'stack.json'))) return dir;
    try {
      if ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'offerops') return dir;
    } catch {
      // no package.json here, or not JSON: look further up
    }
    if (dirname(dir) === dir) return null;
  }
}

/** OFFEROPS_DATA_DIR, else the `.offerops` of the checkout the command runs in, else `./.offerops`. */
export function dataDir(env: NodeJS.ProcessEnv = process.env, from = process.cwd()): string {
  return resolve(env.OFFEROPS_DATA_DIR || join(projectRoot(from) ?? from, '.offerops'));
}

export function stackInfo(env: NodeJS.ProcessEnv = process.env): StackInfo {
  if (env.MONGODB_URI) {
    return {
      mongodb_uri: env.MONGODB_URI,
      mongodb_db: env.MONGODB_DB || 'offerops',
      ...(env.TEMPORAL_ADDRESS ? { temporal_address: env.TEMPORAL_ADDRESS } : {}),
      ...(env.TEMPORAL_NAMESPACE ? { temporal_namespace: env.TEMPORAL_NAMESPACE } : {}),
      ...(env.OFFEROPS_API_URL ? { api_url: env.OFFEROPS_API_URL } : {}),
    };
  }
  const file = join(dataDir(env), 'stack.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new Error(
      `no running stack: ${file} does not exist (start one with npm start in the offerops checkout, ` +
        'or set OFFEROPS_DATA_DIR to the data directory of the one that runs, or MONGODB_URI)',
    );
  }
  return JSON.parse(text) as StackInfo;
}

/**
 * The key that seals stored secrets, for the launcher (`npm start`, `npm
 * test`), which hands it to the worker and the API: OFFEROPS_SECRET_KEY when
 * set, else `<data dir>/secret.key`, created (mode 0600) on first use.
 */
export function secretKeyFor(dir: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env.OFFEROPS_SECRET_KEY) return env.OFFEROPS_SECRET_KEY;
  const file = join(dir, 'secret.key');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, `${newSecretKey()}\n`, { mode: 0o600, flag: 'wx' });
  }
  return readFileSync(file, 'utf8').trim();
}

/**
 * The key an operator command seals a token with: the one the worker has.
 * That is OFFEROPS_SECRET_KEY when set, else `<data dir>/secret.key` made by
 * the `npm start` of that data directory. A command never makes a key: a
 * token sealed under a key the worker lacks could never be sent.
 */
export function existingSecretKey(dir: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  if (env.OFFEROPS_SECRET_KEY) {
    try {
      return secretKeyFromEnv(env);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  const file = join(dir, 'secret.key');
  if (!existsSync(file)) {
    throw new UsageError(
      `cannot seal the token: OFFEROPS_SECRET_KEY is not set and ${file} does not exist. ` +
        'Set OFFEROPS_SECRET_KEY to the key the worker runs with, or OFFEROPS_DATA_DIR to the data directory of the npm start that runs it (its secret.key).',
    );
  }
  try {
    return secretKeyFromEnv({ OFFEROPS_SECRET_KEY: readFileSync(file, 'utf8').trim() });
  } catch (err) {
    throw new UsageError(`${file}: ${(err as Error).message.replace('OFFEROPS_SECRET_KEY', 'the key')}`);
  }
}
