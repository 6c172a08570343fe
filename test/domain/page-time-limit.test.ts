/**
 * A list's queries carry a time limit the server enforces (maxTimeMS): on the
 * embedded FerretDB a connection runs each command to its end, so a list the
 * API had answered 503 for went on decoding the collection and slowed every
 * later request (seen in bench:api: creating an offer took 10× as long after
 * lists at 100,000 offers). A query stopped at its limit is the database's
 * trouble for the API: 503, not a 500.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Db, MongoClient, MongoServerError } from 'mongodb';
import { PAGE_TIME_LIMIT_MS, Tenant } from '../../domain/db';
import { unavailableDependency } from '../../domain/dependencies';
import { listOffers } from '../../domain/offers/store';
import { stackEnv } from '../helpers/stack';

let client: MongoClient;
let db: Db;
const tenant: Tenant = { accountId: 'acc_pagelimit', env: 'live' };
/** The commands this test's client sent: name and time limit. */
const sent: { name: string; maxTimeMS: unknown }[] = [];
const OFFERS = 3_000;

before(async () => {
  client = await MongoClient.connect(stackEnv().mongodbUri, { monitorCommands: true });
  client.on('commandStarted', (e) => sent.push({ name: e.commandName, maxTimeMS: (e.command as { maxTimeMS?: unknown }).maxTimeMS }));
  db = client.db(`t_${randomBytes(6).toString('hex')}`);
  const now = new Date();
  for (let i = 0; i < OFFERS; i += 1_000) {
    await db.collection('offers').insertMany(
      Array.from({ length: 1_000 }, (_, j) => ({
        _id: `off_${String(i + j).padStart(6, '0')}`,
        account_id: tenant.accountId,
        env: tenant.env,
        url: `https://shop.example/p/${i + j}`,
        title: `Offer ${i + j}`,
        status: 'pending',
        created_at: now,
      })) as never[],
    );
  }
});
after(async () => {
  await db.dropDatabase();
  await client.close();
});

test("a list's find and count go with the time limit", async () => {
  sent.length = 0;
  const { items, total } = await listOffers(db, tenant, {}, { limit: 30, offset: 0 });
  assert.equal(items.length, 30);
  assert.equal(total, OFFERS);
  const queries = sent.filter((c) => c.name === 'find' || c.name === 'aggregate');
  assert.deepEqual(queries.map((c) => c.name).sort(), ['aggregate', 'find']);
  for (const q of queries) assert.equal(q.maxTimeMS, PAGE_TIME_LIMIT_MS, q.name);
});

test('the server stops a query at its limit, and the API reads that as the database not answering in time', async () => {
  const ferret = 'ferretdbVersion' in (await db.admin().command({ buildInfo: 1 }));
  // 3,000 documents decoded and sorted take the embedded FerretDB far more than 1 ms (MongoDB may be quicker).
  if (ferret) {
    const filter = { account_id: tenant.accountId, env: tenant.env, status: { $ne: 'archived' } };
    for (const query of [
      () =>
        db
          .collection('offers')
          .find(filter, { sort: { _id: -1 }, limit: 30, maxTimeMS: 1 })
          .toArray(),
      () => db.collection('offers').countDocuments(filter, { maxTimeMS: 1 }),
    ]) {
      await assert.rejects(query(), (err) => err instanceof MongoServerError && err.code === 50 && unavailableDependency(err) === 'database');
    }
  }
  const stopped = new MongoServerError({ code: 50, codeName: 'MaxTimeMSExpired', errmsg: 'operation exceeded time limit' });
  assert.equal(unavailableDependency(stopped), 'database');
  assert.equal(unavailableDependency(new MongoServerError({ code: 2, errmsg: 'bad value' })), null);
});
