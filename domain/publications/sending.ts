/**
 * The steps of a publication's sends, as its workflow runs them (one
 * activity each): begin, send to a group or to a chunk of groups, record
 * sends in batches, record a group's failure; the end is ./completion.ts.
 * Each may run again (a retry, a worker lost) and writes the same then.
 */
import { PublicationGroup } from '../../temporal/workflows';
import { countDeliveriesSent, countDelivery } from './counts';
import { passGroupSession, SendContent, SendDeps, SendOutcome, sendToGroup, sendToGroups, SlotWait } from '../channels/send';
import { Tenant } from '../db';
import { textForGroup } from '../links/service';
import { activeGroupBatches, getGroups, GroupDoc } from '../groups/store';
import { getOffer } from '../offers/store';
import { startPublication } from '../../temporal/start';
import { completePublication, counted, mustGetPublication, StepDeps } from './completion';
import {
  claimSentBatch,
  deliveriesOfPublication,
  markDeliveriesSent,
  markDeliveryFailed,
  markDeliverySent,
  PublicationDoc,
  queuedBefore,
  SentRecord,
  setPublicationStatus,
  startDeliveryAttempt,
  updateDelivery,
} from './store';
import { publicationGroups } from './targets';

/** What a publication's send steps need: the database, Temporal, the send path's key and the worker's cache of contents. */
export interface SendingDeps extends StepDeps, SendDeps {
  contents: PublicationContents;
}

/** What a send reads of its publication: set when it is queued, never changed after. */
type Content = Pick<PublicationDoc, '_id' | 'text' | 'format' | 'image_url' | 'with_image' | 'link_codes'>;

/** Publications whose content a worker keeps, so the sends of a fan-out read it once rather than once per group. */
const CONTENT_CACHE_SIZE = 256;

/** The contents of the publications a worker sends, each read once (the concurrent sends of a fan-out share that read). */
export class PublicationContents {
  private readonly read = new Map<string, Promise<Content>>();

  get(deps: StepDeps, tenant: Tenant, id: string): Promise<Content> {
    const key = `${tenant.accountId}/${tenant.env}/${id}`;
    const known = this.read.get(key);
    if (known) return known;
    const read = mustGetPublication(deps, tenant, id).then(({ _id, text, format, image_url, with_image, link_codes }) => ({
      _id,
      text,
      link_codes,
      image_url,
      with_image,
      ...(format ? { format } : {}),
    }));
    // A failed read is not kept; the oldest entry makes room (a Map iterates in insertion order).
    read.catch(() => this.read.delete(key));
    if (this.read.size >= CONTENT_CACHE_SIZE) this.read.delete(this.read.keys().next().value!);
    this.read.set(key, read);
    return read;
  }
}

/** What a send of `publication` to a group carries: its text (with the group's tracked link), markup, image, idempotency key and slot. */
const sendContent = (publication: Content, groupId: string, slot: string | null): SendContent => ({
  text: textForGroup(publication.text, publication.link_codes, groupId),
  ...(publication.format ? { format: publication.format } : {}),
  imageUrl: publication.with_image ? publication.image_url : null,
  idempotencyKey: `${publication._id}:${groupId}`,
  ...(slot ? { slot } : {}),
});

/**
 * The most groups one begin reports: a page stays under a megabyte however
 * long the groups' names (Temporal warns at 512 KB per payload and refuses
 * one over 2 MB; a local activity's result is one).
 */
export const BEGIN_PAGE_GROUPS = 1_000;

/** A page of the groups still to deliver. */
export interface BegunGroups {
  groups: PublicationGroup[];
  /** Where the next page starts in the publication's groups; null after the last page. */
  next: number | null;
  /** The publication was queued when its first page was read: nothing had been sent (passed back for the next pages). */
  fresh: boolean;
}

/** Which page beginPublication reads: its first group's index, and what the first page said (BegunGroups.fresh). */
export interface BeginPage {
  from: number;
  fresh: boolean;
}

/**
 * Moves the publication to `sending` (on its first page); the groups still to
 * deliver among the page's (a repeated begin skips finished ones).
 */
export async function beginPublication(
  deps: StepDeps,
  tenant: Tenant,
  id: string,
  page?: BeginPage,
  size = BEGIN_PAGE_GROUPS,
): Promise<BegunGroups> {
  const publication = await mustGetPublication(deps, tenant, id);
  const fresh = page?.fresh ?? publication.status === 'queued';
  if (!page && fresh) await setPublicationStatus(deps.db, tenant, publication, 'sending');
  const from = page?.from ?? 0;
  const end = Math.min(from + size, publication.group_ids.length);
  const ids = publication.group_ids.slice(from, end);
  // Nothing is sent before the publication begins: only a repeated begin reads the deliveries to skip the finished ones.
  const pending = fresh
    ? ids
    : (await deliveriesOfPublication(deps.db, tenant, publication, ids))
        .filter((d) => d.status !== 'sent' && d.status !== 'failed')
        .map((d) => d.group_id);
  const read = publication.segment_id ? await segmentGroups(deps, tenant, publication.segment_id, pending) : undefined;
  return { groups: await publicationGroups(deps.db, tenant, pending, read), next: end < publication.group_ids.length ? end : null, fresh };
}

/**
 * The groups `ids` of a segment publication: the segment's active groups
 * within their `_id` range in one query, as the request that queued it read
 * them (`_id` ascending), and any other (gone from the segment since, or
 * inactive) by its id. A fan-out begins here only when it was too large for
 * the workflow's input: one look-up per group of thousands cost more than
 * the query, and under load outlived the step's timeout.
 */
async function segmentGroups(deps: StepDeps, tenant: Tenant, segmentId: string, ids: string[]): Promise<Map<string, GroupDoc>> {
  const read = new Map<string, GroupDoc>();
  if (!ids.length) return read;
  const wanted = new Set(ids);
  const sorted = [...ids].sort();
  const range = { from: sorted[0]!, to: sorted.at(-1)! };
  for await (const batch of activeGroupBatches(deps.db, tenant, segmentId, range))
    for (const g of batch) if (wanted.has(g._id)) read.set(g._id, g);
  const missing = ids.filter((id) => !read.has(id));
  for (const g of (await getGroups(deps.db, tenant, missing)).values()) read.set(g._id, g);
  return read;
}

/** What one send to a group did: the gateway's message id (null when it gives none, or when an earlier attempt had sent it). */
export interface GroupSendResult {
  outcome: 'sent' | 'sent_before';
  message_id: string | null;
  /** What the workflow records of a deferred send. */
  record?: SentRecord;
  /** The publication's final status, when the send completed it (`complete`; absent when that failed: the workflow completes it). */
  status?: string;
}

/** One attempt to send a publication to one group. */
export interface DeliveryAttempt {
  publicationId: string;
  groupId: string;
  /** The slot the workflow reserved and woke the send for; null when it reserved none (the send takes one itself when the group is paced). */
  slot: string | null;
  /** Which attempt of the send this is (the workflow counts them: a wait for a slot is none). */
  attempt: number;
  /** The workflow records the send itself, with others: nothing is written on success, what to record is returned. */
  deferred?: boolean;
  /** The workflow's only send (deferred): once sent, it completes the publication (as the workflow's completion would with it). */
  complete?: boolean;
}

/**
 * One attempt to send the publication to one group, counted on its delivery
 * (unless deferred); the gateway's message id and the outcome, or the slot
 * to wait for when the send's own had passed (no attempt: nothing was sent).
 */
export async function sendDelivery(deps: SendingDeps, tenant: Tenant, a: DeliveryAttempt): Promise<GroupSendResult | SlotWait> {
  // The delivery moves to `sending` unless it was sent by an attempt whose completion was lost. A deferred send skips
  // both: the workflow records it once it is sent (a send cut short is sent again under the same idempotency key,
  // which the connector honours).
  // A send that counts its attempt first waits here for a session known to be down: such a wait is no attempt.
  const target = a.deferred ? undefined : await passGroupSession(deps, tenant, a.groupId);
  const delivery = a.deferred ? null : await startDeliveryAttempt(deps.db, tenant, a.publicationId, a.groupId, a.attempt);
  if (delivery?.status === 'sent') return { outcome: 'sent_before', message_id: null };
  // The publication's content and the group (in sendToGroup) are read side by side. A send that completes the
  // publication reads it whole (the completion's read: one that completed it before shows `completed_at`).
  const whole = a.complete ? mustGetPublication(deps, tenant, a.publicationId) : undefined;
  const content = (whole ?? deps.contents.get(deps, tenant, a.publicationId)).then((p) => sendContent(p, a.groupId, a.slot));
  const sent = await sendToGroup(deps, tenant, a.groupId, content, target);
  if (sent.outcome === 'wait') {
    // Not sent: the delivery waits again, this attempt not counted.
    await updateDelivery(
      deps.db,
      tenant,
      a.publicationId,
      a.groupId,
      delivery ? { status: 'waiting', attempts: a.attempt - 1 } : { status: 'waiting' },
    );
    return sent;
  }
  const record = { with_image: sent.withImage, sent_at: new Date() };
  if (a.deferred) {
    const deferred: SentRecord = { group_id: a.groupId, ...record, sent_at: record.sent_at.toISOString(), attempts: a.attempt };
    // Sent: a failure to complete is no failure of the send (a retry would send again); the workflow completes then.
    const status = a.complete
      ? await completePublication(deps, tenant, a.publicationId, [deferred], 0, await whole).catch((err: unknown) => {
          deps.report('completing a publication after its send', err);
          return undefined;
        })
      : undefined;
    return { outcome: 'sent', message_id: sent.providerMessageId, record: deferred, ...(status ? { status } : {}) };
  }
  if (delivery && (await markDeliverySent(deps.db, tenant, delivery, record)))
    await counted(deps, countDelivery(deps.db, tenant, delivery, 'sent'));
  return { outcome: 'sent', message_id: sent.providerMessageId };
}

/**
 * One attempt of the sends to a chunk of unpaced groups, at once, each as a
 * deferred sendDelivery would (same idempotency key, nothing written): what
 * each did (and when), or why it was not sent, in the order of `groupIds`.
 */
export async function sendChunk(
  deps: SendingDeps,
  tenant: Tenant,
  publicationId: string,
  groupIds: string[],
): Promise<PromiseSettledResult<SendOutcome & { at: Date }>[]> {
  const content = deps.contents.get(deps, tenant, publicationId);
  return sendToGroups(deps, tenant, groupIds, async (groupId) => sendContent(await content, groupId, null));
}

/** A group the publication could not reach: a permanent error, or its attempts spent (how many, in all). */
export async function failDelivery(
  deps: StepDeps,
  tenant: Tenant,
  publicationId: string,
  groupId: string,
  error: string,
  attempts: number,
): Promise<void> {
  const before = await markDeliveryFailed(deps.db, tenant, publicationId, groupId, error, attempts);
  if (before && before.status !== 'failed' && before.status !== 'sent') await counted(deps, countDelivery(deps.db, tenant, before, 'failed'));
}

/** Records a batch of deferred sends (the workflow's, numbered from 0, in order), counted on its first recording. */
export async function recordSentBatch(
  deps: StepDeps,
  tenant: Tenant,
  publicationId: string,
  batch: number,
  deliveries: SentRecord[],
): Promise<void> {
  const publication = await mustGetPublication(deps, tenant, publicationId);
  await markDeliveriesSent(deps.db, tenant, publication, deliveries);
  if (await claimSentBatch(deps.db, tenant, publication, batch)) {
    await counted(
      deps,
      countDeliveriesSent(
        deps.db,
        tenant,
        publication,
        deliveries.map((d) => d.group_id),
      ),
    );
  }
}

/** Starts the workflow of publications left queued (the API died between recording and starting); how many. */
export async function resumeQueuedPublications(deps: StepDeps): Promise<number> {
  const stale = await queuedBefore(deps.db, new Date(Date.now() - 60_000), 200);
  for (const p of stale) {
    const offer = p.offer_id ? await getOffer(deps.db, { accountId: p.account_id, env: p.env }, p.offer_id) : null;
    await startPublication(deps.temporal, p, offer?.title ?? null);
  }
  return stale.length;
}
