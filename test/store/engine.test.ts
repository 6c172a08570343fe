/**
 * The engine adapter (domain/engine.ts) on the engine the stack runs: the
 * profile detected from it, and each way of reading and writing run under
 * both profiles, so the MongoDB paths are checked for their results here too
 * (their speed is MongoDB's own). Sizes stay under what the embedded engine
 * takes in one command.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Collection, Db, MongoClient } from 'mongodb';
import { ensureIndexes } from '../../domain/db';
import { bulkInBatches, EngineProfile, engineOf, FERRETDB, MONGODB, profileFromBuildInfo, readByIds, updateInScope } from '../../domain/engine';
import { stackEnv } from '../helpers/stack';

interface Doc {
  _id: string;
  account_id: string;
  n: number;
  _deleted?: true;
}

let client: MongoClient;
let db: Db;
before(async () => {
  client = await MongoClient.connect(stackEnv().mongodbUri, { monitorCommands: true });
  db = client.db(`t_${randomBytes(6).toString('hex')}`);
});
after(async () => {
  await db.dropDatabase();
  await client.close();
});

test('the profile is the engine buildInfo names, asked once per client', async () => {
  let asked = 0;
  client.on('commandStarted', (e) => void (e.commandName === 'buildInfo' && asked++));
  const engine = await engineOf(db);
  assert.equal(await engineOf(client.db('another')), engine);
  assert.equal(asked, 1, 'buildInfo asked again');
  assert.equal(engine, profileFromBuildInfo(await db.admin().command({ buildInfo: 1 })));
});

test('retention indexes expire documents where the engine can; elsewhere the sweep does', async () => {
  const engine = await ensureIndexes(db);
  const expiry = async (collection: string, name: string) =>
    (await db.collection(collection).listIndexes().toArray()).find((i) => i.name === name)?.expireAfterSeconds as number | undefined;
  assert.deepEqual(
    [await expiry('idempotency_keys', 'expires_at'), await expiry('send_slots', 'at'), await expiry('request_logs', 'time')],
    engine.ttlIndexes ? [0, 3_600, 90 * 86_400] : [undefined, undefined, undefined],
  );
});

const visibleTo = (account: string) => (doc: Doc) => doc.account_id === account && doc._deleted !== true;
const scope = (account: string) => ({ account_id: account, _deleted: { $ne: true as const } });

for (const engine of [MONGODB, FERRETDB] as EngineProfile[]) {
  describe(`as ${engine.name} is read and written`, () => {
    let coll: Collection<Doc>;
    before(async () => {
      coll = db.collection<Doc>(`docs_${engine.name}`);
      await coll.insertMany([
        { _id: 'a1', account_id: 'A', n: 1 },
        { _id: 'a2', account_id: 'A', n: 2 },
        { _id: 'a3', account_id: 'A', n: 3, _deleted: true },
        { _id: 'b1', account_id: 'B', n: 4 },
      ]);
    });

    test('readByIds: the account’s documents in the order asked, none of another or removed', async () => {
      const docs = await readByIds(engine, coll, ['a2', 'b1', 'missing', 'a3', 'a1'], scope('A'), visibleTo('A'));
      assert.deepEqual(
        docs.map((d) => d._id),
        ['a2', 'a1'],
      );
      assert.deepEqual(await readByIds(engine, coll, [], scope('A'), visibleTo('A')), []);
      // Past one read's 1,000 ids, and an id asked twice.
      const many = [...Array.from({ length: 1_200 }, (_, i) => `none_${i}`), 'a2', 'a1', 'a2'];
      assert.deepEqual(
        (await readByIds(engine, coll, many, scope('A'), visibleTo('A'))).map((d) => d._id),
        ['a2', 'a1', 'a2'],
      );
    });

    test('updateInScope: changes the account’s document; another’s or a removed one is left as it was', async () => {
      assert.equal((await updateInScope(engine, coll, 'a1', scope('A'), { $inc: { n: 10 } }, visibleTo('A')))?.n, 11);
      assert.equal(await updateInScope(engine, coll, 'b1', scope('A'), { $inc: { n: 10 } }, visibleTo('A')), null);
      assert.equal(await updateInScope(engine, coll, 'a3', scope('A'), { $inc: { n: 10 } }, visibleTo('A')), null);
      assert.deepEqual(
        (await coll.find({}, { sort: { _id: 1 } }).toArray()).map((d) => d.n),
        [11, 2, 3, 4],
      );
    });

    test('bulkInBatches: every statement applied, in commands the engine takes', async () => {
      const many = db.collection<Doc>(`many_${engine.name}`);
      await many.insertMany(Array.from({ length: 60 }, (_, i) => ({ _id: `d${i}`, account_id: 'A', n: 0 })));
      let commands = 0;
      const count = (e: { commandName: string }) => void (e.commandName === 'update' && commands++);
      client.on('commandStarted', count);
      await bulkInBatches(
        engine,
        many,
        Array.from({ length: 60 }, (_, i) => ({ updateOne: { filter: { _id: `d${i}` }, update: { $set: { n: i } } } })),
      );
      client.off('commandStarted', count);
      assert.equal(commands, Math.ceil(60 / engine.bulkStatements));
      const docs = await many.find({}).toArray();
      assert.ok(docs.every((d) => d.n === Number(d._id.slice(1))));
    });
  });
}
