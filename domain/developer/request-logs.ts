/**
 * Request logs per credential (spec 1, 5.7, 8): one record per v1 request an
 * API key or an application token made — time, request id, method, route
 * template, status, duration, credential, environment, account. Never the
 * secret, the Authorization header, a body or a query value. Written in
 * batches by the API (api/middleware/request-log.ts), kept 90 days (the
 * retention sweep), read with keyset paging on (time, _id) so any span —
 * 90 days of a busy key — streams in bounded batches.
 */
import { Db, Filter } from 'mongodb';
import { Environment, platformCollection } from '../db';
import { newId } from '../ids';

export interface RequestLogDoc {
  /** Time-ordered (`rql_…`): ties on `time` are broken by it. */
  _id: string;
  time: Date;
  request_id: string;
  method: string;
  /** The operation's path template, e.g. `/offers/{id}`: never the raw path. */
  route: string;
  status: number;
  duration_ms: number;
  /** The API key (`key_…`) or application (`app_…`) that made the request. */
  credential_id: string;
  account_id: string;
  env: Environment;
}

export type RequestLogEntry = Omit<RequestLogDoc, '_id'>;

const logs = (db: Db) => platformCollection<RequestLogDoc>(db, 'request_logs');

/** Stores a batch of entries in one write (the API's batches; nothing when empty). */
export async function insertRequestLogs(db: Db, entries: readonly RequestLogEntry[]): Promise<void> {
  if (!entries.length) return;
  await logs(db).insertMany(
    entries.map((e) => ({ _id: newId('rql', e.time.getTime()), ...e })),
    { ordered: false },
  );
}

/** Which entries of an account: one credential, a status class (2 = 2xx …), an environment, a time span `[since, until)`. */
export interface RequestLogFilter {
  credentialId?: string;
  statusClass?: 1 | 2 | 3 | 4 | 5;
  env?: Environment;
  since?: Date;
  until?: Date;
}

/** Where a page ended: the (time, _id) of its last entry, as an opaque string for the next page. */
export type RequestLogCursor = string;

const encodeCursor = (doc: RequestLogDoc): RequestLogCursor => Buffer.from(`${doc.time.toISOString()}|${doc._id}`).toString('base64url');

/** The (time, id) a cursor names; null when it is not one of ours. */
export function decodeCursor(cursor: RequestLogCursor): { time: Date; id: string } | null {
  const [time, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const at = new Date(time ?? '');
  if (extra !== undefined || !id || !/^rql_[0-9a-z]{24}$/.test(id) || Number.isNaN(at.getTime())) return null;
  return { time: at, id };
}

function filterOf(accountId: string, f: RequestLogFilter): Filter<RequestLogDoc> {
  const filter: Filter<RequestLogDoc> = { account_id: accountId };
  if (f.credentialId) filter.credential_id = f.credentialId;
  if (f.env) filter.env = f.env;
  if (f.statusClass) filter.status = { $gte: f.statusClass * 100, $lt: (f.statusClass + 1) * 100 };
  if (f.since || f.until) filter.time = { ...(f.since ? { $gte: f.since } : {}), ...(f.until ? { $lt: f.until } : {}) };
  return filter;
}

/**
 * One page of an account's request logs, newest first (`order: 'desc'`, the
 * panel's default) or oldest first, after `cursor` (the previous page's
 * `next`); `next` is null on the last page. Keyset paging: each page costs
 * the same however deep it is.
 */
export async function listRequestLogs(
  db: Db,
  accountId: string,
  filter: RequestLogFilter,
  page: { limit: number; cursor?: RequestLogCursor | null; order?: 'asc' | 'desc' },
): Promise<{ items: RequestLogDoc[]; next: RequestLogCursor | null }> {
  const order = page.order ?? 'desc';
  const base = filterOf(accountId, filter);
  const after = page.cursor ? decodeCursor(page.cursor) : null;
  if (page.cursor && !after) throw new RangeError('not a request-log cursor');
  const op = order === 'asc' ? '$gt' : '$lt';
  const query: Filter<RequestLogDoc> = after
    ? { $and: [base, { $or: [{ time: { [op]: after.time } }, { time: after.time, _id: { [op]: after.id } }] }] }
    : base;
  const dir = order === 'asc' ? 1 : -1;
  const items = await logs(db)
    .find(query, { sort: { time: dir, _id: dir }, limit: page.limit + 1 })
    .toArray();
  const more = items.length > page.limit;
  if (more) items.pop();
  return { items, next: more && items.length ? encodeCursor(items.at(-1)!) : null };
}

/** Every matching entry, oldest first, in batches of `size` (one keyset page each): never the whole span in memory. */
export async function* requestLogBatches(db: Db, accountId: string, filter: RequestLogFilter, size = 500): AsyncGenerator<RequestLogDoc[]> {
  let cursor: RequestLogCursor | null = null;
  do {
    const page: { items: RequestLogDoc[]; next: RequestLogCursor | null } = await listRequestLogs(db, accountId, filter, {
      limit: size,
      cursor,
      order: 'asc',
    });
    if (page.items.length) yield page.items;
    cursor = page.next;
  } while (cursor);
}

export const REQUEST_LOG_CSV_COLUMNS = ['time', 'request_id', 'method', 'route', 'status', 'duration_ms', 'credential_id', 'env'] as const;

/** A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
const csvField = (value: string | number): string => {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

const csvRow = (d: RequestLogDoc): string =>
  [d.time.toISOString(), d.request_id, d.method, d.route, d.status, d.duration_ms, d.credential_id, d.env].map(csvField).join(',');

/**
 * The CSV export (header line, then one line per entry, oldest first), as
 * chunks of text — one per batch — to write to a stream as they come.
 */
export async function* requestLogCsv(db: Db, accountId: string, filter: RequestLogFilter, batchSize = 500): AsyncGenerator<string> {
  yield `${REQUEST_LOG_CSV_COLUMNS.join(',')}\n`;
  for await (const batch of requestLogBatches(db, accountId, filter, batchSize)) {
    yield `${batch.map(csvRow).join('\n')}\n`;
  }
}

/** Removes entries older than `before` (the retention sweep); how many. */
export async function sweepRequestLogs(db: Db, before: Date): Promise<number> {
  return (await logs(db).deleteMany({ time: { $lt: before } })).deletedCount;
}
