/**
 * The static checks of the deployment files (tools/deploy/validate.ts, `npm run lint:deploy`):
 * the repository's own files pass, and each kind of mistake is caught at its line — against the
 * Compose Specification's schema, Kubernetes' strict schemas (fetched from PyPI on first use, then
 * cached) and our own rules for what the schemas cannot say.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, describe, test } from 'node:test';
import { kubernetesSchemaFolders } from '../../tools/deploy/kubernetes-schemas';
import {
  composeValidator,
  isPinnedImage,
  kubernetesRules,
  kubernetesValidator,
  lintDockerfile,
  parseYaml,
  Problem,
  YamlDocument,
} from '../../tools/deploy/validate';

const root = resolve(__dirname, '../../..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const lines = (problems: Problem[]) => problems.map((p) => `${p.line}: ${p.message}`);

/** The documents of a YAML text that must parse. */
function yaml(text: string, file = 'test.yaml'): YamlDocument[] {
  const { documents, problems } = parseYaml(file, text);
  assert.deepEqual(problems, []);
  return documents;
}

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: web
          image: example/web:1.2.3
          ports:
            - name: http
              containerPort: 8080
          readinessProbe:
            httpGet:
              path: /readyz
              port: http
          resources:
            requests:
              cpu: 100m
              memory: 64Mi
            limits:
              memory: 128Mi
`;

describe('Kubernetes manifests', () => {
  const validators: ((doc: YamlDocument) => Problem[])[] = [];
  before(async () => {
    for (const folder of (await kubernetesSchemaFolders(() => undefined)).values()) validators.push(kubernetesValidator(folder));
  });
  const check = (text: string) => yaml(text).flatMap((doc) => validators.flatMap((validate) => validate(doc)));

  test("the repository's manifests pass the schemas of every version and our rules", () => {
    const folder = 'deploy/kubernetes';
    const docs = readdirSync(join(root, folder)).flatMap((f) => yaml(read(join(folder, f)), f));
    assert.deepEqual(docs.map((d) => `${(d.data as { kind: string }).kind}`).sort(), [
      'ConfigMap',
      'Deployment',
      'Deployment',
      'Job',
      'PodDisruptionBudget',
      'PodDisruptionBudget',
      'Service',
    ]);
    assert.deepEqual(lines(docs.flatMap((doc) => validators.flatMap((validate) => validate(doc)))), []);
    assert.deepEqual(lines(kubernetesRules(docs)), []);
  });

  test('a well-formed Deployment passes', () => {
    assert.deepEqual(lines(check(DEPLOYMENT)), []);
    assert.deepEqual(lines(kubernetesRules(yaml(DEPLOYMENT))), []);
  });

  test('a Deployment without spec.selector is rejected at its spec', () => {
    const text = DEPLOYMENT.replace('  selector:\n    matchLabels:\n      app: web\n', '');
    assert.deepEqual([...new Set(lines(check(text)))], ['5: Deployment: spec: missing required property "selector"']);
  });

  test('a misspelt field is an unknown property (strict schemas), at its line', () => {
    const text = DEPLOYMENT.replace('readinessProbe:', 'readynessProbe:');
    assert.deepEqual([...new Set(lines(check(text)))], ['21: Deployment: spec.template.spec.containers.0: unknown property "readynessProbe"']);
  });

  test('a value of the wrong type is rejected: a ConfigMap value must be a string', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  TIMEOUT_MS: 10000\n';
    assert.deepEqual([...new Set(lines(check(text)))], ['6: ConfigMap: data.TIMEOUT_MS: must be string or null']);
  });

  test('a kind without a schema, or a manifest without a kind, is a problem, not a pass', () => {
    assert.deepEqual(
      [...new Set(lines(check('apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n')))],
      ['2: no schema for example.com/v1 Widget'],
    );
    assert.deepEqual([...new Set(lines(check('metadata:\n  name: w\n')))], ['1: a manifest needs a string apiVersion and kind']);
  });

  test('our rules: selector against pod labels, selectors that select nothing, pinned images, resources, probe ports', () => {
    const broken = DEPLOYMENT.replace('      app: web\n  template', '      app: website\n  template')
      .replace('example/web:1.2.3', 'example/web:latest')
      .replace('              cpu: 100m\n', '')
      .replace('              port: http', '              port: web');
    const service = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  selector:\n    app: api\n  ports:\n    - port: 80\n';
    const pdb =
      'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: p\nspec:\n  maxUnavailable: 1\n  selector:\n    matchLabels:\n      app: web\n';
    assert.deepEqual(lines(kubernetesRules([...yaml(broken), ...yaml(service), ...yaml(pdb)])), [
      '7: Deployment: spec.selector.matchLabels does not match the pod template labels (the API server rejects it)',
      '17: Deployment: container web: pin the image to a tag or digest',
      '25: Deployment: container web: set resources.requests.cpu and .memory',
      '21: Deployment: container web: readinessProbe uses port "web", which it does not name',
      '6: Service: its selector matches no pod template of these manifests',
    ]);
  });
});

const COMPOSE = `name: app
services:
  db:
    image: postgres:16.11
  web:
    image: example/web:1.2.3
    depends_on:
      db:
        condition: service_started
    ports:
      - '127.0.0.1:8080:8080'
`;

describe('the compose file', () => {
  const validate = composeValidator();
  const check = (text: string) => lines(yaml(text).flatMap(validate));

  test("the repository's compose file passes", () => {
    assert.deepEqual(lines(yaml(read('deploy/compose.yaml')).flatMap(validate)), []);
  });

  test('a well-formed file passes', () => {
    assert.deepEqual(check(COMPOSE), []);
  });

  test('a service with an unknown key is rejected at that key', () => {
    assert.deepEqual(check(COMPOSE.replace('    ports:', '    restart_policy: always\n    ports:')), [
      '10: services.web: unknown property "restart_policy"',
    ]);
  });

  test('a value of the wrong shape is rejected, with what each accepted form wants', () => {
    assert.deepEqual(check(COMPOSE.replace('condition: service_started', 'condition: started')), [
      '7: services.web.depends_on: must be array',
      '9: services.web.depends_on.db.condition: must be equal to one of the allowed values ("service_started", "service_healthy", "service_completed_successfully")',
    ]);
  });

  test('our rules: a dependency on a service the file lacks, an unpinned image', () => {
    assert.deepEqual(check(COMPOSE.replace('      db:\n', '      cache:\n').replace('postgres:16.11', 'postgres')), [
      '4: services.db: pin the image postgres to a tag or digest',
      '8: services.web.depends_on: no service "cache" in this file',
    ]);
  });

  test('our rules: a secret read with a default is reported; required, or a non-secret with a default, passes', () => {
    const withEnv = (env: string) =>
      COMPOSE.replace('  db:\n    image: postgres:16.11\n', `  db:\n    image: postgres:16.11\n    environment:\n${env}`);
    assert.deepEqual(check(withEnv('      POSTGRES_PASSWORD: ${DB_PASSWORD:-postgres}\n      API: ${API_TOKEN-x}\n')), [
      '6: services.db.environment.POSTGRES_PASSWORD: ${DB_PASSWORD} has a default; a secret is required: ${DB_PASSWORD:?…}',
      '7: services.db.environment.API: ${API_TOKEN} has a default; a secret is required: ${API_TOKEN:?…}',
    ]);
    assert.deepEqual(check(withEnv('      POSTGRES_PASSWORD: ${DB_PASSWORD:?set it}\n      URL: ${DB_URL:-postgres://db}\n')), []);
  });

  test('a YAML syntax error is reported with its line', () => {
    const { problems } = parseYaml('c.yaml', 'services:\n  web:\n    image: [unclosed\n');
    assert.equal(problems.length > 0, true);
    assert.equal(problems[0]!.file, 'c.yaml');
  });
});

const DOCKERFILE = `FROM node:20.20.0-bookworm-slim AS base
WORKDIR /app

FROM base AS runtime
COPY . .
USER node
HEALTHCHECK CMD ["node", "-e", "process.exit(0)"]
CMD ["node", "main.js"]
`;

describe('the Dockerfile', () => {
  const check = (text: string) => lines(lintDockerfile('Dockerfile', text));

  test("the repository's Dockerfile passes", () => {
    assert.deepEqual(check(read('Dockerfile')), []);
  });

  test('a well-formed one passes, its USER and HEALTHCHECK possibly inherited from an earlier stage', () => {
    assert.deepEqual(check(DOCKERFILE), []);
    const inherited = DOCKERFILE.replace('WORKDIR /app\n', 'WORKDIR /app\nUSER node\n').replace('USER node\nHEALTHCHECK', 'HEALTHCHECK');
    assert.deepEqual(check(inherited), []);
  });

  test('an image that runs as root is rejected: no USER line, or USER root', () => {
    assert.deepEqual(check(DOCKERFILE.replace('USER node\n', '')), [
      '4: the image runs as root: add a USER line with another user to the final stage',
    ]);
    assert.deepEqual(check(DOCKERFILE.replace('USER node', 'USER 0:0')), [
      '6: the image runs as root: add a USER line with another user to the final stage',
    ]);
  });

  test('an image without a HEALTHCHECK, or with HEALTHCHECK NONE, is rejected', () => {
    assert.deepEqual(check(DOCKERFILE.replace(/HEALTHCHECK .*\n/, '')), ['4: the image has no HEALTHCHECK']);
    assert.deepEqual(check(DOCKERFILE.replace(/HEALTHCHECK .*\n/, 'HEALTHCHECK NONE\n')), ['7: the image has no HEALTHCHECK']);
  });

  test('an unpinned base image and a shell-form CMD are rejected', () => {
    assert.deepEqual(check(DOCKERFILE.replace('node:20.20.0-bookworm-slim', 'node').replace('CMD ["node", "main.js"]', 'CMD node main.js')), [
      '1: FROM node: pin the base image to a tag or digest',
      '8: CMD in shell form runs under /bin/sh, which does not pass SIGTERM on: use the exec form ["…"]',
    ]);
  });

  test('what the Docker builder would reject is reported (dockerfile-utils)', () => {
    const problems = check(DOCKERFILE.replace('WORKDIR /app', 'WORKDIR /app\nCOPPY . .'));
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /^3: .*COPPY/i);
  });
});

test('pinned images: a tag other than latest, or a digest', () => {
  assert.equal(isPinnedImage('mongo:7.0.28'), true);
  assert.equal(isPinnedImage('registry.example.com:5000/offerops:0.1.0'), true);
  assert.equal(isPinnedImage(`caddy@sha256:${'a'.repeat(64)}`), true);
  assert.equal(isPinnedImage('mongo'), false);
  assert.equal(isPinnedImage('mongo:latest'), false);
  assert.equal(isPinnedImage('registry.example.com:5000/offerops'), false);
  assert.equal(isPinnedImage('offerops:${TAG}'), false);
});
