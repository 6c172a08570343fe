/**
 * What the launcher decides before starting anything: whether dist/ must be
 * rebuilt (tools/build/build.mjs, on a small project of its own), and whether
 * the Go on PATH can build the embedded FerretDB (fake `go` commands on PATH).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { cached } from '../../tools/stack/cache';
import { checkGo } from '../../tools/stack/binaries';

const REPO = resolve(__dirname, '../../..');
const scratch = mkdtempSync(join(tmpdir(), 'offerops-build-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe('the build stamp: build again only when an input changed', () => {
  const root = join(scratch, 'project');
  const write = (file: string, text: string) => {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), text);
  };
  // build.mjs is plain JavaScript (it runs before anything is compiled).
  const load = async () => await import(pathToFileURL(join(REPO, 'tools/build/build.mjs')).href);

  test('fresh only while every input is as it was when the stamp was written', async () => {
    const { buildState, sourceHash, writeStamp } = await load();
    write('tsconfig.json', JSON.stringify({ include: ['src', 'test'] }));
    write('package.json', '{"name":"p"}');
    write('src/a.ts', 'export const a = 1;\n');
    write('src/deep/b.ts', 'export const b = 2;\n');
    write('elsewhere/notes.txt', 'not an input');

    assert.deepEqual(buildState(root), { fresh: false, built: false, reason: 'no complete build in dist/ yet' });
    writeStamp(root, sourceHash(root));
    assert.equal(buildState(root).fresh, true);

    const changed = { fresh: false, built: true, reason: 'sources changed since the last build' };
    write('src/deep/b.ts', 'export const b = 3;\n');
    assert.deepEqual(buildState(root), changed, 'an edit');
    write('src/deep/b.ts', 'export const b = 2;\n');
    assert.equal(buildState(root).fresh, true, 'the edit undone: contents count, not times');

    utimesSync(join(root, 'src/a.ts'), new Date(), new Date(Date.now() + 60_000));
    assert.equal(buildState(root).fresh, true, 'a touch is no change');

    write('test/new.test.ts', '');
    assert.deepEqual(buildState(root), changed, 'a new file in an included folder');
    rmSync(join(root, 'test/new.test.ts'));
    assert.equal(buildState(root).fresh, true);

    rmSync(join(root, 'src/deep/b.ts'));
    assert.deepEqual(buildState(root), changed, 'a deleted file');
    write('src/deep/b.ts', 'export const b = 2;\n');

    write('package.json', '{"name":"p","dependencies":{"x":"1"}}');
    assert.deepEqual(buildState(root), changed, 'package.json');
    write('package.json', '{"name":"p"}');

    write('elsewhere/notes.txt', 'still not an input');
    assert.equal(buildState(root).fresh, true, 'a file outside the inputs');
  });

  test('under npm test (OFFEROPS_FROZEN_BUILD) a stale build is run as it is, never rebuilt under the running files', async () => {
    const project = join(scratch, 'frozen');
    mkdirSync(join(project, 'tools/build'), { recursive: true });
    for (const file of ['run.mjs', 'build.mjs'])
      writeFileSync(join(project, 'tools/build', file), readFileSync(join(REPO, 'tools/build', file)));
    writeFileSync(join(project, 'package.json'), '{"name":"p"}');
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ include: ['src'] }));
    const { writeStamp } = await import(pathToFileURL(join(project, 'tools/build/build.mjs')).href);
    writeStamp(project, 'the hash of other sources');
    writeFileSync(join(project, 'dist/hello.js'), "process.stdout.write('ran the build as it is');\n");
    const run = spawn(process.execPath, [join(project, 'tools/build/run.mjs'), 'hello'], {
      env: { ...process.env, OFFEROPS_FROZEN_BUILD: '1', npm_lifecycle_event: '' },
    });
    let stdout = '';
    let stderr = '';
    run.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    run.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((done) => run.on('exit', done));
    assert.equal(code, 0, stderr);
    assert.equal(stdout, 'ran the build as it is');
    assert.match(stderr, /sources changed since the last build: not built, a test run uses dist\//);
    assert.doesNotMatch(stderr, /building/);
  });

  test('this checkout, as npm test leaves it, is fresh', async () => {
    const { buildState } = await load();
    assert.deepEqual(buildState(REPO), { fresh: true, built: true, reason: 'dist/ is up to date' });
  });
});

describe('the Go check before the FerretDB build', () => {
  const goMod = join(REPO, 'tools/ferretdb/go.mod');
  const wanted = /^go\s+(\S+)\s*$/m.exec(readFileSync(goMod, 'utf8'))![1]!;
  let n = 0;
  /** A PATH holding only a `go` that answers `go env GOVERSION GOTOOLCHAIN` with these lines. */
  const pathWithGo = (version: string, toolchain: string): string => {
    const dir = join(scratch, `go-${n++}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'go'), `#!/bin/sh\nprintf '%s\\n%s\\n' '${version}' '${toolchain}'\n`);
    chmodSync(join(dir, 'go'), 0o755);
    return dir;
  };
  const check = async (PATH: string) => {
    const lines: string[] = [];
    await checkGo(goMod, (line) => lines.push(line), { PATH });
    return lines;
  };

  test('a Go as new as go.mod asks passes silently', async () => {
    assert.deepEqual(await check(pathWithGo(`go${wanted}.0`, 'local')), []);
    assert.deepEqual(await check(pathWithGo('go1.99.1', 'auto')), []);
  });

  test('an older Go that may not fetch a toolchain fails before the build, saying what to do', async () => {
    await assert.rejects(check(pathWithGo('go1.22.5', 'local')), (err: Error) => {
      assert.equal(
        err.message,
        `the embedded FerretDB needs Go ≥ ${wanted} (tools/ferretdb/go.mod), and the go on PATH is go1.22.5 with GOTOOLCHAIN=local: ` +
          `install Go ${wanted} or later (https://go.dev/dl/), or set GOTOOLCHAIN=auto to let go fetch it, or put mongod on PATH, or set MONGODB_URI to a MongoDB`,
      );
      return true;
    });
    // Before Go 1.21 there is no toolchain switching to suggest.
    await assert.rejects(check(pathWithGo('go1.20.14', '')), (err: Error) => {
      assert.match(err.message, new RegExp(`needs Go ≥ ${wanted.replace('.', '\\.')} .* is go1\\.20\\.14: install Go`));
      assert.doesNotMatch(err.message, /GOTOOLCHAIN/);
      return true;
    });
  });

  test('an older Go allowed to fetch the toolchain (GOTOOLCHAIN=auto) goes on, and says so', async () => {
    assert.deepEqual(await check(pathWithGo('go1.22.5', 'auto')), [
      `Go 1.22.5 is older than the ${wanted} tools/ferretdb/go.mod asks for: go fetches go${wanted} first (GOTOOLCHAIN=auto)`,
    ]);
  });

  test('no go at all: fails before the build, saying what to do', async () => {
    const empty = join(scratch, 'no-go');
    mkdirSync(empty);
    await assert.rejects(
      check(empty),
      /built from source with Go ≥ .*, and go is not on PATH: install Go .* or later \(https:\/\/go\.dev\/dl\/\), or put mongod on PATH/,
    );
  });
});

describe('the cache of binaries', () => {
  test('starts that ask for the same missing binary at once produce it once: the others wait and say so', async () => {
    const before = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = join(scratch, 'cache');
    try {
      let produced = 0;
      const lines: string[] = [];
      const produce = async (dir: string) => {
        produced++;
        await sleep(300); // a slow producer, so the three calls overlap: not a wait for a state
        writeFileSync(join(dir, 'tool'), '#!/bin/sh\n');
      };
      const paths = await Promise.all([1, 2, 3].map(() => cached('tool-1', 'tool', (line) => lines.push(line), produce)));
      assert.equal(produced, 1);
      assert.deepEqual(new Set(paths).size, 1);
      assert.ok(
        lines.some((line) => /is producing tool-1: waiting for it/.test(line)),
        lines.join('\n'),
      );
      // A lock left by a start that died is taken over.
      writeFileSync(join(scratch, 'cache', 'offerops', '.lock-tool-2'), '999999999');
      assert.match(await cached('tool-2', 'tool', () => undefined, produce), /tool-2\/tool$/);
      assert.equal(produced, 2);
      // A long wait for another start's build says, now and then, how long it has waited.
      const owner = spawn('sleep', ['30']);
      writeFileSync(join(scratch, 'cache', 'offerops', '.lock-tool-3'), String(owner.pid));
      const waited: string[] = [];
      const waiting = cached('tool-3', 'tool', (line) => waited.push(line), produce, 400);
      await sleep(1500); // the other start's build lasts this long: then it dies, and its lock is taken over
      owner.kill('SIGKILL');
      assert.match(await waiting, /tool-3\/tool$/);
      assert.match(waited[0]!, new RegExp(`another start \\(pid ${owner.pid}\\) is producing tool-3: waiting for it`));
      assert.ok(
        waited.slice(1).some((line) => /^still waiting for pid \d+ to produce tool-3 \(\d+ s so far\)$/.test(line)),
        waited.join('\n'),
      );
    } finally {
      if (before === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = before;
    }
  });
});
