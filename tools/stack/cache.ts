/**
 * The cache of the stack's external binaries, outside the clone
 * (`${XDG_CACHE_HOME:-~/.cache}/offerops/`), so only the first start pays for
 * them. Each is produced in a private temporary directory and renamed into
 * place, so concurrent first starts never see a half-written binary.
 */
import { randomBytes } from 'node:crypto';
import { accessSync, chmodSync, constants, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Log } from './processes';

export function cacheDir(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'offerops');
}

export function isExecutable(file: string): boolean {
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
async function holdingLock<T>(entry: string, log: Log, noteEveryMs: number, fn: () => Promise<T>): Promise<T> {
  mkdirSync(cacheDir(), { recursive: true });
  const lock = join(cacheDir(), `.lock-${entry}`);
  const start = Date.now();
  let said = 0;
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
      else if (Date.now() - said >= noteEveryMs)
        log(`still waiting for pid ${owner} to produce ${entry} (${Math.round((Date.now() - start) / 1000)} s so far)`);
      if (!said || Date.now() - said >= noteEveryMs) said = Date.now();
      await sleep(Math.min(1_000, noteEveryMs));
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
 * fills a fresh directory that is then renamed into place. A start waiting
 * for another's says so every `noteEveryMs`, with the time waited.
 */
export async function cached(
  entry: string,
  binary: string,
  log: Log,
  produce: (dir: string) => Promise<void>,
  noteEveryMs = 30_000,
): Promise<string> {
  const final = join(cacheDir(), entry);
  if (isExecutable(join(final, binary))) return join(final, binary);
  return holdingLock(entry, log, noteEveryMs, async () => {
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
export const goEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ ...process.env, CGO_ENABLED: '0', ...extra });
