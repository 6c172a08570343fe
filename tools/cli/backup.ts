/**
 * `admin backup` and `admin restore` for the embedded stack: its state is
 * SQLite files — Temporal's (`temporal/temporal.db`) and FerretDB's (one per
 * database under `ferretdb/`) — copied with SQLite's online backup while the
 * stack runs, each a consistent snapshot. Temporal is copied first: a record
 * the database gained after (a publication queued meanwhile) is one whose
 * workflow the outbox sweep starts after a restore, never a workflow whose
 * record is missing. The sealing key goes with them (sealed secrets are
 * useless without it), so a backup is as secret as the key.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { UsageError } from './errors';

/** What a backup holds: written last as `manifest.json`, so a backup cut short has none. */
export interface Manifest {
  format: 1;
  created_at: string;
  /** The data directory it was taken from. */
  source: string;
  files: { path: string; bytes: number; sha256: string }[];
}

/** The files of a data directory a backup copies with SQLite's online backup, and those copied as they are. */
const SQLITE_DIRS = ['temporal', 'ferretdb'];
const PLAIN_FILES = ['secret.key', 'demo.json', 'ports.json'];

/** SQLite's online backup of `src` into `dst` (python3's sqlite3, which the stack already needs): one step, one snapshot. */
const BACKUP_PY = [
  'import sqlite3, sys',
  'src = sqlite3.connect(sys.argv[1], timeout=60)',
  'dst = sqlite3.connect(sys.argv[2])',
  'src.backup(dst)',
  'dst.close()',
  'src.close()',
].join('\n');

function sqliteBackup(src: string, dst: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('python3', ['-c', BACKUP_PY, src, dst], { timeout: 10 * 60_000 }, (err, _stdout, stderr) =>
      err ? reject(new Error(`backing up ${src} failed: ${stderr.trim() || err.message}`)) : resolve(),
    );
  });
}

const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The SQLite files under `dir/sub`, Temporal's first. */
function sqliteFiles(dataDir: string): string[] {
  return SQLITE_DIRS.flatMap((sub) => {
    const dir = join(dataDir, sub);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((name) => name.endsWith('.db') || name.endsWith('.sqlite'))
      .sort()
      .map((name) => join(sub, name));
  });
}

/** An empty directory (made when missing), or a usage error naming what is in the way. */
function emptyDir(dir: string, what: string): void {
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new UsageError(`${what} ${dir} is not empty`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

export async function backupStack(dataDir: string, to: string): Promise<Manifest> {
  const files = sqliteFiles(dataDir);
  if (!files.some((f) => f.startsWith('ferretdb/')) || !files.some((f) => f.startsWith('temporal/'))) {
    throw new UsageError(
      `${dataDir} holds no embedded FerretDB and Temporal to back up (a stack on MONGODB_URI or TEMPORAL_ADDRESS is backed ` +
        "up with mongodump and the Temporal cluster's own tools: see docs/operations/backups.md)",
    );
  }
  emptyDir(to, 'the backup directory');
  for (const file of files) {
    mkdirSync(dirname(join(to, file)), { recursive: true, mode: 0o700 });
    await sqliteBackup(join(dataDir, file), join(to, file));
  }
  for (const file of PLAIN_FILES) if (existsSync(join(dataDir, file))) copyFileSync(join(dataDir, file), join(to, file));
  const copied = [...files, ...PLAIN_FILES.filter((f) => existsSync(join(to, f)))];
  const manifest: Manifest = {
    format: 1,
    created_at: new Date().toISOString(),
    source: dataDir,
    files: copied.map((path) => ({ path, bytes: statSync(join(to, path)).size, sha256: sha256(join(to, path)) })),
  };
  writeFileSync(join(to, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  return manifest;
}

export function restoreStack(from: string, dataDir: string): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(from, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    throw new UsageError(`${from} is not a complete backup (no manifest.json: a backup cut short writes none)`);
  }
  for (const file of manifest.files) {
    if (isAbsolute(file.path) || relative('.', file.path).startsWith('..'))
      throw new UsageError(`the manifest names a file outside the backup: ${file.path}`);
    const path = join(from, file.path);
    if (!existsSync(path) || sha256(path) !== file.sha256)
      throw new UsageError(`${path} is missing or damaged (its checksum differs from the manifest's)`);
  }
  emptyDir(dataDir, 'the data directory to restore into');
  for (const file of manifest.files) {
    const target = join(dataDir, file.path);
    mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
    copyFileSync(join(from, file.path), target);
  }
  return manifest;
}
