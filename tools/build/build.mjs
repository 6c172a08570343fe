/**
 * The build, in plain JavaScript because it runs before anything is compiled.
 *
 * `node tools/build/build.mjs` (`npm run build`, and `prepare` at install) is the full build:
 * TypeScript into dist/, the CLI made executable and linked as node_modules/.bin/offerops,
 * the workflow bundle, and last
 * `dist/.build-stamp`, a hash of every input as it was when the build began.
 * tools/build/run.mjs (`npm start`, `npm test`, …) compares that hash with the inputs
 * of now and builds only when they differ: an edit, a new or deleted file, a changed
 * tsconfig.json, package.json or package-lock.json. Contents are hashed, not times, so a
 * `git checkout` back and forth or a `touch` does not force a build.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/** The checkout this file belongs to. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Besides the folders tsconfig.json includes. */
const INPUT_FILES = ['tsconfig.json', 'package.json', 'package-lock.json'];
const STAMP = join('dist', '.build-stamp');

/** Every file under `dir`, recursively, as paths relative to `root`. */
function filesUnder(root, dir) {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(root, path);
    return entry.isFile() ? [path] : [];
  });
}

/** A hash of the build's inputs under `root`: each file's path and content, in a stable order. */
export function sourceHash(root = ROOT) {
  const include = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')).include ?? [];
  const files = [...INPUT_FILES, ...include.flatMap((dir) => filesUnder(root, dir))].sort();
  const hash = createHash('sha256');
  for (const file of files) {
    let content;
    try {
      content = readFileSync(join(root, file));
    } catch {
      continue; // e.g. no package-lock.json
    }
    hash.update(`${file.split('\\').join('/')}\0${content.length}\0`);
    hash.update(content);
  }
  return hash.digest('hex');
}

/** Whether dist/ under `root` was built from the inputs as they are now (`fresh`), whether it holds a complete build at all (`built`); `reason` says which. */
export function buildState(root = ROOT) {
  let stamp;
  try {
    stamp = readFileSync(join(root, STAMP), 'utf8').trim();
  } catch {
    return { fresh: false, built: false, reason: 'no complete build in dist/ yet' };
  }
  if (stamp !== sourceHash(root)) return { fresh: false, built: true, reason: 'sources changed since the last build' };
  return { fresh: true, built: true, reason: 'dist/ is up to date' };
}

/** Records that dist/ under `root` holds the build of the inputs whose hash is `hash`. */
export function writeStamp(root, hash) {
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(join(root, STAMP), `${hash}\n`);
}

/** Runs `node <args>` in `root` with our stdio; rejects unless it exits 0. `onChild` gets the process (to stop it). */
function node(root, args, onChild) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
    onChild(child);
    child.once('error', reject);
    child.once('exit', (code, sig) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`node ${args.map((a) => relative(root, a) || a).join(' ')} failed (${sig ?? `exit code ${code}`})`));
    });
  });
}

/**
 * `node_modules/.bin/offerops` → the built CLI: `npx offerops` and MCP clients run this
 * checkout's build directly. package.json has no `bin` on purpose: with one, npm exec
 * installs the checkout into its npx cache (and builds it there) instead.
 */
function linkCli(root) {
  const bin = join(root, 'node_modules/.bin/offerops');
  mkdirSync(dirname(bin), { recursive: true });
  rmSync(bin, { force: true });
  symlinkSync('../../dist/tools/cli/offerops.js', bin);
}

/**
 * The full build of `root` (default: this checkout). Each step runs as a child
 * process handed to `onChild`, so that a caller can stop it. The stamp is written
 * last, so an interrupted or failed build leaves dist/ stale, never falsely up to date.
 */
export async function build({ root = ROOT, onChild = () => undefined } = {}) {
  const hash = sourceHash(root);
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  await node(root, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], onChild);
  chmodSync(join(root, 'dist/tools/cli/offerops.js'), 0o755);
  linkCli(root);
  await node(root, [join(root, 'dist/tools/build/workflow-bundle.js')], onChild);
  writeStamp(root, hash);
}

/**
 * `build()`, stopped (its running step sent SIGTERM, no further step started) on
 * SIGINT, SIGTERM or SIGHUP; resolves with the signal that stopped it, or null.
 */
export async function buildUnlessStopped(options = {}) {
  let stoppedBy = null;
  let current;
  const onSignal = (sig) => {
    stoppedBy ??= sig;
    current?.kill('SIGTERM');
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const sig of signals) process.on(sig, onSignal);
  try {
    await build({
      ...options,
      onChild: (child) => {
        current = child;
        if (stoppedBy) child.kill('SIGTERM');
      },
    });
  } catch (err) {
    if (!stoppedBy) throw err;
  } finally {
    for (const sig of signals) process.off(sig, onSignal);
  }
  return stoppedBy;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildUnlessStopped().then(
    (stoppedBy) => stoppedBy && process.exit(1),
    (err) => {
      process.stderr.write(`offerops: build failed: ${err.message}\n`);
      process.exit(1);
    },
  );
}
