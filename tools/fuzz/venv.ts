/**
 * The fuzzer's Python side: a project-local virtual environment
 * (`.venv-fuzz/`, git-ignored) holding the pinned schemathesis from PyPI,
 * created and filled with pip on the first run (and again whenever the pin
 * changes). FUZZ_PYTHON names the interpreter (default: python3.11, else python3).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Log, output, run } from '../stack/processes';

export const SCHEMATHESIS_VERSION = '4.32.5';

async function python(): Promise<string> {
  const candidates = process.env.FUZZ_PYTHON ? [process.env.FUZZ_PYTHON] : ['python3.11', 'python3'];
  for (const candidate of candidates) {
    try {
      const version = await output(candidate, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])']);
      const [major, minor] = version.split('.').map(Number);
      if (major === 3 && minor! >= 9) return candidate;
    } catch {
      // not on PATH: try the next one
    }
  }
  throw new Error(`schemathesis needs Python 3.9 or later: none of ${candidates.join(', ')} runs (set FUZZ_PYTHON)`);
}

/** The `schemathesis` executable of `<root>/.venv-fuzz`, installed first when missing or not the pinned version. */
export async function schemathesis(root: string, log: Log): Promise<string> {
  const venv = join(root, '.venv-fuzz');
  const bin = join(venv, 'bin', 'schemathesis');
  const installed = existsSync(bin) ? await output(bin, ['--version']).catch(() => '') : '';
  if (installed.includes(SCHEMATHESIS_VERSION)) return bin;
  if (!existsSync(join(venv, 'bin', 'python'))) {
    log(`creating ${venv} …`);
    await run(await python(), ['-m', 'venv', venv]);
  }
  log(`installing schemathesis ${SCHEMATHESIS_VERSION} from PyPI into ${venv} (once) …`);
  await run(join(venv, 'bin', 'python'), ['-m', 'pip', 'install', '--quiet', `schemathesis==${SCHEMATHESIS_VERSION}`], {
    progress: { what: 'pip install schemathesis', log },
  });
  return bin;
}
