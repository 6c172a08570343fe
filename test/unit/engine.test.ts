import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expiryOptions, FERRETDB, inTurn, MONGODB, profileFromBuildInfo } from '../../domain/engine';

test('buildInfo names the engine: FerretDB answers with ferretdbVersion, MongoDB without', () => {
  assert.equal(profileFromBuildInfo({ version: '7.0.42', ferretdbVersion: 'v1.24.2', ok: 1 }), FERRETDB);
  assert.equal(profileFromBuildInfo({ version: '7.0.14', gitVersion: 'ce59cfc6a3c5e5c067dca0d30697edd68d4f5188', ok: 1 }), MONGODB);
});

test('an expiry becomes a TTL option only where the engine has TTL indexes, in whole seconds', () => {
  assert.deepEqual(expiryOptions(MONGODB, 1_500), { expireAfterSeconds: 2 });
  assert.deepEqual(expiryOptions(MONGODB, 0), { expireAfterSeconds: 0 });
  assert.deepEqual(expiryOptions(MONGODB, undefined), {});
  assert.deepEqual(expiryOptions(FERRETDB, 1_500), {});
});

test('inTurn: writes run one after another where the engine needs it, side by side elsewhere; a failure does not stop the queue', async () => {
  const run = async (engine: typeof MONGODB) => {
    const order: string[] = [];
    const write =
      (name: string, ms: number, fail = false) =>
      async () => {
        order.push(`${name}+`);
        await new Promise((r) => setTimeout(r, ms));
        order.push(`${name}-`);
        if (fail) throw new Error(name);
      };
    const results = await Promise.allSettled([inTurn(engine, write('a', 20, true)), inTurn(engine, write('b', 1))]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'fulfilled'],
    );
    return order;
  };
  assert.deepEqual(await run(FERRETDB), ['a+', 'a-', 'b+', 'b-']);
  assert.deepEqual(await run(MONGODB), ['a+', 'b+', 'b-', 'a-']);
});
