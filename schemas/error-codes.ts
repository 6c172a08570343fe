/**
 * What each error code of the contract means, in one line: the error table
 * of docs/api-conventions.md is generated from this (`npm run openapi`), so the two cannot
 * drift. A code missing here does not compile.
 */
import { ERROR_CODES, ERROR_STATUS, ErrorCode } from './openapi/common';

export const ERROR_MEANINGS: Record<ErrorCode, string> = {
  validation_failed:
    'path, query or body does not match the contract (`details` lists each field, the first 20; `details_omitted` counts the rest)',
  malformed_json: 'the body is not JSON, or not UTF-8',
  body_not_allowed: 'a body sent to an operation that takes none',
  invalid_transition: 'a state move the resource does not allow',
  unknown_reference: 'a body names an id (e.g. `segment_id`) this account does not have',
  unknown_marketplace: "`POST /links/convert`: the URL's host is of no supported marketplace nor of the account's `other` integration",
  link_unresolvable: '`POST /links/convert`: a short link that could not be followed (refused address, too many redirects, no answer)',
  invalid_request: 'any other malformed request',
  missing_api_key: 'no `Authorization: Bearer <key>` header',
  invalid_api_key: 'the key is not one of ours',
  expired_api_key: 'the key has expired (test keys always do)',
  revoked_api_key: 'the key was revoked',
  expired_token: "an application's access token is over its hour: exchange the client credentials again",
  revoked_token: "the access token's application was revoked",
  invalid_signature: 'a postback without a valid signature or token for its endpoint (or an unknown endpoint)',
  plan_required: "the account's plan has no API access",
  insufficient_scope: "the key lacks the operation's scope",
  not_found: "no such resource in this account and environment (also another account's ids)",
  route_not_found: 'no operation at this path',
  integration_missing: "`POST /links/convert`: the account has no integration for the URL's marketplace (the message names it)",
  method_not_allowed: 'the path exists with other methods (`Allow` header)',
  request_timeout: 'the request head did not arrive within 60 s, or the whole request within 5 minutes (the connection is closed)',
  conflict: 'the resource changed while the request ran, or its state prevents the change (the message says which)',
  resource_in_use: 'something still links to the resource (the message names it)',
  slug_taken: 'the slug is taken: a segment or store page of the account, or a store subdomain of any account',
  offer_archived: 'the offer is archived; restore it (status `pending`) first',
  offer_not_publishable: 'the offer is rejected or archived, or its coupon expired or was deactivated',
  destination_unavailable: 'the group or segment cannot receive a publication now (inactive, not connected, or no such group left)',
  idempotency_key_reused: 'the `Idempotency-Key` was used for a different request (method, path or body) within 24 hours',
  idempotency_in_progress: 'a request with this `Idempotency-Key` is still running: repeat it once that one has answered',
  conversation_closed: 'a reply to a closed conversation (a new inbound message reopens it)',
  channel_unavailable: "the conversation's channel was deleted or can no longer send (no gateway URL, no bot token)",
  payload_too_large: 'body over 128 KB',
  unsupported_media_type: 'a body that is not `application/json`',
  header_too_large: 'the request line and headers exceed 16 KB (the connection is closed)',
  rate_limited: "over the credential's requests per minute (120 unless an operator set another; `Retry-After`)",
  internal_error: 'a bug; the message never carries internals — quote the `request_id`',
  not_implemented: 'the operation is in the contract but not built yet (docs/README.md lists such operations)',
  service_unavailable:
    'a schedule run-now whose run no worker took within the wait (repeat it: it joins that run); a conversion whose marketplace API (Shopee short links) did not answer',
};

/** The error table of docs/api-conventions.md: one row per code, by status. */
export function errorTable(): string {
  const rows = (Object.keys(ERROR_CODES) as unknown as (keyof typeof ERROR_CODES)[])
    .flatMap((status) => ERROR_CODES[status].map((code: ErrorCode) => `| ${ERROR_STATUS[code]} | \`${code}\` | ${ERROR_MEANINGS[code]} |`))
    .join('\n');
  return `| Status | \`code\` | When |\n|---|---|---|\n${rows}\n`;
}
