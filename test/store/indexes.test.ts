/**
 * The indexes ensureIndexes builds, every one on every engine (the embedded
 * FerretDB's planned reads walk them). Two processes start side by side (API
 * and worker): both run it.
 * Groups stored before `address_key` get theirs once; later starts read no group.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Db, MongoClient } from 'mongodb';
import { ensureIndexes, isDuplicateKey } from '../../domain/db';
import { groupAddressKey } from '../../domain/address-key';
import { stackEnv } from '../helpers/stack';

let client: MongoClient;
let db: Db;
/** The collections this test's client sent a `find` to, in order. */
const finds: string[] = [];

before(async () => {
  client = await MongoClient.connect(stackEnv().mongodbUri, { monitorCommands: true });
  client.on('commandStarted', (e) => {
    if (e.commandName === 'find') finds.push(String(e.command.find));
  });
  db = client.db(`t_${randomBytes(6).toString('hex')}`);
});
after(async () => {
  await db.dropDatabase();
  await client.close();
});

const names = async (collection: string): Promise<string[]> =>
  (await db.collection(collection).listIndexes().toArray()).map((i) => i.name as string).sort();

test('every index on every engine, built by two processes at once; retired ones dropped', async () => {
  // As an earlier version left the data: the offers' status index before `_deleted` joined its key.
  await db.collection('offers').createIndex({ account_id: 1, env: 1, status: 1, _id: -1 }, { name: 'tenant_status' });
  await Promise.all([ensureIndexes(db), ensureIndexes(db)]);
  await ensureIndexes(db);

  assert.deepEqual(await names('offers'), ['_id_', 'tenant_recent', 'tenant_status_live', 'tenant_url_unique']);
  assert.deepEqual(await names('segments'), ['_id_', 'tenant_list', 'tenant_slug_unique']);
  assert.deepEqual(await names('request_logs'), ['_id_', 'account_credential_time', 'account_time', 'time']);
  assert.ok((await names('groups')).includes('tenant_address_unique'));

  // The constraint holds: a tenant's second offer at one URL is refused.
  const offer = { account_id: 'acc_1', env: 'live', url: 'https://example.com/p/1' };
  await db.collection('offers').insertOne({ _id: 'off_a', ...offer } as never);
  await assert.rejects(db.collection('offers').insertOne({ _id: 'off_b', ...offer } as never), (err) => isDuplicateKey(err));
});

test('groups stored before address_key get theirs once; a later start reads no group', async () => {
  const old = client.db(`t_${randomBytes(6).toString('hex')}`);
  try {
    const group = (id: string, account: string) => ({ _id: id, account_id: account, env: 'live', channel_id: 'chn_1', address: '1203@g.us' });
    // Two groups of one tenant at one address (allowed before the key), and the same address in another tenant.
    await old.collection('groups').insertMany([group('grp_a', 'acc_1'), group('grp_b', 'acc_1'), group('grp_c', 'acc_2')] as never[]);
    await ensureIndexes(old);
    const keys = Object.fromEntries((await old.collection('groups').find().toArray()).map((g) => [g._id, g.address_key]));
    const shared = groupAddressKey(group('grp_a', 'acc_1'));
    assert.deepEqual(keys, { grp_a: shared, grp_b: 'grp_b', grp_c: shared });

    finds.length = 0;
    await ensureIndexes(old);
    assert.deepEqual(
      finds.filter((c) => c === 'groups'),
      [],
      'the index is there: no group is read',
    );
  } finally {
    await old.dropDatabase();
  }
});
