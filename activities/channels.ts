/**
 * Sending to a group through its channel. Test-environment sends go to the
 * sandbox connector, which records each message once per idempotency key and
 * sends nothing. Live channel connectors (http, telegram) and pacing land
 * with the channels work of issue 3; until then a live send fails that group
 * permanently with a clear error instead of pretending.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { ActivityDeps } from './index';

export interface SendInput {
  account: string;
  environment: 'live' | 'test';
  groupId: string;
  text: string;
  imageUrl: string | null;
  idempotencyKey: string;
}

export function createChannelActivities(deps: ActivityDeps) {
  return {
    /** The earliest time the group may receive a message (no pacing yet: now). */
    async reserveSendSlot(_input: { account: string; environment: 'live' | 'test'; groupId: string }): Promise<string> {
      return new Date().toISOString();
    },

    async sendToGroup(input: SendInput): Promise<{ providerMessageId: string | null; withImage: boolean }> {
      if (input.environment !== 'test') {
        throw ApplicationFailure.nonRetryable('live channel connectors are not available in this version', 'ChannelPermanent');
      }
      await deps.db
        .collection<{ _id: string }>('sandbox_messages')
        .updateOne(
          { _id: input.idempotencyKey },
          { $setOnInsert: { group_id: input.groupId, text: input.text, image_url: input.imageUrl, at: new Date() } },
          { upsert: true },
        );
      return { providerMessageId: null, withImage: false };
    },
  };
}
