/**
 * Sending to a group or to a conversation through its channel, and pacing. Test-environment
 * sends always go to the sandbox connector.
 *
 * Pacing holds between the real sends: right before the connector is
 * called, a paced send checks the clock against its slot (domain/channels/
 * pacing.ts). Early, it waits in the activity (the workflow wakes it shortly
 * before its slot). Past the slot's window, it does not send: it takes the
 * next free slot, and waits for it in the activity when it is near
 * (INLINE_WAIT_MS), else returns `wait` with that slot, reserved, which the
 * workflow waits for on a durable timer before it sends again. A wait is an
 * outcome, never a failure: only what the channel (or our side) did wrong fails
 * a send, and the workflow counts those as attempts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ApplicationFailure } from '@temporalio/common';
import { ChannelConfig, channelForSend, getChannel } from '../domain/channels/store';
import { Tenant } from '../domain/db';
import { getGroup, getGroups, GroupDoc } from '../domain/groups/store';
import { sealedAddress } from '../domain/inbox/store';
import { unseal } from '../domain/sealing';
import { groupSlotRequest, isPaced, reserveSendSlot, slotStep, SlotRequest } from '../domain/channels/pacing';
import type { TemplateFormat } from '../domain/templates/store';
import { ConnectorError, connectorFor } from './connectors/index';
import type { ActivityDeps } from './deps';

/** What is sent, and how: the text, its markup, an image, the idempotency key and the slot. */
export interface SendContent {
  text: string;
  format?: TemplateFormat;
  imageUrl: string | null;
  idempotencyKey: string;
  /**
   * The slot the workflow reserved and woke the send for; absent when it
   * reserved none (the send takes one itself should the target be paced).
   */
  slot?: string;
}

export interface SendInput extends SendContent {
  account: string;
  environment: 'live' | 'test';
  groupId: string;
}

/** A send to a group whose content is still being read: the group and the content are read side by side. */
export type PendingSendInput = Omit<SendInput, keyof SendContent> & { content: Promise<SendContent> };

/** A conversation's thread on its channel: ids only (the address is the sealed one `addressId` names). */
export interface ConversationTarget {
  account: string;
  environment: 'live' | 'test';
  conversationId: string;
  channelId: string;
}

export interface ConversationSendInput extends ConversationTarget, SendContent {
  addressId: string;
}

/** A send that did not go: its slot had passed, or was not near. The next free slot, reserved, and how late (ms) the send was. */
export interface SlotWait {
  outcome: 'wait';
  slot: string;
  late_ms: number;
}

/** What a send did: the gateway's message id (null when it gives none) and whether the image went with it; or that it waits for a slot. */
export type SendOutcome = { outcome: 'sent'; providerMessageId: string | null; withImage: boolean } | SlotWait;

/** The type of the failure of a send the channel may accept later: its details hold the pause the far end asked for (ms), if any. */
const CHANNEL_TRANSIENT = 'ChannelTransient';

const slotRequest = (group: GroupDoc, channel: Pick<ChannelConfig, 'id' | 'minIntervalMs'> | null): SlotRequest =>
  groupSlotRequest(group, channel && { id: channel.id, minIntervalMs: channel.minIntervalMs });

/** A conversation is paced by its channel only. */
const conversationSlot = (conversationId: string, channelId: string | null, channelIntervalMs: number): SlotRequest => ({
  groupId: conversationId,
  groupIntervalMs: 0,
  channelId,
  channelIntervalMs,
});

const permanent = (message: string) => ApplicationFailure.nonRetryable(message, 'ChannelPermanent');

/**
 * A group to send to, and its channel as read (undefined: not read, as in
 * the test environment or for a group with none): a missing group or a
 * connected group whose channel is gone fails for good.
 */
function targetOf(tenant: Tenant, group: GroupDoc | null | undefined, channel: ChannelConfig | null | undefined) {
  if (!group) throw permanent('the group no longer exists');
  if (tenant.env === 'test' || !group.channel_id) return { group, channel: null };
  if (!channel) throw permanent("the group's channel no longer exists");
  return { group, channel };
}

export function createChannelActivities(deps: ActivityDeps) {
  async function target(tenant: Tenant, groupId: string): Promise<{ group: GroupDoc; channel: ChannelConfig | null }> {
    const group = await getGroup(deps.db, tenant, groupId);
    const live = tenant.env === 'live' && group?.channel_id;
    return targetOf(tenant, group, live ? await channelForSend(deps.db, tenant, group.channel_id!, deps.secretKey) : undefined);
  }

  /** Sends `content` to `group` through `channel` (the sandbox's in the test environment): the group must be active, and connected when live. */
  function sendTo(tenant: Tenant, group: GroupDoc, channel: ChannelConfig | null, content: SendContent): Promise<SendOutcome> {
    if (!group.active) throw permanent('the group is inactive');
    if (tenant.env === 'live' && !channel) throw permanent('the group is not connected to a channel');
    return send(tenant, slotRequest(group, channel), channel, content, () => Promise.resolve(group.address ?? group._id));
  }

  /**
   * Waits in the activity until the send may go, inside its slot's window
   * (the slot given, or one it reserves); the slot to wait for durably instead when that one is far.
   */
  async function holdSlot(request: SlotRequest, given: string | undefined): Promise<SlotWait | undefined> {
    let slot = given ? new Date(given) : await reserveSendSlot(deps.db, request);
    let woken = given !== undefined;
    let lateMs = 0;
    for (;;) {
      const next = slotStep(slot, woken);
      if (next.step === 'go') return undefined;
      if (next.step === 'defer') return { outcome: 'wait', slot: slot.toISOString(), late_ms: lateMs };
      if (next.step === 'sleep') await sleep(next.ms);
      else {
        lateMs ||= next.ms;
        woken = false;
        slot = await reserveSendSlot(deps.db, request);
      }
    }
  }

  /** Holds the send's slot (live and paced), then sends through the channel's connector to `to()`, resolved last. */
  async function send(
    tenant: Tenant,
    request: SlotRequest,
    channel: ChannelConfig | null,
    input: SendContent,
    to: () => Promise<string>,
  ): Promise<SendOutcome> {
    if (tenant.env === 'live' && isPaced(request)) {
      const wait = await holdSlot(request, input.slot);
      if (wait) return wait;
    }
    try {
      const connector = connectorFor(channel, deps);
      const withImage = input.imageUrl !== null && connector.supportsImages;
      const { providerMessageId } = await connector.send(
        {
          to: await to(),
          text: input.text,
          ...(input.format ? { format: input.format } : {}),
          ...(withImage ? { imageUrl: input.imageUrl! } : {}),
        },
        input.idempotencyKey,
      );
      return { outcome: 'sent', providerMessageId, withImage };
    } catch (err) {
      if (!(err instanceof ConnectorError)) throw err;
      if (err.permanent) throw permanent(err.message);
      // Transient: the workflow tries again after its backoff, or after the pause the far end asked for.
      throw ApplicationFailure.create({
        message: err.message,
        type: CHANNEL_TRANSIENT,
        ...(err.retryAfterMs !== undefined ? { details: [err.retryAfterMs] } : {}),
      });
    }
  }

  /** The first free slot at or after `notBefore` (now when absent), reserved; null when the send is not paced. */
  async function reserve(request: SlotRequest, notBefore: string | undefined): Promise<string | null> {
    if (!isPaced(request)) return null;
    const now = new Date();
    const from = notBefore && Date.parse(notBefore) > now.getTime() ? new Date(notBefore) : now;
    return (await reserveSendSlot(deps.db, request, from)).toISOString();
  }

  return {
    /**
     * The earliest time, at or after `notBefore`, the group may receive a
     * message (per-group and per-channel pacing), reserved; null when its sends
     * are not paced. The sandbox has no anti-spam to respect: test-environment
     * sends are not paced.
     */
    async reserveSendSlot(input: {
      account: string;
      environment: 'live' | 'test';
      groupId: string;
      notBefore?: string;
    }): Promise<string | null> {
      if (input.environment === 'test') return null;
      // Pacing needs the channel's id and interval, not its credentials: those are unsealed by the send only.
      const tenant: Tenant = { accountId: input.account, env: input.environment };
      const group = await getGroup(deps.db, tenant, input.groupId);
      if (!group) throw permanent('the group no longer exists');
      const channel = group.channel_id ? await getChannel(deps.db, tenant, group.channel_id) : null;
      if (group.channel_id && !channel) throw permanent("the group's channel no longer exists");
      const pacing = channel && { id: channel._id, minIntervalMs: channel.min_interval_ms ?? 0 };
      return reserve(slotRequest(group, pacing), input.notBefore);
    },

    async sendToGroup(input: SendInput | PendingSendInput): Promise<SendOutcome> {
      const tenant = { accountId: input.account, env: input.environment };
      const [{ group, channel }, content] = await Promise.all([target(tenant, input.groupId), 'content' in input ? input.content : input]);
      return sendTo(tenant, group, channel, content);
    },

    /**
     * Sends to several groups at once (a chunk of a fan-out), each as
     * sendToGroup would: the groups are read first (by `_id`, side by side)
     * and each of their channels once, its credentials unsealed once. What each send did (and when it was sent), or the
     * error sendToGroup would have thrown, in the order of `groupIds`.
     */
    async sendToGroups(input: {
      account: string;
      environment: 'live' | 'test';
      groupIds: string[];
      content: (groupId: string) => Promise<SendContent>;
    }): Promise<PromiseSettledResult<SendOutcome & { at: Date }>[]> {
      const tenant = { accountId: input.account, env: input.environment };
      const groups = await getGroups(deps.db, tenant, input.groupIds);
      const channelIds = tenant.env === 'test' ? [] : [...new Set([...groups.values()].flatMap((g) => (g.channel_id ? [g.channel_id] : [])))];
      const channels = new Map(
        await Promise.all(channelIds.map(async (id) => [id, await channelForSend(deps.db, tenant, id, deps.secretKey)] as const)),
      );
      return Promise.allSettled(
        input.groupIds.map(async (groupId) => {
          const group = groups.get(groupId);
          const to = targetOf(tenant, group, group?.channel_id ? channels.get(group.channel_id) : undefined);
          return { ...(await sendTo(tenant, to.group, to.channel, await input.content(groupId))), at: new Date() };
        }),
      );
    },

    /**
     * The earliest time, at or after `notBefore`, a reply may go on the
     * conversation's channel (the channel's pacing; a conversation has no
     * interval of its own), reserved; null when the channel is not paced.
     * Test-environment sends are not paced.
     */
    async reserveConversationSlot(input: ConversationTarget & { notBefore?: string }): Promise<string | null> {
      if (input.environment === 'test') return null;
      const channel = await getChannel(deps.db, { accountId: input.account, env: input.environment }, input.channelId);
      if (!channel) throw permanent("the conversation's channel no longer exists");
      return reserve(conversationSlot(input.conversationId, channel._id, channel.min_interval_ms ?? 0), input.notBefore);
    },

    /**
     * Sends a reply to a conversation's thread. Its address is unsealed only
     * here, once the slot is held, right before the connector's request; the
     * sandbox (test environment) records the conversation id instead.
     */
    async sendToConversation(input: ConversationSendInput): Promise<SendOutcome> {
      const tenant: Tenant = { accountId: input.account, env: input.environment };
      const channel = tenant.env === 'test' ? null : await channelForSend(deps.db, tenant, input.channelId, deps.secretKey);
      if (tenant.env === 'live' && !channel) throw permanent("the conversation's channel no longer exists");
      const request = conversationSlot(input.conversationId, channel?.id ?? null, channel?.minIntervalMs ?? 0);
      return send(tenant, request, channel, input, async () => {
        if (!channel) return input.conversationId;
        const sealed = await sealedAddress(deps.db, tenant, input.addressId);
        if (!sealed) throw permanent("the conversation's address is gone");
        return unseal(sealed, deps.secretKey);
      });
    },
  };
}
