/**
 * The activities of the publication workflow: they move the publication and
 * its deliveries in MongoDB and send through the group's channel connector.
 */
import { ApplicationFailure } from '@temporalio/common';
import { commitEvent, commitEvents } from '../domain/events/commit';
import { toPublication } from '../domain/publications/queue';
import { startPublication } from '../temporal/start';
import { PublicationGroup } from '../temporal/workflows';
import { Environment, Tenant } from '../domain/db';
import { prepareEvent } from '../domain/events/store';
import { getOffer } from '../domain/offers/store';
import { countCompleted, countDeliveriesSent, countDelivery } from '../domain/analytics/publications';
import {
  claimSentBatch,
  completedEventId,
  deliveriesOfPublication,
  deliveriesWithSent,
  forgetInFlight,
  getPublication,
  markDeliveriesSent,
  markDeliveryFailed,
  markDeliverySent,
  PublicationDoc,
  queuedBefore,
  SentRecord,
  setPublicationStatus,
  startDeliveryAttempt,
  updateDelivery,
} from '../domain/publications/store';
import { textForGroup } from '../domain/links/service';
import type { ActivityDeps } from './deps';
import { reserveGroupSlot, SendContent, sendToGroup, sendToGroups, SlotWait } from '../domain/channels/send';
import { publicationGroups } from '../domain/publications/targets';
import { heartbeating } from './heartbeat';
import { reportInternalError, safeFailure, withChannelFailures, withSafeFailures } from './internal-errors';

interface Ref {
  publication_id: string;
  account: string;
  environment: Environment;
}
interface GroupRef extends Ref {
  group_id: string;
}

/** One attempt to send to a group (deliverToGroup). */
interface SendRef extends GroupRef {
  /** The slot the workflow reserved and woke the send for; null when it reserved none (the send takes one itself when the group is paced). */
  slot: string | null;
  /** Which attempt of the send this is (the workflow counts them: a wait for a slot is none). */
  attempt: number;
  /**
   * The workflow records the send itself, with others (recordSentDeliveries,
   * completePublication): the send writes nothing on success and reports
   * what to record.
   */
  deferred?: boolean;
  /**
   * The workflow's only send (deferred): once sent, the send completes the
   * publication itself (as completePublication with this send) and reports
   * its final status.
   */
  complete?: boolean;
}

/** One attempt of the sends to a chunk of unpaced groups (deliverToGroups): which one, counted for each group. */
interface ChunkRef extends Ref {
  group_ids: string[];
  attempt: number;
}

/**
 * What a chunk's send did for one group: what to record of it; the slot it
 * waits for, reserved (pacing was set since the publication began); or the
 * (tenant-safe) reason it was not sent.
 */
export type ChunkSendResult =
  { group_id: string; message_id: string | null; record: SentRecord } | { group_id: string; slot: string } | { group_id: string; error: string };

/** A batch of sends to record, numbered from 0 by the workflow, recorded in order. */
interface SentBatch extends Ref {
  batch: number;
  deliveries: SentRecord[];
}

/**
 * How a publication ends: with `sent`, every send the workflow recorded in
 * batches (recordSentDeliveries), of which the first `recorded` are written;
 * complete writes the rest.
 */
interface Completion extends Ref {
  sent: SentRecord[];
  recorded: number;
}

export type { SentRecord, SlotWait };

/** What one send to a group did: the gateway's message id (null when it gives none, or when an earlier attempt had sent it). */
export interface GroupSendResult {
  outcome: 'sent' | 'sent_before';
  message_id: string | null;
  /** What the workflow records of a deferred send. */
  record?: SentRecord;
  /** The publication's final status, when the send completed it (`complete`; absent when that failed: the workflow completes it). */
  status?: string;
}

const tenantOf = (r: Ref): Tenant => ({ accountId: r.account, env: r.environment });

/**
 * Waits for an analytics count, which never fails the step it follows: the
 * state it counts is written already, and a retry would not count it again
 * (domain/analytics/publications.ts), so a failed count is logged and lost.
 */
const counted = (count: Promise<void>): Promise<void> => count.catch((err: unknown) => void reportInternalError('counting for analytics', err));

async function mustGetPublication(deps: ActivityDeps, r: Ref) {
  const publication = await getPublication(deps.db, tenantOf(r), r.publication_id);
  if (!publication) throw ApplicationFailure.nonRetryable(`no publication ${r.publication_id}`, 'PublicationMissing');
  return publication;
}

/** What a send reads of its publication: set when it is queued, never changed after. */
type Content = Pick<PublicationDoc, '_id' | 'text' | 'format' | 'image_url' | 'with_image' | 'link_codes'>;
/** What a send of `publication` to a group carries: its text (with the group's tracked link), markup, image, idempotency key and slot. */
const sendContent = (publication: Content, groupId: string, slot: string | null): SendContent => ({
  text: textForGroup(publication.text, publication.link_codes, groupId),
  ...(publication.format ? { format: publication.format } : {}),
  imageUrl: publication.with_image ? publication.image_url : null,
  idempotencyKey: `${publication._id}:${groupId}`,
  ...(slot ? { slot } : {}),
});

/** Publications whose content a worker keeps, so the sends of a fan-out read it once rather than once per group. */
const CONTENT_CACHE_SIZE = 256;

export function createPublicationActivities(deps: ActivityDeps) {
  const eventDeps = { db: deps.db, temporal: { client: deps.temporal, taskQueue: deps.taskQueue } };
  const contents = new Map<string, Promise<Content>>();

  /** The content of `r`'s publication, read once per worker (the concurrent sends of a fan-out share that read). */
  function contentOf(r: Ref): Promise<Content> {
    const key = `${r.account}/${r.environment}/${r.publication_id}`;
    const known = contents.get(key);
    if (known) return known;
    const read = mustGetPublication(deps, r).then(({ _id, text, format, image_url, with_image, link_codes }) => ({
      _id,
      text,
      link_codes,
      image_url,
      with_image,
      ...(format ? { format } : {}),
    }));
    // A failed read is not kept; the oldest entry makes room (a Map iterates in insertion order).
    read.catch(() => contents.delete(key));
    if (contents.size >= CONTENT_CACHE_SIZE) contents.delete(contents.keys().next().value!);
    contents.set(key, read);
    return read;
  }

  /**
   * A step's bookkeeping once it has written the state it counts: after the
   * activity's result (deps.afterAnswer; a crash before it loses the count,
   * and leaves the event in the outbox for the sweep), else awaited. The count
   * never fails the step (`counted`).
   */
  async function afterwards(count: () => Promise<void>, ...rest: (() => Promise<unknown>)[]): Promise<void> {
    if (deps.afterAnswer) return deps.afterAnswer.add(() => Promise.all([count(), ...rest.map((task) => task())]));
    await Promise.all([counted(count()), ...rest.map((task) => task())]);
  }

  /**
   * sent, partial or failed from the deliveries (the sends the workflow
   * reports, the others read); records the sends not recorded yet and
   * `publication.completed`.
   */
  async function completeWith(r: Completion, read?: PublicationDoc): Promise<string> {
    const tenant = tenantOf(r);
    const publication = read ?? (await mustGetPublication(deps, r));
    const unrecorded = r.sent.slice(r.recorded);
    if (publication.completed_at) {
      // Completed by an attempt before this one, which may have died before its other writes: the sends are
      // written again (the same values), and what it left in the outbox is relayed.
      await markDeliveriesSent(deps.db, tenant, publication, unrecorded);
      if (publication._outbox?.length) await commitEvents(eventDeps, 'publications', publication._id);
      return publication.status;
    }
    const deliveries = await deliveriesWithSent(deps.db, tenant, publication, r.sent);
    const sent = deliveries.filter((d) => d.status === 'sent').length;
    const status = sent === deliveries.length ? 'sent' : sent === 0 ? 'failed' : 'partial';
    // The final state and the sends not recorded yet side by side (a repeated completion writes those again).
    const [moved] = await Promise.all([
      setPublicationStatus(deps.db, tenant, publication, status, (after) =>
        prepareEvent(
          tenant,
          'publication.completed',
          { publication: toPublication(after, deliveries) },
          after.completed_at!,
          completedEventId(publication._id),
        ),
      ),
      markDeliveriesSent(deps.db, tenant, publication, unrecorded),
    ]);
    if (!moved) throw ApplicationFailure.nonRetryable(`no publication ${r.publication_id}`, 'PublicationMissing');
    // Another completion wrote first: it counted; the event this write added again has the id of its own, which
    // the relay stores once.
    if (moved.before.completed_at) {
      await commitEvents(eventDeps, 'publications', publication._id);
      return moved.before.status;
    }
    // The sends recorded just now are counted with the write that completed the publication (once); the count,
    // the relay of the event (known: no read of the outbox) and the in-flight note side by side, after the result.
    await afterwards(
      () =>
        countCompleted(
          deps.db,
          tenant,
          publication,
          status,
          unrecorded.map((d) => d.group_id),
        ),
      () => commitEvent(eventDeps, 'publications', publication._id, moved.event!),
      () => forgetInFlight(deps.db, tenant, publication),
    );
    return status;
  }

  return {
    /** Moves the publication to `sending`; the groups still to deliver (a replayed start skips finished ones). */
    async beginPublication(r: Ref): Promise<PublicationGroup[]> {
      const tenant = tenantOf(r);
      const publication = await mustGetPublication(deps, r);
      const fresh = publication.status === 'queued';
      if (fresh) await setPublicationStatus(deps.db, tenant, publication, 'sending');
      // Nothing is sent before the publication begins: only a repeated begin reads the deliveries to skip the finished ones.
      const pending = fresh
        ? publication.group_ids
        : (await deliveriesOfPublication(deps.db, tenant, publication))
            .filter((d) => d.status !== 'sent' && d.status !== 'failed')
            .map((d) => d.group_id);
      return publicationGroups(deps.db, tenant, pending);
    },

    /**
     * The earliest time, at or after `not_before`, this group may receive a
     * message (pacing per group and per channel), reserved; null when its sends are not paced.
     */
    reserveDeliverySlot: withChannelFailures((r: GroupRef & { not_before?: string }): Promise<string | null> =>
      reserveGroupSlot(deps, tenantOf(r), r.group_id, r.not_before),
    ),

    async markDeliveryWaiting(r: GroupRef): Promise<void> {
      await updateDelivery(deps.db, tenantOf(r), r.publication_id, r.group_id, { status: 'waiting' });
    },

    /**
     * One attempt to send the publication to one group; every attempt is
     * counted on the delivery, and its error recorded there. The tenant reads
     * that error: a channel's own (an ApplicationFailure made from a
     * ConnectorError, domain/channels/send.ts) as it is, anything else as the
     * internal-error text, its cause logged. Returns the gateway's message id
     * and the outcome, which the workflow's history shows; or the slot to wait
     * for when the send's own had passed (no attempt: nothing was sent).
     */
    async deliverToGroup(r: SendRef): Promise<GroupSendResult | SlotWait> {
      const tenant = tenantOf(r);
      try {
        return await heartbeating(async () => {
          // The delivery moves to `sending` unless it was sent by an attempt whose completion was lost. A deferred
          // send skips both: the workflow records it once it is sent (a send cut short is sent again under the same
          // idempotency key, which the connector honours).
          const delivery = r.deferred ? null : await startDeliveryAttempt(deps.db, tenant, r.publication_id, r.group_id, r.attempt);
          if (delivery?.status === 'sent') return { outcome: 'sent_before', message_id: null };
          // The publication's content and the group (in sendToGroup) are read side by side. A send that completes the
          // publication reads it whole (the completion's read: one that completed it before shows `completed_at`).
          const whole = r.complete ? mustGetPublication(deps, r) : undefined;
          const sent = await sendToGroup(
            deps,
            tenant,
            r.group_id,
            (whole ?? contentOf(r)).then((publication) => sendContent(publication, r.group_id, r.slot)),
          );
          if (sent.outcome === 'wait') {
            // Not sent: the delivery waits again, this attempt not counted.
            if (delivery) await updateDelivery(deps.db, tenant, r.publication_id, r.group_id, { status: 'waiting', attempts: r.attempt - 1 });
            return sent;
          }
          const record = { with_image: sent.withImage, sent_at: new Date() };
          if (r.deferred) {
            const deferred: SentRecord = { group_id: r.group_id, ...record, sent_at: record.sent_at.toISOString(), attempts: r.attempt };
            // Sent: a failure to complete is no failure of the send (a retry would send again); the workflow completes then.
            const status = r.complete
              ? await completeWith({ ...r, sent: [deferred], recorded: 0 }, await whole).catch((err: unknown) => {
                  reportInternalError('completing a publication after its send', err);
                  return undefined;
                })
              : undefined;
            return { outcome: 'sent', message_id: sent.providerMessageId, record: deferred, ...(status ? { status } : {}) };
          }
          if (delivery && (await markDeliverySent(deps.db, tenant, delivery, record)))
            await counted(countDelivery(deps.db, tenant, delivery, 'sent'));
          return { outcome: 'sent', message_id: sent.providerMessageId };
        });
      } catch (err) {
        // The workflow tries again while attempts remain, and records this same safe text when they run out.
        const failure = safeFailure('a delivery attempt', err);
        try {
          await updateDelivery(deps.db, tenant, r.publication_id, r.group_id, {
            error: failure.message,
            ...(r.deferred ? { attempts: r.attempt } : {}),
          });
        } catch (writeErr) {
          reportInternalError('recording a delivery error', writeErr);
        }
        throw failure;
      }
    },

    /**
     * One attempt of the sends to a chunk of unpaced groups, at once, each as
     * a deferred deliverToGroup would (same idempotency key, nothing written
     * on success: the workflow records the sends). A group whose send fails,
     * or that waits for a slot (pacing set since the publication began), is
     * reported, not tried again here: the workflow sends it on its own, with
     * deliverToGroup's retries and failure record. Another attempt of the
     * whole chunk (a worker lost mid-chunk) sends again under the same keys;
     * a failure of the whole chunk (reading its groups or channels) shows only
     * the internal-error text, its cause logged.
     */
    deliverToGroups: withSafeFailures('a chunk of sends', async (r: ChunkRef): Promise<ChunkSendResult[]> => {
      const content = contentOf(r);
      // Alive while its sends are under way: a chunk lost with its worker is tried again after the heartbeat timeout.
      const sends = await heartbeating(() =>
        sendToGroups(deps, tenantOf(r), r.group_ids, async (group_id) => sendContent(await content, group_id, null)),
      );
      return sends.map((send, i): ChunkSendResult => {
        const group_id = r.group_ids[i]!;
        if (send.status === 'rejected') return { group_id, error: safeFailure('a delivery attempt', send.reason).message };
        const done = send.value;
        if (done.outcome === 'wait') return { group_id, slot: done.slot };
        const record = { group_id, with_image: done.withImage, sent_at: done.at.toISOString(), attempts: r.attempt };
        return { group_id, message_id: done.providerMessageId, record };
      });
    }),

    /** A group the publication could not reach: a permanent error, or its attempts spent (how many, in all). */
    async failDelivery(r: GroupRef & { error: string; attempts: number }): Promise<void> {
      const tenant = tenantOf(r);
      const before = await markDeliveryFailed(deps.db, tenant, r.publication_id, r.group_id, r.error, r.attempts);
      if (before && before.status !== 'failed' && before.status !== 'sent') await counted(countDelivery(deps.db, tenant, before, 'failed'));
    },

    /**
     * Records a batch of deferred sends at once (the workflow's, in order),
     * and counts them for analytics on the first recording of the batch.
     */
    async recordSentDeliveries(r: SentBatch): Promise<void> {
      const tenant = tenantOf(r);
      const publication = await mustGetPublication(deps, r);
      await markDeliveriesSent(deps.db, tenant, publication, r.deliveries);
      if (await claimSentBatch(deps.db, tenant, publication, r.batch))
        await counted(
          countDeliveriesSent(
            deps.db,
            tenant,
            publication,
            r.deliveries.map((d) => d.group_id),
          ),
        );
    },

    /**
     * sent, partial or failed from the deliveries (the sends the workflow
     * reports, the others read); records the sends not recorded yet and
     * `publication.completed`.
     */
    completePublication: (r: Completion): Promise<string> => completeWith(r),

    /** Starts the workflow of publications left queued (the API died between recording and starting). */
    async resumeQueuedPublications(): Promise<number> {
      const stale = await queuedBefore(deps.db, new Date(Date.now() - 60_000), 200);
      for (const p of stale) {
        const offer = p.offer_id ? await getOffer(deps.db, { accountId: p.account_id, env: p.env }, p.offer_id) : null;
        await startPublication({ client: deps.temporal, taskQueue: deps.taskQueue }, p, offer?.title ?? null);
      }
      return stale.length;
    },
  };
}
