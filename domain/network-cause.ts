/**
 * Why an outbound request failed before any answer, in words a tenant reads
 * (a gateway, a webhook receiver, a feed, a journey's http block): refused,
 * timed out after N s, DNS, TLS, reset — with the stable error code, never
 * the error's own text, a host or an address.
 */

/** The system or undici code of `err` or of its causes (fetch wraps them as `TypeError: fetch failed`). */
function codeOf(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code)) return code;
  }
  return undefined;
}

const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

const WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'the connection was reset',
  UND_ERR_SOCKET: 'the connection closed before the answer',
  EPIPE: 'the connection closed while sending',
  EHOSTUNREACH: 'no route to the host',
  ENETUNREACH: 'no route to the network',
  ENOTFOUND: 'DNS: no such host',
  EAI_AGAIN: 'DNS: the name server did not answer',
  CERT_HAS_EXPIRED: 'TLS: the certificate has expired',
  CERT_NOT_YET_VALID: 'TLS: the certificate is not valid yet',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS: a self-signed certificate, not trusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS: a self-signed certificate in the chain, not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "TLS: the certificate's issuer is not trusted",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "TLS: the certificate's issuer is not trusted",
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS: the certificate does not name the host',
};

/** Whether `err` (or its cause) is a timeout: an abort by AbortSignal.timeout, or a timeout code. */
export function isTimeout(err: unknown): boolean {
  const name = (err as { name?: unknown })?.name;
  const code = codeOf(err);
  return name === 'TimeoutError' || (code !== undefined && TIMEOUT_CODES.has(code));
}

/** `err` in words: "connection refused (ECONNREFUSED)", "timed out after 10 s", "TLS: … (CODE)", or its code alone. */
export function networkCause(err: unknown, timeoutMs?: number): string {
  if (isTimeout(err)) return timeoutMs === undefined ? 'timed out' : `timed out after ${+(timeoutMs / 1000).toFixed(1)} s`;
  const code = codeOf(err);
  if (code === undefined) return 'no connection';
  const words = WORDS[code] ?? (/CERT|SSL|TLS/.test(code) ? 'TLS: the handshake failed' : undefined);
  return words ? `${words} (${code})` : code;
}
