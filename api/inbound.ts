/**
 * `POST /inbound/{channel_id}`: the public endpoint a chat gateway posts the
 * messages it receives to (docs/guides/publishing.md, "Inbound"), where the
 * Telegram Bot API delivers a telegram channel's updates and the WhatsApp
 * gateways (Evolution API, WAHA) their webhook events
 * (docs/guides/whatsapp.md). Outside /api/v1: it is authenticated by the
 * channel's own inbound secret (`Authorization: Bearer oo_in_…` from a
 * gateway or Evolution, the `X-Telegram-Bot-Api-Secret-Token` header from
 * Telegram, WAHA's `X-Webhook-Hmac` signature of the body keyed with it), not
 * by an API key. Answers 201 for a new message, 200 for one stored before, a
 * session state recorded, or an event taken and skipped, only once
 * everything is written.
 */
import { recordChannelState } from '../domain/channels/service';
import { ChannelDoc } from '../domain/channels/store';
import { commitEvents } from '../domain/events/commit';
import { inboundChannel, InboundMessage, receiveInbound, signedInboundChannel } from '../domain/inbox/inbound';
import { telegramInbound } from '../domain/inbox/telegram';
import { evolutionEvent, GatewayEvent, wahaEvent } from '../domain/inbox/whatsapp';
import { INBOUND_MESSAGE } from '../schemas/openapi/inbox';
import { HttpError } from './errors';
import { AppDeps } from './handlers/types';
import { bodyText, parseJson, readJsonBody, readRaw } from './middleware/body';
import { AppMiddleware } from './middleware/state';
import { check, validationFailed } from './middleware/validate';

export const INBOUND_PATH = /^\/inbound\/([^/]+)$/;

/** Inbound bodies are small: text and links. */
const INBOUND_BODY_LIMIT = 64 * 1024;

/** A gateway's body as the message it is (400 naming every field outside the protocol). */
function gatewayMessage(body: unknown): InboundMessage {
  const details = check('body', INBOUND_MESSAGE, body);
  const message = body as Partial<InboundMessage>;
  if (!details.length && message.text === undefined && message.media_urls === undefined) {
    details.push({ location: 'body', field: 'text', rule: 'required', message: 'is required when there are no media_urls' });
  }
  if (details.length) throw validationFailed(details);
  // INBOUND_MESSAGE validated the body: it is an InboundMessage.
  return body as InboundMessage;
}

/** What a channel's body is: a message, a session state, or nothing to store (400 for a body that is not what its gateway sends). */
function eventOf(channel: ChannelDoc, body: unknown): Exclude<GatewayEvent, { invalid: unknown }> {
  if (channel.type === 'http') return { message: gatewayMessage(body) };
  const event: GatewayEvent =
    channel.type === 'telegram'
      ? telegramInbound(body)
      : channel.type === 'evolution'
        ? evolutionEvent(body, channel.instance ?? null)
        : wahaEvent(body, channel.instance ?? null);
  if ('invalid' in event)
    throw validationFailed([
      { location: 'body', rule: channel.type === 'telegram' ? 'telegram_update' : `${channel.type}_event`, ...event.invalid },
    ]);
  return event;
}

export function inbound(deps: AppDeps): AppMiddleware {
  return async (ctx, next) => {
    const match = INBOUND_PATH.exec(ctx.path);
    if (!match) {
      await next();
      return;
    }
    if (ctx.method !== 'POST') throw new HttpError('method_not_allowed', `${ctx.method} is not allowed here; use POST.`, { Allow: 'POST' });
    const channelId = decodeURIComponent(match[1]!);
    const signature = ctx.get('X-Webhook-Hmac');
    let channel: ChannelDoc | null;
    let body: unknown;
    if (signature) {
      // WAHA signs the body it sends: it is read before the channel can be known.
      const declared = Number(ctx.get('Content-Length') || 0);
      const raw = declared > INBOUND_BODY_LIMIT ? null : await readRaw(ctx.req, INBOUND_BODY_LIMIT);
      channel = raw && (await signedInboundChannel(deps.db, channelId, raw, signature, deps.secretKey));
      if (!channel) throw new HttpError('invalid_api_key', 'Unknown channel or wrong signature.');
      const text = bodyText(raw!);
      body = text.trim() === '' ? undefined : parseJson(text);
    } else {
      const secret = /^Bearer (\S+)$/.exec(ctx.get('Authorization'))?.[1] ?? (ctx.get('X-Telegram-Bot-Api-Secret-Token') || undefined);
      if (!secret) throw new HttpError('missing_api_key', "Send the channel's inbound secret as Authorization: Bearer oo_in_….");
      channel = await inboundChannel(deps.db, channelId, secret);
      // An unknown channel and a wrong secret answer alike: the endpoint tells nobody which channels exist.
      if (!channel) throw new HttpError('invalid_api_key', 'Unknown channel or wrong inbound secret.');
      body = await readJsonBody(ctx, INBOUND_BODY_LIMIT);
    }
    if (body === undefined) throw validationFailed([{ location: 'body', field: '', rule: 'required', message: 'a JSON body is required' }]);
    const event = eventOf(channel, body);
    if ('ignored' in event) {
      // Taken (the gateway would deliver it again otherwise), nothing stored.
      ctx.status = 200;
      ctx.body = { data: { ignored: true }, created: false, request_id: ctx.state.requestId };
      return;
    }
    if ('state' in event) {
      const tenant = { accountId: channel.account_id, env: channel.env };
      const after = await recordChannelState(deps.db, tenant, channel._id, event.state);
      await commitEvents(deps, 'channels', channel._id);
      ctx.status = 200;
      ctx.body = { data: { state: after.state ?? event.state }, created: false, request_id: ctx.state.requestId };
      return;
    }
    const { created, message: stored } = await receiveInbound(deps, channel, event.message);
    ctx.status = created ? 201 : 200;
    ctx.body = { data: { message_id: stored._id, conversation_id: stored.conversation_id }, created, request_id: ctx.state.requestId };
  };
}
