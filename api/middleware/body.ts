import { MAX_BODY_DEPTH } from '../../schemas/openapi/common';
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

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text: 400 malformed_json when it is not UTF-8 (RFC 8259 §8.1), rather than a silent U+FFFD in its place. */
export function bodyText(raw: Buffer): string {
  try {
    return utf8.decode(raw);
  } catch {
    throw new HttpError('malformed_json', 'The body is not valid UTF-8 text.');
  }
}

const [OPEN_BRACKET, OPEN_BRACE, CLOSE_BRACKET, CLOSE_BRACE, QUOTE, BACKSLASH] = [...'[{]}"\\'].map((c) => c.charCodeAt(0));

/** How deep the JSON text nests arrays and objects, counted in one pass over it (strings skipped). */
function depthOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < text.length && text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > deepest) deepest = depth;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) depth--;
  }
  return deepest;
}

/**
 * A JSON text's value: 400 malformed_json when it does not parse, 400 validation_failed (rule `maxDepth`) when it nests
 * deeper than MAX_BODY_DEPTH (no schema of the contract goes near it; a deeper value would only cost the recursive steps
 * after parsing, e.g. hashing it for Idempotency-Key, their stack).
 */
export function parseJson(text: string): unknown {
  if (depthOf(text) > MAX_BODY_DEPTH) {
    throw new HttpError('validation_failed', `Invalid body: it nests arrays and objects deeper than ${MAX_BODY_DEPTH} levels.`, {}, [
      { location: 'body', field: '', rule: 'maxDepth', message: `nests deeper than ${MAX_BODY_DEPTH} levels` },
    ]);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new HttpError('malformed_json', `The body is not valid JSON: ${(err as Error).message}`);
  }
}

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
  const text = bodyText(ctx.req.readableEnded ? Buffer.alloc(0) : await readRaw(ctx.req, limit));
  if (text.trim() === '') return undefined;
  if (!isJson(ctx.get('Content-Type'))) throw new HttpError('unsupported_media_type', 'Send the body as Content-Type: application/json.');
  return parseJson(text);
}

/**
 * Reads the JSON body into `ctx.state.body` (undefined when empty: no bytes, or
 * only white space; validateRequest refuses that where the body is required):
 * 413 past `limit` bytes, 415 when it is not JSON, 400 when it is not UTF-8,
 * does not parse, nests too deep, or the operation takes no body.
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
    const text = bodyText(ctx.req.readableEnded ? Buffer.alloc(0) : await readRaw(ctx.req, limit));
    if (text.trim() === '') {
      ctx.state.body = undefined;
    } else if (!op.body) {
      throw new HttpError('body_not_allowed', `${op.method.toUpperCase()} ${op.path} takes no body.`);
    } else if (!isJson(ctx.get('Content-Type'))) {
      throw new HttpError('unsupported_media_type', 'Send the body as Content-Type: application/json.');
    } else {
      ctx.state.body = parseJson(text);
    }
    await next();
  };
}
