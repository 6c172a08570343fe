/** The HTTP calls the network connectors share: JSON requests with a timeout, no redirects, a span each under tracing. */
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { isTimeout, networkCause } from '../../network-cause';
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

const tracer = trace.getTracer('offerops-gateway');

type Method = 'GET' | 'POST' | 'PUT';
type Options = { headers?: Record<string, string>; timeoutMs: number };

/**
 * Sends `body` (when given) as JSON with `method`, as the gateway call `call`
 * (`messages`, Telegram's `sendMessage`, Evolution's `sendText`…). The URL may
 * hold a secret (Telegram puts the token in the path): failures say what
 * happened, never where. Under tracing the call is a client span naming the
 * gateway's host and port, the call and the status: never the path, a header
 * or the body.
 */
export function requestJson(method: Method, url: string, call: string, body: unknown, opts: Options): Promise<JsonAnswer> {
  // A URL that does not parse is refused by fetch below, as one that cannot be reached.
  const target = URL.canParse(url) ? new URL(url) : undefined;
  const attributes = {
    'http.request.method': method,
    'offerops.gateway.call': call,
    ...(target ? { 'server.address': target.hostname, 'server.port': Number(target.port) || (target.protocol === 'https:' ? 443 : 80) } : {}),
  };
  return tracer.startActiveSpan(`${method} ${call}`, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    try {
      const answer = await send(method, url, body, opts);
      span.setAttribute('http.response.status_code', answer.status);
      if (answer.status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
      return answer;
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** POSTs `body` as JSON (requestJson). */
export const postJson = (url: string, call: string, body: unknown, opts: Options): Promise<JsonAnswer> =>
  requestJson('POST', url, call, body, opts);

async function send(method: Method, url: string, body: unknown, opts: Options): Promise<JsonAnswer> {
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
    const cause = networkCause(err, opts.timeoutMs);
    throw new ConnectorError(
      isTimeout(err) ? `the gateway did not answer in time: ${cause}` : `the gateway could not be reached: ${cause}`,
      false,
    );
  }
  let value: unknown;
  try {
    value = text ? JSON.parse(text) : null;
  } catch {
    value = null;
  }
  return { status: res.status, headers: res.headers, json: asObject(value), value };
}
