/**
 * Sending to a group or to a conversation through its channel, and pacing. Test-environment
 * sends always go to the sandbox connector.
 *
 * Pacing holds between the real sends: right before the connector is
 * called, a paced send checks the clock against its slot (domain/channels/
 * pacing.ts). Early, it waits in the activity (the workflow wakes it shortly
 * before its slot). Past the slot's window, it does not send: it takes the
 * next free slot, and waits for it in the activity when it is near
 * (INLINE_WAIT_MS), else fails with `SlotMissed` (first attempt: the workflow
 * waits for that slot on a durable timer, waking earlier by how late the send
 * was, and sends again) or `SendDeferred` (a retry: Temporal retries it at
 * that slot). A retry after a transient error also goes in a reserved slot,
 * the first free one after its backoff.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { msOptionalToNumber } from '@temporalio/common/lib/time';
import { ChannelConfig, channelForSend, getChannel } from '../domain/channels/store';
import { Tenant } from '../domain/db';
import { getGroup, getGroups, GroupDoc } from '../domain/groups/store';
import { sealedAddress } from '../domain/inbox/store';
import { unseal } from '../domain/sealing';
import { groupSlotRequest, isPaced, releaseSendSlot, reserveSendSlot, slotCheck, SlotRequest } from '../domain/channels/pacing';
import type { TemplateFormat } from '../domain/templates/store';
import { ConnectorError, connectorFor } from './connectors/index';
import type { ActivityDeps } from './index';

/** What is sent, and how: the text, its markup, an image, the idempotency key and the pacing. */
export interface SendContent {
  text: string;
  format?: TemplateFormat;
  imageUrl: string | null;
  idempotencyKey: string;
  /**
   * A paced send's slot (reserved for its first attempt; null when the
   * workflow reserved none, the group being unpaced when the publication
   * began) and which attempt of the activity this is.
   */
  pacing?: { slot: string | null; attempt: number };
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

/** How near a slot must be for a send to wait for it in its activity; a later one is waited for durably. */
export const INLINE_WAIT_MS = 1000;
/** How early a retry wakes before its slot (it waits the rest in its activity). */
const RETRY_LEAD_MS = 800;

/** The failure of a first attempt that missed its slot; its details: the next slot, reserved, and how late (ms) the send was. */
export const SLOT_MISSED = 'SlotMissed';
/** The failure of a retry that missed its slot: Temporal retries it at the next slot, reserved. */
export const SEND_DEFERRED = 'SendDeferred';

/** Whether `err` is a send put off to a later slot (not an error of the channel). */
export const isPacingWait = (err: unknown): boolean =>
  err instanceof ApplicationFailure && (err.type === SLOT_MISSED || err.type === SEND_DEFERRED);

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

/** What a send did: the gateway's message id (null when it gives none) and whether the image went with it. */
type Sent = { providerMessageId: string | null; withImage: boolean };

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
  function sendTo(tenant: Tenant, group: GroupDoc, channel: ChannelConfig | null, content: SendContent): Promise<Sent> {
    if (!group.active) throw permanent('the group is inactive');
    if (tenant.env === 'live' && !channel) throw permanent('the group is not connected to a channel');
    return send(tenant, slotRequest(group, channel), channel, content, () => Promise.resolve(group.address ?? group._id));
  }

  /** Attempt `attempt`'s own reservations are named after the send and the attempt: a retry finds its slot again. */
  const owner = (idempotencyKey: string, attempt: number) => `${idempotencyKey}#${attempt}`;

  /**
   * Returns when the send may go now, inside its slot's window; waits in the
   * activity for a near slot, and throws SLOT_MISSED or SEND_DEFERRED for a far one.
   */
  async function holdSlot(request: SlotRequest, idempotencyKey: string, pacing: { slot: string | null; attempt: number }): Promise<void> {
    const mine = owner(idempotencyKey, pacing.attempt);
    // The first attempt waits for the slot it was woken for, however early the workflow woke it.
    let given = pacing.attempt === 1 && pacing.slot !== null;
    // A retry's slot was reserved by the attempt before it (or is the next free one); so is a send the workflow reserved none for.
    let slot = given ? new Date(pacing.slot!) : await reserveSendSlot(deps.db, request, new Date(), mine);
    let lateMs = 0;
    for (;;) {
      const check = slotCheck(slot);
      if (check.state === 'go') return;
      if (check.state === 'late') {
        lateMs ||= check.ms;
        given = false;
        slot = await reserveSendSlot(deps.db, request, new Date(), mine);
      } else if (given || check.ms <= INLINE_WAIT_MS) {
        await sleep(check.ms);
      } else if (pacing.attempt === 1) {
        throw ApplicationFailure.create({
          message: 'the send missed its slot and waits for the next free one',
          type: SLOT_MISSED,
          nonRetryable: true,
          details: [slot.toISOString(), lateMs],
        });
      } else {
        // The slot passes to the next attempt.
        await releaseSendSlot(deps.db, request, slot, mine);
        const next = await reserveSendSlot(deps.db, request, slot, owner(idempotencyKey, pacing.attempt + 1));
        throw ApplicationFailure.create({
          message: 'the retry missed its slot and waits for the next free one',
          type: SEND_DEFERRED,
          nextRetryDelay: Math.max(0, next.getTime() - Date.now() - RETRY_LEAD_MS),
        });
      }
    }
  }

  /**
   * The delay before retrying a paced send that failed transiently: to the
   * first free slot after its backoff (the policy's, or the one the far end
   * asked for), reserved for the retry.
   */
  async function retryDelay(
    request: SlotRequest,
    idempotencyKey: string,
    attempt: number,
    retryAfterMs: number | undefined,
  ): Promise<number | undefined> {
    const policy = Context.current().info.retryPolicy;
    if (policy?.maximumAttempts && attempt >= policy.maximumAttempts) return retryAfterMs; // no retry follows
    const initial = msOptionalToNumber(policy?.initialInterval) ?? 1000;
    const backoff = Math.min(
      msOptionalToNumber(policy?.maximumInterval) ?? 100 * initial,
      initial * (policy?.backoffCoefficient ?? 2) ** (attempt - 1),
    );
    const earliest = new Date(Date.now() + (retryAfterMs ?? backoff));
    const next = await reserveSendSlot(deps.db, request, earliest, owner(idempotencyKey, attempt + 1));
    return Math.max(0, next.getTime() - Date.now() - RETRY_LEAD_MS);
  }

  /** Holds the send's slot (live and paced), then sends through the channel's connector to `to()`, resolved last. */
  async function send(
    tenant: Tenant,
    request: SlotRequest,
    channel: ChannelConfig | null,
    input: SendContent,
    to: () => Promise<string>,
  ): Promise<Sent> {
    const pacing = tenant.env === 'live' && isPaced(request) ? input.pacing : undefined;
    if (pacing) await holdSlot(request, input.idempotencyKey, pacing);
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
      return { providerMessageId, withImage };
    } catch (err) {
      if (!(err instanceof ConnectorError)) throw err;
      if (err.permanent) throw permanent(err.message);
      // Transient: retried by the activity's policy, after the pause the far end asked for if any (paced: in a slot).
      const nextRetryDelay = pacing ? await retryDelay(request, input.idempotencyKey, pacing.attempt, err.retryAfterMs) : err.retryAfterMs;
      throw ApplicationFailure.create({
        message: err.message,
        type: 'ChannelTransient',
        ...(nextRetryDelay !== undefined ? { nextRetryDelay } : {}),
      });
    }
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
      const pacing = channel && { id: channel._id, minIntervalMs: channel.min_interval_ms ?? 0 };
      return (await reserveSendSlot(deps.db, slotRequest(group, pacing))).toISOString();
    },

    async sendToGroup(input: SendInput | PendingSendInput): Promise<Sent> {
      const tenant = { accountId: input.account, env: input.environment };
      const [{ group, channel }, content] = await Promise.all([target(tenant, input.groupId), 'content' in input ? input.content : input]);
      return sendTo(tenant, group, channel, content);
    },

    /**
     * Sends to several groups at once (a chunk of a fan-out), each as
     * sendToGroup would: the groups are read first (by `_id`, side by side)
     * and each of their channels once, its credentials unsealed once. What each send did and when it was done, or the error
     * sendToGroup would have thrown, in the order of `groupIds`.
     */
    async sendToGroups(input: {
      account: string;
      environment: 'live' | 'test';
      groupIds: string[];
      content: (groupId: string) => Promise<SendContent>;
    }): Promise<PromiseSettledResult<Sent & { sentAt: Date }>[]> {
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
          return { ...(await sendTo(tenant, to.group, to.channel, await input.content(groupId))), sentAt: new Date() };
        }),
      );
    },

    /**
     * The earliest time a reply may go on the conversation's channel (the
     * channel's pacing; a conversation has no interval of its own), reserved.
     * Test-environment sends are not paced.
     */
    async reserveConversationSlot(input: ConversationTarget): Promise<string> {
      if (input.environment === 'test') return new Date().toISOString();
      const channel = await getChannel(deps.db, { accountId: input.account, env: input.environment }, input.channelId);
      if (!channel) throw permanent("the conversation's channel no longer exists");
      return (await reserveSendSlot(deps.db, conversationSlot(input.conversationId, channel._id, channel.min_interval_ms ?? 0))).toISOString();
    },

    /**
     * Sends a reply to a conversation's thread. Its address is unsealed only
     * here, once the slot is held, right before the connector's request; the
     * sandbox (test environment) records the conversation id instead.
     */
    async sendToConversation(input: ConversationSendInput): Promise<Sent> {
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
