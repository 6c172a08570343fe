/**
 * The collections, and tenant scoping. Tenant data is reached through
 * `tenantCollection`, which stamps the account id and environment into every
 * filter and every insert, so an unscoped query cannot be written by accident.
 * The few readers that work across tenants say so (`crossTenantCollection`).
 * What differs between database engines is asked of engine.ts.
 */
import { Collection, Db, Document, Filter, FindOptions, UpdateFilter, WithId } from 'mongodb';
import { API_DB_TIMEOUTS } from './config';
import { groupAddressKey } from './address-key';
import { bulkInBatches, EngineProfile, engineOf, expiryOptions, readByIds, updateInScope } from './engine';
import { RETENTION_MS } from './retention';

export { isDuplicateKey } from './engine';

export type Environment = 'live' | 'test';

/** Whose data: an account and one of its two environments. Required by every tenant query. */
export interface Tenant {
  readonly accountId: string;
  readonly env: Environment;
}

export interface TenantDoc extends Document {
  _id: string;
  account_id: string;
  env: Environment;
  /** Domain events written in the same atomic write as the change they describe; see events/store.ts. */
  _outbox?: OutboxEvent[];
  /** A removal whose event is still in the outbox: invisible to every read. */
  _deleted?: true;
}

/** A domain event as published: `{id, kind, version, account, environment, occurred_at, data}`. */
export interface OutboxEvent {
  id: string;
  kind: string;
  version: number;
  account: string;
  environment: Environment;
  occurred_at: string;
  data: Record<string, unknown>;
}

/** Collections of tenant data. */
export const TENANT_COLLECTIONS = [
  'offers',
  'groups',
  'segments',
  'schedules',
  'events',
  'publications',
  'deliveries',
  'templates',
  'channels',
  'webhooks',
  'journeys',
  'contacts',
  'conversations',
  'messages',
  'addresses',
  'monitors',
  'stores',
  'store_pages',
  'store_collections',
  'analytics_buckets',
  'integrations',
  'links',
  'clicks',
  'applications',
  'coupons',
  'coupon_codes',
  'commissions',
] as const;
export type TenantCollectionName = (typeof TENANT_COLLECTIONS)[number];

/** Collections of platform data (accounts, keys, counters), not scoped to one tenant. */
export type PlatformCollectionName =
  | 'accounts'
  | 'api_keys'
  | 'rate_limits'
  | 'send_slots'
  | 'sandbox_messages'
  | 'request_logs'
  | 'idempotency_keys'
  | 'oauth_tokens'
  | 'postback_endpoints'
  | 'sandbox_seeds'
  | 'contract_test_runs'
  | 'panel_links'
  | 'panel_sessions'
  | 'analytics_state'
  | 'inflight_publications';

export function platformCollection<T extends Document>(db: Db, name: PlatformCollectionName): Collection<T> {
  return db.collection<T>(name);
}

/**
 * A collection of tenant data seen across tenants, for the few readers that
 * start from an id or a time, not a tenant: the outbox relay, the worker's
 * sweeps and its lookups of an event by id. Everything else goes through
 * `tenantCollection`.
 */
export function crossTenantCollection<T extends TenantDoc>(db: Db, name: TenantCollectionName): Collection<T> {
  return db.collection<T>(name);
}

export interface Page {
  limit: number;
  offset: number;
}

export interface PageResult<T> {
  items: T[];
  total: number;
}

/** The longest a list's queries run on the server: as long as the API waits for a reply. */
export const PAGE_TIME_LIMIT_MS = API_DB_TIMEOUTS.socketTimeoutMS;

/** A collection seen through one tenant. */
export class TenantCollection<T extends TenantDoc> {
  private readonly coll: Collection<T>;

  constructor(
    private readonly db: Db,
    name: TenantCollectionName,
    readonly tenant: Tenant,
  ) {
    this.coll = db.collection<T>(name);
  }

  private scoped(filter: Filter<T>): Filter<T> {
    return { ...filter, account_id: this.tenant.accountId, env: this.tenant.env, _deleted: { $ne: true } };
  }

  /** Whether `doc` is this tenant's and not removed: what `scoped` asks, checked after a read by `_id` alone. */
  private readonly visible = (doc: WithId<T>): boolean =>
    doc.account_id === this.tenant.accountId && doc.env === this.tenant.env && doc._deleted !== true;

  private engine(): Promise<EngineProfile> {
    return engineOf(this.db);
  }

  /**
   * The tenant's document `id`: read by `_id` alone (the cheapest read on
   * every engine) and checked here. A document's account and environment
   * never change, so the check after the read is as strict as a filter.
   */
  async findById(id: string): Promise<T | null> {
    const doc = await this.coll.findOne({ _id: id } as Filter<T>);
    return doc && this.visible(doc) ? (doc as T) : null;
  }

  /** The tenant's documents among `ids` (those that exist, in the order of `ids`), read as the engine reads best. */
  async findByIds(ids: string[]): Promise<T[]> {
    return (await readByIds(await this.engine(), this.coll, ids, this.scoped({}), this.visible)) as T[];
  }

  /** The first matching document in `sort` order (any one without it). */
  findOne(filter: Filter<T>, sort?: FindOptions['sort']): Promise<T | null> {
    return this.coll.findOne(this.scoped(filter), sort ? { sort } : {}) as Promise<T | null>;
  }

  /**
   * One page of a request's list and how many match in all. Both queries
   * carry `maxTimeMS` (PAGE_TIME_LIMIT_MS): the server stops a scan the API
   * has given up on (else it would run to its end, slowing every later
   * request), and the request answers 503.
   */
  async page(filter: Filter<T>, page: Page, sort: FindOptions['sort'] = { _id: -1 }): Promise<PageResult<T>> {
    const scoped = this.scoped(filter);
    const [items, total] = await Promise.all([
      this.coll.find(scoped, { sort, skip: page.offset, limit: page.limit, maxTimeMS: PAGE_TIME_LIMIT_MS }).toArray(),
      this.coll.countDocuments(scoped, { maxTimeMS: PAGE_TIME_LIMIT_MS }),
    ]);
    return { items: items as T[], total };
  }

  /** Every matching document (for small, bounded sets such as one page's children). */
  all(filter: Filter<T>): Promise<T[]> {
    return this.coll.find(this.scoped(filter)).toArray() as Promise<T[]>;
  }

  /**
   * Every matching document, `_id` ascending, read in bounded batches of
   * `size` (keyset paging on `_id`, a query per batch): for sets with no
   * upper bound read by a consumer that may pause for long between batches
   * (a cursor would time out). Each batch is a query of its own: a consumer
   * that keeps up reads `cursorBatches`.
   */
  async *inBatches(filter: Filter<T>, size: number): AsyncGenerator<T[]> {
    let after: string | null = null;
    for (;;) {
      const range = (after === null ? {} : { _id: { $gt: after } }) as Filter<T>;
      const batch = (await this.coll.find(this.scoped({ ...filter, ...range }), { sort: { _id: 1 }, limit: size }).toArray()) as T[];
      if (batch.length) yield batch;
      if (batch.length < size) return;
      after = batch.at(-1)!._id;
    }
  }

  /**
   * Every matching document, `_id` ascending, in batches of `size`: one query
   * read through its cursor (the driver fetches `size` at a time), so the
   * engine runs the filter once, not once per batch. For
   * a consumer that takes each batch at once, such as a publish reading a
   * segment's groups.
   */
  async *cursorBatches(filter: Filter<T>, size: number): AsyncGenerator<T[]> {
    let batch: T[] = [];
    for await (const doc of this.coll.find(this.scoped(filter), { sort: { _id: 1 }, batchSize: size })) {
      batch.push(doc as T);
      if (batch.length === size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  }

  count(filter: Filter<T>): Promise<number> {
    return this.coll.countDocuments(this.scoped(filter));
  }

  /** The ids of the first `limit` matching documents (oldest first) and how many match in all: what holds on to something. */
  async holders(filter: Filter<T>, limit: number): Promise<{ ids: string[]; total: number }> {
    const scoped = this.scoped(filter);
    const [docs, total] = await Promise.all([
      this.coll.find(scoped, { projection: { _id: 1 }, sort: { _id: 1 }, limit }).toArray(),
      this.coll.countDocuments(scoped),
    ]);
    return { ids: docs.map((d) => d._id), total };
  }

  /** How many of the tenant's documents matching `filter` have each of `values` in `field`. */
  async countBy(field: string, values: string[], filter: Filter<T> = {}): Promise<Map<string, number>> {
    const rows = await this.coll
      .aggregate<{ _id: string; n: number }>([
        { $match: this.scoped({ ...filter, [field]: { $in: values } }) },
        { $group: { _id: `$${field}`, n: { $sum: 1 } } },
      ])
      .toArray();
    return new Map(rows.map((r) => [r._id, r.n]));
  }

  /**
   * Inserts a document of this tenant (account id and environment are added
   * here), with the event describing it in the same write.
   */
  async insert(doc: Omit<T, 'account_id' | 'env'>, event?: OutboxEvent): Promise<T> {
    const full = {
      ...doc,
      account_id: this.tenant.accountId,
      env: this.tenant.env,
      ...(event ? { _outbox: [event] } : {}),
    } as unknown as T;
    await this.coll.insertOne(full as Parameters<Collection<T>['insertOne']>[0]);
    return full;
  }

  /** Inserts many documents of this tenant at once (no events): the parts of a fan-out. `ordered: false` writes past a refused one. */
  async insertMany(docs: Omit<T, 'account_id' | 'env'>[], options: { ordered?: boolean } = {}): Promise<void> {
    if (!docs.length) return;
    const full = docs.map((doc) => ({ ...doc, account_id: this.tenant.accountId, env: this.tenant.env }));
    await this.coll.insertMany(full as unknown as Parameters<Collection<T>['insertMany']>[0], options);
  }

  /**
   * Applies `update` to the tenant's document `id` when it also matches
   * `filter`, appending `event` to its outbox in the same write. The document
   * after, or null when nothing matched.
   */
  async updateById(id: string, update: UpdateFilter<T>, filter: Filter<T> = {}, event?: OutboxEvent): Promise<T | null> {
    const withEvent = (event ? { ...update, $push: { ...(update.$push ?? {}), _outbox: event } } : update) as UpdateFilter<T>;
    const options = { returnDocument: 'after' } as const;
    if (Object.keys(filter).length)
      return this.coll.findOneAndUpdate(this.scoped({ ...filter, _id: id }), withEvent, options) as Promise<T | null>;
    return (await updateInScope(await this.engine(), this.coll, id, this.scoped({}), withEvent, this.visible)) as T | null;
  }

  /**
   * Applies `update` to `doc`, a document this tenant read, by `_id` alone
   * (the cheapest write on every engine). The document
   * after (or, with `returnDocument: 'before'`, as this write found it: whether
   * the write changed a field shows there), or null when it was deleted
   * meanwhile (a tombstone takes the update and stays invisible).
   */
  async updateRead(doc: T, update: UpdateFilter<T>, returnDocument: 'before' | 'after' = 'after'): Promise<T | null> {
    if (doc.account_id !== this.tenant.accountId || doc.env !== this.tenant.env) throw new Error(`${doc._id} is not a document of this tenant`);
    const found = (await this.coll.findOneAndUpdate({ _id: doc._id } as Filter<T>, update, { returnDocument })) as T | null;
    return found && found._deleted !== true ? found : null;
  }

  /**
   * Applies each update to its document by `_id` alone, in bulk writes as
   * large as the engine takes. Nothing here checks the tenant: only for
   * documents whose ids the caller derived from a document of this tenant it
   * read (a publication's deliveries).
   */
  async updateEachById(updates: { id: string; update: UpdateFilter<T> }[]): Promise<void> {
    await bulkInBatches(
      await this.engine(),
      this.coll,
      updates.map(({ id, update }) => ({ updateOne: { filter: { _id: id } as Filter<T>, update } })),
    );
  }

  /**
   * Optimistic update: applies `set` to `current` if nobody changed the
   * document since it was read (same `updated_at`), with the event `describe`
   * makes of the result in the same write. The document after, or null when
   * it changed in between (the caller re-reads).
   */
  async updateFrom<D extends T & { updated_at: Date }>(current: D, set: Partial<D>, describe?: (after: D) => OutboxEvent): Promise<D | null> {
    const now = new Date();
    const { _outbox, ...base } = current;
    const after = { ...base, ...set, updated_at: now } as D;
    const event = describe?.(after);
    const update = { $set: { ...set, updated_at: now }, ...(event ? { $push: { _outbox: event } } : {}) };
    const filter = this.scoped({ _id: current._id, updated_at: current.updated_at } as Filter<T>);
    const res = await this.coll.updateOne(filter, update as unknown as UpdateFilter<T>);
    return res.matchedCount === 1 ? after : null;
  }

  /**
   * Removes the tenant's document `id` (when it matches `filter`). With an
   * event, the document first becomes an invisible tombstone carrying it;
   * relaying the outbox then deletes it.
   */
  async deleteById(id: string, filter: Filter<T> = {}, event?: OutboxEvent): Promise<boolean> {
    const target = this.scoped({ ...filter, _id: id });
    if (!event) return (await this.coll.deleteOne(target)).deletedCount === 1;
    const update = { $set: { _deleted: true }, $push: { _outbox: event } } as unknown as UpdateFilter<T>;
    return (await this.coll.updateOne(target, update)).matchedCount === 1;
  }
}

export const tenantCollection = <T extends TenantDoc>(db: Db, name: TenantCollectionName, tenant: Tenant) =>
  new TenantCollection<T>(db, name, tenant);

/** The unique index of a tenant's group addresses (`address_key`). */
const GROUP_ADDRESS_INDEX = 'tenant_address_unique';

/** Whether `collection` has the index `name` (a collection not created yet has none). */
async function hasIndex(db: Db, collection: string, name: string): Promise<boolean> {
  try {
    return (await db.collection(collection).listIndexes().toArray()).some((i) => (i as { name?: string }).name === name);
  } catch (err) {
    if ((err as { code?: unknown }).code === 26) return false; // no such collection
    throw err;
  }
}

/**
 * Gives each group stored before `address_key` existed its key, so that its
 * unique index can be built; of two such groups at one address, the later
 * keeps its own id as its key (it stays as it was). Once that index exists,
 * every group has its key (writers set it): nothing is read then, so a start
 * does not scan the groups.
 */
async function backfillGroupAddressKeys(db: Db): Promise<void> {
  if (await hasIndex(db, 'groups', GROUP_ADDRESS_INDEX)) return;
  const groups = db.collection<{
    _id: string;
    account_id: string;
    env: string;
    channel_id: string | null;
    address: string | null;
    address_key?: string;
  }>('groups');
  const missing = await groups
    .find({ address_key: { $exists: false } })
    .sort({ _id: 1 })
    .toArray();
  if (!missing.length) return;
  const scoped = (g: { account_id: string; env: string }, key: string) => `${g.account_id}/${g.env}/${key}`;
  const keyed = await groups.find({ address_key: { $exists: true } }).toArray();
  const taken = new Set(keyed.map((g) => scoped(g, g.address_key!)));
  for (const group of missing) {
    const key = taken.has(scoped(group, groupAddressKey(group))) ? group._id : groupAddressKey(group);
    taken.add(scoped(group, key));
    await groups.updateOne({ _id: group._id }, { $set: { address_key: key } });
  }
}

const TENANT_KEY = { account_id: 1, env: 1 } as const;

interface IndexSpec {
  collection: string;
  key: Record<string, 1 | -1>;
  name: string;
  /** A constraint the data relies on: kept on every server. */
  unique?: true;
  /** Documents expire this long after the time in the key's one field, where the engine has TTL indexes (else the retention sweep removes them). */
  expireAfterMs?: number;
}

/**
 * The index of a tenant's list: the tenant, the list's order, then `_deleted`
 * and the fields it filters on. A page walks it in order, and a count (the
 * contract's exact `total`) reads the index alone, on MongoDB and on the
 * embedded engine's planner, which reads only fields an index declares.
 */
const listIndex = (collection: string, order: Record<string, 1 | -1>, filters: string[], name = 'tenant_list'): IndexSpec => ({
  collection,
  key: { ...TENANT_KEY, ...order, _deleted: 1, ...Object.fromEntries(filters.map((f) => [f, 1 as const])) },
  name,
});

const NEWEST = { _id: -1 } as const;

/** The indexes our queries rely on (groups' address index aside: built after its backfill). */
const INDEXES: readonly IndexSpec[] = [
  { collection: 'api_keys', key: { hash: 1 }, name: 'hash_unique', unique: true },
  { collection: 'api_keys', key: { account_id: 1 }, name: 'account' },
  { collection: 'offers', key: { ...TENANT_KEY, url: 1 }, name: 'tenant_url_unique', unique: true },
  { collection: 'offers', key: { ...TENANT_KEY, status: 1, _id: -1, _deleted: 1 }, name: 'tenant_status_live' },
  listIndex('offers', NEWEST, ['status', 'marketplace', 'title', 'store'], 'tenant_recent'),
  { collection: 'groups', key: { ...TENANT_KEY, segment_id: 1 }, name: 'tenant_segment' },
  listIndex('groups', NEWEST, ['segment_id', 'active']),
  { collection: 'segments', key: { ...TENANT_KEY, slug: 1 }, name: 'tenant_slug_unique', unique: true },
  listIndex('segments', NEWEST, []),
  { collection: 'schedules', key: { ...TENANT_KEY, segment_id: 1 }, name: 'tenant_segment' },
  { collection: 'schedules', key: { ...TENANT_KEY, template_id: 1 }, name: 'tenant_template' },
  listIndex('schedules', { order_at: 1, _id: 1 }, ['status', 'group_id', 'segment_id', 'offer_id']),
  { collection: 'events', key: { ...TENANT_KEY, kind: 1, occurred_day: 1 }, name: 'tenant_kind_day' },
  { collection: 'events', key: { dispatched_at: 1 }, name: 'dispatch' },
  { collection: 'publications', key: { ...TENANT_KEY, status: 1, _id: -1 }, name: 'tenant_status' },
  { collection: 'publications', key: { ...TENANT_KEY, offer_id: 1 }, name: 'tenant_offer' },
  listIndex('publications', { queued_at: -1, _id: -1 }, ['status', 'offer_id', 'segment_id', 'schedule_id']),
  { collection: 'deliveries', key: { ...TENANT_KEY, publication_id: 1 }, name: 'tenant_publication' },
  { collection: 'deliveries', key: { ...TENANT_KEY, group_id: 1 }, name: 'tenant_group' },
  // At most one default per scope: see templates/store.ts.
  { collection: 'templates', key: { ...TENANT_KEY, default_key: 1 }, name: 'tenant_default_unique', unique: true },
  { collection: 'templates', key: { ...TENANT_KEY, segment_id: 1 }, name: 'tenant_segment' },
  listIndex('templates', NEWEST, ['segment_id', 'format', 'is_default']),
  { collection: 'webhooks', key: { ...TENANT_KEY, state: 1 }, name: 'tenant_state' },
  listIndex('webhooks', NEWEST, ['state']),
  { collection: 'journeys', key: { ...TENANT_KEY, trigger: 1, active: 1 }, name: 'tenant_trigger' },
  listIndex('journeys', NEWEST, ['active', 'trigger']),
  listIndex('monitors', NEWEST, ['state']),
  listIndex('conversations', { last_message_at: -1, _id: -1 }, ['status', 'channel', 'assignee', 'priority', 'contact_id']),
  listIndex('contacts', { last_seen_at: -1, _id: -1 }, ['stage', 'display_name']),
  { collection: 'messages', key: { ...TENANT_KEY, conversation_id: 1, created_at: -1, _id: -1, _deleted: 1 }, name: 'tenant_list' },
  // Subdomains are unique across accounts, per environment (a test store never shows, but keeps its own name).
  { collection: 'stores', key: { env: 1, subdomain: 1 }, name: 'env_subdomain_unique', unique: true },
  listIndex('store_pages', { published_at: -1, _id: 1 }, ['published']),
  listIndex('store_collections', { position: 1, _id: 1 }, ['published']),
  { collection: 'coupons', key: { ...TENANT_KEY, active: 1, _id: -1 }, name: 'tenant_active' },
  listIndex('coupons', NEWEST, ['active', 'verified', 'store_key', 'marketplace', 'starts_at', 'expires_at']),
  listIndex('commissions', { occurred_at: -1, _id: -1 }, ['status', 'marketplace', 'currency']),
  { collection: 'analytics_buckets', key: { day: 1 }, name: 'day' },
  { collection: 'send_slots', key: { at: 1 }, name: 'at', expireAfterMs: RETENTION_MS.sendSlot },
  { collection: 'rate_limits', key: { window_end: 1 }, name: 'window_end', expireAfterMs: RETENTION_MS.rateLimitWindow },
  { collection: 'request_logs', key: { account_id: 1, time: -1, _id: -1 }, name: 'account_time' },
  { collection: 'request_logs', key: { account_id: 1, credential_id: 1, time: 1, _id: 1 }, name: 'account_credential_time' },
  { collection: 'request_logs', key: { time: 1 }, name: 'time', expireAfterMs: RETENTION_MS.requestLog },
  { collection: 'idempotency_keys', key: { expires_at: 1 }, name: 'expires_at', expireAfterMs: RETENTION_MS.idempotencyKey },
  { collection: 'oauth_tokens', key: { expires_at: 1 }, name: 'expires_at', expireAfterMs: RETENTION_MS.expiredToken },
];

/** Indexes an earlier version built that no query uses now: dropped at start-up. */
const RETIRED_INDEXES: readonly { collection: string; name: string }[] = [
  { collection: 'offers', name: 'tenant_status' },
  { collection: 'schedules', name: 'tenant_order' },
  { collection: 'publications', name: 'tenant_queued' },
  { collection: 'conversations', name: 'tenant_activity' },
  { collection: 'contacts', name: 'tenant_seen' },
  { collection: 'messages', name: 'tenant_conversation' },
  { collection: 'commissions', name: 'tenant_occurred' },
];

/** Drops an index if it is there. */
async function dropIndexIfPresent(db: Db, collection: string, name: string): Promise<void> {
  try {
    await db.collection(collection).dropIndex(name);
  } catch (err) {
    // 26: no such collection yet; 27: no such index.
    const code = (err as { code?: unknown }).code;
    if (code !== 26 && code !== 27) throw err;
  }
}

/** MongoDB's answer to an index built again with other options (an expiry added or changed). */
const INDEX_OPTIONS_CONFLICT = 85;

/** Builds the index `spec`; one that exists with another expiry gets the new one (collMod). */
async function buildIndex(db: Db, engine: EngineProfile, spec: IndexSpec): Promise<void> {
  const expiry = expiryOptions(engine, spec.expireAfterMs);
  try {
    await db.collection(spec.collection).createIndex(spec.key, { name: spec.name, ...(spec.unique ? { unique: true } : {}), ...expiry });
  } catch (err) {
    if ((err as { code?: unknown }).code !== INDEX_OPTIONS_CONFLICT || expiry.expireAfterSeconds === undefined) throw err;
    await db.command({ collMod: spec.collection, index: { name: spec.name, expireAfterSeconds: expiry.expireAfterSeconds } });
  }
}

/**
 * Indexes every query of the store relies on, on every engine (the embedded
 * engine's lists walk them too: see docs/operations/data-layer.md), and
 * drops retired ones. Idempotent; run at start-up by each process. The
 * engine's profile, detected on the way.
 */
export async function ensureIndexes(db: Db): Promise<EngineProfile> {
  const engine = await engineOf(db);
  await Promise.all([
    backfillGroupAddressKeys(db).then(() =>
      db.collection('groups').createIndex({ ...TENANT_KEY, address_key: 1 }, { unique: true, name: GROUP_ADDRESS_INDEX }),
    ),
    ...INDEXES.map((spec) => buildIndex(db, engine, spec)),
    ...RETIRED_INDEXES.map((index) => dropIndexIfPresent(db, index.collection, index.name)),
  ]);
  return engine;
}
