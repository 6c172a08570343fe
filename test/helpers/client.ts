/**
 * An HTTP client for the API that checks every answer against the contract:
 * the status must be one the operation documents, the body must match that
 * status's schema, and the request id must be in the body and the header.
 */
import assert from 'node:assert/strict';
import { ERROR_CODES } from '../../schemas/openapi/common';
import { Operation, operations } from '../../schemas/operations';
import { validatorFor } from '../../schemas/validator';

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  body?: unknown;
  /** Sent as is, instead of JSON.stringify(body). */
  raw?: string | Buffer;
  headers?: Record<string, string>;
  /** Send no Authorization header. */
  anonymous?: boolean;
  /** Give up on the answer after this long (the call rejects): for tests that prove an answer comes. */
  timeoutMs?: number;
}

const ERROR_SCHEMA = { $ref: '#/components/schemas/Error' };

function operationFor(method: string, path: string): Operation | undefined {
  const bare = path.split('?')[0]!;
  return operations.find((op) => op.method === method.toLowerCase() && new RegExp(`^${op.path.replace(/\{\w+\}/g, '[^/]+')}$`).test(bare));
}

export function assertMatchesContract(method: string, path: string, reply: Reply): void {
  const rid = reply.headers.get('x-request-id');
  assert.match(rid ?? '', /^req_[0-9a-z]+$/, 'X-Request-Id header');
  if (reply.headers.get('content-type')?.includes('json')) assert.equal(reply.body.request_id, rid, 'request_id in body');
  const op = operationFor(method, path);
  if (!op) return; // a route outside the contract (probing 404/405)
  const body: any = reply.body;
  if (reply.status >= 400) {
    const validate = validatorFor(ERROR_SCHEMA);
    assert.ok(validate(reply.body), `error body of ${op.operationId} ${reply.status}: ${JSON.stringify(validate.errors)} ${reply.text}`);
    const codes = ERROR_CODES[reply.status as keyof typeof ERROR_CODES] as readonly string[] | undefined;
    assert.ok(codes?.includes(body.code), `code ${body.code} documented for ${reply.status}`);
    return;
  }
  const success = op.successStatus === reply.status || (op.operationId === 'offer_create' && reply.status === 200);
  assert.ok(success, `${op.operationId} answered ${reply.status}: ${reply.text}`);
  const validate = validatorFor(op.responseSchema);
  assert.ok(validate(reply.body), `body of ${op.operationId}: ${JSON.stringify(validate.errors)} ${reply.text.slice(0, 500)}`);
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly apiKey: string,
  ) {}

  withKey(apiKey: string): ApiClient {
    return new ApiClient(this.baseUrl, apiKey);
  }

  async call<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
    if (!opts.anonymous) headers.authorization ??= `Bearer ${this.apiKey}`;
    let body: string | Buffer | undefined = opts.raw;
    if (body === undefined && opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const signal = opts.timeoutMs ? AbortSignal.timeout(opts.timeoutMs) : undefined;
    const res = await fetch(this.baseUrl + path, { method, headers, body, signal });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    // The body is T by the contract: assertMatchesContract checks it against the operation's response schema.
    const reply: Reply<T> = { status: res.status, headers: res.headers, body: parsed as T, text };
    assertMatchesContract(method, path, reply);
    return reply;
  }

  get = <T = any>(path: string, opts?: CallOptions) => this.call<T>('GET', path, opts);
  post = <T = any>(path: string, body?: unknown, opts?: CallOptions) => this.call<T>('POST', path, { ...opts, body });
  patch = <T = any>(path: string, body?: unknown, opts?: CallOptions) => this.call<T>('PATCH', path, { ...opts, body });
  delete = <T = any>(path: string, opts?: CallOptions) => this.call<T>('DELETE', path, opts);
}
