import { Operation } from '../../schemas/operations';
import { HttpError } from '../errors';
import { AppMiddleware, AsyncStep } from './state';

/**
 * 413. The rest of the body is left unread (draining would let a client push
 * unlimited bytes), so the connection cannot carry another request: close it.
 */
const tooLarge = (limit: number): HttpError => new HttpError('payload_too_large', `The body exceeds ${limit} bytes.`, { Connection: 'close' });

const isJson = (type: string): boolean => /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type);

/** HTTP/1.1 (RFC 9112 §6.3): a request with neither Content-Length nor Transfer-Encoding has no body; nor has one of length 0. */
const hasBody = (headers: { 'content-length'?: string; 'transfer-encoding'?: string }): boolean =>
  headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');

/** The raw body, 413 (payload_too_large) past `limit` bytes. */
export async function readRaw(req: NodeJS.ReadableStream, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/** The request's JSON body (undefined when empty), with the same limits and errors as an operation's. */
export async function readJsonBody(
  ctx: { get(name: string): string; req: NodeJS.ReadableStream & { readableEnded: boolean } },
  limit: number,
): Promise<unknown> {
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > limit) throw tooLarge(limit);
  const text = (ctx.req.readableEnded ? Buffer.alloc(0) : await readRaw(ctx.req, limit)).toString('utf8');
  if (text.trim() === '') return undefined;
  if (!isJson(ctx.get('Content-Type'))) throw new HttpError('unsupported_media_type', 'Send the body as Content-Type: application/json.');
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new HttpError('malformed_json', `The body is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * Reads the JSON body into `ctx.state.body` (undefined when empty): 413 past
 * `limit` bytes, 415 when it is not JSON, 400 when it does not parse or the
 * operation takes no body.
 */
export function jsonBody(op: Operation, limit: number): AppMiddleware {
  const read = readBody(op, limit);
  return (ctx, next) => {
    if (hasBody(ctx.req.headers)) return read(ctx, next);
    // Nothing to read (most GETs): no stream to drain, no turn of its own.
    ctx.state.body = undefined;
    return next();
  };
}

/** jsonBody for a request that has a body. */
function readBody(op: Operation, limit: number): AsyncStep {
  return async (ctx, next) => {
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > limit) throw tooLarge(limit);
    const raw = ctx.req.readableEnded ? Buffer.alloc(0) : await readRaw(ctx.req, limit);
    const text = raw.toString('utf8');
    if (text.trim() === '') {
      ctx.state.body = undefined;
    } else if (!op.body) {
      throw new HttpError('body_not_allowed', `${op.method.toUpperCase()} ${op.path} takes no body.`);
    } else if (!isJson(ctx.get('Content-Type'))) {
      throw new HttpError('unsupported_media_type', 'Send the body as Content-Type: application/json.');
    } else {
      try {
        ctx.state.body = JSON.parse(text);
      } catch (err) {
        throw new HttpError('malformed_json', `The body is not valid JSON: ${(err as Error).message}`);
      }
    }
    await next();
  };
}
