/**
 * `POST /inbound/{channel_id}`: the public endpoint a chat gateway posts the
 * messages it receives to (docs/guides/publishing.md, "Inbound"), and where
 * the Telegram Bot API delivers a telegram channel's updates. Outside
 * /api/v1: it is authenticated by the channel's own inbound secret
 * (`Authorization: Bearer oo_in_…` from a gateway, the
 * `X-Telegram-Bot-Api-Secret-Token` header from Telegram), not by an API key.
 * Answers 201 for a new message, 200 for one stored before (or a Telegram
 * update that holds no text message), only once everything is written.
 */
import { inboundChannel, InboundMessage, receiveInbound } from '../domain/inbox/inbound';
import { telegramInbound } from '../domain/inbox/telegram';
import { INBOUND_MESSAGE } from '../schemas/openapi/inbox';
import { HttpError } from './errors';
import { AppDeps } from './handlers/types';
import { readJsonBody } from './middleware/body';
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

/** A Telegram Update as the message it holds; null for one without a text message (400 for a body that is no Update). */
function telegramMessage(body: unknown): InboundMessage | null {
  const update = telegramInbound(body);
  if ('invalid' in update) throw validationFailed([{ location: 'body', rule: 'telegram_update', ...update.invalid }]);
  return 'ignored' in update ? null : update.message;
}

export function inbound(deps: AppDeps): AppMiddleware {
  return async (ctx, next) => {
    const match = INBOUND_PATH.exec(ctx.path);
    if (!match) {
      await next();
      return;
    }
    if (ctx.method !== 'POST') throw new HttpError('method_not_allowed', `${ctx.method} is not allowed here; use POST.`, { Allow: 'POST' });
    const secret = /^Bearer (\S+)$/.exec(ctx.get('Authorization'))?.[1] ?? (ctx.get('X-Telegram-Bot-Api-Secret-Token') || undefined);
    if (!secret) throw new HttpError('missing_api_key', "Send the channel's inbound secret as Authorization: Bearer oo_in_….");
    const channel = await inboundChannel(deps.db, decodeURIComponent(match[1]!), secret);
    // An unknown channel and a wrong secret answer alike: the endpoint tells nobody which channels exist.
    if (!channel) throw new HttpError('invalid_api_key', 'Unknown channel or wrong inbound secret.');
    const body = await readJsonBody(ctx, INBOUND_BODY_LIMIT);
    if (body === undefined) throw validationFailed([{ location: 'body', field: '', rule: 'required', message: 'a JSON body is required' }]);
    const message = channel.type === 'telegram' ? telegramMessage(body) : gatewayMessage(body);
    if (message === null) {
      // A Telegram update without a text message: taken (Telegram would redeliver anything else), nothing stored.
      ctx.status = 200;
      ctx.body = { data: { ignored: true }, created: false, request_id: ctx.state.requestId };
      return;
    }
    const { created, message: stored } = await receiveInbound(deps, channel, message);
    ctx.status = created ? 201 : 200;
    ctx.body = { data: { message_id: stored._id, conversation_id: stored.conversation_id }, created, request_id: ctx.state.requestId };
  };
}
