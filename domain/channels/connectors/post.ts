/** The HTTP calls the network connectors share: JSON requests with a timeout, no redirects. */
import { ConnectorError } from './types';

export const DEFAULT_TIMEOUT_MS = 10_000;

/** Transient: 408, 429 and 5xx; any other 4xx (and 3xx: redirects are not followed) is permanent. */
export const transientStatus = (status: number): boolean => status === 408 || status === 429 || status >= 500;

/** `Retry-After` in seconds (the HTTP-date form is ignored), as ms. */
export function retryAfterMs(seconds: unknown): number | undefined {
  const n = typeof seconds === 'string' && /^\d+$/.test(seconds.trim()) ? Number(seconds) : seconds;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n * 1000 : undefined;
}

/** A JSON object as read from a peer: every field unknown until checked. */
export type JsonObject = Record<string, unknown>;

/** `value` when it is a JSON object, else `{}`. */
export function asObject(value: unknown): JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : {};
}

/** A gateway's answer: its status and headers, the object it holds (`{}` when none) and the parsed value itself (lists). */
export interface JsonAnswer {
  status: number;
  headers: Headers;
  json: JsonObject;
  value: unknown;
}

/**
 * Sends `body` (when given) as JSON with `method`. The URL may hold a secret
 * (Telegram puts the token in the path): failures say what happened, never where.
 */
export async function requestJson(
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  body: unknown,
  opts: { headers?: Record<string, string>; timeoutMs: number },
): Promise<JsonAnswer> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...opts.headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      redirect: 'manual',
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
    text = await res.text();
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    throw new ConnectorError(timedOut ? 'the gateway did not answer in time' : 'the gateway could not be reached', false);
  }
  let value: unknown;
  try {
    value = text ? JSON.parse(text) : null;
  } catch {
    value = null;
  }
  return { status: res.status, headers: res.headers, json: asObject(value), value };
}

/** POSTs `body` as JSON (requestJson). */
export const postJson = (url: string, body: unknown, opts: { headers?: Record<string, string>; timeoutMs: number }): Promise<JsonAnswer> =>
  requestJson('POST', url, body, opts);
