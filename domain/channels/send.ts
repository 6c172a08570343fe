/**
 * Sending to a group or to a conversation through its channel, and pacing.
 * Test-environment sends always go to the sandbox connector.
 *
 * Pacing holds between the real sends: right before the connector is
 * called, a paced send checks the clock against its slot (./pacing.ts).
 * Early, it waits (the workflow wakes it shortly before its slot). Past the
 * slot's window, it does not send: it takes the next free slot, and waits for
 * it when it is near (INLINE_WAIT_MS), else returns `wait` with that slot,
 * reserved, which the workflow waits for on a durable timer before it sends
 * again. A wait is an outcome, never a failure: only what the channel (or our
 * side) did wrong fails a send. A send refused, by its target or its channel,
 * throws a ConnectorError (permanent or not), which the activities hand to
 * the workflow as its failure. A WhatsApp session known to be down is sent
 * nothing: the send waits for its channel's next session check (./session.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Db } from 'mongodb';
import { Tenant } from '../db';
import { getGroup, getGroups, GroupDoc } from '../groups/store';
import { Sealed, unseal } from '../sealing';
import type { TemplateFormat } from '../templates/store';
import { ConnectorError, connectorFor } from './connectors/index';
import { channelIdOf, channelsOf, checkSendable, pacingOf, sendTarget, slotRequestOf } from './send-target';
import { isPaced, reserveSendSlot, SlotRequest, slotStep } from './pacing';
import { passSessionGate, sessionRefused } from './session';
import { ChannelConfig, channelForSend, getChannel } from './store';

/** What sends need: the database (pacing, the sandbox) and the key that unseals credentials and addresses. */
export interface SendDeps {
  db: Db;
  secretKey: Buffer;
}

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

/** A conversation's thread on its channel: ids only (the address is sealed, read by the send only). */
export interface ConversationTarget {
  conversationId: string;
  channelId: string;
}

/** The conversation's sealed address (null when gone), read from the inbox, which owns it, by the one send that needs it. */
export type SealedAddressOf = () => Promise<Sealed | null>;

/** A send that did not go: its slot had passed, or was not near. The next free slot, reserved, and how late (ms) the send was. */
export interface SlotWait {
  outcome: 'wait';
  slot: string;
  late_ms: number;
}

/** What a send did: the gateway's message id (null when it gives none) and whether the image went with it; or that it waits for a slot. */
export type SendOutcome = { outcome: 'sent'; providerMessageId: string | null; withImage: boolean } | SlotWait;

const refused = (message: string) => new ConnectorError(message, true);

/** A conversation is paced by its channel only. */
const conversationSlot = (conversationId: string, channelId: string | null, channelIntervalMs: number): SlotRequest => ({
  groupId: conversationId,
  groupIntervalMs: 0,
  channelId,
  channelIntervalMs,
});

/**
 * Waits until the send may go, inside its slot's window (the slot given, or
 * one it reserves); the slot to wait for durably instead when that one is far.
 */
async function holdSlot(db: Db, request: SlotRequest, given: string | undefined): Promise<SlotWait | undefined> {
  let slot = given ? new Date(given) : await reserveSendSlot(db, request);
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
      slot = await reserveSendSlot(db, request);
    }
  }
}

/** Holds the send's slot (live and paced), then sends through the channel's connector to `to()`, resolved last. */
async function send(
  deps: SendDeps,
  tenant: Tenant,
  request: SlotRequest,
  channel: ChannelConfig | null,
  content: SendContent,
  to: () => Promise<string>,
): Promise<SendOutcome> {
  // A session known to be down takes no slot and no request (./session.ts).
  if (tenant.env === 'live' && channel) await passSessionGate(deps.db, tenant, channel);
  if (tenant.env === 'live' && isPaced(request)) {
    const wait = await holdSlot(deps.db, request, content.slot);
    if (wait) return wait;
  }
  const connector = connectorFor(channel, { db: deps.db });
  const withImage = content.imageUrl !== null && connector.supportsImages;
  const message = {
    to: await to(),
    text: content.text,
    ...(content.format ? { format: content.format } : {}),
    ...(withImage ? { imageUrl: content.imageUrl! } : {}),
  };
  const { providerMessageId } = await connector.send(message, content.idempotencyKey).catch(async (err: unknown) => {
    throw channel && err instanceof ConnectorError && err.disconnected ? await sessionRefused(deps.db, tenant, channel, err) : err;
  });
  return { outcome: 'sent', providerMessageId, withImage };
}

/** Sends `content` to `group` through `channel` (the sandbox's in the test environment), once sendable (checkSendable). */
function sendTo(deps: SendDeps, tenant: Tenant, group: GroupDoc, channel: ChannelConfig | null, content: SendContent): Promise<SendOutcome> {
  checkSendable(tenant, group, channel);
  return send(deps, tenant, slotRequestOf(group, channel), channel, content, () => Promise.resolve(group.address ?? group._id));
}

/** The first free slot at or after `notBefore` (now when absent), reserved; null when the send is not paced. */
async function reserve(db: Db, request: SlotRequest, notBefore: string | undefined): Promise<string | null> {
  if (!isPaced(request)) return null;
  const now = new Date();
  const from = notBefore && Date.parse(notBefore) > now.getTime() ? new Date(notBefore) : now;
  return (await reserveSendSlot(db, request, from)).toISOString();
}

/**
 * The earliest time, at or after `notBefore`, the group may receive a
 * message (per-group and per-channel pacing), reserved; null when its sends
 * are not paced. The sandbox has no anti-spam to respect: test-environment
 * sends are not paced.
 */
export async function reserveGroupSlot(deps: SendDeps, tenant: Tenant, groupId: string, notBefore?: string): Promise<string | null> {
  if (tenant.env === 'test') return null;
  // Pacing needs the channel's id and interval, not its credentials: those are unsealed by the send only.
  const read = await getGroup(deps.db, tenant, groupId);
  const channelId = read && channelIdOf(tenant, read);
  const { group, channel } = sendTarget(tenant, read, channelId ? await getChannel(deps.db, tenant, channelId) : undefined);
  return reserve(deps.db, slotRequestOf(group, channel && pacingOf(channel)), notBefore);
}

/** A group and its channel (its credentials unsealed) as a send reads them; `channel` undefined when the group has none. */
export interface GroupTarget {
  group: GroupDoc | null;
  channel: ChannelConfig | null | undefined;
}

async function readGroupTarget(deps: SendDeps, tenant: Tenant, groupId: string): Promise<GroupTarget> {
  const group = await getGroup(deps.db, tenant, groupId);
  const channelId = group && channelIdOf(tenant, group);
  return { group, channel: channelId ? await channelForSend(deps.db, tenant, channelId, deps.secretKey) : undefined };
}

/**
 * reserveGroupSlot for each of `groupIds`, in order, their groups and channels read at once; `each` runs before each
 * reservation (an activity's heartbeat and cancellation check).
 */
export async function reserveGroupSlots(deps: SendDeps, tenant: Tenant, groupIds: string[], each: () => void): Promise<(string | null)[]> {
  if (tenant.env === 'test') return groupIds.map(() => null);
  const groups = await getGroups(deps.db, tenant, groupIds);
  const channels = await channelsOf(tenant, groups.values(), (id) => getChannel(deps.db, tenant, id));
  const slots: (string | null)[] = [];
  for (const groupId of groupIds) {
    each();
    const read = groups.get(groupId);
    const channelId = read && channelIdOf(tenant, read);
    const { group, channel } = sendTarget(tenant, read, channelId ? channels.get(channelId) : undefined);
    slots.push(await reserve(deps.db, slotRequestOf(group, channel && pacingOf(channel)), undefined));
  }
  return slots;
}

/**
 * Lets a send to the group go as far as its channel's session goes: throws
 * the wait (./session.ts) when the session is known to be down, before the
 * send counts an attempt on its delivery. The group and channel it read, for
 * sendToGroup to send through, when the session was not down (else the send
 * reads them again: the check may have changed the channel).
 */
export async function passGroupSession(deps: SendDeps, tenant: Tenant, groupId: string): Promise<GroupTarget | undefined> {
  if (tenant.env !== 'live') return undefined;
  const read = await readGroupTarget(deps, tenant, groupId);
  if (!read.channel?.session) return read;
  await passSessionGate(deps.db, tenant, read.channel);
  return undefined;
}

/** Sends `content` (read side by side with the group and its channel, unless `read` gives them) to a group. */
export async function sendToGroup(
  deps: SendDeps,
  tenant: Tenant,
  groupId: string,
  content: SendContent | Promise<SendContent>,
  read?: GroupTarget,
): Promise<SendOutcome> {
  const target = async () => {
    const { group, channel } = read ?? (await readGroupTarget(deps, tenant, groupId));
    return sendTarget(tenant, group, channel);
  };
  const [{ group, channel }, what] = await Promise.all([target(), content]);
  return sendTo(deps, tenant, group, channel, what);
}

/**
 * Sends to several groups at once (a chunk of a fan-out), each as
 * sendToGroup would: the groups are read first (by `_id`, side by side) and
 * each of their channels once, its credentials unsealed once. What each send
 * did (and when it was sent), or the error sendToGroup would have thrown, in
 * the order of `groupIds`.
 */
export async function sendToGroups(
  deps: SendDeps,
  tenant: Tenant,
  groupIds: string[],
  content: (groupId: string) => Promise<SendContent>,
): Promise<PromiseSettledResult<SendOutcome & { at: Date }>[]> {
  const groups = await getGroups(deps.db, tenant, groupIds);
  const channels = await channelsOf(tenant, groups.values(), (id) => channelForSend(deps.db, tenant, id, deps.secretKey));
  return Promise.allSettled(
    groupIds.map(async (groupId) => {
      const read = groups.get(groupId);
      const channelId = read && channelIdOf(tenant, read);
      const { group, channel } = sendTarget(tenant, read, channelId ? channels.get(channelId) : undefined);
      return { ...(await sendTo(deps, tenant, group, channel, await content(groupId))), at: new Date() };
    }),
  );
}

/**
 * The earliest time, at or after `notBefore`, a reply may go on the
 * conversation's channel (the channel's pacing; a conversation has no
 * interval of its own), reserved; null when the channel is not paced.
 * Test-environment sends are not paced.
 */
export async function reserveConversationSlot(
  deps: SendDeps,
  tenant: Tenant,
  target: ConversationTarget,
  notBefore?: string,
): Promise<string | null> {
  if (tenant.env === 'test') return null;
  const channel = await getChannel(deps.db, tenant, target.channelId);
  if (!channel) throw refused("the conversation's channel no longer exists");
  return reserve(deps.db, conversationSlot(target.conversationId, channel._id, channel.min_interval_ms ?? 0), notBefore);
}

/**
 * Sends a reply to a conversation's thread. Its address is unsealed only
 * here, once the slot is held, right before the connector's request; the
 * sandbox (test environment) records the conversation id instead.
 */
export async function sendToConversation(
  deps: SendDeps,
  tenant: Tenant,
  target: ConversationTarget & { sealedAddress: SealedAddressOf },
  content: SendContent,
): Promise<SendOutcome> {
  const channel = tenant.env === 'test' ? null : await channelForSend(deps.db, tenant, target.channelId, deps.secretKey);
  if (tenant.env === 'live' && !channel) throw refused("the conversation's channel no longer exists");
  const request = conversationSlot(target.conversationId, channel?.id ?? null, channel?.minIntervalMs ?? 0);
  return send(deps, tenant, request, channel, content, async () => {
    if (!channel) return target.conversationId;
    const sealed = await target.sealedAddress();
    if (!sealed) throw refused("the conversation's address is gone");
    return unseal(sealed, deps.secretKey);
  });
}
