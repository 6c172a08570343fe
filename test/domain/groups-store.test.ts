/**
 * A segment's groups as a publish reads them (activeGroupBatches): every
 * active group of the segment, `_id` ascending, in batches of 500, from one
 * query read through its cursor — on the embedded FerretDB a query per
 * batch decoded the whole collection again for each. And as the workflow of
 * a fan-out too large for its input begins (beginPublication): the same
 * query, the groups no longer in it read by id, a page of groups at a time.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { MongoClient } from 'mongodb';
import { ensureIndexes, Tenant } from '../../domain/db';
import { activeGroupBatches, createGroup } from '../../domain/groups/store';
import { beginPublication } from '../../domain/publications/sending';
import { DeliveryDoc, PublicationDoc, queuedDeliveries } from '../../domain/publications/store';
import { queuedPublicationDoc } from '../helpers/publications';
import { seedTenant, stackEnv } from '../helpers/stack';

let client: MongoClient;
const dbName = `t_${randomBytes(6).toString('hex')}`;
/** The commands this test's client sent, by name. */
const commands: string[] = [];
/** The filters of the `find`s on groups this test's client sent. */
const groupFinds: Record<string, unknown>[] = [];

before(async () => {
  client = await MongoClient.connect(stackEnv().mongodbUri, { monitorCommands: true });
  client.on('commandStarted', (e) => {
    commands.push(e.commandName);
    if (e.commandName === 'find' && e.command.find === 'groups') groupFinds.push(e.command.filter);
  });
  await ensureIndexes(client.db(dbName));
});
after(async () => {
  await client.db(dbName).dropDatabase();
  await client.close();
});

/** `count` groups of `segmentId`, created 16 at a time; their ids. */
async function groupsOf(tenant: Tenant, segmentId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 16) {
    const batch = Array.from({ length: Math.min(16, count - i) }, (_, j) =>
      createGroup(client.db(dbName), tenant, { name: `G ${i + j}`, segment_id: segmentId }),
    );
    ids.push(...(await Promise.all(batch)).map((g) => g._id));
  }
  return ids;
}

test('a segment of 1,150 groups: its active ones, `_id` ascending, in batches of 500, from one query', async () => {
  const db = client.db(dbName);
  const tenant = await seedTenant(db);
  const ids = await groupsOf(tenant, 'seg_read', 1150);
  await groupsOf(tenant, 'seg_other', 20);
  const inactive = ids.filter((_, i) => i % 23 === 0);
  await db.collection('groups').updateMany({ _id: { $in: inactive } } as object, { $set: { active: false } });
  const active = ids.filter((id) => !inactive.includes(id)).sort();

  commands.length = 0;
  const batches: string[][] = [];
  for await (const batch of activeGroupBatches(db, tenant, 'seg_read')) batches.push(batch.map((g) => g._id));
  assert.deepEqual(
    batches.map((b) => b.length),
    [500, 500, active.length - 1000],
  );
  assert.deepEqual(batches.flat(), active);
  assert.equal(commands.filter((c) => c === 'find').length, 1, `commands: ${commands.join(', ')}`);
});

test('a fan-out begun by its workflow: every group, in order, the moved, inactive and deleted ones too, from one segment query', async () => {
  const db = client.db(dbName);
  const tenant = await seedTenant(db, { env: 'test' });
  const ids = await groupsOf(tenant, 'seg_begin', 40);
  const [moved, inactive, deleted] = [ids[3]!, ids[7]!, ids[11]!];
  await db.collection('groups').updateOne({ _id: moved } as object, { $set: { segment_id: 'seg_elsewhere' } });
  await db.collection('groups').updateOne({ _id: inactive } as object, { $set: { active: false } });
  await db.collection('groups').deleteOne({ _id: deleted } as object);
  const publication = queuedPublicationDoc(tenant, ids, 'seg_begin');

  await db.collection<PublicationDoc>('publications').insertOne(publication);

  commands.length = 0;
  const deps = { db, temporal: { client: undefined as never }, report: () => undefined };
  const { groups, next } = await beginPublication(deps, tenant, publication._id);
  assert.equal(next, null, 'one page');
  assert.deepEqual(
    groups.map((g) => g.group_id),
    ids,
  );
  // Test-environment groups are never paced; a deleted one counts as paced (its slot's reservation refuses it).
  assert.deepEqual(
    groups.filter((g) => g.paced).map((g) => g.group_id),
    [deleted],
  );
  assert.equal(groups.find((g) => g.group_id === moved)?.name, 'G 3');
  assert.equal(groups.find((g) => g.group_id === deleted)?.name, null);
  // The publication's read, the segment's query, and one read by ids of the groups not in it.
  assert.equal(commands.filter((c) => c === 'find').length, 1 + 1 + 1, `commands: ${commands.join(', ')}`);
});

test('a fan-out begun in pages: each page its slice of the groups, one segment query within its ids; a repeated begin skips the finished', async () => {
  const db = client.db(dbName);
  const tenant = await seedTenant(db, { env: 'test' });
  const ids = (await groupsOf(tenant, 'seg_pages', 7)).sort();
  const publication = queuedPublicationDoc(tenant, ids, 'seg_pages');
  await db.collection<DeliveryDoc>('deliveries').insertMany(queuedDeliveries(publication));
  await db.collection<PublicationDoc>('publications').insertOne(publication);
  const deps = { db, temporal: { client: undefined as never }, report: () => undefined };

  /** Every page of a begin, 3 groups a page, as the workflow reads them. */
  const pages = async () => {
    const first = await beginPublication(deps, tenant, publication._id, undefined, 3);
    const read = [first];
    for (let from = first.next; from !== null; from = read.at(-1)!.next)
      read.push(await beginPublication(deps, tenant, publication._id, { from, fresh: first.fresh }, 3));
    return read;
  };
  const fresh = await pages();
  assert.deepEqual(
    fresh.map((p) => [p.groups.map((g) => g.group_id), p.next, p.fresh]),
    [
      [ids.slice(0, 3), 3, true],
      [ids.slice(3, 6), 6, true],
      [ids.slice(6), null, true],
    ],
  );
  assert.equal((await db.collection<PublicationDoc>('publications').findOne({ _id: publication._id }))?.status, 'sending');

  // Begun again (a new run of its workflow): the sent and failed groups are skipped, page by page.
  const finished = [ids[1]!, ids[4]!, ids[5]!];
  await db.collection('deliveries').updateMany({ group_id: { $in: finished } }, { $set: { status: 'sent' } });
  groupFinds.length = 0;
  const again = await pages();
  assert.deepEqual(
    again.map((p) => [p.groups.map((g) => g.group_id), p.next, p.fresh]),
    [
      [[ids[0], ids[2]], 3, false],
      [[ids[3]], 6, false],
      [[ids[6]], null, false],
    ],
  );
  // One segment query per page, within the page's ids.
  const ranges = groupFinds.filter((f) => f.segment_id === 'seg_pages').map((f) => f._id);
  assert.deepEqual(ranges, [
    { $gte: ids[0], $lte: ids[2] },
    { $gte: ids[3], $lte: ids[3] },
    { $gte: ids[6], $lte: ids[6] },
  ]);
});
