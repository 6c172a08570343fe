/**
 * The binaries the embedded stack builds or finds: our FerretDB embedding
 * (built with Go, checked first), and mongod on PATH. The cache they live in
 * is ./cache.ts; the Temporal CLI, ./temporal-cli.ts.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { cached, goEnv, isExecutable } from './cache';
import { Log, output, run } from './processes';

/** tools/ferretdb of this checkout (compiled code lives in dist/tools/stack). */
const FERRETDB_SOURCE = resolve(__dirname, '../../../tools/ferretdb');
/**
 * The embedding runs FerretDB's SQLite backend only: leaving its PostgreSQL backend out spares a fresh build about an
 * eighth of its CPU (.ci/run's warm-up builds with the same tags).
 */
const FERRETDB_BUILD_TAGS = 'ferretdb_no_postgresql';
/** What the embedding is built from: its Go files (tests aside), go.mod and go.sum, in name order. */
const ferretdbInputs = (): string[] =>
  readdirSync(FERRETDB_SOURCE)
    .filter((f) => (f.endsWith('.go') && !f.endsWith('_test.go')) || f === 'go.mod' || f === 'go.sum')
    .sort();

/** A Go version (`go1.24.2`, `1.24`) as numbers, or null when it is not one. */
function goVersion(text: string): number[] | null {
  const match = /^(?:go)?(\d+)\.(\d+)(?:\.(\d+))?/.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : null;
}

const atLeast = (version: number[], wanted: number[]): boolean => {
  for (let i = 0; i < wanted.length; i++) {
    if (version[i]! !== wanted[i]!) return version[i]! > wanted[i]!;
  }
  return true;
};

/**
 * Checks, before a build of `go.mod`'s module starts, that `go` (on `env`'s PATH)
 * can build it: at least the `go` line of go.mod, or Go ≥ 1.21 allowed to fetch
 * that toolchain itself (GOTOOLCHAIN=auto, Go's default). Throws a message saying
 * what to do otherwise; logs when Go is about to fetch a toolchain.
 */
export async function checkGo(goMod: string, log: Log, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const wantedText = /^go\s+(\S+)\s*$/m.exec(readFileSync(goMod, 'utf8'))?.[1];
  const wanted = wantedText ? goVersion(wantedText) : null;
  if (!wanted) return;
  const alternatives = 'or put mongod on PATH, or set MONGODB_URI to a MongoDB';
  let answer: string;
  try {
    // Outside any module, so that go reports itself rather than switching toolchains for one.
    answer = await output('go', ['env', 'GOVERSION', 'GOTOOLCHAIN'], { cwd: tmpdir(), env });
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    throw new Error(
      `the embedded FerretDB is built from source with Go ≥ ${wantedText}, and ${missing ? 'go is not on PATH' : `\`go env\` failed (${(err as Error).message.split('\n')[0]})`}: install Go ${wantedText} or later (https://go.dev/dl/), ${alternatives}`,
      { cause: err },
    );
  }
  const [versionText = '', toolchain = ''] = answer.split('\n').map((line) => line.trim());
  const version = goVersion(versionText.replace(/^devel\s+/, ''));
  if (!version || atLeast(version, wanted)) return;
  const mayFetch = atLeast(version, [1, 21]) && /(^|\+)auto$/.test(toolchain);
  if (mayFetch) {
    log(
      `Go ${versionText.replace(/^go/, '')} is older than the ${wantedText} tools/ferretdb/go.mod asks for: go fetches go${wantedText} first (GOTOOLCHAIN=${toolchain})`,
    );
    return;
  }
  throw new Error(
    `the embedded FerretDB needs Go ≥ ${wantedText} (tools/ferretdb/go.mod), and the go on PATH is ${versionText}${toolchain ? ` with GOTOOLCHAIN=${toolchain}` : ''}: ` +
      `install Go ${wantedText} or later (https://go.dev/dl/)${atLeast(version, [1, 21]) ? ', or set GOTOOLCHAIN=auto to let go fetch it' : ''}, ${alternatives}`,
  );
}

/** Our FerretDB embedding (tools/ferretdb), rebuilt whenever its sources change. */
export async function ferretdbBinary(log: Log): Promise<string> {
  const hash = createHash('sha256').update(FERRETDB_BUILD_TAGS);
  for (const file of ferretdbInputs()) hash.update(file).update(readFileSync(join(FERRETDB_SOURCE, file)));
  const key = hash.digest('hex').slice(0, 12);
  return cached(`ferretdb-${key}`, 'offerops-ferretdb', log, async (dir) => {
    await checkGo(join(FERRETDB_SOURCE, 'go.mod'), log);
    log('building the embedded FerretDB (Go module proxy): 5–15 minutes on 2 cores the first time, under a minute after a change …');
    await run('go', ['build', '-v', '-tags', FERRETDB_BUILD_TAGS, '-o', join(dir, 'offerops-ferretdb'), '.'], {
      cwd: FERRETDB_SOURCE,
      env: goEnv(),
      progress: { what: 'building FerretDB (go build)', log },
    }).catch((err: Error) => {
      throw new Error(`${err.message}\n(the build fetches modules from the Go module proxy; or put mongod on PATH, or set MONGODB_URI)`);
    });
  });
}

/** The path of `mongod` on PATH, or null. */
export function mongodOnPath(): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutable(join(dir, 'mongod'))) return join(dir, 'mongod');
  }
  return null;
}
