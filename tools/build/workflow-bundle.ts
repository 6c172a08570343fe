/**
 * Bundles the workflow code once, at build time, into `dist/workflow-bundle.js`
 * (WORKFLOW_BUNDLE): the worker, the tests and the replay test all load that
 * one bundle instead of each running webpack over workflows/ at start.
 */
import { writeFileSync } from 'node:fs';
import { bundleWorkflowCode } from '@temporalio/worker';
import { WORKFLOW_BUNDLE } from '../../domain/config';

async function main(): Promise<void> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflows/index'),
    // Tracing's workflow side: a no-op for a workflow started without a trace context.
    workflowInterceptorModules: [require.resolve('../../workflows/tracing')],
    logger: {
      trace: () => undefined,
      debug: () => undefined,
      info: () => undefined,
      warn: console.warn,
      error: console.error,
      log: () => undefined,
    },
  });
  writeFileSync(WORKFLOW_BUNDLE, code);
}

main().catch((err: unknown) => {
  console.error('workflow bundle failed:', err);
  process.exit(1);
});
