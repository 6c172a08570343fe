/**
 * Every write command is atomic on the store the stack runs (the embedded
 * FerretDB through its serializing proxy, tools/ferretdb/serialize.go; or
 * MongoDB): concurrent `$inc` of one document keep every count, and a
 * conditional claim raced by several connections has exactly one winner.
 * Each connection is a client of its own, so the writes really overlap.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Db, MongoClient } from 'mongodb';
import { stackEnv } from '../helpers/stack';

const CONNECTIONS = 8;
let clients: MongoClient[];
let dbs: Db[];
const name = `t_${randomBytes(6).toString('hex')}`;

before(async () => {
  clients = await Promise.all(
    Array.from({ length: CONNECTIONS }, () => MongoClient.connect(stackEnv().mongodbUri, { maxPoolSize: 1, serverSelectionTimeoutMS: 30_000 })),
  );
  dbs = clients.map((c) => c.db(name));
});
after(async () => {
  await dbs[0]!.dropDatabase();
  await Promise.all(clients.map((c) => c.close()));
});

test(`${CONNECTIONS} connections × 125 $inc of one document keep every increment`, async () => {
  const PER = 125;
  await dbs[0]!.collection<{ _id: string; n: number }>('counters').insertOne({ _id: 'c', n: 0 });
  await Promise.all(
    dbs.map(async (db) => {
      for (let i = 0; i < PER; i++) await db.collection<{ _id: string; n: number }>('counters').updateOne({ _id: 'c' }, { $inc: { n: 1 } });
    }),
  );
  const doc = await dbs[0]!.collection<{ _id: string; n: number }>('counters').findOne({ _id: 'c' });
  assert.equal(doc?.n, CONNECTIONS * PER);
});

test(`a conditional claim raced by ${CONNECTIONS} connections has one winner, 30 times in a row`, async () => {
  type Slot = { _id: string; owner: number | null };
  const slots = (db: Db) => db.collection<Slot>('claims');
  await slots(dbs[0]!).insertMany(Array.from({ length: 30 }, (_, i) => ({ _id: `s${i}`, owner: null })));
  for (let trial = 0; trial < 30; trial++) {
    const results = await Promise.all(
      dbs.map((db, who) => slots(db).findOneAndUpdate({ _id: `s${trial}`, owner: null }, { $set: { owner: who } }, { returnDocument: 'after' })),
    );
    const winners = results.flatMap((doc, who) => (doc ? [who] : []));
    assert.equal(winners.length, 1, `trial ${trial}: winners ${winners.join(', ')}`);
    assert.equal((await slots(dbs[0]!).findOne({ _id: `s${trial}` }))?.owner, winners[0]);
  }
});

test('concurrent $set of different fields of one document keep both (no write undoes another)', async () => {
  type Doc = { _id: string; by?: Record<string, number> };
  const coll = (db: Db) => db.collection<Doc>('fields');
  await coll(dbs[0]!).insertOne({ _id: 'f' });
  await Promise.all(dbs.map((db, who) => coll(db).updateOne({ _id: 'f' }, { $set: { [`by.${who}`]: who } })));
  const doc = await coll(dbs[0]!).findOne({ _id: 'f' });
  for (let who = 0; who < CONNECTIONS; who++) assert.equal(doc?.by?.[who], who, JSON.stringify(doc));
});
