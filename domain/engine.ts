/**
 * The database engine under the store and every way the store adapts to it:
 * the one module that tells engines apart. Each client's engine is detected
 * once, from `buildInfo` (FerretDB answers with `ferretdbVersion`), into a
 * capability profile; the store asks the profile, never the engine's name.
 *
 * MongoDB (the production target) does all the store asks natively: `$in`
 * reads and scoped conditional updates served by indexes, bulk writes of any
 * size side by side, TTL indexes. The embedded FerretDB 1.24 (SQLite) serves
 * only a filter on `_id` alone from SQL (any other filter decodes the whole
 * collection in Go), never answers an update command of 100 statements or
 * more and stops answering when bulk updates of many statements run side by
 * side (measured: three concurrent bulk writes of 50 upserts never returned;
 * twelve of 10 passed), has no TTL index, ignores a `$pull` by condition, and
 * reports an update that breaks a unique index as InternalError (code 1).
 * Atomicity of each write command comes from the embedding, which runs write
 * commands one at a time (tools/ferretdb/serialize.go).
 *
 * Both profiles keep to the portable subset: plain and unique compound
 * indexes, $set/$inc/$push/$pull/$setOnInsert, findOneAndUpdate, bulk writes,
 * countDocuments; no transactions, change streams, $lookup/$facet or date
 * operators.
 */
import { AnyBulkWriteOperation, Collection, Db, Document, Filter, MongoClient, UpdateFilter, WithId } from 'mongodb';

export interface EngineProfile {
  readonly name: 'mongodb' | 'ferretdb';
  /** Filters other than `_id` alone are served by indexes: `$in` reads and scoped conditional updates in one command. */
  readonly indexedFilters: boolean;
  /** Statements per bulk update command at most. */
  readonly bulkStatements: number;
  /** Upserts per bulk write at most (upserts of counters, where side-by-side bulk writes hang the embedded engine). */
  readonly bulkUpserts: number;
  /** Bulk writes of a process may run side by side. */
  readonly concurrentBulkWrites: boolean;
  /** Indexes can expire documents by themselves (TTL): retention does not wait for the sweep. */
  readonly ttlIndexes: boolean;
}

export const MONGODB: EngineProfile = {
  name: 'mongodb',
  indexedFilters: true,
  bulkStatements: 1_000,
  bulkUpserts: 1_000,
  concurrentBulkWrites: true,
  ttlIndexes: true,
};

/** The embedded FerretDB 1.24: 50 statements per update command, well under the 100 it never answers. */
export const FERRETDB: EngineProfile = {
  name: 'ferretdb',
  indexedFilters: false,
  bulkStatements: 50,
  bulkUpserts: 10,
  concurrentBulkWrites: false,
  ttlIndexes: false,
};

/** The profile of the engine that answered `buildInfo` with `info`. */
export const profileFromBuildInfo = (info: Document): EngineProfile => ('ferretdbVersion' in info ? FERRETDB : MONGODB);

const profiles = new WeakMap<MongoClient, Promise<EngineProfile>>();

/** The profile of `db`'s engine: asked once per client (a failed ask is asked again next time). */
export function engineOf(db: Db): Promise<EngineProfile> {
  let profile = profiles.get(db.client);
  if (!profile) {
    profile = db
      .admin()
      .command({ buildInfo: 1 })
      .then(profileFromBuildInfo, (err: unknown) => {
        profiles.delete(db.client);
        throw err;
      });
    profiles.set(db.client, profile);
  }
  return profile;
}

/** Ids per read by ids: the embedded engine plans a read of at most 1,000 values and documents (tools/ferretdb). */
const IDS_PER_READ = 1_000;

/**
 * The documents among `ids` that `visible` accepts, in the order of `ids`: one `$in` read per 1,000 ids. With
 * indexed filters the read carries `scope`; else it filters on `_id` alone, which the embedding serves from its
 * `_id` index (any other field could send the read to FerretDB, which decodes the whole collection), and `visible`
 * (which must hold `scope`) checks each document.
 */
export async function readByIds<T extends Document & { _id: string }>(
  engine: EngineProfile,
  coll: Collection<T>,
  ids: string[],
  scope: Filter<T>,
  visible: (doc: WithId<T>) => boolean,
): Promise<WithId<T>[]> {
  const unique = [...new Set(ids)];
  const found = new Map<string, WithId<T>>();
  for (let i = 0; i < unique.length; i += IDS_PER_READ) {
    const chunk = unique.slice(i, i + IDS_PER_READ);
    const filter = (engine.indexedFilters ? { ...scope, _id: { $in: chunk } } : { _id: { $in: chunk } }) as Filter<T>;
    for (const doc of await coll.find(filter, { limit: chunk.length }).toArray()) found.set(doc._id, doc);
  }
  return ids.flatMap((id) => {
    const doc = found.get(id);
    return doc && visible(doc) ? [doc] : [];
  });
}

/**
 * Applies `update` to document `id` if it is in `scope` (and `visible` accepts
 * it): the document after, or null. One conditional update with indexed
 * filters; else a read by `_id` checked by `visible`, then an update by `_id`
 * alone — correct only for a scope a document never leaves (its tenant).
 */
export async function updateInScope<T extends Document & { _id: string }>(
  engine: EngineProfile,
  coll: Collection<T>,
  id: string,
  scope: Filter<T>,
  update: UpdateFilter<T>,
  visible: (doc: WithId<T>) => boolean,
): Promise<WithId<T> | null> {
  const byId = { _id: id } as Filter<T>;
  if (engine.indexedFilters) return coll.findOneAndUpdate({ ...scope, ...byId }, update, { returnDocument: 'after' });
  const current = await coll.findOne(byId);
  if (!current || !visible(current)) return null;
  const after = await coll.findOneAndUpdate(byId, update, { returnDocument: 'after' });
  return after && visible(after) ? after : null;
}

/** Runs `operations` as unordered bulk writes of as many statements as the engine takes in one command. */
export async function bulkInBatches<T extends Document>(
  engine: EngineProfile,
  coll: Collection<T>,
  operations: AnyBulkWriteOperation<T>[],
): Promise<void> {
  for (let i = 0; i < operations.length; i += engine.bulkStatements) {
    await coll.bulkWrite(operations.slice(i, i + engine.bulkStatements), { ordered: false });
  }
}

/** The last queued write of this process (settled), for engines whose bulk writes may not run side by side. */
let lastQueued: Promise<unknown> = Promise.resolve();

/**
 * Runs `write` at once where bulk writes may run side by side; else after
 * every write this process queued before (one queue for all documents: a
 * write of several documents never waits for another in a different order).
 */
export function inTurn<T>(engine: EngineProfile, write: () => Promise<T>): Promise<T> {
  if (engine.concurrentBulkWrites) return write();
  const result = lastQueued.then(write);
  lastQueued = result.catch(() => undefined);
  return result;
}

/**
 * True for a unique-index violation: E11000 on MongoDB, and on FerretDB for
 * inserts and upserts; FerretDB reports an update that collides as
 * InternalError (code 1) carrying SQLite's UNIQUE message.
 */
export function isDuplicateKey(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  return code === 11000 || (code === 1 && typeof message === 'string' && message.includes('UNIQUE constraint failed'));
}

/** Options of an index that expires its documents `expireAfterMs` after the time in its field, where the engine can. */
export const expiryOptions = (engine: EngineProfile, expireAfterMs: number | undefined): { expireAfterSeconds?: number } =>
  engine.ttlIndexes && expireAfterMs !== undefined ? { expireAfterSeconds: Math.ceil(expireAfterMs / 1_000) } : {};
