/**
 * What the WhatsApp gateways (Evolution API, WAHA) share beyond sending: the
 * operator's side of a gateway — pointing its webhook at offerops, reading
 * its session's state and listing its groups — and the checks a channel of
 * either type must pass before a request.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ChannelConfig, ChannelState } from '../store';
import { ConnectorError } from './types';

/** A group the gateway's WhatsApp account is in: its JID, subject and member count (null when the gateway does not say). */
export interface GatewayGroup {
  address: string;
  name: string;
  size: number | null;
}

/** The operator's side of a WhatsApp gateway. */
export interface WhatsAppGateway {
  /** Points the gateway's webhook (messages and session state) at `url`, authenticated with the channel's inbound `secret`. */
  setWebhook(url: string, secret: string): Promise<void>;
  /**
   * The session's state, asked of the gateway now; with `settleWithinMs`, asked
   * again every second while the session is on its way (starting, connecting).
   */
  sessionState(settleWithinMs?: number): Promise<ChannelState>;
  /** The groups the session's account is in. */
  groups(): Promise<GatewayGroup[]>;
}

/** A session's state as a gateway gives it, and whether it is still on its way to another (WAHA STARTING, Evolution connecting). */
export interface SessionReading {
  state: ChannelState;
  settling: boolean;
}

/** Reads the session every second while it is on its way, for up to `withinMs`; the last reading's state. */
export async function settledState(read: () => Promise<SessionReading>, withinMs: number): Promise<ChannelState> {
  const end = Date.now() + withinMs;
  for (;;) {
    const reading = await read();
    if (!reading.settling || Date.now() >= end) return reading.state;
    await sleep(1000);
  }
}

/** Whether `text` holds a link (the gateways then make a preview of it). */
export const hasLink = (text: string): boolean => /\bhttps?:\/\/\S/i.test(text);

/** The gateway's base URL (no trailing slash), its session and its API key; refused (permanent) when one is missing. */
export function gatewayParts(channel: ChannelConfig, product: string, session: string): { base: string; session: string; key: string } {
  if (!channel.url) throw new ConnectorError(`the channel has no ${product} URL`, true);
  if (!channel.instance) throw new ConnectorError(`the channel names no ${product} ${session}`, true);
  if (!channel.token) throw new ConnectorError(`the channel has no ${product} API key`, true);
  return { base: channel.url.replace(/\/+$/, ''), session: channel.instance, key: channel.token };
}

/** The MIME type an image URL's extension says (WAHA needs one); JPEG when it says none. */
export function imageMimeType(url: string): string {
  const ext = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  return ext === 'png' ? 'image/png' : ext === 'webp' ? 'image/webp' : ext === 'gif' ? 'image/gif' : 'image/jpeg';
}

/** A member count from a size field or a participant list; null when there is neither. */
export function memberCount(size: unknown, participants: unknown): number | null {
  if (typeof size === 'number' && Number.isInteger(size) && size >= 0) return size;
  return Array.isArray(participants) ? participants.length : null;
}
