/**
 * Queuing a publication: checks the content and the destination, records the
 * publication (queued) with one delivery per group, and starts its durable
 * workflow `publication-<id>` before answering. The publish operation and
 * every schedule run come through here.
 */
import { Schema } from '../../schemas/types';
import { createHash } from 'node:crypto';
import { Db } from 'mongodb';
import { AfterAnswer } from '../after-answer';
import { startPublication, TemporalDeps } from '../../temporal/start';
import { PublicationGroup } from '../../temporal/workflows';
import { conflict, invalid, notFound } from '../errors';
import { commitEvent } from '../events/commit';
import { derivedId, newId } from '../ids';
import { renderOfferForSend } from '../offers/render';
import { LINK_CODE_PLACEHOLDER, shortUrlOf, trackedLinksFor } from '../links/service';
import { Tenant } from '../db';
import { DomainEvent, prepareEvent } from '../events/store';
import { GroupDoc } from '../groups/store';
import { checkPublishable } from '../offers/service';
import { getOffer, OfferDoc } from '../offers/store';
import { couponStatus, getCoupon } from '../coupons/store';
import {
  DeliveryDoc,
  queuedDeliveries,
  deliveriesOfPublication,
  getPublication,
  claimInFlight,
  forgetInFlight,
  insertPublication,
  markSending,
  noteInFlight,
  PublicationDoc,
} from './store';
import { publicationGroups, publicationTargets } from './targets';
import { countQueued } from './counts';
import { sourceOf } from '../analytics/sources';

export interface PublishingDeps {
  db: Db;
  temporal: TemporalDeps;
  /**
   * Unseals the tenant's integrations: an offer whose marketplace the tenant has one for is sent with a tracked link per
   * group (domain/links). Null only where the tenant can have none (the sandbox seed, right after its reset).
   */
  secretKey: Buffer | null;
  /** Where tracked links are served (OFFEROPS_PUBLIC_URL). */
  publicUrl?: string;
  shortLinkHosts?: readonly string[];
  /**
   * Where a request's bookkeeping goes once its publication is recorded and
   * started (the API's): the queued count, the relay of `publication.queued`
   * and the move to `sending` run after the answer, not beside the
   * workflow's first steps. Without it (the worker's callers) they are awaited.
   */
  afterAnswer?: AfterAnswer;
}

export interface PublishInput {
  offer_id: string | null;
  text: string | null;
  template_id: string | null;
  group_id: string | null;
  segment_id: string | null;
  with_image: boolean;
  schedule_id: string | null;
  /** Same key (per account and environment) → the same publication, never a second one. */
  idempotency_key: string | null;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The API record of a publication: never a channel, address or session. */
export function toPublication(p: PublicationDoc, deliveries: DeliveryDoc[]): Schema<'Publication'> {
  return {
    id: p._id,
    offer_id: p.offer_id,
    group_id: p.group_id,
    segment_id: p.segment_id,
    schedule_id: p.schedule_id,
    template_id: p.template_id,
    text: p.text,
    with_image: p.with_image,
    status: p.status,
    deliveries: deliveries.map((d) => ({
      group_id: d.group_id,
      status: d.status,
      attempts: d.attempts,
      error: d.error,
      with_image: d.with_image,
      sent_at: iso(d.sent_at),
    })),
    event_id: p.event_id,
    queued_at: p.queued_at.toISOString(),
    completed_at: iso(p.completed_at),
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  };
}

export async function publicationRecord(db: Db, tenant: Tenant, p: PublicationDoc): Promise<Schema<'Publication'>> {
  return toPublication(p, await deliveriesOfPublication(db, tenant, p));
}

/** What the request that queued `p` answers: the publication as recorded, its deliveries queued (not read back). */
export const queuedRecord = (p: PublicationDoc): Schema<'Publication'> => toPublication(p, queuedDeliveries(p));

/** Refuses to publish an offer whose registered coupon no longer works (409 naming the coupon). */
async function checkCoupon(db: Db, tenant: Tenant, couponId: string): Promise<void> {
  const coupon = await getCoupon(db, tenant, couponId);
  const status = coupon ? couponStatus(coupon) : 'inactive';
  if (status === 'expired') {
    throw conflict(
      'offer_not_publishable',
      `The offer's coupon ${couponId} (${coupon!.code}) expired at ${coupon!.expires_at!.toISOString()}; extend it (PATCH /coupons/${couponId}) or detach it from the offer (coupon_id null).`,
    );
  }
  if (status === 'inactive') {
    throw conflict(
      'offer_not_publishable',
      `The offer's coupon ${couponId}${coupon ? ` (${coupon.code})` : ''} is deactivated; reactivate it or detach it from the offer (coupon_id null).`,
    );
  }
}

const requestHash = (input: PublishInput): string =>
  createHash('sha256')
    .update(JSON.stringify({ ...input, idempotency_key: null }))
    .digest('hex');

const idempotentId = (tenant: Tenant, key: string): string => derivedId('pub', tenant.accountId, tenant.env, key);

/**
 * The most characters of JSON a workflow's input carries of its groups (about
 * 3,000 groups): a larger fan-out is started without them and reads them
 * in pages (beginPublication); Temporal warns at 512 KB per payload and
 * refuses one over 2 MB.
 */
export const INPUT_GROUPS_MAX_CHARS = 256 * 1024;

/** The groups as the publication's workflow needs them, or undefined when they would make its input too large. */
async function workflowGroups(db: Db, tenant: Tenant, groups: GroupDoc[]): Promise<PublicationGroup[] | undefined> {
  const out = await publicationGroups(
    db,
    tenant,
    groups.map((g) => g._id),
    new Map(groups.map((g) => [g._id, g])),
  );
  return JSON.stringify(out).length <= INPUT_GROUPS_MAX_CHARS ? out : undefined;
}

/** `p` with a rejection handler attached (awaited later, or never when an earlier check answers first). */
function settledLater<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/** Records a queued publication and starts its workflow; an existing one for the same request is returned instead. */
export async function queuePublication(
  deps: PublishingDeps,
  tenant: Tenant,
  input: PublishInput,
): Promise<{ publication: PublicationDoc; created: boolean }> {
  const { db } = deps;
  const now = new Date();
  const id = input.idempotency_key ? idempotentId(tenant, input.idempotency_key) : newId('pub', now.getTime());
  // Without a key, the request claims its content and destination first: of concurrent ones (a double click)
  // one goes on, the others answer its publication. With a key, the key's derived id decides.
  const key = { offer_id: input.offer_id, group_id: input.group_id, segment_id: input.segment_id, schedule_id: input.schedule_id };
  const claimed = input.idempotency_key ? null : await claimInFlight(db, tenant, key, id);
  // The offer's checks hold for a double click too (its coupon may have expired since); its workflow is started by
  // the request that holds the claim (or, should that one die, by the sweep of queued ones).
  if (claimed) {
    await checkedOffer(db, tenant, input);
    return { publication: claimed, created: false };
  }
  try {
    return await queueClaimed(deps, tenant, input, id, now);
  } catch (err) {
    // Refused, or failed before its publication was recorded: the claim goes. A recorded one keeps it (its
    // workflow's start may have failed: the sweep of queued publications starts it, and a repeat answers it).
    const recorded = await getPublication(db, tenant, id).catch(() => null);
    if (!input.idempotency_key && !recorded) await forgetInFlight(db, tenant, { ...key, _id: id }).catch(() => undefined);
    throw err;
  }
}

/** The offer to publish, checked: it exists, may be published, its coupon works; null for a text. */
async function checkedOffer(db: Db, tenant: Tenant, input: PublishInput): Promise<OfferDoc | null> {
  const offer = input.offer_id ? await getOffer(db, tenant, input.offer_id) : null;
  if (input.offer_id && !offer) throw notFound('offer', input.offer_id);
  if (offer) checkPublishable(offer, 'published');
  if (offer?.coupon_id) await checkCoupon(db, tenant, offer.coupon_id);
  if (!offer && !input.text) throw invalid('validation_failed', 'Nothing to publish: give an offer or a text.');
  return offer;
}

type Targets = Awaited<ReturnType<typeof publicationTargets>>;
type RenderedText = Awaited<ReturnType<typeof renderOfferForSend>>;

/**
 * Check: the offer, and the publication of the same key. The reads that need nothing of one another go side by side,
 * a single group's destination too (a segment's is chosen after the checks: it counts deliveries); each is checked in
 * the order the request's errors are given.
 */
async function check(db: Db, tenant: Tenant, input: PublishInput, id: string) {
  const single = input.group_id !== null ? settledLater(publicationTargets(db, tenant, input)) : null;
  const [offer, existing] = await Promise.all([checkedOffer(db, tenant, input), input.idempotency_key ? getPublication(db, tenant, id) : null]);
  return { offer, existing, single };
}

/** The publication of the same key: the answer to the same request (its workflow started, should an earlier start have failed). */
async function repeated(
  deps: PublishingDeps,
  existing: PublicationDoc,
  offer: OfferDoc | null,
  hash: string | null,
): Promise<{ publication: PublicationDoc; created: boolean }> {
  if (hash && existing.request_hash !== hash) {
    throw conflict('idempotency_key_reused', 'This Idempotency-Key was used for a different request.');
  }
  await startPublication(deps.temporal, existing, offer?.title ?? null);
  return { publication: existing, created: false };
}

/**
 * One tracked link per group (one insertMany), so each click names its publication and group; the text carries
 * `<public url>/l/{link}` and each send puts its group's code there (textForGroup). None without an offer or a key.
 */
function trackedLinks(deps: PublishingDeps, tenant: Tenant, id: string, offer: OfferDoc | null, { groups, segment }: Targets) {
  if (!offer || !deps.secretKey) return Promise.resolve(new Map<string, string>());
  const linkDeps = { db: deps.db, secretKey: deps.secretKey, shortLinkHosts: deps.shortLinkHosts };
  const context = { offer_id: offer._id, publication_id: id, segment_id: segment?._id ?? null };
  return trackedLinksFor(
    linkDeps,
    tenant,
    offer.url,
    groups.map((g) => g._id),
    context,
  );
}

/** The text to send: the offer rendered (its URL the tracked link's, once the links are made), else the text given. */
function textToSend(
  deps: PublishingDeps,
  tenant: Tenant,
  input: PublishInput,
  offer: OfferDoc | null,
  segment: Targets['segment'],
  codes: Promise<Map<string, string>>,
): Promise<RenderedText> | RenderedText {
  if (!offer) return { text: input.text!, templateId: input.template_id, format: 'plain' as const };
  const url = codes.then((c) => (c.size ? shortUrlOf(deps, LINK_CODE_PLACEHOLDER) : undefined));
  return renderOfferForSend(deps.db, tenant, { offer, segment, templateId: input.template_id, url });
}

/** Plan: the destination's groups, then their tracked links, the text and the workflow's groups side by side. */
async function plan(
  deps: PublishingDeps,
  tenant: Tenant,
  input: PublishInput,
  id: string,
  offer: OfferDoc | null,
  single: Promise<Targets> | null,
) {
  const targets = await (single ?? publicationTargets(deps.db, tenant, input));
  const codes = trackedLinks(deps, tenant, id, offer, targets);
  const [rendered, links, given] = await Promise.all([
    textToSend(deps, tenant, input, offer, targets.segment, codes),
    codes,
    workflowGroups(deps.db, tenant, targets.groups),
  ]);
  return { groups: targets.groups, rendered, links, given };
}

/** The publication as recorded: queued, with its text, its groups and their links. */
function publicationDoc(
  tenant: Tenant,
  input: PublishInput,
  id: string,
  now: Date,
  offer: OfferDoc | null,
  { groups, rendered, links }: Awaited<ReturnType<typeof plan>>,
  hash: string | null,
): PublicationDoc {
  return {
    account_id: tenant.accountId,
    env: tenant.env,
    _id: id,
    offer_id: input.offer_id,
    group_id: input.group_id,
    segment_id: input.segment_id,
    schedule_id: input.schedule_id,
    template_id: rendered.templateId,
    text: rendered.text,
    format: rendered.format,
    image_url: offer?.image ?? null,
    with_image: input.with_image,
    ...(offer ? { source: sourceOf(offer) } : {}),
    status: 'queued',
    group_ids: groups.map((g) => g._id),
    event_id: newId('evt', now.getTime()),
    request_hash: hash,
    ...(links.size ? { link_codes: Object.fromEntries(links) } : {}),
    queued_at: now,
    completed_at: null,
    created_at: now,
    updated_at: now,
  };
}

/** Record: the publication with its event; when the same Idempotency-Key raced us here, the winner's publication. */
async function record(
  db: Db,
  tenant: Tenant,
  input: PublishInput,
  doc: PublicationDoc,
  event: DomainEvent,
): Promise<{ publication: PublicationDoc; created: boolean }> {
  try {
    return { publication: await insertPublication(db, tenant, doc, event), created: true };
  } catch (err) {
    const winner = input.idempotency_key ? await getPublication(db, tenant, doc._id) : null;
    if (!winner) throw err;
    return { publication: winner, created: false };
  }
}

/**
 * After the answer (see afterAnswer), or awaited without it: the queued count (by the request whose insert recorded
 * the publication), the relay of the event and the move to `sending`, before the relay: a completion the move
 * overtook is put back by it (markSending). A workflow given its groups has no begin: the publication moves to
 * `sending` once it is started (until then the sweep of queued publications may start it). None of them is read by
 * the workflow.
 */
async function afterTheAnswer(deps: PublishingDeps, tenant: Tenant, publication: PublicationDoc, event: DomainEvent, started: boolean) {
  const bookkeeping = () =>
    Promise.all([
      (async () => {
        if (started) await markSending(deps.db, tenant, publication);
        await commitEvent(deps, 'publications', publication._id, event);
      })(),
      countQueued(deps.db, tenant, publication),
    ]);
  if (deps.afterAnswer) deps.afterAnswer.add(bookkeeping);
  else await bookkeeping();
}

/** queuePublication once the request holds its claim (or has a key): check, plan, record, start, then after the answer. */
async function queueClaimed(
  deps: PublishingDeps,
  tenant: Tenant,
  input: PublishInput,
  id: string,
  now: Date,
): Promise<{ publication: PublicationDoc; created: boolean }> {
  const { offer, existing, single } = await check(deps.db, tenant, input, id);
  const hash = input.idempotency_key ? requestHash(input) : null;
  if (existing) return repeated(deps, existing, offer, hash);

  const planned = await plan(deps, tenant, input, id, offer, single);
  const doc = publicationDoc(tenant, input, id, now, offer, planned, hash);
  // The publication names the event that queued it, and that event carries the publication.
  const event = prepareEvent(tenant, 'publication.queued', { publication: queuedRecord(doc) }, now, doc.event_id!);
  const recorded = await record(deps.db, tenant, input, doc, event);
  if (!recorded.created) return recorded;

  // Start: the workflow and the in-flight note before the answer (a repeated request must find the publication in flight).
  const { publication } = recorded;
  await Promise.all([
    startPublication(deps.temporal, publication, offer?.title ?? null, planned.given),
    input.idempotency_key ? noteInFlight(deps.db, tenant, publication) : undefined,
  ]);
  await afterTheAnswer(deps, tenant, publication, event, planned.given !== undefined);
  return recorded;
}
