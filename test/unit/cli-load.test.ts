/**
 * What an admin command loads before it runs: admin.ts alone brings neither
 * the Temporal client (gRPC, protobuf) nor Ajv, which were most of the CPU of
 * every admin command. The commands that need them load them when they run.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { test } from 'node:test';

/** The built admin.ts: this file runs from dist/test/unit/. */
const ADMIN = resolve(__dirname, '../../tools/cli/admin.js');

test('loading the admin commands loads neither the Temporal client nor Ajv', () => {
  // A process of its own: this one may have loaded them already.
  const script = `require(${JSON.stringify(ADMIN)}); process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
  const loaded = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as string[];
  for (const heavy of ['@temporalio/client', '@grpc/grpc-js', 'protobufjs', 'ajv']) {
    assert.equal(
      loaded.find((file) => file.includes(`/node_modules/${heavy}/`)),
      undefined,
      `${heavy} is loaded`,
    );
  }
});
