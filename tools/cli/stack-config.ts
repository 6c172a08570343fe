/**
 * Where the running stack is: `npm start` writes `<data dir>/stack.json`
 * while it runs; MONGODB_URI / MONGODB_DB in the environment take precedence.
 */
import { readFileSync } from 'node:fs';
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
