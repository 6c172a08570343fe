/**
 * The gateways a channel sends through, behind one face, for the suites that
 * drive every connector through the same assertions (publishing, replies,
 * the worker crash): the stand-in of our http protocol (fake-gateway.ts) and
 * those of Evolution API and WAHA (fake-whatsapp.ts). A contact's message
 * comes in as each gateway sends it: our protocol posted with the channel's
 * secret, or the WhatsApp gateway's webhook event once offerops has set the
 * webhook (as `admin channel connect --public-url` does).
 */
import { randomBytes } from 'node:crypto';
import { Db } from 'mongodb';
import { Tenant } from '../../domain/db';
import { gatewayFor } from '../../domain/channels/connectors/index';
import { connectChannel } from '../../domain/channels/service';
import { channelForSend } from '../../domain/channels/store';
import { FakeGateway, startFakeGateway } from './fake-gateway';
import { FAKE_API_KEY, startFakeWhatsApp, WhatsAppGatewayFake } from './fake-whatsapp';

export const GATEWAY_TYPES = ['http', 'evolution', 'waha'] as const;
export type GatewayType = (typeof GATEWAY_TYPES)[number];

const HTTP_TOKEN = 'gw-http-token-s3cr3t';

/** A message a contact writes to the channel's account, or in a group. */
export interface ContactWrites {
  from: string;
  text: string;
  name?: string;
  group?: string;
}

export interface InboundAnswer {
  status: number;
  body: any;
}

export interface TestGateway {
  type: GatewayType;
  /** Whether it deduplicates sends on our idempotency key (our protocol requires it; WhatsApp gateways take none). */
  deduplicates: boolean;
  /** What a channel needs to reach it. */
  connection: { type: GatewayType; url: string; token: string; instance?: string };
  /** The messages it sent to `to`, in order (after deduplication, for a gateway that deduplicates). */
  delivered(to: string): { text: string; imageUrl: string | null }[];
  /** The send requests it received for `to`, failed and repeated ones included, with their arrival times (ms). */
  requestsTo(to: string): { at: number }[];
  /** The next `count` sends fail with `status`, with `Retry-After: retryAfter` when given (none otherwise). */
  failNext(count: number, status: number, retryAfter?: string): void;
  /** Every send to `to` fails with `status`. */
  failTo(to: string, status: number): void;
  /** Each send answers this late (ms). */
  setDelay(ms: number): void;
  /** The error a delivery records when the gateway refuses its destination (`failTo(to, 400)`). */
  refusal: RegExp;
  /** The error a delivery records when the gateway refuses the channel's credentials (401). */
  badKey: RegExp;
  /** A contact writes and the gateway calls its webhook (a WhatsApp gateway's); absent for ours, posted to by connectTo. */
  webhook?: (m: ContactWrites) => Promise<InboundAnswer>;
  close(): Promise<void>;
}

function httpGateway(fake: FakeGateway): TestGateway {
  return {
    type: 'http',
    deduplicates: true,
    connection: { type: 'http', url: fake.url, token: HTTP_TOKEN },
    delivered: (to) => fake.messages(to).map((m) => ({ text: m.text, imageUrl: m.image_url ?? null })),
    requestsTo: (to) => fake.requests.filter((r) => r.to === to),
    failNext: (count, status, retryAfter) => fake.failNext(count, status, retryAfter ?? null),
    failTo: (to, status) => fake.failTo(to, status),
    setDelay: (ms) => {
      fake.delayMs = ms;
    },
    refusal: /^the gateway answered 400$/,
    badKey: /^the gateway answered 401$/,
    close: () => fake.close(),
  };
}

function whatsAppGateway(fake: WhatsAppGatewayFake): TestGateway {
  const evolution = fake.flavor === 'evolution';
  return {
    type: fake.flavor,
    deduplicates: false,
    connection: { type: fake.flavor, url: fake.url, token: FAKE_API_KEY, instance: fake.session },
    delivered: (to) => fake.sent.filter((m) => m.to === to).map((m) => ({ text: m.text, imageUrl: m.imageUrl })),
    requestsTo: (to) => fake.requests.filter((r) => r.to === to),
    failNext: (count, status, retryAfter) => fake.failNext(count, status, retryAfter),
    failTo: (to, status) => fake.failTo(to, status),
    setDelay: (ms) => {
      fake.delayMs = ms;
    },
    refusal: evolution ? /^the destination is not on WhatsApp \(Evolution API 400\)$/ : /^WAHA refused the message: 400$/,
    badKey: evolution ? /^Evolution API refused the API key \(401\)$/ : /^WAHA refused the API key \(401\)$/,
    webhook: (m) => fake.receive(m),
    close: () => fake.close(),
  };
}

/** A stand-in of a gateway of `type`, on loopback. */
export async function startTestGateway(type: GatewayType): Promise<TestGateway> {
  if (type === 'http') return httpGateway(await startFakeGateway({ token: HTTP_TOKEN }));
  return whatsAppGateway(await startFakeWhatsApp(type));
}

/** A channel connected to the gateway, and how a contact's messages reach it. */
export interface ConnectedChannel {
  id: string;
  /** A contact writes: the gateway brings the message in; what offerops answered. */
  receive(m: ContactWrites): Promise<InboundAnswer>;
}

/**
 * Connects a channel of the tenant to `gateway` as `admin channel connect`
 * does (a WhatsApp gateway's webhook pointed at `origin`'s inbound URL).
 */
export async function connectTo(
  gateway: TestGateway,
  deps: { db: Db; origin: string; secretKey: Buffer },
  tenant: Tenant,
  opts: { name: string; minIntervalMs?: number },
): Promise<ConnectedChannel> {
  const { channel, inboundSecret } = await connectChannel(
    deps.db,
    tenant,
    { ...gateway.connection, name: opts.name, minIntervalMs: opts.minIntervalMs ?? 0 },
    () => deps.secretKey,
  );
  const url = `${deps.origin}/inbound/${channel._id}`;
  const { webhook } = gateway;
  if (webhook) {
    const config = await channelForSend(deps.db, tenant, channel._id, deps.secretKey);
    await gatewayFor(config!).setWebhook(url, inboundSecret!);
  }
  return {
    id: channel._id,
    async receive(m) {
      if (webhook) return webhook(m);
      const body = { id: `wamid.${randomBytes(8).toString('hex')}`, ...m };
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${inboundSecret}` },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: JSON.parse(text) };
    },
  };
}
