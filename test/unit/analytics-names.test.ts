/** cachedNames: a report's page of names read once per NAMES_MS per tenant; what is missing read every time. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Db } from 'mongodb';
import { cachedNames, NAMES_MS } from '../../domain/analytics/names';
import { Tenant } from '../../domain/db';

test('names are read once while kept, per tenant, and again once NAMES_MS passed', async () => {
  const db = {} as Db;
  const reads: string[][] = [];
  let now = 1_000_000;
  const names = cachedNames(
    async (_db, tenant: Tenant, ids) => {
      reads.push([tenant.accountId, ...ids]);
      return new Map(ids.filter((id) => id !== 'grp_gone').map((id) => [id, `${tenant.accountId} ${id}`]));
    },
    () => now,
  );
  const a: Tenant = { accountId: 'acc_a', env: 'live' };
  const b: Tenant = { accountId: 'acc_b', env: 'live' };
  assert.deepEqual(
    [...(await names(db, a, ['grp_1', 'grp_2']))],
    [
      ['grp_1', 'acc_a grp_1'],
      ['grp_2', 'acc_a grp_2'],
    ],
  );
  now += NAMES_MS - 1;
  assert.deepEqual(
    [...(await names(db, a, ['grp_2', 'grp_3', 'grp_gone']))],
    [
      ['grp_2', 'acc_a grp_2'],
      ['grp_3', 'acc_a grp_3'],
    ],
  );
  // Another tenant's names are its own, and its test environment is another tenant.
  assert.equal((await names(db, b, ['grp_1'])).get('grp_1'), 'acc_b grp_1');
  await names(db, { accountId: 'acc_a', env: 'test' }, ['grp_1']);
  now += 1;
  await names(db, a, ['grp_1', 'grp_3']);
  assert.deepEqual(reads, [
    ['acc_a', 'grp_1', 'grp_2'],
    ['acc_a', 'grp_3', 'grp_gone'],
    ['acc_b', 'grp_1'],
    ['acc_a', 'grp_1'],
    ['acc_a', 'grp_1'],
  ]);
});
