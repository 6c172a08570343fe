/** The HTTP call the network connectors share: JSON POST with a timeout, no redirects. */
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

/** The JSON object an answer holds; `{}` when it is empty, malformed or not an object. */
export function parseObject(text: string): JsonObject {
  try {
    return asObject(text ? JSON.parse(text) : null);
  } catch {
    return {};
  }
}

/** `value` when it is a JSON object, else `{}`. */
export function asObject(value: unknown): JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : {};
}

/**
 * POSTs `body` as JSON. The URL may hold a secret (Telegram puts the token
 * in the path): failures say what happened, never where.
 */
export async function postJson(
  url: string,
  body: unknown,
  opts: { headers?: Record<string, string>; timeoutMs: number },
): Promise<{ status: number; headers: Headers; json: JsonObject }> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...opts.headers },
      body: JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
    text = await res.text();
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    throw new ConnectorError(timedOut ? 'the gateway did not answer in time' : 'the gateway could not be reached', false);
  }
  return { status: res.status, headers: res.headers, json: parseObject(text) };
}
