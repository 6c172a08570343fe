/** What a process joining a running stack takes from its stack.json (tools/cli/operator-run.ts), and what it keeps of its own. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { joinStack } from '../../tools/cli/operator-run';

const info = {
  mongodb_uri: 'mongodb://127.0.0.1:27018/',
  mongodb_db: 'offerops',
  temporal_address: '127.0.0.1:7234',
  temporal_namespace: 'offerops',
  webhook_allow: '127.0.0.1',
  ca_file: '/data/.offerops/dev-receiver/cert.pem',
};

test("a joining process gets the stack's addresses, allow-list and CA bundle (to start with)", () => {
  const env: NodeJS.ProcessEnv = {};
  assert.equal(joinStack(info, env), info.ca_file);
  assert.deepEqual(env, {
    MONGODB_URI: info.mongodb_uri,
    MONGODB_DB: 'offerops',
    TEMPORAL_ADDRESS: info.temporal_address,
    TEMPORAL_NAMESPACE: 'offerops',
    OFFEROPS_WEBHOOK_ALLOW: '127.0.0.1',
  });
});

test('what the environment says wins: its own allow-list and CA bundle are kept', () => {
  const env: NodeJS.ProcessEnv = { OFFEROPS_WEBHOOK_ALLOW: 'hooks.internal', NODE_EXTRA_CA_CERTS: '/etc/ssl/ours.pem' };
  assert.equal(joinStack(info, env), undefined);
  assert.equal(env.OFFEROPS_WEBHOOK_ALLOW, 'hooks.internal');
});

test('a stack started without a sample receiver gives neither', () => {
  const env: NodeJS.ProcessEnv = {};
  assert.equal(joinStack({ ...info, webhook_allow: null, ca_file: null }, env), undefined);
  assert.equal(env.OFFEROPS_WEBHOOK_ALLOW, undefined);
});
