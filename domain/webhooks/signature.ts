/**
 * Standard Webhooks signatures, the one place offerops signs and checks them, with the
 * `standardwebhooks` package: `webhook-id` (the message id), `webhook-timestamp` (unix seconds),
 * `webhook-signature: v1,<base64 HMAC-SHA256>` over `<webhook-id>.<webhook-timestamp>.<body>`, keyed
 * with the base64 part of the secret after `whsec_`. A check refuses a timestamp more than 5 minutes
 * from now. The delivery signs; the contract-test run and the dev receiver check.
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

/** A type, not an interface, so that it passes as a `Record<string, string>` of headers. */
export type SignatureHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/** The headers that sign `body`, sent as message `id` at `at`, with `secret` (`whsec_…`). */
export function signatureHeaders(secret: string, id: string, at: Date, body: string): SignatureHeaders {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}

/** Whether `secret` is a signing secret the checks can use: `whsec_` and a base64 key. */
export function isSigningSecret(secret: string): boolean {
  if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)) return false;
  try {
    new Webhook(secret);
    return true;
  } catch {
    return false; // base64 of a wrong length
  }
}

export type Verdict = { verified: true } | { verified: false; reason: string };

/** The library's refusals, in the words a receiver's log shows. */
const REASONS: Record<string, string> = {
  'Missing required headers': 'webhook-id, webhook-timestamp and webhook-signature are required',
  'Invalid Signature Headers': 'webhook-timestamp is not unix seconds',
  'Message timestamp too old': 'webhook-timestamp is more than 5 minutes off',
  'Message timestamp too new': 'webhook-timestamp is more than 5 minutes off',
  'No matching signature found': 'no v1 signature matches the secret',
};

/** Checks a delivery as a receiver does: `headers` as received (names in any case), `body` as sent. */
export function verifySignature(secret: string, headers: Record<string, string | string[] | undefined>, body: string): Verdict {
  const given: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) given[name] = first;
  }
  try {
    new Webhook(secret).verify(body, given, { jsonParse: false });
    return { verified: true };
  } catch (err) {
    if (!(err instanceof WebhookVerificationError)) throw err;
    return { verified: false, reason: REASONS[err.message] ?? err.message };
  }
}
