/** Running the compiled `offerops` operator CLI as a child process, and reading what it printed. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';

const CLI = resolve(__dirname, '../../tools/cli/offerops.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The parent's environment without any stack settings (MONGODB_URI,
 * MONGODB_DB, OFFEROPS_DATA_DIR), plus `env`: a value sets, undefined removes.
 */
export function cliEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['MONGODB_URI', 'MONGODB_DB', 'OFFEROPS_DATA_DIR']) delete out[k];
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** Runs `offerops args…`; `input`, when given, is its stdin (then closed). */
export function runCli(args: string[], env: NodeJS.ProcessEnv, cwd: string, input?: string): Promise<CliRun> {
  return new Promise((done) => {
    const child = execFile(process.execPath, [CLI, ...args], { env, cwd, timeout: 60_000 }, (err, stdout, stderr) => {
      done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** Exactly one line of JSON on stdout, nothing on stderr, exit 0: that JSON. */
export function ok(run: CliRun): any {
  assert.equal(run.code, 0, `exit ${run.code}: ${run.stderr}`);
  assert.equal(run.stderr, '');
  const lines = run.stdout.split('\n').filter(Boolean);
  assert.equal(lines.length, 1, run.stdout);
  assert.ok(run.stdout.endsWith('\n'));
  return JSON.parse(lines[0]!);
}

/** A usage or input failure: exit 2, `{"error": …}` on stderr, nothing on stdout; the error. */
export function usage(run: CliRun): string {
  assert.equal(run.code, 2, `exit ${run.code}: ${run.stdout} ${run.stderr}`);
  assert.equal(run.stdout, '');
  const err = JSON.parse(run.stderr.trim());
  assert.equal(typeof err.error, 'string');
  assert.ok(err.error.length > 0);
  return err.error;
}
