/**
 * Kubernetes' own JSON Schemas, for checking our manifests without a cluster: the "local-strict"
 * flavour (unknown fields are errors, as with `kubectl apply --validate=strict`) that the PyPI
 * package kubernetes-validate ships for each Kubernetes minor version. Fetched with pip on first
 * use, its hash checked, and the versions we check against cached under
 * `${XDG_CACHE_HOME:-~/.cache}/offerops/`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir } from '../stack/cache';
import { Log, run } from '../stack/processes';

const PACKAGE = 'kubernetes-validate';
const PACKAGE_VERSION = '1.37.0';
/** sha256 of kubernetes_validate-1.37.0-py3-none-any.whl as PyPI serves it. */
const WHEEL_SHA256 = '85136d018a27b50ec7fc049d902bfa5193f5976807e6c0f408e3ab6fe078cad9';
/** Where the schemas sit inside the wheel. */
const WHEEL_FOLDER = 'kubernetes_validate/kubernetes-json-schema';

/** Kubernetes versions the manifests are checked against: nothing newer than the first, nothing removed by the last. */
export const KUBERNETES_VERSIONS = ['1.30.0', '1.37.0'] as const;

const folderOf = (version: string): string => `v${version}-local-strict`;

/** The cached schema folder of each of KUBERNETES_VERSIONS, fetched first when missing. */
export async function kubernetesSchemaFolders(log: Log): Promise<Map<string, string>> {
  const root = join(cacheDir(), `kubernetes-json-schema-${PACKAGE_VERSION}`);
  const folders = new Map(KUBERNETES_VERSIONS.map((v) => [v, join(root, folderOf(v))]));
  if ([...folders.values()].every((dir) => existsSync(join(dir, '_definitions.json')))) return folders;

  const staging = join(cacheDir(), `.tmp-kubernetes-json-schema-${randomBytes(4).toString('hex')}`);
  mkdirSync(staging, { recursive: true });
  try {
    log(`fetching Kubernetes JSON schemas (PyPI ${PACKAGE} ${PACKAGE_VERSION}) …`);
    const pip = ['-m', 'pip', 'download', '--quiet', '--disable-pip-version-check', '--no-cache-dir', '--no-deps', '--only-binary=:all:'];
    await run('python3', [...pip, '--dest', staging, `${PACKAGE}==${PACKAGE_VERSION}`], {
      progress: { what: `fetching ${PACKAGE} (pip download)`, log },
    });
    const wheel = readdirSync(staging).find((f) => f.endsWith('.whl'));
    if (!wheel) throw new Error(`pip download left no wheel of ${PACKAGE} in ${staging}`);
    const hash = createHash('sha256')
      .update(readFileSync(join(staging, wheel)))
      .digest('hex');
    if (hash !== WHEEL_SHA256) throw new Error(`${wheel} has sha256 ${hash}, not the expected ${WHEEL_SHA256}`);
    // Only the folders we check against: the wheel holds every version, 72 MB unpacked.
    const extract = [
      'import sys, zipfile',
      'wheel, out, *folders = sys.argv[1:]',
      `wanted = tuple('${WHEEL_FOLDER}/' + f + '/' for f in folders)`,
      'archive = zipfile.ZipFile(wheel)',
      'for name in archive.namelist():',
      '    if name.startswith(wanted): archive.extract(name, out)',
    ].join('\n');
    const out = join(staging, 'out');
    await run('python3', ['-c', extract, join(staging, wheel), out, ...KUBERNETES_VERSIONS.map(folderOf)]);
    rmSync(root, { recursive: true, force: true });
    try {
      renameSync(join(out, WHEEL_FOLDER), root);
    } catch (err) {
      // Another lint won the race; its copy is as good as ours.
      if (![...folders.values()].every((dir) => existsSync(join(dir, '_definitions.json')))) throw err;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return folders;
}
