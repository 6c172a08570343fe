/**
 * One API call of the CLI, with the retries of the spec's rule 4: only 429
 * and 5xx answers are retried (not 501, an operation not built: permanent), with exponential backoff and full jitter, and
 * never sooner than a `Retry-After` asks; at most RETRIES times. A network
 * failure is retried only for a GET: a mutation may have been applied, so the
 * caller is told to look at the resource before trying again.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface Credentials {
  baseUrl: string;
  apiKey: string;
}

export const RETRIES = 4;
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 20_000;
/** A `Retry-After` longer than this is not waited for: the answer is reported. */
const MAX_RETRY_AFTER_MS = 120_000;

/** An answer of the API that is not a success (after the retries). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** The API could not be reached (after the retries, for a GET). */
export class NetworkError extends Error {}

/** An answer's JSON: an envelope of the API (data, pagination, request_id; or an error's code and message). */
export interface Body {
  data?: unknown;
  pagination?: { total?: number; limit?: number; offset?: number; has_more?: boolean };
  request_id?: string;
  code?: string;
  message?: string;
  [field: string]: unknown;
}

export interface Answer {
  status: number;
  body: Body | null;
}

/** Milliseconds a `Retry-After` header asks for (seconds or an HTTP date), or null. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The wait before retry number `attempt` (0-based): full jitter over an exponential ceiling, at least `retryAfter`. */
export function backoffMs(attempt: number, retryAfter: number | null, random = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
  const jittered = ceiling / 2 + random() * (ceiling / 2);
  return retryAfter === null ? jittered : retryAfter + random() * BASE_DELAY_MS;
}

export function urlOf(creds: Credentials, path: string, query: [string, string][]): string {
  const qs = new URLSearchParams(query).toString();
  return `${creds.baseUrl.replace(/\/+$/, '')}${path}${qs ? `?${qs}` : ''}`;
}

export async function request(
  creds: Credentials,
  method: string,
  path: string,
  query: [string, string][] = [],
  body?: unknown,
  userAgent = 'offerops-cli',
): Promise<Answer> {
  const url = urlOf(creds, path, query);
  const headers: Record<string, string> = { authorization: `Bearer ${creds.apiKey}`, accept: 'application/json', 'user-agent': userAgent };
  if (body !== undefined) headers['content-type'] = 'application/json';
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    } catch (err) {
      const why = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      if (method === 'GET' && attempt < RETRIES) {
        await sleep(backoffMs(attempt, null));
        continue;
      }
      throw new NetworkError(
        method === 'GET'
          ? `the API at ${creds.baseUrl} could not be reached (${why})`
          : `the API at ${creds.baseUrl} could not be reached (${why}); the ${method} may or may not have been applied: look at the resource before trying again`,
      );
    }
    const text = await res.text();
    let parsed: Body | null;
    try {
      parsed = text ? (JSON.parse(text) as Body) : null;
    } catch {
      parsed = null;
    }
    if (res.status >= 200 && res.status < 300) return { status: res.status, body: parsed };
    const retryable = res.status === 429 || (res.status >= 500 && res.status !== 501);
    const after = retryAfterMs(res.headers.get('retry-after'));
    if (retryable && attempt < RETRIES && (after === null || after <= MAX_RETRY_AFTER_MS)) {
      await sleep(backoffMs(attempt, after));
      continue;
    }
    const requestId = parsed?.request_id ?? res.headers.get('x-request-id');
    throw new ApiError(
      res.status,
      parsed?.code ?? `http_${res.status}`,
      parsed?.message ?? (text.slice(0, 200) || res.statusText),
      requestId ?? null,
      parsed,
    );
  }
}
