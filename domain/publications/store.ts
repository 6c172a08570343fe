/**
 * Publications: one publish request to one destination, with one delivery
 * per group. The workflow `publication-<id>` moves them; this is their record.
 * Deliveries are documents of their own (`<pub>:<grp>`), so the concurrent
 * per-group activities of a fan-out never write the same document.
 */
import { Db, Filter, MongoBulkWriteError, UpdateFilter, WriteError } from 'mongodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { derivedId } from '../ids';
import { conflict } from '../errors';
import { DELIVERY_STATUSES, PUBLICATION_STATUSES } from '../../schemas/openapi/publications';
import { isDuplicateKey, OutboxEvent, Page, PageResult, platformCollection, Tenant, tenantCollection, TenantDoc } from '../db';
import type { TemplateFormat } from '../templates/store';
import type { Marketplace } from '../marketplaces';

export type PublicationStatus = (typeof PUBLICATION_STATUSES)[number];
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface DeliveryDoc extends TenantDoc {
  publication_id: string;
  group_id: string;
  /** Position in the publication's fan-out. */
  position: number;
  status: DeliveryStatus;
  attempts: number;
  error: string | null;
  with_image: boolean;
  sent_at: Date | null;
  /** When its publication was queued (what `least_loaded` counts). Absent on deliveries recorded before it was kept. */
  queued_at?: Date;
}

export interface PublicationDoc extends TenantDoc {
  offer_id: string | null;
  group_id: string | null;
  segment_id: string | null;
  schedule_id: string | null;
  template_id: string | null;
  /** Group id → code of its tracked link, put where the text has `/l/{link}` (absent: the text goes as it is). */
  link_codes?: Record<string, string>;
  text: string;
  /** The markup `text` is written in (its template's format; `plain` for a free text). Absent on publications queued before it was kept. */
  format?: TemplateFormat;
  image_url: string | null;
  with_image: boolean;
  /** The offer's marketplace as analytics keys it (domain/analytics/sources.ts); absent without an offer, and on publications queued before it was kept. */
  source?: Marketplace;
  status: PublicationStatus;
  group_ids: string[];
  event_id: string | null;
  /** sha256 of the request that created it under an Idempotency-Key; null without one. */
  request_hash: string | null;
  queued_at: Date;
  completed_at: Date | null;
  /** How many batches of sends the workflow has recorded (recordSentDeliveries): what counts each batch once. */
  recorded_batches?: number;
  created_at: Date;
  updated_at: Date;
}

const publications = (db: Db, tenant: Tenant) => tenantCollection<PublicationDoc>(db, 'publications', tenant);
const deliveries = (db: Db, tenant: Tenant) => tenantCollection<DeliveryDoc>(db, 'deliveries', tenant);

/** Deliveries written per round trip when a publication is recorded. */
const INSERT_BATCH = 500;

/** Whether every document a bulk insert refused was refused as a duplicate `_id` (recorded already). */
function onlyDuplicates(err: unknown): boolean {
  if (!(err instanceof MongoBulkWriteError)) return false;
  const refused = ([] as WriteError[]).concat(err.writeErrors);
  return refused.length > 0 && refused.every((e) => isDuplicateKey({ code: e.code, message: e.errmsg }));
}

export const deliveryId = (publicationId: string, groupId: string): string => `${publicationId}:${groupId}`;

export interface PublicationQuery {
  status?: PublicationStatus;
  group_id?: string;
  offer_id?: string;
  segment_id?: string;
  schedule_id?: string;
}

export function listPublications(db: Db, tenant: Tenant, q: PublicationQuery, page: Page): Promise<PageResult<PublicationDoc>> {
  const filter: Filter<PublicationDoc> = {};
  if (q.status) filter.status = q.status;
  if (q.group_id) filter.group_ids = q.group_id;
  if (q.offer_id) filter.offer_id = q.offer_id;
  if (q.segment_id) filter.segment_id = q.segment_id;
  if (q.schedule_id) filter.schedule_id = q.schedule_id;
  // Newest first by time: ids are not always time-ordered (an Idempotency-Key or a schedule run derives the id from the key).
  return publications(db, tenant).page(filter, page, { queued_at: -1, _id: -1 });
}

export const getPublication = (db: Db, tenant: Tenant, id: string): Promise<PublicationDoc | null> => publications(db, tenant).findById(id);

/** What makes two publications the same request: their content and destination (and schedule). */
export interface InFlightKey {
  offer_id: string | null;
  group_id: string | null;
  segment_id: string | null;
  schedule_id: string | null;
}

/**
 * The latest publication of a content to a destination while it is in flight
 * (`inflight_publications`, `_id` derived from the tenant and the key): what
 * finds a double click with look-ups by `_id` alone, which every engine
 * serves from its primary key (engine.ts).
 */
interface InFlightDoc {
  _id: string;
  publication_id: string;
  /** When a request claimed the slot for its publication (absent on notes of keyed publications). */
  claimed_at?: Date;
}
const inFlight = (db: Db) => platformCollection<InFlightDoc>(db, 'inflight_publications');
const inFlightId = (tenant: Tenant, key: InFlightKey): string =>
  derivedId('ifp', tenant.accountId, tenant.env, key.offer_id ?? '', key.group_id ?? '', key.segment_id ?? '', key.schedule_id ?? '');

const unfinished = (p: PublicationDoc | null): p is PublicationDoc => p !== null && (p.status === 'queued' || p.status === 'sending');

/** An unfinished publication of the same content to the same destination (a double click). */
export async function inFlightPublication(db: Db, tenant: Tenant, key: InFlightKey): Promise<PublicationDoc | null> {
  const latest = await inFlight(db).findOne({ _id: inFlightId(tenant, key) });
  const publication = latest && (await getPublication(db, tenant, latest.publication_id));
  return unfinished(publication) ? publication : null;
}

/** A claim whose publication was never recorded is taken over after this long (its request's deadline is 10 s). */
const CLAIM_ABANDONED_MS = 30_000;
/** How long a request waits for the publication of a claim that a request still under way holds. */
const CLAIM_WAIT_MS = 5_000;

/**
 * Claims the in-flight slot of a content and destination for the publication
 * `id`, before anything else of its request: one insert by `_id`, so of
 * concurrent requests exactly one wins. Null when this request holds the
 * slot; else the unfinished publication that does (a double click). A slot
 * whose publication has ended, or was never recorded in time, is taken over.
 */
export async function claimInFlight(db: Db, tenant: Tenant, key: InFlightKey, id: string): Promise<PublicationDoc | null> {
  const _id = inFlightId(tenant, key);
  const waitUntil = Date.now() + CLAIM_WAIT_MS;
  for (;;) {
    const now = new Date();
    try {
      await inFlight(db).insertOne({ _id, publication_id: id, claimed_at: now });
      return null;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const held = await inFlight(db).findOne({ _id });
    if (!held) continue; // released meanwhile: claim it again
    const publication = await getPublication(db, tenant, held.publication_id);
    if (unfinished(publication)) return publication;
    const abandoned = publication !== null || now.getTime() - (held.claimed_at?.getTime() ?? 0) > CLAIM_ABANDONED_MS;
    if (abandoned) {
      const taken = await inFlight(db).updateOne(
        { _id, publication_id: held.publication_id },
        { $set: { publication_id: id, claimed_at: now } },
      );
      if (taken.matchedCount === 1) return null;
      continue; // another request took it first
    }
    if (Date.now() > waitUntil) {
      throw conflict(
        'idempotency_in_progress',
        `The same content is being published to the same destination by another request (publication ${held.publication_id}); try again in a moment.`,
      );
    }
    await sleep(50);
  }
}

/** Notes `p`, just recorded, as the latest publication of its content to its destination. */
export async function noteInFlight(db: Db, tenant: Tenant, p: PublicationDoc): Promise<void> {
  await inFlight(db).updateOne({ _id: inFlightId(tenant, p) }, { $set: { publication_id: p._id } }, { upsert: true });
}

/** Forgets `p` as in flight once it has ended or was refused (unless a later publication of the same took its place). */
export async function forgetInFlight(db: Db, tenant: Tenant, p: InFlightKey & { _id: string }): Promise<void> {
  await inFlight(db).deleteOne({ _id: inFlightId(tenant, p), publication_id: p._id });
}

/** The deliveries of a new publication: one per group, queued. */
export const queuedDeliveries = (p: PublicationDoc): DeliveryDoc[] =>
  p.group_ids.map((group_id, position) => ({
    _id: deliveryId(p._id, group_id),
    account_id: p.account_id,
    env: p.env,
    publication_id: p._id,
    group_id,
    position,
    status: 'queued',
    attempts: 0,
    error: null,
    with_image: false,
    sent_at: null,
    queued_at: p.queued_at,
  }));

/** Records the deliveries, then the publication with its event (the publication is what makes them visible). */
export async function insertPublication(db: Db, tenant: Tenant, doc: PublicationDoc, event: OutboxEvent): Promise<PublicationDoc> {
  const coll = deliveries(db, tenant);
  const all = queuedDeliveries(doc);
  // A fan-out can be thousands, so in batches. A retried insert after a crash finds some recorded already: the
  // unordered insert writes the others and refuses those alone (no look-up first: the insert's own answer says it).
  for (let i = 0; i < all.length; i += INSERT_BATCH) {
    try {
      await coll.insertMany(all.slice(i, i + INSERT_BATCH), { ordered: false });
    } catch (err) {
      if (!onlyDuplicates(err)) throw err;
    }
  }
  return publications(db, tenant).insert(doc, event);
}

/** The deliveries of these publications, by publication id, in fan-out order. */
export async function deliveriesOf(db: Db, tenant: Tenant, publicationIds: string[]): Promise<Map<string, DeliveryDoc[]>> {
  const rows = await deliveries(db, tenant).all({ publication_id: { $in: publicationIds } });
  const out = new Map<string, DeliveryDoc[]>();
  for (const row of rows.sort((a, b) => a.position - b.position)) {
    out.set(row.publication_id, [...(out.get(row.publication_id) ?? []), row]);
  }
  return out;
}

/** The deliveries of one publication (of its groups `groupIds` when given) in its groups' order, each read by its id (publication and group). */
export async function deliveriesOfPublication(
  db: Db,
  tenant: Tenant,
  publication: PublicationDoc,
  groupIds: string[] = publication.group_ids,
): Promise<DeliveryDoc[]> {
  const rows = await deliveries(db, tenant).findByIds(groupIds.map((g) => deliveryId(publication._id, g)));
  return rows.sort((a, b) => a.position - b.position);
}

/** Publications left `queued` before `before` (their workflow may never have started). */
export function queuedBefore(db: Db, before: Date, limit: number): Promise<PublicationDoc[]> {
  return db
    .collection<PublicationDoc>('publications')
    .find({ status: 'queued', queued_at: { $lt: before }, _deleted: { $ne: true } }, { sort: { _id: 1 }, limit })
    .toArray();
}

type DeliveryFields = Pick<DeliveryDoc, 'status' | 'attempts' | 'error' | 'with_image' | 'sent_at'>;

/** Sets fields of one group's delivery. */
export async function updateDelivery(
  db: Db,
  tenant: Tenant,
  publicationId: string,
  groupId: string,
  set: Partial<DeliveryFields>,
): Promise<void> {
  await deliveries(db, tenant).updateById(deliveryId(publicationId, groupId), { $set: set });
}

/** Marks the deliveries of `groupIds` in the tenant's publication `publicationId` `waiting` (for their slots): one round trip. */
export async function markDeliveriesWaiting(db: Db, tenant: Tenant, publicationId: string, groupIds: string[]): Promise<void> {
  if (!groupIds.length) return;
  await deliveries(db, tenant).updateEachById(
    groupIds.map((groupId) => ({ id: deliveryId(publicationId, groupId), update: { $set: { status: 'waiting' } } })),
  );
}

/**
 * Moves one group's delivery to `sending` (attempt `attempts`) unless an
 * earlier attempt sent it: the delivery as it is now (null when missing). A
 * read and a write by id, both served by `_id` alone: Temporal runs one
 * attempt at a time, and should a timed-out attempt still be finishing, the
 * gateway's idempotency key keeps the group from receiving the message twice.
 */
export async function startDeliveryAttempt(
  db: Db,
  tenant: Tenant,
  publicationId: string,
  groupId: string,
  attempts: number,
): Promise<DeliveryDoc | null> {
  const current = await deliveries(db, tenant).findById(deliveryId(publicationId, groupId));
  if (!current || current.status === 'sent') return current;
  return deliveries(db, tenant).updateRead(current, { $set: { status: 'sending', attempts } });
}

/**
 * Records the send of `delivery` (as startDeliveryAttempt gave it), by id
 * alone. True when this write is the one that made it `sent` (what counts it
 * once, however often a send is retried).
 */
export async function markDeliverySent(
  db: Db,
  tenant: Tenant,
  delivery: DeliveryDoc,
  set: Pick<DeliveryFields, 'with_image' | 'sent_at'>,
): Promise<boolean> {
  const before = await deliveries(db, tenant).updateRead(delivery, { $set: { ...set, status: 'sent', error: null } }, 'before');
  return before !== null && before.status !== 'sent';
}

/**
 * One send as the send activity reports it when the workflow records it
 * later, with others (`sent_at` in ISO form: it travels through the workflow's history).
 */
export interface SentRecord {
  group_id: string;
  with_image: boolean;
  sent_at: string;
  attempts: number;
}

const sentFields = (r: SentRecord): Pick<DeliveryDoc, 'status' | 'error' | 'with_image' | 'sent_at' | 'attempts'> => ({
  status: 'sent',
  error: null,
  with_image: r.with_image,
  sent_at: new Date(r.sent_at),
  attempts: r.attempts,
});

/** Records many sends of `publication` (a document of the tenant) at once: one round trip, each delivery by its id. */
export async function markDeliveriesSent(db: Db, tenant: Tenant, publication: PublicationDoc, records: SentRecord[]): Promise<void> {
  await deliveries(db, tenant).updateEachById(
    records.map((r) => ({ id: deliveryId(publication._id, r.group_id), update: { $set: sentFields(r) } })),
  );
}

/**
 * Notes on the publication that its batch of sends number `batch` (the
 * workflow numbers them 0, 1, … and records them one after another) is
 * recorded. True when this write is the first for that batch: what counts
 * its deliveries once, however often the recording is repeated.
 */
export async function claimSentBatch(db: Db, tenant: Tenant, publication: PublicationDoc, batch: number): Promise<boolean> {
  const before = await publications(db, tenant).updateRead(publication, { $set: { recorded_batches: batch + 1 } }, 'before');
  return before !== null && (before.recorded_batches ?? 0) <= batch;
}

/**
 * The deliveries of `publication` in its groups' order, where `sent` (the
 * sends the workflow reported, all recorded) says what they are: only the
 * others are read, each by its id.
 */
export async function deliveriesWithSent(db: Db, tenant: Tenant, publication: PublicationDoc, sent: SentRecord[]): Promise<DeliveryDoc[]> {
  const known = new Map(sent.map((r) => [r.group_id, r]));
  const read = new Map(
    (await deliveries(db, tenant).findByIds(publication.group_ids.filter((g) => !known.has(g)).map((g) => deliveryId(publication._id, g)))).map(
      (d) => [d.group_id, d],
    ),
  );
  return queuedDeliveries(publication).flatMap((d) => {
    const record = known.get(d.group_id);
    if (record) return [{ ...d, ...sentFields(record) }];
    const current = read.get(d.group_id);
    return current ? [current] : [];
  });
}

/**
 * Records that one group's delivery failed for good, with its error and the
 * attempts made in all: the delivery as this write found it (null when
 * missing), so that the caller sees whether this write is the one that failed it.
 */
export async function markDeliveryFailed(
  db: Db,
  tenant: Tenant,
  publicationId: string,
  groupId: string,
  error: string,
  attempts: number,
): Promise<DeliveryDoc | null> {
  const coll = deliveries(db, tenant);
  const current = await coll.findById(deliveryId(publicationId, groupId));
  return current && coll.updateRead(current, { $set: { status: 'failed', error, attempts } }, 'before');
}

/**
 * Moves the publication to `status`, with the event `describe` makes of the
 * result in the same write, by `_id` alone (the cheapest write on every
 * engine, engine.ts; no optimistic `updated_at` filter). Only the publication's own
 * workflow writes its status, one step after another; should two completions
 * ever overlap (an attempt outliving its timeout), `before` tells the second
 * that the first completed it (`completed_at`), and an event with an id
 * derived from the publication (completedEventId) is relayed once. Null when
 * the publication is gone; else the publication before and after, and the event written.
 */
export async function setPublicationStatus(
  db: Db,
  tenant: Tenant,
  current: PublicationDoc,
  status: PublicationStatus,
  describe?: (after: PublicationDoc) => OutboxEvent,
): Promise<{ before: PublicationDoc; after: PublicationDoc; event?: OutboxEvent } | null> {
  const now = new Date();
  const final = status === 'sent' || status === 'partial' || status === 'failed';
  const set = { status, ...(final ? { completed_at: now } : {}), updated_at: now };
  const { _outbox, ...base } = current;
  const after: PublicationDoc = { ...base, ...set };
  const event = describe?.(after);
  const update = { $set: set, ...(event ? { $push: { _outbox: event } } : {}) } as UpdateFilter<PublicationDoc>;
  const before = await publications(db, tenant).updateRead(current, update, 'before');
  return before && { before, after, ...(event ? { event } : {}) };
}

/**
 * Moves a publication its request has just started the workflow of to
 * `sending` (publications whose workflow was handed their groups: it has no
 * beginPublication to do it), by `_id` alone, after the request's answer: a
 * publication completed by then (a single send takes a few tens of
 * milliseconds) is left as it is. Should the completion land between the
 * read and this write, the completed state is written back at once.
 */
export async function markSending(db: Db, tenant: Tenant, p: PublicationDoc): Promise<void> {
  const coll = publications(db, tenant);
  const now = await coll.findById(p._id);
  if (!now || now.status !== 'queued') return;
  const before = await coll.updateRead(p, { $set: { status: 'sending', updated_at: new Date() } }, 'before');
  if (before?.completed_at) await coll.updateRead(p, { $set: { status: before.status, updated_at: before.updated_at } });
}

/** The id of a publication's `publication.completed` event: the same whichever completion writes it. */
export const completedEventId = (publicationId: string): string => derivedId('evt', publicationId, 'publication.completed');

/** Deliveries made to each of these groups: all of them, or those queued at or after `since`. */
export const countDeliveriesByGroup = (db: Db, tenant: Tenant, groupIds: string[], since?: Date): Promise<Map<string, number>> =>
  deliveries(db, tenant).countBy('group_id', groupIds, since ? { queued_at: { $gte: since } } : {});
