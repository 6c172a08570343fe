// ESLint (flat config): typescript-eslint's recommended type-checked rules over every TypeScript
// source, with the types of tsconfig.json; eslint-config-prettier last, so formatting is Prettier's alone.
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['dist/', 'schemas/openapi.json', 'test/replay/histories/']),
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    // The config files are plain JavaScript outside tsconfig.json: linted without type information.
    files: ['**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // tseslint's base sets sourceType 'module'; the .cjs config is CommonJS (module.exports).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    rules: {
      // Koa handlers, activities and their test doubles implement Promise-returning types; they are
      // written `async` even when they await nothing, so that a throw becomes a rejection as callers expect.
      '@typescript-eslint/require-await': 'off',
      // `const { secret, ...rest } = doc` is how a field is left out of a copy: the named sibling is meant unused.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests read HTTP answers as `any` (test/helpers/client.ts: Reply<T = any>, each body checked against
      // the contract's JSON Schema before a test sees it) and database documents and workflow histories the
      // same way, then assert on them field by field: the assertions, not a type, check what the value is.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // node:test's test() and describe() return promises that the runner itself awaits: not floating.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }] },
      ],
    },
  },
  prettier,
);
