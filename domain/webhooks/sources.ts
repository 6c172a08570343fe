/**
 * A source URL read from outside (a monitor's feed, a short link to resolve),
 * checked by the webhook rules of ./destinations.ts, and the error it fails with.
 */
import { checkDestination, DestinationError, ResolvedAddress } from './destinations';

/** Why a source could not be read. `permanent`: retrying the same fetch cannot help (refused, not a feed, too large, 4xx). */
export class SourceError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/**
 * Checks a source URL by the webhook rules (HTTPS; plain http only to an
 * allow-listed host; every address public unless allow-listed): the
 * addresses to connect to. Throws a permanent SourceError when refused.
 */
export async function checkSourceUrl(url: string, allow: readonly string[]): Promise<ResolvedAddress[]> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SourceError('the URL is not valid', true);
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new SourceError('only http(s) sources are read', true);
  if (parsed.protocol === 'http:' && !allow.includes(host)) {
    throw new SourceError('plain http is accepted only for hosts on the allow-list (OFFEROPS_WEBHOOK_ALLOW); use https', true);
  }
  parsed.protocol = 'https:';
  try {
    return await checkDestination(parsed.toString(), allow);
  } catch (err) {
    if (err instanceof DestinationError) throw new SourceError(err.message, true);
    throw err;
  }
}
