import { ApplicationFailure, isCancellation, proxyActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities } from '../activities/index';
import { OfferopsState } from '../temporal/names';
import { REPLY_FAILED, ReplyInput } from '../temporal/workflows';
import { countSends } from './metrics';
import { reason, SEND_ATTEMPT_OPTIONS, sendWithRetries } from './sending';

const { reserveReplySlot, failReply } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** One attempt of the send (workflows/sending.ts counts and retries them, as for publications). */
const { deliverReply } = proxyActivities<Activities>(SEND_ATTEMPT_OPTIONS);

/**
 * Delivers one outbound message of a conversation, started as `reply-<msg>`
 * (so a message is delivered by one workflow only): paced like a publication
 * send — a slot of the channel reserved durably, waited for on a durable
 * timer, checked again right before the send, the next free one waited for
 * when missed — and retried like one; then `sent`, or `failed` with the
 * reason when the channel refuses it or the attempts run out: the workflow
 * then fails (REPLY_FAILED) with that reason. `OfferopsState` mirrors it
 * (`sending`, `sent`, `failed`). The connector gets the message id as
 * idempotency key.
 */
export async function reply(input: ReplyInput): Promise<{ status: 'sent' }> {
  const fail = async (error: string): Promise<never> => {
    await failReply.executeWithOptions({ summary: `record the failure of ${input.message_id}` }, [{ ...input, error }]);
    upsertSearchAttributes([{ key: OfferopsState, value: 'failed' }]);
    throw ApplicationFailure.nonRetryable(`the reply was not delivered: ${error}`, REPLY_FAILED);
  };
  const reserve = (notBefore?: string) =>
    reserveReplySlot.executeWithOptions({ summary: "pacing: reserve the channel's slot" }, [
      { ...input, ...(notBefore ? { not_before: notBefore } : {}) },
    ]);
  let slot: string | null;
  try {
    slot = await reserve();
  } catch (err) {
    if (isCancellation(err)) throw err;
    countSends('failed');
    return fail(reason(err));
  }
  const result = await sendWithRetries({
    slotOf: "the channel's slot",
    target: input.message_id,
    slot,
    tried: 0,
    attempt: (at, attempt) =>
      deliverReply.executeWithOptions({ summary: `send ${input.message_id}${attempt > 1 ? `, attempt ${attempt}` : ''}` }, [
        { ...input, slot: at, attempt },
      ]),
    // A channel not paced when the reply began needs no slot for a retry (a send takes one itself should that change).
    ...(slot === null ? {} : { reserve }),
  });
  if ('error' in result) return fail(result.error);
  upsertSearchAttributes([{ key: OfferopsState, value: 'sent' }]);
  return { status: 'sent' };
}
