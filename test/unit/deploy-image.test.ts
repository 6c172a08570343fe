/**
 * What the image holds, checked statically (tools/deploy/image.ts, part of `npm run lint:deploy`):
 * the repository's Dockerfile, .dockerignore and build pass; a .dockerignore that leaves out a
 * copied folder is reported at its COPY line; a runtime image that lacks a file the processes read,
 * or a package they load, is reported naming both.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { ImageInputs, imageInputs, imageProblems, scriptsRun } from '../../tools/deploy/image';
import { parseYaml, Problem } from '../../tools/deploy/validate';

const root = resolve(__dirname, '../../..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const lines = (problems: Problem[]) => problems.map((p) => `${p.line}: ${p.message}`);

/** The scripts the repository's compose file and manifests run, as lint:deploy finds them. */
function deployedScripts(): string[] {
  const files = ['deploy/compose.yaml', ...readdirSync(join(root, 'deploy/kubernetes')).map((f) => `deploy/kubernetes/${f}`)];
  return scriptsRun(files.flatMap((f) => parseYaml(f, read(f)).documents));
}

describe("the repository's image", () => {
  const real = imageInputs(root, deployedScripts());

  test('its COPY sources survive .dockerignore and its runtime stage holds what the processes load', () => {
    assert.ok(real.entryPoints.includes('dist/worker/main.js'), 'the worker command of the deployment files is an entry point');
    assert.deepEqual(lines(imageProblems('Dockerfile', real)), []);
  });

  test('a .dockerignore without !temporal/ is reported at the COPY line, and what the runtime then lacks', () => {
    const dockerignore = real.dockerignore.replace(/^!temporal\/\n/m, '');
    assert.notEqual(dockerignore, real.dockerignore);
    const copyLine = real.dockerfile.split('\n').indexOf('COPY temporal temporal') + 1;
    const problems = lines(imageProblems('Dockerfile', { ...real, dockerignore }));
    assert.ok(
      problems.includes(
        `${copyLine}: COPY temporal: .dockerignore leaves out all 3 files of it, so nothing is copied (add !temporal/ to .dockerignore)`,
      ),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => /the runtime image lacks dist\/temporal\/names\.js, which dist\/\S+ loads/.test(p)),
      problems.join('\n'),
    );
  });

  test('a runtime stage without the recipes or the event schemas lacks what the CLI and the API read', () => {
    const dockerfile = real.dockerfile
      .replace(/^COPY recipes recipes\n/m, '')
      .replace(/^COPY schemas\/events\/\*\.json schemas\/events\/\n/m, '');
    const problems = lines(imageProblems('Dockerfile', { ...real, dockerfile }));
    const runtime = dockerfile.split('\n').findIndex((l) => l.startsWith('FROM base AS runtime')) + 1;
    assert.ok(problems.includes(`${runtime}: the runtime image lacks recipes, which dist/tools/cli/recipes.js reads`), problems.join('\n'));
    assert.ok(
      problems.includes(`${runtime}: the runtime image lacks schemas/events, which dist/schemas/events/index.js reads`),
      problems.join('\n'),
    );
  });
});

/** A small project: one entry point that loads a module, a package and a file. */
const SMALL: ImageInputs = {
  dockerfile: [
    'FROM node:20.20.0-bookworm-slim AS build',
    'WORKDIR /app',
    'COPY package.json ./',
    'RUN npm ci --omit=dev',
    'COPY src src',
    'RUN npm run build',
    'FROM node:20.20.0-bookworm-slim AS runtime',
    'WORKDIR /app',
    'COPY --from=build /app/node_modules node_modules',
    'COPY --from=build /app/dist dist',
    'COPY data/*.json data/',
    'CMD ["node", "dist/src/main.js"]',
  ].join('\n'),
  dockerignore: '*\n!package.json\n!src/\n!data/\n',
  contextFiles: ['package.json', 'src/main.ts', 'src/lib.ts', 'data/a.json', 'README.md'],
  builtFiles: ['dist/src/main.js', 'dist/src/lib.js'],
  readBuilt: (file) =>
    file === 'dist/src/main.js'
      ? `const lib = require("./lib"); const fs = require("node:fs"); const doc = "require('left-pad')";\n` +
        `fs.readFileSync((0, path.resolve)(__dirname, '../../data/a.json'));`
      : 'module.exports = require("koa");',
  dependencies: [],
  devDependencies: ['koa'],
  entryPoints: [],
};

/** koa as a production dependency. */
const PROD = { dependencies: ['koa'], devDependencies: [] };

describe('the image check', () => {
  test('a package the runtime stage does not install is reported; a require inside a string is not code', () => {
    assert.deepEqual(lines(imageProblems('Dockerfile', SMALL)), [
      '7: dist/src/lib.js loads the package koa, a dev dependency, which the image does not install',
    ]);
    const noModules = SMALL.dockerfile.replace('COPY --from=build /app/node_modules node_modules\n', '');
    assert.deepEqual(lines(imageProblems('Dockerfile', { ...SMALL, ...PROD, dockerfile: noModules })), [
      '7: dist/src/lib.js loads the package koa, which the image does not install',
    ]);
    assert.deepEqual(lines(imageProblems('Dockerfile', { ...SMALL, ...PROD })), []);
  });

  test('a source .dockerignore leaves out, or that does not exist, is reported at its line', () => {
    const problems = lines(imageProblems('Dockerfile', { ...SMALL, ...PROD, dockerignore: '*\n!package.json\n!data/\n' }));
    assert.equal(problems[0], '5: COPY src: .dockerignore leaves out all 2 files of it, so nothing is copied (add !src/ to .dockerignore)');
    assert.ok(problems.includes('7: the runtime image lacks dist/src/main.js, which the deployment loads'), problems.join('\n'));
    const missing = SMALL.dockerfile.replace('COPY data/*.json data/', 'COPY config config');
    assert.deepEqual(lines(imageProblems('Dockerfile', { ...SMALL, ...PROD, dockerfile: missing })), [
      '11: COPY config: no such file in the build context',
      '7: the runtime image lacks data/a.json, which dist/src/main.js reads',
    ]);
  });

  test('a file the built code reads is looked for in the runtime stage, not in the build context', () => {
    const dockerfile = SMALL.dockerfile.replace('COPY data/*.json data/\n', '');
    assert.deepEqual(lines(imageProblems('Dockerfile', { ...SMALL, ...PROD, dockerfile })), [
      '7: the runtime image lacks data/a.json, which dist/src/main.js reads',
    ]);
  });
});
