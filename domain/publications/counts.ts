/**
 * The publication counters of the analytics buckets (see ../analytics/buckets.ts). Each is
 * bumped by the one write that changed the state it counts, so that retried
 * activities never count twice:
 * - queued (`insertPublication` inserted it; a repeated request finds it and
 *   counts nothing): `publications` in `totals`, `hours`, `offers`,
 *   `segments`, `sources`; `deliveries` in `totals` and `groups` (one per group);
 * - completed (the write that gave it `completed_at`): `publications_sent`
 *   (`sent` or `partial`) or `publications_failed`, in the same dimensions as
 *   `publications`;
 * - one group's delivery sent or failed (the write whose previous state was
 *   neither): `deliveries_sent` or `deliveries_failed` in `totals` and `groups`.
 * Every counter of a publication and its deliveries falls on the local day and
 * hour the publication was queued, so that "of those queued, how many were
 * sent" holds within any window. A process dying between the state's write and
 * the count loses that count (at most once, never twice).
 */
import { Db } from 'mongodb';
import { Tenant } from '../db';
import type { DeliveryDoc, PublicationDoc } from './store';
import { addToBuckets, BucketFact, BucketIncrement } from '../analytics/buckets';

type Counted = Pick<PublicationDoc, 'offer_id' | 'segment_id' | 'source' | 'queued_at'>;

/** `counter` +1 in every dimension a publication-level counter applies to. */
function publicationIncs(p: Counted, counter: string): BucketIncrement[] {
  return [
    { dimension: 'totals', counter, by: 1 },
    { dimension: 'hours', counter, by: 1 },
    ...(p.offer_id ? [{ dimension: 'offers' as const, key: p.offer_id, counter, by: 1 }] : []),
    ...(p.segment_id ? [{ dimension: 'segments' as const, key: p.segment_id, counter, by: 1 }] : []),
    ...(p.source ? [{ dimension: 'sources' as const, key: p.source, counter, by: 1 }] : []),
  ];
}

/** The fact of a publication queued. */
export const queuedFact = (p: Counted & Pick<PublicationDoc, 'group_ids'>): BucketFact => ({
  at: p.queued_at,
  incs: [
    ...publicationIncs(p, 'publications'),
    { dimension: 'totals', counter: 'deliveries', by: p.group_ids.length },
    ...p.group_ids.map((key) => ({ dimension: 'groups' as const, key, counter: 'deliveries', by: 1 })),
  ],
});

/** The fact of a publication completed with `status`. */
export const completedFact = (p: Counted, status: 'sent' | 'partial' | 'failed'): BucketFact => ({
  at: p.queued_at,
  incs: publicationIncs(p, status === 'failed' ? 'publications_failed' : 'publications_sent'),
});

/** The fact of one group's delivery sent or failed. */
export function deliveryFact(d: Pick<DeliveryDoc, 'group_id' | 'queued_at'>, outcome: 'sent' | 'failed'): BucketFact {
  const counter = outcome === 'sent' ? 'deliveries_sent' : 'deliveries_failed';
  return {
    // Deliveries recorded before they kept their publication's time count when they end.
    at: d.queued_at ?? new Date(),
    incs: [
      { dimension: 'totals', counter, by: 1 },
      { dimension: 'groups', key: d.group_id, counter, by: 1 },
    ],
  };
}

/** A publication was queued (counted by the write that inserted it). */
export const countQueued = (db: Db, tenant: Tenant, p: Counted & Pick<PublicationDoc, 'group_ids'>): Promise<void> =>
  addToBuckets(db, tenant, [queuedFact(p)]);

/** The facts of the deliveries of `p` to `groupIds` sent. */
const sentFacts = (p: Pick<PublicationDoc, 'queued_at'>, groupIds: string[]): BucketFact[] =>
  groupIds.map((group_id) => deliveryFact({ group_id, queued_at: p.queued_at }, 'sent'));

/**
 * A publication reached its final status (counted by the write that
 * completed it), and the deliveries to `sentGroups` recorded with it.
 */
export const countCompleted = (
  db: Db,
  tenant: Tenant,
  p: Counted,
  status: 'sent' | 'partial' | 'failed',
  sentGroups: string[] = [],
): Promise<void> => addToBuckets(db, tenant, [completedFact(p, status), ...sentFacts(p, sentGroups)]);

/** The deliveries of `p` to `groupIds` were sent (counted by the first recording of their batch): one write per bucket document. */
export const countDeliveriesSent = (db: Db, tenant: Tenant, p: Pick<PublicationDoc, 'queued_at'>, groupIds: string[]): Promise<void> =>
  addToBuckets(db, tenant, sentFacts(p, groupIds));

/** One group's delivery was sent or failed (counted by the write that moved it there). */
export const countDelivery = (
  db: Db,
  tenant: Tenant,
  d: Pick<DeliveryDoc, 'group_id' | 'queued_at'>,
  outcome: 'sent' | 'failed',
): Promise<void> => addToBuckets(db, tenant, [deliveryFact(d, outcome)]);
