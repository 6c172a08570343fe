/**
 * `npm run fuzz`: property-based testing of the served contract with
 * schemathesis (PyPI). Starts the stack as `npm start` does (embedded FerretDB,
 * Temporal dev server, the worker, the API on a free loopback port) on a fresh
 * data directory, creates an account and a sandbox (test) key with every scope
 * through the operator commands' domain functions, then runs `schemathesis run`
 * against `/api/v1/openapi.json` with every check, every phase (examples,
 * coverage, fuzzing, and stateful sequences following the document's OpenAPI
 * links) — with `positive_data_acceptance` replaced by tools/fuzz/hooks.py's
 * `state_aware_positive_data_acceptance` — for FUZZ_SECONDS (default 300); prints its summary and exits with its
 * exit code (non-zero when any check failed). Everything is stopped and the
 * data directory removed at the end (FUZZ_KEEP_DATA=1 keeps it, logs included).
 *
 * Options (environment): FUZZ_SECONDS, FUZZ_WORKERS (schemathesis workers,
 * default 2), FUZZ_SEED (replay a run's generation), FUZZ_PYTHON (the
 * interpreter the virtual environment is made from). Arguments after
 * `npm run fuzz --` go to `schemathesis run` as they are (e.g. `--include-tag offers`).
 * Not part of .ci/run.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { connectMongo } from '../../domain/config';
import { createAccount, createApiKey, MAX_RATE_LIMIT, setAccountRateLimit, TEST_KEY_LIFETIMES } from '../../domain/accounts/store';
import { SCOPES } from '../../schemas/openapi/common';
import { log } from '../stack/processes';
import { Stack } from '../stack/stack';
import { exitWith, runOnTemporaryStack } from '../stack/temporary';
import { schemathesis } from './venv';

const ROOT = resolve(__dirname, '../../..');
const CONFIG = join(ROOT, 'tools', 'fuzz', 'schemathesis.toml');
/** Our checks: the built-in `positive_data_acceptance` is replaced by one that knows the refusals the state decides. */
const HOOKS = join(ROOT, 'tools', 'fuzz', 'hooks.py');

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number, not ${raw}`);
  return value;
}

/**
 * A pro account whose per-key rate limit is lifted (the operator command
 * `admin account update --rate-limit`: the fuzzer sends far more than 120 requests a
 * minute) and a sandbox key with every scope; returns the key.
 */
async function fuzzAccount(stack: Stack): Promise<string> {
  const mongo = await connectMongo({ mongodbUri: stack.mongodbUri, mongodbDb: stack.mongodbDb });
  try {
    const account = await createAccount(mongo.db, { name: 'Fuzz account', plan: 'pro' });
    await setAccountRateLimit(mongo.db, account._id, MAX_RATE_LIMIT);
    const { apiKey } = await createApiKey(mongo.db, {
      accountId: account._id,
      env: 'test',
      scopes: SCOPES,
      name: 'fuzz key',
      expiresInMs: TEST_KEY_LIFETIMES['1d'],
    });
    return apiKey;
  } finally {
    await mongo.client.close();
  }
}

/** Resolves with schemathesis' exit code, or null when a stop signal handler owns the exit. */
async function main(): Promise<number | null> {
  const seconds = positiveInteger('FUZZ_SECONDS', 300);
  const workers = positiveInteger('FUZZ_WORKERS', 2);
  const bin = await schemathesis(ROOT, log);
  return runOnTemporaryStack({
    dataDir: mkdtempSync(join(tmpdir(), 'offerops-fuzz-')),
    keep: 'FUZZ_KEEP_DATA',
    what: 'fuzz data',
    stack: { withApp: true },
    async main(stack, supervisor) {
      const key = await fuzzAccount(stack);
      log(`fuzzing ${stack.apiUrl}/openapi.json for ${seconds} s with ${workers} workers …`);
      const args = [
        '--config-file',
        CONFIG,
        'run',
        `${stack.apiUrl}/openapi.json`,
        '--url',
        stack.apiUrl!,
        '--checks',
        'all',
        '--exclude-checks',
        'positive_data_acceptance',
        '--max-time',
        String(seconds),
        '--workers',
        String(workers),
        ...(process.env.FUZZ_SEED ? ['--seed', process.env.FUZZ_SEED] : []),
        ...process.argv.slice(2),
      ];
      return supervisor.spawn('schemathesis', bin, args, {
        stdout: 'inherit',
        env: { ...process.env, OFFEROPS_FUZZ_KEY: key, SCHEMATHESIS_HOOKS: HOOKS },
      });
    },
  });
}

exitWith(main(), 'fuzzing');
