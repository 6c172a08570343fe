/**
 * `offerops admin temporal …` runs the Temporal CLI against the stack the data
 * directory's stack.json names (its address and namespace), passing every
 * word on as it is and exiting with the CLI's status.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client, Connection } from '@temporalio/client';
import { cliEnv, runCli } from '../helpers/cli';
import { stackEnv } from '../helpers/stack';
import { waitFor } from '../helpers/wait';

let tmp: string;
let connection: Connection;
let client: Client;

before(async () => {
  const stack = stackEnv();
  tmp = mkdtempSync(join(tmpdir(), 'offerops-cli-temporal-'));
  // What npm start writes: the CLI finds the stack here, not in the environment.
  writeFileSync(
    join(tmp, 'stack.json'),
    JSON.stringify({
      mongodb_uri: stack.mongodbUri,
      mongodb_db: 'unused',
      temporal_address: stack.temporalAddress,
      temporal_namespace: stack.temporalNamespace,
    }),
  );
  connection = await Connection.connect({ address: stack.temporalAddress });
  client = new Client({ connection, namespace: stack.temporalNamespace });
});
after(async () => {
  await connection.close();
  rmSync(tmp, { recursive: true, force: true });
});

const temporal = (...args: string[]) =>
  runCli(['admin', 'temporal', ...args], cliEnv({ OFFEROPS_DATA_DIR: tmp, TEMPORAL_ADDRESS: undefined, TEMPORAL_NAMESPACE: undefined }), tmp);

test("the Temporal CLI's words reach it as they are, on the stack's address and namespace; its status is ours", async () => {
  const workflowId = `cli-temporal-${randomBytes(4).toString('hex')}`;
  // A workflow no worker runs: it stays Running, listed by visibility.
  const handle = await client.workflow.start('nothingRunsThis', { workflowId, taskQueue: `nobody-${workflowId}`, args: [] });
  try {
    let last = '';
    await waitFor(
      'the Temporal CLI to count the workflow',
      async () => {
        const run = await temporal('workflow', 'count', '--query', `WorkflowId = '${workflowId}'`);
        last = `${run.code}: ${run.stdout}${run.stderr}`;
        return run.code === 0 && /Total: 1\b/.test(run.stdout) ? true : undefined;
      },
      30_000,
      () => `it said ${last}`,
    );
    const shown = await temporal('workflow', 'describe', '-w', workflowId, '-o', 'json');
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, new RegExp(`"workflowId": "${workflowId}"`));
    const missing = await temporal('workflow', 'describe', '-w', `${workflowId}-none`);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /not found/i);
  } finally {
    await handle.terminate('test done');
  }
});
