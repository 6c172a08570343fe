/**
 * Sending to a group through its channel, and pacing. Test-environment
 * sends always go to the sandbox connector.
 */
import { ApplicationFailure } from '@temporalio/common';
import { ChannelConfig, channelForSend, getChannel } from '../domain/channels/store';
import { Tenant } from '../domain/db';
import { getGroup, GroupDoc } from '../domain/groups/store';
import { reserveSendSlot } from '../domain/channels/pacing';
import type { TemplateFormat } from '../domain/templates/store';
import { ConnectorError, connectorFor } from './connectors/index';
import type { ActivityDeps } from './index';

export interface SendInput {
  account: string;
  environment: 'live' | 'test';
  groupId: string;
  text: string;
  format?: TemplateFormat;
  imageUrl: string | null;
  idempotencyKey: string;
}

const permanent = (message: string) => ApplicationFailure.nonRetryable(message, 'ChannelPermanent');

export function createChannelActivities(deps: ActivityDeps) {
  async function target(tenant: Tenant, groupId: string): Promise<{ group: GroupDoc; channel: ChannelConfig | null }> {
    const group = await getGroup(deps.db, tenant, groupId);
    if (!group) throw permanent('the group no longer exists');
    if (tenant.env === 'test' || !group.channel_id) return { group, channel: null };
    const channel = await channelForSend(deps.db, tenant, group.channel_id, deps.secretKey);
    if (!channel) throw permanent("the group's channel no longer exists");
    return { group, channel };
  }

  return {
    /**
     * The earliest time the group may receive a message (per-group and
     * per-channel pacing), reserved. The sandbox has no anti-spam to respect:
     * test-environment sends are not paced.
     */
    async reserveSendSlot(input: { account: string; environment: 'live' | 'test'; groupId: string }): Promise<string> {
      if (input.environment === 'test') return new Date().toISOString();
      // Pacing needs the channel's id and interval, not its credentials: those are unsealed by the send only.
      const tenant: Tenant = { accountId: input.account, env: input.environment };
      const group = await getGroup(deps.db, tenant, input.groupId);
      if (!group) throw permanent('the group no longer exists');
      const channel = group.channel_id ? await getChannel(deps.db, tenant, group.channel_id) : null;
      if (group.channel_id && !channel) throw permanent("the group's channel no longer exists");
      const at = await reserveSendSlot(deps.db, {
        groupId: group._id,
        groupIntervalMs: group.min_interval_ms ?? 0,
        channelId: channel?._id ?? null,
        channelIntervalMs: channel?.min_interval_ms ?? 0,
      });
      return at.toISOString();
    },

    async sendToGroup(input: SendInput): Promise<{ providerMessageId: string | null; withImage: boolean }> {
      const tenant = { accountId: input.account, env: input.environment };
      const { group, channel } = await target(tenant, input.groupId);
      if (!group.active) throw permanent('the group is inactive');
      if (tenant.env === 'live' && !channel) throw permanent('the group is not connected to a channel');
      try {
        const connector = connectorFor(channel, deps);
        const withImage = input.imageUrl !== null && connector.supportsImages;
        const { providerMessageId } = await connector.send(
          {
            to: group.address ?? group._id,
            text: input.text,
            ...(input.format ? { format: input.format } : {}),
            ...(withImage ? { imageUrl: input.imageUrl! } : {}),
          },
          input.idempotencyKey,
        );
        return { providerMessageId, withImage };
      } catch (err) {
        if (!(err instanceof ConnectorError)) throw err;
        if (err.permanent) throw permanent(err.message);
        // Transient: retried by the activity's policy, after the pause the far end asked for if any.
        throw ApplicationFailure.create({
          message: err.message,
          type: 'ChannelTransient',
          ...(err.retryAfterMs !== undefined ? { nextRetryDelay: err.retryAfterMs } : {}),
        });
      }
    },
  };
}
