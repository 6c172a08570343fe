import { proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities/index';
import { CHANNEL_SEND_OPTIONS, MAX_WAKE_EARLY_MS, missedSlot, reason, WAKE_EARLY_MS, WAKE_MARGIN_MS } from './paced';

/** Ids only: the address a reply goes to is unsealed by the send activity, never carried here. */
export interface ReplyInput {
  message_id: string;
  account: string;
  environment: 'live' | 'test';
}

const { reserveReplySlot, failReply } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** The send: the retry policy of publication sends (transient errors retried with backoff, permanent ones fail the reply). */
const { deliverReply } = proxyActivities<Activities>(CHANNEL_SEND_OPTIONS);

/**
 * Delivers one outbound message of a conversation, started as `reply-<msg>`
 * (so a message is delivered by one workflow only): paced like a publication
 * send — a slot of the channel reserved durably, waited for on a durable
 * timer, checked again right before the send, the next free one taken when
 * missed — then `sent`, or `failed` with the reason when the channel refuses
 * it or retries run out. The connector gets the message id as idempotency key.
 */
export async function reply(input: ReplyInput): Promise<{ status: 'sent' | 'failed' }> {
  const fail = async (err: unknown) => {
    await failReply.executeWithOptions({ summary: `record the failure of ${input.message_id}` }, [{ ...input, error: reason(err) }]);
    return { status: 'failed' as const };
  };
  let slot: string;
  try {
    slot = await reserveReplySlot.executeWithOptions({ summary: "pacing: reserve the channel's slot" }, [input]);
  } catch (err) {
    return fail(err);
  }
  let wakeEarly = WAKE_EARLY_MS;
  for (;;) {
    const wait = Date.parse(slot) - Date.now() - wakeEarly;
    if (wait > 0) await sleep(wait, { summary: "pacing: wait for the channel's slot" });
    try {
      await deliverReply.executeWithOptions({ summary: `send ${input.message_id}` }, [{ ...input, slot }]);
      return { status: 'sent' };
    } catch (err) {
      const missed = missedSlot(err);
      if (!missed) return fail(err);
      wakeEarly = Math.min(MAX_WAKE_EARLY_MS, wakeEarly + missed.lateMs + WAKE_MARGIN_MS);
      slot = missed.slot;
    }
  }
}
