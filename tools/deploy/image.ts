/**
 * What the image holds, checked without building it (`npm run lint:deploy`, ./check.ts):
 *
 * - every COPY/ADD source of the Dockerfile that comes from the build context (not `--from=` a stage)
 *   survives `.dockerignore`, matched by Docker's own rules (`@balena/dockerignore`, a port of
 *   moby's matcher);
 * - the runtime image's file set, as its stages build it (context copies, `npm ci`'s packages,
 *   `npm run build`'s dist/ taken from a local build), holds what the processes it runs load: from
 *   each entry point, the built tree's `require()`s and `import()`s of our files and packages, and
 *   the files read through `resolve(__dirname, '…')` (the request collection, event schemas, the
 *   OpenAPI document, recipes, the workflow bundle).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, posix, relative } from 'node:path';
import ignore from '@balena/dockerignore';
import { Copy, DockerfileParser, From, Instruction } from 'dockerfile-ast';
import ts from 'typescript';
import type { Problem } from './validate';

export interface ImageInputs {
  dockerfile: string;
  dockerignore: string;
  /** The build context's files, relative and `/`-separated: those of a fresh clone. */
  contextFiles: string[];
  /** Files of a local `npm run build`, relative to the root (`dist/…`). */
  builtFiles: string[];
  /** The text of a built file. */
  readBuilt: (file: string) => string;
  dependencies: string[];
  devDependencies: string[];
  /** Scripts the deployment runs, relative to the final stage's WORKDIR (`dist/worker/main.js`), besides the Dockerfile's own. */
  entryPoints: string[];
}

/**
 * The inputs of the checkout at `root`: its Dockerfile and .dockerignore, the files git tracks (a
 * fresh clone's build context), its build in dist/ and package.json's dependencies.
 */
export function imageInputs(root: string, entryPoints: string[]): ImageInputs {
  const read = (file: string) => readFileSync(join(root, file), 'utf8');
  const pkg = JSON.parse(read('package.json')) as { dependencies?: object; devDependencies?: object };
  return {
    dockerfile: read('Dockerfile'),
    dockerignore: read('.dockerignore'),
    contextFiles: execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean),
    builtFiles: readdirSync(join(root, 'dist'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/')),
    readBuilt: read,
    dependencies: Object.keys(pkg.dependencies ?? {}),
    devDependencies: Object.keys(pkg.devDependencies ?? {}),
    entryPoints,
  };
}

/** The scripts under dist/ that deployment files run (their `command`s), from their documents' data. */
export const scriptsRun = (documents: { data: unknown }[]): string[] =>
  documents.flatMap((doc) => [...JSON.stringify(doc.data).matchAll(/\bdist\/[\w./-]+\.js\b/g)].map((m) => m[0]));

interface Stage {
  name: string | undefined;
  from: From;
  workdir: string;
  /** Absolute paths of the files the stage holds. */
  files: Set<string>;
}

/** A Docker source pattern (Go's filepath.Match per segment) as a test of one path segment each. */
function segmentMatchers(pattern: string): ((segment: string) => boolean)[] {
  return pattern
    .replace(/^\.\/|\/+$/g, '')
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .map((segment) => {
      const source = segment
        .replace(/[.+^${}()|\\]/g, '\\$&')
        .replace(/\*/g, '[^/]*')
        .replace(/\?/g, '[^/]');
      const re = new RegExp(`^${source}$`);
      return (s: string) => re.test(s);
    });
}

const isGlob = (pattern: string) => /[*?[]/.test(pattern);

/**
 * Where each of `files` lands when `COPY <source> <dest>` takes it: a file the source names goes to
 * `dest` (or into it, when `dest` is a folder); a folder the source names has its contents copied
 * into `dest`, as Docker does.
 */
function copied(files: Iterable<string>, source: string, dest: string, destIsFolder: boolean): Map<string, string> {
  const matchers = segmentMatchers(source);
  const out = new Map<string, string>();
  for (const file of files) {
    const parts = file.split('/').filter((p) => p !== '');
    if (parts.length < matchers.length || !matchers.every((m, i) => m(parts[i]!))) continue;
    const rest = parts.slice(matchers.length);
    const target = rest.length > 0 ? posix.join(dest, ...rest) : destIsFolder ? posix.join(dest, parts[parts.length - 1]!) : dest;
    out.set(file, target);
  }
  return out;
}

/** The files of a local build a stage that runs `npm run build` makes: those whose source it holds, and the generated ones. */
function builtBy(stage: Stage, inputs: ImageInputs, context: Set<string>): string[] {
  const sourcesOf = (built: string) => {
    const path = built.replace(/^dist\//, '').replace(/\.map$/, '');
    return path.endsWith('.js') ? [path.replace(/\.js$/, '.ts'), path] : [path];
  };
  return inputs.builtFiles.filter((built) => {
    const sources = sourcesOf(built).filter((s) => context.has(s));
    return sources.length === 0 || sources.some((s) => stage.files.has(posix.join(stage.workdir, s)));
  });
}

/** A package's name from a bare module specifier (`@scope/name/sub` → `@scope/name`). */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const BUILTINS = new Set(builtinModules);
const isBuiltin = (specifier: string) => specifier.startsWith('node:') || BUILTINS.has(packageOf(specifier));

/** The Dockerfile's problems with its build context and the runtime image's file set. */
export function imageProblems(file: string, inputs: ImageInputs): Problem[] {
  const problems: Problem[] = [];
  const at = (instruction: Instruction, message: string) => problems.push({ file, line: instruction.getRange().start.line + 1, message });
  const context = new Set(inputs.contextFiles);
  const filter = ignore().add(inputs.dockerignore);
  const sent = inputs.contextFiles.filter((f) => !filter.ignores(f));

  const stages: Stage[] = [];
  for (const instruction of DockerfileParser.parse(inputs.dockerfile).getInstructions()) {
    if (instruction instanceof From) {
      const parent = stages.find((s) => s.name !== undefined && s.name === instruction.getImage());
      stages.push({
        name: instruction.getBuildStage() ?? undefined,
        from: instruction,
        workdir: parent?.workdir ?? '/',
        files: new Set(parent?.files),
      });
      continue;
    }
    const stage = stages[stages.length - 1];
    if (!stage) continue;
    const keyword = instruction.getKeyword();
    const args = instruction.getArguments().map((a) => a.getValue());
    if (keyword === 'WORKDIR' && args[0]) stage.workdir = posix.resolve(stage.workdir, args[0]);
    if (keyword === 'RUN') {
      const run = instruction.getArgumentsContent() ?? '';
      if (/\bnpm (ci|install)\b/.test(run)) {
        const packages = [...inputs.dependencies, ...(/--omit[= ]dev\b/.test(run) ? [] : inputs.devDependencies)];
        for (const name of packages) stage.files.add(posix.join(stage.workdir, 'node_modules', name, 'package.json'));
      }
      if (/\bnpm run build\b/.test(run)) for (const built of builtBy(stage, inputs, context)) stage.files.add(posix.join(stage.workdir, built));
    }
    if ((keyword !== 'COPY' && keyword !== 'ADD') || args.length < 2) continue;
    const fromFlag = instruction instanceof Copy ? instruction.getFromFlag() : null;
    const sources = args.slice(0, -1);
    const destArg = args[args.length - 1]!;
    const dest = posix.resolve(stage.workdir, destArg);
    const destIsFolder = destArg.endsWith('/') || destArg === '.' || sources.length > 1 || sources.some(isGlob);
    for (const source of sources) {
      if (fromFlag) {
        const origin = stages.find((s) => s.name === fromFlag.getValue());
        if (!origin) continue; // another image: its files are not known here
        const relative = [...origin.files].map((f) => f.slice(1));
        for (const target of copied(relative, source.replace(/^\//, ''), dest, destIsFolder).values()) stage.files.add(target);
        continue;
      }
      const taken = copied(sent, source, dest, destIsFolder);
      if (taken.size === 0) {
        const left = copied(inputs.contextFiles, source, dest, destIsFolder).size;
        at(
          instruction,
          left > 0
            ? `${keyword} ${source}: .dockerignore leaves out all ${left} file${left === 1 ? '' : 's'} of it, so nothing is copied (add !${source.replace(/\/?$/, isGlob(source) ? '' : '/')} to .dockerignore)`
            : `${keyword} ${source}: no such file in the build context`,
        );
      }
      for (const target of taken.values()) stage.files.add(target);
    }
  }
  const final = stages[stages.length - 1];
  if (!final) return problems;
  problems.push(...runtimeProblems(file, final, inputs, new Set(inputs.builtFiles)));
  return problems;
}

/** The name a call calls: `f(…)`, `a.f(…)`, and tsc's `(0, a.f)(…)`. */
function calleeName(node: ts.Expression): string | undefined {
  if (ts.isParenthesizedExpression(node)) return calleeName(node.expression);
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.CommaToken) return calleeName(node.right);
  if (ts.isIdentifier(node)) return node.text;
  return ts.isPropertyAccessExpression(node) ? node.name.text : undefined;
}

type Load = { kind: 'module' | 'package-file' | 'file'; specifier: string };

/**
 * What a built file loads, read from its syntax tree (text inside strings is not code): `require()` and
 * `import()` of a literal, `require.resolve()` of one, and `resolve(__dirname, '…', …)` of literals.
 */
function loadsOf(path: string, text: string): Load[] {
  const found: Load[] = [];
  const literal = (node: ts.Node | undefined) => (node && ts.isStringLiteralLike(node) ? node.text : undefined);
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const first = literal(node.arguments[0]);
      const name = calleeName(callee);
      if (first !== undefined && (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && name === 'require')))
        found.push({ kind: 'module', specifier: first });
      else if (first !== undefined && ts.isPropertyAccessExpression(callee) && callee.getText() === 'require.resolve')
        found.push({ kind: 'package-file', specifier: first });
      else if (name === 'resolve' && node.arguments[0]?.getText() === '__dirname' && node.arguments.length > 1) {
        const parts = node.arguments.slice(1).map(literal);
        if (parts.every((p): p is string => p !== undefined)) found.push({ kind: 'file', specifier: posix.join(...parts) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS));
  return found;
}

/**
 * Follows the processes' loads from their entry points through the built tree: each must land in the
 * runtime image's files (the Dockerfile's line of the final FROM carries the problem).
 */
function runtimeProblems(file: string, final: Stage, inputs: ImageInputs, built: Set<string>): Problem[] {
  const line = final.from.getRange().start.line + 1;
  const problems = new Map<string, Problem>();
  const report = (message: string) => problems.set(message, { file, line, message });
  const inImage = (relative: string) => final.files.has(posix.join(final.workdir, relative));
  const folderInImage = (relative: string) => {
    const prefix = `${posix.join(final.workdir, relative)}/`;
    return [...final.files].some((f) => f.startsWith(prefix));
  };
  // The scripts the final stage names (CMD, a RUN's link to the CLI), besides those the deployment files run.
  const entries = new Set(inputs.entryPoints);
  for (const m of inputs.dockerfile
    .split('\n')
    .slice(line)
    .join('\n')
    .matchAll(/(?:\/app\/)?(dist\/[\w./-]+\.js)\b/g))
    entries.add(m[1]!);

  const seen = new Set<string>();
  const queue: { path: string; by: string }[] = [...entries].map((path) => ({ path, by: 'the deployment' }));
  while (queue.length > 0) {
    const { path, by } = queue.shift()!;
    if (seen.has(path)) continue;
    seen.add(path);
    if (!inImage(path)) {
      report(`the runtime image lacks ${path}, which ${by} loads`);
      continue;
    }
    if (!built.has(path) || !path.endsWith('.js')) continue;
    for (const load of loadsOf(path, inputs.readBuilt(path))) {
      const { specifier } = load;
      if (load.kind === 'file') {
        const target = posix.join(posix.dirname(path), specifier);
        if (!inImage(target) && !folderInImage(target)) report(`the runtime image lacks ${target}, which ${path} reads`);
        continue;
      }
      if (specifier.startsWith('.')) {
        const base = posix.join(posix.dirname(path), specifier);
        const target = [base, `${base}.js`, `${base}.json`, `${base}/index.js`].find((c) => built.has(c)) ?? base;
        queue.push({ path: target, by: path });
        continue;
      }
      if (isBuiltin(specifier)) continue;
      const name = packageOf(specifier);
      if (!inImage(posix.join('node_modules', name, 'package.json'))) {
        const why = inputs.devDependencies.includes(name)
          ? ', a dev dependency, which the image does not install'
          : inputs.dependencies.includes(name)
            ? ', which the image does not install'
            : ', not a dependency of package.json';
        report(`${path} loads the package ${name}${why}`);
      }
    }
  }
  return [...problems.values()];
}
