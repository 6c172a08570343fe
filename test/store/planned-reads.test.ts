/**
 * Reads the embedded FerretDB's planner answers from SQL
 * (tools/ferretdb/pushdown.go) answer as FerretDB itself does: each query
 * shape the store sends, and the edges of its semantics (null and missing,
 * type brackets of ranges, `$in` with null, case-insensitive regex beyond
 * ASCII, sort directions with missing values, skip, limit, projection,
 * counts), runs once planned and once with the comment that sends it to
 * FerretDB as it came; the answers must be equal. On another engine
 * (MongoDB) both runs are the server's own and the marks are not asserted.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Collection, Db, Filter, MongoClient, Sort } from 'mongodb';

type Document = { _id: string; [field: string]: unknown };
import { stackEnv } from '../helpers/stack';
import { waitFor } from '../helpers/wait';

const NO_PLAN = 'offerops:no-plan';
let client: MongoClient;
let db: Db;
let docs: Collection<Document>;
let embedded: boolean;
/** Whether each reply, in order, came from the planner. */
const planned: boolean[] = [];

before(async () => {
  client = await MongoClient.connect(stackEnv().mongodbUri, { monitorCommands: true });
  client.on('commandSucceeded', (e) => {
    if (e.commandName === 'find' || e.commandName === 'aggregate') planned.push((e.reply as Document).offeropsPlan === 'sql');
  });
  db = client.db(`t_${randomBytes(6).toString('hex')}`);
  embedded = 'ferretdbVersion' in (await db.admin().command({ buildInfo: 1 }));
  docs = db.collection<Document>('items');
  const at = (d: number) => new Date(Date.UTC(2026, 0, d));
  const rows: Document[] = [];
  // Two titles hold letters an ASCII one folds to: the Kelvin sign (K), the long s (s).
  const titles = ['Air Fryer', 'ÉCLAIR pan', 'éclair mould', 'a.b (c)', 'Kettle 2L', '', 'naïve café', 'x+y=z', '\u212Aettle mini', 'ſtove top'];
  for (let i = 0; i < 48; i++) {
    const row: Document = { _id: `id_${String(i).padStart(3, '0')}`, account_id: `acc_${i % 3}`, env: i % 4 ? 'live' : 'test' };
    if (i % 5) row.status = ['pending', 'approved', 'archived', 'published'][i % 4];
    if (i % 7 === 0) row.status = null;
    row.title = titles[i % titles.length];
    if (i % 6 !== 5) row.price = i % 9 === 0 ? `${i}` : i * 1.5; // a few prices are strings: ranges stay in their bracket
    if (i % 8) row.created_at = at(1 + (i % 20));
    if (i % 11 === 0) row._deleted = true;
    if (i % 10 === 3) row._deleted = false;
    row.active = i % 3 === 0;
    row.tags = i % 2 ? ['red', `t${i % 3}`] : 'red';
    rows.push(row);
  }
  // Ids whose JSON text holds escapes (FerretDB compares `_id` as encoding/json writes it: <, > and & too).
  for (const id of ['id_<a&b>', 'id_"q"', 'id_é', 'id_\u2028', 'id_\\b'])
    rows.push({ _id: id, account_id: 'acc_1', env: 'live', status: 'pending', title: 'Escaped id' });
  await docs.insertMany(rows);
  // The planner reads only fields of declared indexes (watched for arrays), once the embedding has seen them.
  await docs.createIndex({ account_id: 1, env: 1, status: 1, _id: -1 }, { name: 'tenant_status' });
  await docs.createIndex({ price: 1, created_at: 1, title: 1, active: 1, _deleted: 1, tags: 1 }, { name: 'rest' });
  if (embedded)
    await waitFor('the embedding to plan reads on the indexed fields', async () => {
      await docs
        .find(
          { _deleted: { $ne: true } },
          { sort: { price: 1, created_at: 1, title: 1, active: 1, status: 1, account_id: 1, env: 1 }, limit: 1 },
        )
        .toArray();
      return planned.at(-1) || undefined;
    });
});
after(async () => {
  await db.dropDatabase();
  await client.close();
});

/** The ids a find returns, planned and not, and whether the first was planned. */
async function both(filter: Filter<Document>, sort: Sort, skip = 0, limit = 20) {
  const find = (comment?: string) => docs.find(filter, { sort, skip, limit, ...(comment ? { comment } : {}) }).toArray();
  const plannedRows = await find();
  const wasPlanned = planned.at(-1)!;
  const relayed = await find(NO_PLAN);
  assert.equal(planned.at(-1), false, 'the comment sends a read to FerretDB');
  return { plannedRows, relayed, wasPlanned };
}

const tenant = { account_id: 'acc_1', env: 'live', _deleted: { $ne: true } };
const regex = (s: string) => ({ $regex: s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), $options: 'i' });

const SHAPES: [string, Filter<Document>, Sort][] = [
  ['a tenant list, archived left out', { ...tenant, status: { $ne: 'archived' } }, { _id: -1 }],
  ['one status', { ...tenant, status: 'pending' }, { _id: -1 }],
  ['status null: null and missing', { status: null }, { _id: 1 }],
  ['status not null', { status: { $ne: null } }, { _id: 1 }],
  ['$in with null', { status: { $in: ['approved', null] } }, { _id: 1 }],
  ['$nin', { status: { $nin: ['approved', 'archived'] } }, { _id: 1 }],
  ['$nin with null', { status: { $nin: ['approved', null] } }, { _id: 1 }],
  ['a number range beside strings', { price: { $gte: 10, $lt: 40 } }, { price: -1, _id: 1 }],
  ['a string range beside numbers', { price: { $gt: '1' } }, { _id: 1 }],
  ['a date range', { created_at: { $gt: new Date(Date.UTC(2026, 0, 5)), $lte: new Date(Date.UTC(2026, 0, 15)) } }, { created_at: 1, _id: 1 }],
  ['$exists false', { created_at: { $exists: false } }, { _id: -1 }],
  ['$exists true', { price: { $exists: true } }, { _id: -1 }],
  ['a boolean', { active: true, _deleted: { $ne: true } }, { _id: 1 }],
  ['query beyond ASCII', { $or: [{ title: regex('éclair') }, { status: regex('PUB') }] }, { _id: -1 }],
  ['query with punctuation', { title: regex('a.b (c') }, { _id: -1 }],
  ['an empty query', { title: regex('') }, { _id: -1 }],
  ['an ASCII query in another case', { title: regex('aIR fRY') }, { _id: -1 }],
  ['an ASCII query that folds to non-ASCII letters', { $or: [{ title: regex('KETTLE') }, { title: regex('stove') }] }, { _id: -1 }],
  ['$nor over a missing field', { env: 'live', $nor: [{ status: 'pending' }] }, { _id: 1 }],
  ['$and and $nor', { $and: [{ env: 'live' }, { $nor: [{ status: 'pending' }, { active: true }] }] }, { _id: 1 }],
  ['keyset after an id', { ...tenant, _id: { $gt: 'id_010' } }, { _id: 1 }],
  [
    'ids, some missing, some with escapes',
    { _id: { $in: ['id_003', 'id_<a&b>', 'id_"q"', 'id_é', 'id_\u2028', 'id_\\b', 'id_999'] } },
    { _id: 1 },
  ],
  ['ids of a tenant', { ...tenant, _id: { $in: ['id_001', 'id_005', 'id_013', 'id_017', 'id_<a&b>'] } }, { _id: -1 }],
  ['one id and its tenant', { ...tenant, _id: 'id_013' }, { _id: 1 }],
  ['no ids', { _id: { $in: [] } }, { _id: 1 }],
  ['sort ascending over missing', {}, { created_at: 1, _id: 1 }],
  ['sort descending over missing', {}, { created_at: -1, _id: -1 }],
  ['sort on mixed types', {}, { price: 1, _id: 1 }],
];

for (const [name, filter, sort] of SHAPES) {
  test(`planned like FerretDB: ${name}`, async () => {
    for (const [skip, limit] of [
      [0, 20],
      [3, 5],
    ] as const) {
      const { plannedRows, relayed, wasPlanned } = await both(filter, sort, skip, limit);
      assert.deepEqual(plannedRows, relayed);
      if (embedded) assert.ok(wasPlanned, 'answered from SQL');
    }
    const count = await docs.countDocuments(filter);
    const countPlanned = planned.at(-1);
    assert.equal(count, await docs.countDocuments(filter, { comment: NO_PLAN }));
    assert.equal(
      await docs.countDocuments(filter, { skip: 2, limit: 4 }),
      await docs.countDocuments(filter, { skip: 2, limit: 4, comment: NO_PLAN }),
    );
    if (embedded) assert.ok(countPlanned, 'counted in SQL');
  });
}

test('a case-insensitive ASCII query finds the non-ASCII letters it folds to (Go regexp, as FerretDB runs it)', async () => {
  const titles = async (filter: Filter<Document>) =>
    [...new Set((await docs.find(filter, { limit: 20 }).toArray()).map((d) => d.title as string))].sort();
  assert.deepEqual(await titles({ title: regex('KETTLE') }), ['Kettle 2L', '\u212Aettle mini']);
  if (embedded) assert.ok(planned.at(-1), 'answered from SQL');
  assert.deepEqual(await titles({ title: regex('STOVE') }), ['ſtove top']);
});

test('a projection keeps only its fields', async () => {
  const rows = await docs.find({ ...tenant }, { sort: { _id: 1 }, limit: 3, projection: { title: 1 } }).toArray();
  if (embedded) assert.ok(planned.at(-1));
  assert.deepEqual(rows, await docs.find({ ...tenant }, { sort: { _id: 1 }, limit: 3, projection: { title: 1 }, comment: NO_PLAN }).toArray());
  assert.deepEqual(Object.keys(rows[0]!).sort(), ['_id', 'title']);
});

test('reads the planner cannot write go to FerretDB and answer the same', async () => {
  const unplanned = [
    { 'a.b': 1 },
    { title: { $regex: '\\d' } },
    { status: { $type: 'string' } },
    { tags: 't1' }, // an indexed field that holds arrays: MongoDB matches their elements
    { tags: { $ne: 'red' } },
    { unindexed: null }, // a field no index declares may hold arrays unseen
  ] as Filter<Document>[];
  for (const filter of unplanned) {
    const rows = await docs.find(filter, { limit: 10 }).toArray();
    assert.equal(planned.at(-1), false);
    assert.deepEqual(rows, await docs.find(filter, { limit: 10, comment: NO_PLAN }).toArray());
  }
  // A count's pipeline asked to explain itself is not a count (an engine may refuse the request: not the planner).
  const explained = await db
    .command({ aggregate: 'items', pipeline: [{ $match: {} }, { $group: { _id: 1, n: { $sum: 1 } } }], explain: true })
    .catch((): Record<string, unknown> => ({}));
  assert.equal(explained.offeropsPlan, undefined);
  // A read by `_id` alone FerretDB serves from its own index: the planner leaves it (it once read it twice).
  assert.equal((await docs.findOne({ _id: 'id_001' }))?._id, 'id_001');
  assert.equal(planned.at(-1), false);
  // Without a limit a find may return any number of documents: FerretDB answers it, with its cursor.
  await docs.find(tenant).toArray();
  assert.equal(planned.at(-1), false);
});

test('a list sees a write acknowledged just before it', async () => {
  for (let i = 0; i < 20; i++) {
    const _id = `new_${String(i).padStart(2, '0')}`;
    await docs.insertOne({ _id, account_id: 'acc_9', env: 'live', status: 'pending' });
    const first = await docs.find({ account_id: 'acc_9', env: 'live' }, { sort: { _id: -1 }, limit: 1 }).toArray();
    assert.equal(first[0]?._id, _id);
    await docs.updateOne({ _id }, { $set: { status: 'archived' } });
    assert.equal(await docs.countDocuments({ account_id: 'acc_9', status: 'pending' }), 0);
  }
});

test('a dropped database answers for its new data, not the old', async () => {
  const other = client.db(`t_${randomBytes(6).toString('hex')}`);
  const items = other.collection<Document>('items');
  try {
    await items.insertOne({ _id: 'old', env: 'live' });
    assert.equal(await items.countDocuments({ env: 'live' }), 1);
    await other.dropDatabase();
    await items.insertOne({ _id: 'new', env: 'live' });
    assert.deepEqual(
      (await items.find({ env: 'live' }, { sort: { _id: 1 }, limit: 5 }).toArray()).map((d) => d._id),
      ['new'],
    );
  } finally {
    await other.dropDatabase();
  }
});

test('a field that comes to hold an array is no longer read as a scalar', async () => {
  const filter = { status: 'approved' };
  await docs.find(filter, { limit: 50 }).toArray();
  if (embedded) assert.ok(planned.at(-1));
  await docs.updateOne({ _id: 'id_005' }, { $set: { status: ['approved', 'pending'] } });
  const rows = await docs.find(filter, { sort: { _id: 1 }, limit: 50 }).toArray();
  assert.equal(planned.at(-1), false);
  assert.ok(
    rows.some((r) => r._id === 'id_005'),
    'matched by an element, as MongoDB does',
  );
  assert.deepEqual(rows, await docs.find(filter, { sort: { _id: 1 }, limit: 50, comment: NO_PLAN }).toArray());
});

test('a malformed read is refused by the engine, which goes on answering', async () => {
  const malformed = [
    { aggregate: 'items', pipeline: [1, 2], cursor: {} },
    { aggregate: 'items', pipeline: [{ $match: {} }, 5, { $group: { _id: 1, n: { $sum: 1 } } }], cursor: {} },
    { aggregate: 'items', pipeline: [{ $match: {} }, { $group: { _id: 1, n: 3 } }], cursor: {} },
    { find: 'items', filter: { status: { $in: 5 } }, limit: 3 },
    { find: 'items', filter: { $or: [1] }, limit: 3 },
    { find: 'items', sort: { status: 'a' }, limit: 2 },
  ];
  for (const command of malformed) await assert.rejects(db.command(command), `${JSON.stringify(command)} is refused`);
  // A $limit before a $skip counts what is left of the limited set, not LIMIT/OFFSET.
  const pipeline = (stages: object[]) =>
    docs.aggregate([{ $match: { env: 'live' } }, ...stages, { $group: { _id: 1, n: { $sum: 1 } } }]).toArray();
  assert.deepEqual(
    await pipeline([{ $limit: 4 }, { $skip: 2 }]),
    await docs
      .aggregate([{ $match: { env: 'live' } }, { $limit: 4 }, { $skip: 2 }, { $group: { _id: 1, n: { $sum: 1 } } }], { comment: NO_PLAN })
      .toArray(),
  );
  assert.equal(await docs.countDocuments({ env: 'live' }), await docs.countDocuments({ env: 'live' }, { comment: NO_PLAN }));
});

test('a planned read whose projection the engine refuses gets the engine’s own answer, and the connection goes on', async () => {
  const read = (comment?: string) =>
    docs
      .find({ ...tenant }, { sort: { _id: 1 }, limit: 3, projection: { tags: { $slice: 1 } }, ...(comment ? { comment } : {}) })
      .toArray()
      .then(
        (rows) => ({ rows }),
        (err: Error) => ({ error: err.message }),
      );
  assert.deepEqual(await read(), await read(NO_PLAN));
  assert.equal(await docs.countDocuments({ env: 'live' }), await docs.countDocuments({ env: 'live' }, { comment: NO_PLAN }));
});
