/**
 * Static checks of the deployment files, for `npm run lint:deploy` (./check.ts): nothing is built,
 * started or sent to a cluster. Each check returns its problems with the line they are on:
 *
 * - the compose file against the Compose Specification's JSON Schema (the copy the compose linter
 *   dclint ships), and that every image is pinned, every `depends_on` names a service of the file,
 *   and no variable named as a secret (`…PASSWORD`, `…TOKEN`, …) has a default;
 * - each Kubernetes manifest against Kubernetes' JSON Schema for its kind and version, strict
 *   (./kubernetes-schemas.ts), and rules the schema cannot state: a Deployment's selector matches
 *   its pod labels, a Service or PodDisruptionBudget selects some pods of the folder, every container
 *   has a pinned image and resource requests, and a probe's named port exists;
 * - the Dockerfile with dockerfile-utils (what the Docker builder would reject), and rules of ours:
 *   pinned base images, a final stage that runs as a user other than root, has a HEALTHCHECK, and
 *   starts its process in exec form (so that it, not a shell, receives SIGTERM).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { DockerfileParser, From, Instruction } from 'dockerfile-ast';
import { validate as dockerfileDiagnostics } from 'dockerfile-utils';
import { Document, isAlias, isMap, isNode, isScalar, isSeq, LineCounter, parseAllDocuments } from 'yaml';

export interface Problem {
  file: string;
  /** 1-based; 1 for a problem of the whole file. */
  line: number;
  message: string;
}

/** One YAML document of a file, as data, and the line of any path within it. */
export interface YamlDocument {
  file: string;
  data: unknown;
  lineOf: (path: (string | number)[]) => number;
}

/** The documents of a YAML file (`---`-separated); syntax errors are problems. Merge keys (`<<`) are read as Compose reads them. */
export function parseYaml(file: string, text: string): { documents: YamlDocument[]; problems: Problem[] } {
  const lineCounter = new LineCounter();
  const parsed = parseAllDocuments(text, { lineCounter, merge: true });
  const problems: Problem[] = [];
  const documents: YamlDocument[] = [];
  for (const doc of parsed) {
    for (const err of doc.errors) problems.push({ file, line: err.linePos?.[0].line ?? 1, message: `YAML: ${err.message.split('\n')[0]}` });
    if (doc.errors.length > 0 || doc.contents === null) continue;
    documents.push({ file, data: doc.toJS({ maxAliasCount: 100 }), lineOf: lineFinder(doc, lineCounter) });
  }
  return { documents, problems };
}

/** The line of `path`: of its last key (or list item) that exists, so a missing property is reported at its parent's key. */
function lineFinder(doc: Document, lineCounter: LineCounter): (path: (string | number)[]) => number {
  const lineOf = (node: unknown, fallback: number) => (isNode(node) && node.range ? lineCounter.linePos(node.range[0]).line : fallback);
  return (path) => {
    let node: unknown = doc.contents;
    let line = lineOf(node, 1);
    for (const key of path) {
      if (isAlias(node)) node = node.resolve(doc);
      if (isMap(node)) {
        const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === key);
        if (!pair) break;
        line = lineOf(pair.key, line);
        node = pair.value;
      } else if (isSeq(node) && typeof key === 'number' && key < node.items.length) {
        node = node.items[key];
        line = lineOf(node, line);
      } else break;
    }
    return line;
  };
}

/** An Ajv error's instance path as keys and indexes. */
const pathOf = (error: ErrorObject): (string | number)[] =>
  error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));

/** An Ajv error in words, naming the property at fault. */
function describe(error: ErrorObject): string {
  const where = error.instancePath ? error.instancePath.slice(1).replace(/\//g, '.') : '(top level)';
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') return `${where}: unknown property "${String(params.additionalProperty)}"`;
  if (error.keyword === 'required') return `${where}: missing required property "${String(params.missingProperty)}"`;
  if (error.keyword === 'type') return `${where}: must be ${String(params.type).split(',').join(' or ')}`;
  if (error.keyword === 'enum')
    return `${where}: ${error.message} (${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')})`;
  return `${where}: ${error.message}`;
}

/**
 * Problems of a failed validation, one per distinct message, each at its line. A `oneOf` or `anyOf`
 * that failed is left out when the failures of its branches, which say more, are there.
 */
function schemaProblems(doc: YamlDocument, errors: ErrorObject[] | null | undefined, prefix = ''): Problem[] {
  const seen = new Set<string>();
  const problems: Problem[] = [];
  const all = errors ?? [];
  const summary = (e: ErrorObject) =>
    (e.keyword === 'oneOf' || e.keyword === 'anyOf') && all.some((other) => other !== e && other.instancePath.startsWith(e.instancePath));
  for (const error of all.filter((e) => !summary(e))) {
    const message = prefix + describe(error);
    if (seen.has(message)) continue;
    seen.add(message);
    // An unknown property is shown at its own line, not at its parent's.
    const extra = error.keyword === 'additionalProperties' ? [String((error.params as Record<string, unknown>).additionalProperty)] : [];
    problems.push({ file: doc.file, line: doc.lineOf([...pathOf(error), ...extra]), message });
  }
  return problems;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const objectAt = (value: unknown, ...keys: string[]): Json | undefined => {
  let current = value;
  for (const key of keys) current = isObject(current) ? current[key] : undefined;
  return isObject(current) ? current : undefined;
};
const arrayAt = (value: unknown, ...keys: string[]): unknown[] => {
  const parent = keys.length > 1 ? objectAt(value, ...keys.slice(0, -1)) : isObject(value) ? value : undefined;
  const found = parent?.[keys[keys.length - 1]!];
  return Array.isArray(found) ? found : [];
};

/** An image reference with a version: a digest, or a tag other than `latest`. */
export function isPinnedImage(image: string): boolean {
  if (/@sha256:[0-9a-f]{64}$/.test(image)) return true;
  const lastPart = image.split('/').pop() ?? '';
  const tag = lastPart.includes(':') ? lastPart.slice(lastPart.indexOf(':') + 1) : '';
  return tag !== '' && tag !== 'latest' && !tag.includes('$');
}

// --- Compose ------------------------------------------------------------------------------

/** The Compose Specification's JSON Schema, as the compose linter dclint ships it. */
export function composeSchema(): object {
  const file = join(dirname(require.resolve('dclint/package.json')), 'schemas', 'compose.schema.json');
  // A draft-07 schema whose `$schema` URL (https, no `#`) is not the one Ajv knows draft-07 by.
  const { $schema, ...schema } = JSON.parse(readFileSync(file, 'utf8')) as Json;
  return schema;
}

export function composeValidator(schema: object = composeSchema()): (doc: YamlDocument) => Problem[] {
  // strictTypes off: the specification leaves `type` out beside some object keywords.
  const validate = new Ajv({ allErrors: true, allowUnionTypes: true, strictTypes: false }).compile(schema);
  return (doc) => {
    if (!validate(doc.data)) return schemaProblems(doc, validate.errors);
    const services = objectAt(doc.data, 'services') ?? {};
    const problems: Problem[] = [];
    for (const [name, service] of Object.entries(services)) {
      const image = (service as Json).image;
      if (typeof image === 'string' && !isPinnedImage(image)) {
        problems.push({
          file: doc.file,
          line: doc.lineOf(['services', name, 'image']),
          message: `services.${name}: pin the image ${image} to a tag or digest`,
        });
      }
      const dependsOn = objectAt(service, 'depends_on') ?? Object.fromEntries(arrayAt(service, 'depends_on').map((d) => [String(d), {}]));
      for (const dependency of Object.keys(dependsOn)) {
        if (!(dependency in services)) {
          problems.push({
            file: doc.file,
            line: doc.lineOf(['services', name, 'depends_on', dependency]),
            message: `services.${name}.depends_on: no service "${dependency}" in this file`,
          });
        }
      }
      for (const [key, value] of Object.entries(objectAt(service, 'environment') ?? {})) {
        for (const variable of typeof value === 'string' ? defaultedSecrets(value) : []) {
          problems.push({
            file: doc.file,
            line: doc.lineOf(['services', name, 'environment', key]),
            message: `services.${name}.environment.${key}: \${${variable}} has a default; a secret is required: \${${variable}:?…}`,
          });
        }
      }
    }
    return problems;
  };
}

/** The variables a compose value reads with a default (`${X:-…}`, `${X-…}`) whose names say they hold a secret. */
export const defaultedSecrets = (value: string): string[] =>
  [...value.matchAll(/\$\{(\w+):?-/g)].map((m) => m[1]!).filter((name) => /PASSWORD|SECRET|TOKEN|(^|_)KEY$/.test(name));

// --- Kubernetes ---------------------------------------------------------------------------

/** The schema file of a kind, named as kubernetes-validate names them (`apps/v1` Deployment: deployment-apps-v1.json). */
export function kubernetesSchemaFile(apiVersion: string, kind: string): string {
  return `${kind.toLowerCase()}-${apiVersion.replace(/^([^./]*)(?:\.[^/]*)?\//, '$1-')}.json`;
}

/** Validates a manifest against the schemas of one Kubernetes version (a folder of ./kubernetes-schemas.ts). */
export function kubernetesValidator(folder: string): (doc: YamlDocument) => Problem[] {
  // strict: false, for the schemas' own `x-kubernetes-*` annotations; int32, int64 and the like come from ajv-formats.
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema(JSON.parse(readFileSync(join(folder, '_definitions.json'), 'utf8')) as object);
  const compiled = new Map<string, ValidateFunction | null>();
  const known = new Set(readdirSync(folder));
  return (doc) => {
    const apiVersion = isObject(doc.data) && typeof doc.data.apiVersion === 'string' ? doc.data.apiVersion : undefined;
    const kind = isObject(doc.data) && typeof doc.data.kind === 'string' ? doc.data.kind : undefined;
    if (!apiVersion || !kind) return [{ file: doc.file, line: doc.lineOf([]), message: 'a manifest needs a string apiVersion and kind' }];
    const file = kubernetesSchemaFile(apiVersion, kind);
    if (!compiled.has(file)) {
      compiled.set(file, known.has(file) ? ajv.compile(JSON.parse(readFileSync(join(folder, file), 'utf8')) as object) : null);
    }
    const validate = compiled.get(file);
    if (!validate) return [{ file: doc.file, line: doc.lineOf(['kind']), message: `no schema for ${apiVersion} ${kind}` }];
    return validate(doc.data) ? [] : schemaProblems(doc, validate.errors, `${kind}: `);
  };
}

/** Whether every label of `selector` is among `labels`. */
const selects = (selector: Json | undefined, labels: Json | undefined): boolean =>
  selector !== undefined && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels?.[k] === v);

/** The pod templates of the workload kinds, with the path to each. */
function podTemplates(doc: YamlDocument): { path: string[]; template: Json }[] {
  const kind = isObject(doc.data) ? doc.data.kind : undefined;
  const path = kind === 'CronJob' ? ['spec', 'jobTemplate', 'spec', 'template'] : ['spec', 'template'];
  const template = objectAt(doc.data, ...path);
  return ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'].includes(String(kind)) && template ? [{ path, template }] : [];
}

/** Rules across the manifests of a folder (run once every manifest passed its schema). */
export function kubernetesRules(docs: YamlDocument[]): Problem[] {
  const problems: Problem[] = [];
  const podLabels = docs.flatMap((doc) => podTemplates(doc).map(({ template }) => objectAt(template, 'metadata', 'labels')));
  for (const doc of docs) {
    const kind = String((doc.data as Json).kind);
    const at = (path: (string | number)[], message: string) =>
      problems.push({ file: doc.file, line: doc.lineOf(path), message: `${kind}: ${message}` });
    for (const { path, template } of podTemplates(doc)) {
      const labels = objectAt(template, 'metadata', 'labels');
      const selector = objectAt(doc.data, 'spec', 'selector', 'matchLabels');
      if (kind !== 'Job' && kind !== 'CronJob' && !selects(selector, labels)) {
        at(['spec', 'selector'], 'spec.selector.matchLabels does not match the pod template labels (the API server rejects it)');
      }
      arrayAt(template, 'spec', 'containers').forEach((container, i) => {
        const where = [...path, 'spec', 'containers', i];
        const name = String((container as Json).name);
        const image = (container as Json).image;
        if (typeof image !== 'string' || !isPinnedImage(image)) at([...where, 'image'], `container ${name}: pin the image to a tag or digest`);
        const requests = objectAt(container, 'resources', 'requests');
        if (!requests?.cpu || !requests.memory) at([...where, 'resources'], `container ${name}: set resources.requests.cpu and .memory`);
        if (!objectAt(container, 'resources', 'limits')?.memory) at([...where, 'resources'], `container ${name}: set resources.limits.memory`);
        const ports = new Set(arrayAt(container, 'ports').map((p) => (p as Json).name));
        for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
          const port = objectAt(container, probe, 'httpGet')?.port;
          if (typeof port === 'string' && !ports.has(port))
            at([...where, probe], `container ${name}: ${probe} uses port "${port}", which it does not name`);
        }
      });
    }
    if (kind === 'Service' || kind === 'PodDisruptionBudget') {
      const selector = kind === 'Service' ? objectAt(doc.data, 'spec', 'selector') : objectAt(doc.data, 'spec', 'selector', 'matchLabels');
      if (!podLabels.some((labels) => selects(selector, labels)))
        at(['spec', 'selector'], 'its selector matches no pod template of these manifests');
    }
  }
  return problems;
}

// --- Dockerfile -----------------------------------------------------------------------------

interface Stage {
  from: From;
  instructions: Instruction[];
}

const ROOT_USERS = new Set(['root', '0']);

/** The Dockerfile's problems: the Docker builder's (dockerfile-utils), then ours. */
export function lintDockerfile(file: string, text: string): Problem[] {
  const problems: Problem[] = dockerfileDiagnostics(text).map((d) => ({
    file,
    line: d.range.start.line + 1,
    message: typeof d.message === 'string' ? d.message : d.message.value,
  }));
  const dockerfile = DockerfileParser.parse(text);
  const at = (instruction: Instruction | null, message: string) =>
    problems.push({ file, line: (instruction?.getRange().start.line ?? 0) + 1, message });

  const stages: Stage[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction instanceof From) stages.push({ from: instruction, instructions: [] });
    else stages[stages.length - 1]?.instructions.push(instruction);
  }
  const final = stages[stages.length - 1];
  if (!final) return [...problems, { file, line: 1, message: 'no FROM instruction' }];

  const named = new Map<string, Stage>();
  for (const stage of stages) {
    const image = stage.from.getImage() ?? '';
    if (!named.has(image) && !isPinnedImage(image)) at(stage.from, `FROM ${image}: pin the base image to a tag or digest`);
    const name = stage.from.getBuildStage();
    if (name) named.set(name, stage);
  }
  /** The stage and the earlier stages it is built on, nearest first. */
  const lineage = (stage: Stage): Stage[] => {
    const parent = named.get(stage.from.getImage() ?? '');
    return parent && parent !== stage ? [stage, ...lineage(parent)] : [stage];
  };
  /** The last instruction of `keyword` in effect for the final image. */
  const last = (keyword: string): Instruction | undefined => {
    for (const stage of lineage(final)) {
      const found = stage.instructions.filter((i) => i.getKeyword() === keyword).pop();
      if (found) return found;
    }
    return undefined;
  };

  const user = last('USER');
  const userName = user?.getArgumentsContent()?.trim().split(':')[0] ?? 'root';
  if (ROOT_USERS.has(userName)) at(user ?? final.from, 'the image runs as root: add a USER line with another user to the final stage');
  const healthcheck = last('HEALTHCHECK');
  if (!healthcheck || /^NONE$/i.test(healthcheck.getArgumentsContent()?.trim() ?? ''))
    at(healthcheck ?? final.from, 'the image has no HEALTHCHECK');
  for (const keyword of ['CMD', 'ENTRYPOINT']) {
    const instruction = last(keyword);
    if (instruction && !instruction.getArgumentsContent()?.trim().startsWith('[')) {
      at(instruction, `${keyword} in shell form runs under /bin/sh, which does not pass SIGTERM on: use the exec form ["…"]`);
    }
  }
  return problems;
}
