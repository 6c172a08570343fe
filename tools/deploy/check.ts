/**
 * `npm run lint:deploy`: the static checks of ./validate.ts over the Dockerfile, deploy/compose.yaml
 * and deploy/kubernetes/*.yaml, the manifests against each Kubernetes version of
 * ./kubernetes-schemas.ts, and what the image holds (./image.ts, against a clone's files and the
 * local build in dist/). Prints each problem as `file:line: message`; exits 1 on any.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { log } from '../stack/processes';
import { KUBERNETES_VERSIONS, kubernetesSchemaFolders } from './kubernetes-schemas';
import { imageInputs, imageProblems, scriptsRun } from './image';
import { composeValidator, kubernetesRules, kubernetesValidator, lintDockerfile, parseYaml, Problem } from './validate';

const root = resolve(__dirname, '../../..');
const DOCKERFILE = 'Dockerfile';
const COMPOSE = 'deploy/compose.yaml';
const KUBERNETES = 'deploy/kubernetes';

async function main(): Promise<void> {
  const read = (file: string) => readFileSync(join(root, file), 'utf8');
  const problems: Problem[] = [...lintDockerfile(DOCKERFILE, read(DOCKERFILE))];

  const compose = parseYaml(COMPOSE, read(COMPOSE));
  const checkCompose = composeValidator();
  problems.push(...compose.problems, ...compose.documents.flatMap(checkCompose));
  if (compose.documents.length !== 1) problems.push({ file: COMPOSE, line: 1, message: 'a compose file is one YAML document' });

  const manifests = readdirSync(join(root, KUBERNETES))
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => parseYaml(join(KUBERNETES, f), read(join(KUBERNETES, f))));
  const documents = manifests.flatMap((m) => m.documents);
  problems.push(...manifests.flatMap((m) => m.problems));
  // A problem found under several versions is printed once, naming them.
  const byMessage = new Map<string, { problem: Problem; versions: string[] }>();
  for (const [version, folder] of await kubernetesSchemaFolders(log)) {
    const validate = kubernetesValidator(folder);
    for (const problem of documents.flatMap(validate)) {
      const key = `${problem.file}:${problem.line}:${problem.message}`;
      const seen = byMessage.get(key) ?? byMessage.set(key, { problem, versions: [] }).get(key)!;
      seen.versions.push(version);
    }
  }
  for (const { problem, versions } of byMessage.values())
    problems.push({ ...problem, message: `${problem.message} (Kubernetes ${versions.join(', ')})` });
  // Our rules read the manifests as their schemas shape them: only once those hold.
  if (byMessage.size === 0) problems.push(...kubernetesRules(documents));

  problems.push(...imageProblems(DOCKERFILE, imageInputs(root, scriptsRun([...compose.documents, ...documents]))));

  problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  for (const p of problems) console.error(`${p.file}:${p.line}: ${p.message}`);
  console.log(
    `${DOCKERFILE}, ${COMPOSE} and ${documents.length} Kubernetes manifests (schemas of Kubernetes ${KUBERNETES_VERSIONS.join(', ')}): ` +
      `${problems.length} problem${problems.length === 1 ? '' : 's'}`,
  );
  if (problems.length > 0) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(`lint:deploy failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
