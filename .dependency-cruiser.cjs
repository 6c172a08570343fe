/**
 * The import rules of offerops: which folder may import which.
 * `npm run lint:deps` checks them over every source folder; any violation is an error.
 *
 * Paths are relative to the repository root; npm packages resolve to `node_modules/<name>/…`
 * and node builtins to their bare name (`node:fs` is `fs`), so a `pathNot` allow-list also
 * catches builtins. `tsPreCompilationDeps: true` keeps the imports TypeScript erases, and
 * marks `import type …` with the dependency type `type-only`: the rules that allow types
 * only forbid every dependency that is not `type-only`.
 */

/** Our top-level source folders. */
const OURS = '^(temporal|domain|api|workflows|activities|worker|schemas|mcp|tools|test)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    // schemas/ is the contract: it stands alone, below everything.
    {
      name: 'schemas-import-nothing-of-ours',
      comment: 'schemas/ imports only its own folder, node builtins and npm packages, never another folder of ours.',
      severity: 'error',
      from: { path: '^schemas/' },
      to: { path: OURS, pathNot: '^schemas/' },
    },

    // temporal/ is the vocabulary workflows, activities and the domain share: below all three.
    {
      name: 'temporal-imports-only-schemas',
      comment:
        'temporal/ imports only its own folder and schemas/ among our folders: never domain/ (the business) nor workflows/ or activities/.',
      severity: 'error',
      from: { path: '^temporal/' },
      to: { path: OURS, pathNot: ['^temporal/', '^schemas/'] },
    },
    {
      name: 'temporal-no-package-but-temporalio',
      comment:
        'Outside our folders, temporal/ imports only @temporalio/* (types, see below): no node builtin, no other package, so that workflows may import it.',
      severity: 'error',
      from: { path: '^temporal/' },
      to: { pathNot: [OURS, '^node_modules/@temporalio/'] },
    },
    {
      name: 'temporal-types-only-from-temporalio',
      comment:
        'temporal/ imports only types from @temporalio/* (`import type`): it is names, shapes and a wrapper over the client it is handed.',
      severity: 'error',
      from: { path: '^temporal/' },
      to: { path: '^node_modules/', dependencyTypesNot: ['type-only'] },
    },

    // domain/ is the business layer: it knows the contract (schemas/), the Temporal vocabulary (temporal/) and nothing above it.
    {
      name: 'domain-imports-only-schemas-and-temporal',
      comment:
        'domain/ imports only domain/, schemas/ and temporal/ among our folders: never workflows/, activities/, api/, worker/, tools/ or test/.',
      severity: 'error',
      from: { path: '^domain/' },
      to: { path: OURS, pathNot: ['^domain/', '^schemas/', '^temporal/'] },
    },
    {
      name: 'domain-npm-allow-list',
      comment:
        'Of npm packages, domain/ imports only mongodb, @temporalio/client, @temporalio/common, the client side of @temporalio/interceptors-opentelemetry, @opentelemetry/* (tracing), pino, the feed parsers sax and csv-parse, the address classifier ipaddr.js and standardwebhooks (webhook signatures, domain/webhooks/signature.ts) (never koa, @koa/router, @temporalio/workflow, @temporalio/worker or @temporalio/activity).',
      severity: 'error',
      from: { path: '^domain/' },
      to: {
        path: '^node_modules/',
        pathNot:
          '^node_modules/(mongodb|@temporalio/(client|common|interceptors-opentelemetry/lib/client)|@opentelemetry/[^/]+|pino|sax|csv-parse|ipaddr\\.js|standardwebhooks)/',
      },
    },

    {
      name: 'domain-base-imports-no-area',
      comment:
        'The loose files of domain/ (db.ts, errors.ts, ids.ts, …) are the base every area stands on: they import no area folder of domain/.',
      severity: 'error',
      from: { path: '^domain/[^/]+$' },
      to: { path: '^domain/[^/]+/' },
    },

    // mcp/ is the MCP server both doors serve: the API at /mcp and the CLI over stdio.
    {
      name: 'mcp-imports-only-schemas',
      comment:
        "mcp/ (the MCP tools derived from the OpenAPI document, the server that calls the REST API with the caller's credential) " +
        'imports only its own folder and schemas/ among our folders: it reaches the service over HTTP only, ' +
        'so that api/ and the CLI may both import it without the CLI taking in the web layer.',
      severity: 'error',
      from: { path: '^mcp/' },
      to: { path: OURS, pathNot: ['^mcp/', '^schemas/'] },
    },

    // api/ is the HTTP door over domain/.
    {
      name: 'api-imports-domain-schemas-and-temporal',
      comment: 'api/ imports domain/, schemas/, temporal/ and mcp/, never workflows/, activities/, worker/, tools/ or test/.',
      severity: 'error',
      from: { path: '^api/' },
      to: { path: OURS, pathNot: ['^api/', '^domain/', '^schemas/', '^temporal/', '^mcp/'] },
    },

    // workflows/ run in Temporal's deterministic sandbox.
    {
      name: 'workflows-workflow-safe-only',
      comment:
        'workflows/ imports only @temporalio/workflow, @temporalio/common, the workflow side of @temporalio/interceptors-opentelemetry, its own folder, temporal/ and types from activities/: no node builtin, no mongodb, no domain/.',
      severity: 'error',
      from: { path: '^workflows/' },
      to: {
        pathNot: [
          '^workflows/',
          '^temporal/',
          '^activities/',
          '^node_modules/@temporalio/(workflow|common)/',
          '^node_modules/@temporalio/interceptors-opentelemetry/lib/workflow/',
        ],
      },
    },
    {
      name: 'workflows-types-only-from-activities',
      comment: 'workflows/ imports only types from activities/ (`import type`, for proxyActivities<Activities>), never activity code.',
      severity: 'error',
      from: { path: '^workflows/' },
      to: { path: '^activities/', dependencyTypesNot: ['type-only'] },
    },

    // activities/ do the side effects, through domain/.
    {
      name: 'activities-import-domain-schemas-and-temporal',
      comment:
        'activities/ imports domain/, schemas/ and temporal/ (and its own folder, npm packages), never workflows/, api/, worker/, tools/ or test/.',
      severity: 'error',
      from: { path: '^activities/' },
      to: { path: OURS, pathNot: ['^activities/', '^domain/', '^schemas/', '^temporal/'] },
    },

    // worker/ and tools/ are entry points: nothing of the service depends on them.
    {
      name: 'only-tools-and-test-import-worker',
      comment: 'Only tools/ and test/ import worker/ (and worker/ its own files): the service does not depend on its worker process.',
      severity: 'error',
      from: { pathNot: ['^worker/', '^tools/', '^test/'] },
      to: { path: '^worker/' },
    },
    {
      name: 'only-tools-and-test-import-tools',
      comment:
        'Only tools/ itself and test/ import tools/ (the launcher, CLI and benchmarks): nothing of the service, not even worker/, depends on them.',
      severity: 'error',
      from: { pathNot: ['^tools/', '^test/'] },
      to: { path: '^tools/' },
    },
    {
      name: 'cli-imports-no-web-layer',
      comment:
        'The CLI is a door of its own beside the HTTP one: it uses domain/, schemas/ and mcp/ (the MCP server it serves over stdio, ' +
        'shared with the HTTP door), never api/: Koa middleware, handlers and their helpers would tie it to the web layer.',
      severity: 'error',
      from: { path: '^tools/cli/' },
      to: { path: '^api/' },
    },

    // The fast layer: tests that need no stack (tools/stack/test-layers.ts).
    {
      name: 'no-stack-tests-reach-no-stack-helper',
      comment:
        'The test files of test/unit, test/contract and test/replay run without a stack (npm run test:unit): ' +
        'they reach no helper that connects to the shared stack or starts one of its own.',
      severity: 'error',
      from: { path: '^test/(unit|contract|replay)/[^/]+[.]test[.]ts$' },
      to: { path: '^test/helpers/(stack|launched-stack)[.]ts$', reachable: true },
    },

    // Cycles.
    {
      name: 'no-cycles',
      comment:
        'No circular imports, type-only ones included: a loop of types still ties its folders together (and hides a layer in the wrong place).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },

    {
      name: 'no-loops-between-domain-areas',
      comment:
        'The area folders of domain/ form layers, each importing only the ones below it: ' +
        'base (loose files) < events < coupons < webhooks < integrations < segments < templates < offers < groups < analytics < accounts < channels ' +
        '< links < publications < schedules < inbox < journeys < monitors < commissions < store < developer < panel < operator < sandbox < contract-tests. ' +
        'A loop of folders (a > b > … > a), type-only imports included, ties areas into one and leaves no order to change them in; ' +
        'a rule both need moves down, a use case over both moves up (operator/), or the caller one level up passes it in.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^domain/[^/]+$' },
      to: { path: '^domain/[^/]+$', circular: true },
    },

    // A guard for the rules above: an import they cannot see would escape them.
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves to a file, a node builtin or an installed package (an unresolved one would slip past the rules above).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json', '.d.ts'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
