/**
 * The guide carried by the document itself (`info.description`, tag
 * descriptions): what the reference at `/docs` shows around the operations.
 * The one place these sections are written; docs/api-conventions.md points here.
 */
import { ERROR_CODES } from './common';

const errorLines = Object.entries(ERROR_CODES)
  .map(([status, codes]) => `| ${status} | ${codes.map((c) => `\`${c}\``).join(', ')} |`)
  .join('\n');

export const GUIDE = `Multi-tenant, account-scoped API for running an affiliate-offer operation. Every call acts on the account and environment (live or test) bound to the API key (or application token). Each operation carries its required scope in \`x-offerops-scope\`. The same contract serves an MCP server (\`offerops mcp\` over stdio, Streamable HTTP at \`/mcp\`).

# Authentication

Send an API key on every request: \`Authorization: Bearer oo_live_…\` (live data) or \`Bearer oo_test_…\` (the sandbox, below). Keys are random (40 characters after the prefix), stored only as SHA-256 hashes and shown once, when created by an operator (\`offerops admin key create\`). A key carries scopes (\`offers:read\`, \`offers:write\`, …); an operation needing a scope the key lacks answers 403 \`insufficient_scope\`. A missing, invalid, expired or revoked key answers 401; an account whose plan has no API access (\`free\`) answers 402 \`plan_required\`. \`GET /me\` shows the account and the key's scopes.

Applications exchange their client credentials for one-hour bearer tokens at \`POST /api/developer/oauth/token\` (outside \`/api/v1\`; described by its own document, \`/api/developer/openapi.json\`). A token works like a key within its application's scopes and environment; an expired one answers 401 \`expired_token\`, one of a revoked application 401 \`revoked_token\`.

# Errors

Every failure has the same body: \`{code, message, request_id[, details]}\`. \`code\` is stable (switch on it; the message is for people); \`request_id\` (\`req_…\`, also in the \`X-Request-Id\` header of every response) is what to quote when reporting a problem; \`details\` lists each invalid field of a 400 \`validation_failed\` as \`{location, field, rule, message}\`. What only the current state can decide — an unknown reference, a transition the state forbids, a resource in use — is told by the operation's own description.

| status | codes |
|---|---|
${errorLines}

# Rate limit

120 requests per minute per key by default (an operator may set another limit per account), shared by every API process. Every authenticated response carries \`RateLimit-Policy: "default";q=120;w=60\` and \`RateLimit: "default";r=<left>;t=<seconds to reset>\`; past the limit the answer is 429 \`rate_limited\` with \`Retry-After\` (seconds). Retry 429 and 5xx with exponential backoff and jitter; a POST with an \`Idempotency-Key\` header (where the operation takes one) is safe to repeat. JSON bodies are limited to 128 KB (413).

# Pagination

Lists take \`limit\` (1 to 100, default 30) and \`offset\` (0 or more, default 0) and answer \`{data, pagination: {total, limit, offset, has_more}, request_id}\`; follow \`has_more\` by adding \`limit\` to \`offset\`. Any other value, and any query parameter an operation does not declare, is a 400.

# Webhook verification

Deliveries follow Standard Webhooks. Headers: \`webhook-id\` (the event id, the same on every retry: deduplicate on it), \`webhook-timestamp\` (unix seconds) and \`webhook-signature: v1,<base64 signature>\`. The signature is HMAC-SHA256 keyed with the base64-decoded part of the webhook's secret after \`whsec_\` (shown once, when the webhook is created), over \`<webhook-id>.<webhook-timestamp>.<raw body>\`. Any Standard Webhooks library verifies it, e.g. npm \`standardwebhooks\`:

\`\`\`js
const { Webhook } = require('standardwebhooks');
const event = new Webhook(process.env.OFFEROPS_WEBHOOK_SECRET).verify(rawBody, req.headers); // throws if forged
\`\`\`

Verify the *raw* body (before any JSON parsing), refuse timestamps more than 5 minutes off, answer 2xx quickly; a 410 unsubscribes for good. Failed deliveries are retried for about 28 hours.

# Sandbox

A test key (\`oo_test_…\`) reaches the same routes as a live key but an isolated copy of the account's data: nothing created with one is visible to the other. Publications and replies made with a test key go through the sandbox connector, which records the messages and sends nothing. Test keys always expire.
`;

/** One line per tag, shown above its operations. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Account: 'The account and the key behind the credential.',
  Offers: 'Affiliate offers and their curation (pending, approved, rejected, archived); previews and publishing.',
  Groups: 'Chat groups offers are published to (their channel addresses are never disclosed).',
  Segments: 'Named sets of groups with a distribution rule (broadcast, round robin, least loaded).',
  Coupons: 'Coupon codes of stores and marketplaces.',
  Commissions: 'Commissions earned, and their summary.',
  Publications: 'What was published where: each publication and its deliveries per group.',
  Templates: 'Message layouts with placeholders, per format; defaults per segment or account.',
  Schedules: 'Publications at a time, once or on a recurrence, run by Temporal Schedules.',
  Monitors: 'Feeds watched for new offers, mapped and filtered into pending offers.',
  Store: 'The public storefront of the account: settings, collections and pages.',
  Journeys: 'Automations triggered by events: blocks, activation and executions.',
  Inbox: 'Contacts and conversations from the channels, and replies.',
  Analytics: 'Counts and series over publications, clicks and commissions.',
  Links: 'Tracked short links and their clicks.',
  Webhooks: 'Signed HTTPS deliveries of domain events, and their delivery history.',
};
