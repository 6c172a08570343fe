/**
 * Where the running stack is: `npm start` writes `<data dir>/stack.json`
 * while it runs; MONGODB_URI / MONGODB_DB in the environment take precedence.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { newSecretKey } from '../../domain/sealing';
import { join, resolve } from 'node:path';

export interface StackInfo {
  mongodb_uri: string;
  mongodb_db: string;
  api_url?: string;
}

export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.OFFEROPS_DATA_DIR || '.offerops');
}

export function stackInfo(env: NodeJS.ProcessEnv = process.env): StackInfo {
  if (env.MONGODB_URI) return { mongodb_uri: env.MONGODB_URI, mongodb_db: env.MONGODB_DB || 'offerops' };
  const file = join(dataDir(env), 'stack.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new Error(`no running stack: ${file} does not exist (start one with npm start, or set MONGODB_URI)`);
  }
  return JSON.parse(text) as StackInfo;
}

/**
 * The key that seals stored secrets: OFFEROPS_SECRET_KEY when set, else
 * `<data dir>/secret.key`, created (mode 0600) on first use.
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
