/**
 * `POST /inbound/{channel_id}`: the public endpoint a chat gateway posts the
 * messages it receives to (README "Connecting a chat gateway"). Outside
 * /api/v1: it is authenticated by the channel's own inbound secret
 * (`Authorization: Bearer oo_in_…`), not by an API key. Answers 201 for a new
 * message, 200 for one stored before, only once everything is written.
 */
import { inboundChannel, InboundMessage, receiveInbound } from '../domain/inbox/inbound';
import { INBOUND_MESSAGE } from '../schemas/openapi/inbox';
import { HttpError } from './errors';
import { AppDeps } from './handlers/types';
import { readJsonBody } from './middleware/body';
import { AppMiddleware } from './middleware/state';
import { check, validationFailed } from './middleware/validate';

export const INBOUND_PATH = /^\/inbound\/([^/]+)$/;

/** Inbound bodies are small: text and links. */
const INBOUND_BODY_LIMIT = 64 * 1024;

export function inbound(deps: AppDeps): AppMiddleware {
  return async (ctx, next) => {
    const match = INBOUND_PATH.exec(ctx.path);
    if (!match) {
      await next();
      return;
    }
    if (ctx.method !== 'POST') throw new HttpError('method_not_allowed', `${ctx.method} is not allowed here; use POST.`, { Allow: 'POST' });
    const bearer = /^Bearer (\S+)$/.exec(ctx.get('Authorization'));
    if (!bearer) throw new HttpError('missing_api_key', "Send the channel's inbound secret as Authorization: Bearer oo_in_….");
    const channel = await inboundChannel(deps.db, decodeURIComponent(match[1]!), bearer[1]!);
    // An unknown channel and a wrong secret answer alike: the endpoint tells nobody which channels exist.
    if (!channel) throw new HttpError('invalid_api_key', 'Unknown channel or wrong inbound secret.');
    const body = await readJsonBody(ctx, INBOUND_BODY_LIMIT);
    if (body === undefined) throw validationFailed([{ location: 'body', field: '', rule: 'required', message: 'a JSON body is required' }]);
    const details = check('body', INBOUND_MESSAGE, body);
    const message = body as Partial<InboundMessage>;
    if (!details.length && message.text === undefined && message.media_urls === undefined) {
      details.push({ location: 'body', field: 'text', rule: 'required', message: 'is required when there are no media_urls' });
    }
    if (details.length) throw validationFailed(details);
    // INBOUND_MESSAGE validated the body: it is an InboundMessage.
    const { created, message: stored } = await receiveInbound(deps, channel, body as InboundMessage);
    ctx.status = created ? 201 : 200;
    ctx.body = { data: { message_id: stored._id, conversation_id: stored.conversation_id }, created, request_id: ctx.state.requestId };
  };
}
