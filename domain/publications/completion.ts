/**
 * How a publication ends: `sent`, `partial` or `failed` from its deliveries
 * (the sends its workflow reports, the others as recorded), written with the
 * sends not recorded yet and `publication.completed` — once, however often
 * the completion runs (a retried step, the send that completes a
 * one-group publication and then the workflow's own completion).
 */
import { AfterAnswer } from '../after-answer';
import { countCompleted } from './counts';
import { Tenant } from '../db';
import { PermanentFailure } from '../errors';
import { commitEvent, commitEvents } from '../events/commit';
import { prepareEvent } from '../events/store';
import { DomainDeps } from '../resource';
import { toPublication } from './queue';
import {
  completedEventId,
  DeliveryDoc,
  deliveriesWithSent,
  forgetInFlight,
  getPublication,
  markDeliveriesSent,
  PublicationDoc,
  SentRecord,
  setPublicationStatus,
} from './store';

/** What the steps of a publication's workflow need besides the database and Temporal. */
export interface StepDeps extends DomainDeps {
  /**
   * Where a step's bookkeeping goes once it has written its state (the
   * counts, the relay of `publication.completed`, forgetting it in flight):
   * after the step's result, not while the workflow waits for it (the
   * worker's). Without it, awaited.
   */
  afterAnswer?: AfterAnswer;
  /** Logs a failure that must not fail the step (a count for analytics), with the step it happened in. */
  report: (what: string, err: unknown) => void;
}

/** The publication `id`; a PermanentFailure when it is not there (deleted: no step of it can succeed). */
export async function mustGetPublication(deps: DomainDeps, tenant: Tenant, id: string): Promise<PublicationDoc> {
  const publication = await getPublication(deps.db, tenant, id);
  if (!publication) throw new PermanentFailure(`no publication ${id}`, 'PublicationMissing');
  return publication;
}

/**
 * Waits for an analytics count, which never fails the step it follows: the
 * state it counts is written already, and a retry would not count it again
 * (domain/publications/counts.ts), so a failed count is reported and lost.
 */
export const counted = (deps: StepDeps, count: Promise<void>): Promise<void> =>
  count.catch((err: unknown) => deps.report('counting for analytics', err));

/**
 * A step's bookkeeping once it has written the state it counts: after the
 * step's result (deps.afterAnswer; a crash before it loses the count, and
 * leaves the event in the outbox for the sweep), else awaited. The count
 * never fails the step (`counted`).
 */
async function afterwards(deps: StepDeps, count: () => Promise<void>, ...rest: (() => Promise<unknown>)[]): Promise<void> {
  if (deps.afterAnswer) return deps.afterAnswer.add(() => Promise.all([count(), ...rest.map((task) => task())]));
  await Promise.all([counted(deps, count()), ...rest.map((task) => task())]);
}

/** All sent, none, or some. */
export const finalStatus = (deliveries: Pick<DeliveryDoc, 'status'>[]): 'sent' | 'partial' | 'failed' => {
  const sent = deliveries.filter((d) => d.status === 'sent').length;
  return sent === deliveries.length ? 'sent' : sent === 0 ? 'failed' : 'partial';
};

/**
 * Completes the publication `id` with `sent`, every send its workflow
 * reports, of which the first `recorded` are written already; its final
 * status. `read`: the publication, when the caller has just read it.
 */
export async function completePublication(
  deps: StepDeps,
  tenant: Tenant,
  id: string,
  sent: SentRecord[],
  recorded: number,
  read?: PublicationDoc,
): Promise<string> {
  const publication = read ?? (await mustGetPublication(deps, tenant, id));
  const unrecorded = sent.slice(recorded);
  if (publication.completed_at) {
    // Completed by an attempt before this one, which may have died before its other writes: the sends are
    // written again (the same values), and what it left in the outbox is relayed.
    await markDeliveriesSent(deps.db, tenant, publication, unrecorded);
    if (publication._outbox?.length) await commitEvents(deps, 'publications', publication._id);
    return publication.status;
  }
  const deliveries = await deliveriesWithSent(deps.db, tenant, publication, sent);
  const status = finalStatus(deliveries);
  // The sends not recorded yet first, then the final state: a client that reads the status reads the deliveries
  // it sums up (a repeated completion writes those again).
  await markDeliveriesSent(deps.db, tenant, publication, unrecorded);
  const moved = await setPublicationStatus(deps.db, tenant, publication, status, (after) =>
    prepareEvent(
      tenant,
      'publication.completed',
      { publication: toPublication(after, deliveries) },
      after.completed_at!,
      completedEventId(publication._id),
    ),
  );
  if (!moved) throw new PermanentFailure(`no publication ${id}`, 'PublicationMissing');
  // Another completion wrote first: it counted; the event this write added again has the id of its own, which
  // the relay stores once.
  if (moved.before.completed_at) {
    await commitEvents(deps, 'publications', publication._id);
    return moved.before.status;
  }
  // The sends recorded just now are counted with the write that completed the publication (once); the count,
  // the relay of the event (known: no read of the outbox) and the in-flight note side by side, after the result.
  await afterwards(
    deps,
    () =>
      countCompleted(
        deps.db,
        tenant,
        publication,
        status,
        unrecorded.map((d) => d.group_id),
      ),
    () => commitEvent(deps, 'publications', publication._id, moved.event!),
    () => forgetInFlight(deps.db, tenant, publication),
  );
  return status;
}
