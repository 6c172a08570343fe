/**
 * Following a short link to the page it stands for, under the webhook rules
 * (domain/webhooks/destinations.ts, through the monitors' check that also
 * admits plain http for an allow-listed host): every hop's host must resolve
 * to public addresses only unless allow-listed (OFFEROPS_WEBHOOK_ALLOW), the
 * connection goes to the checked addresses, at most MAX_REDIRECTS hops, a
 * HEAD first and a GET when the server refuses HEAD. Bodies are never read.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { invalid } from '../errors';
import { checkSourceUrl, SourceError } from '../webhooks/sources';
import { pinnedLookup } from '../webhooks/destinations';

export const MAX_REDIRECTS = 5;
const HOP_TIMEOUT_MS = 5_000;

/** The status and Location of one request to `url` from its checked addresses. */
async function hop(url: string, method: 'HEAD' | 'GET', allow: readonly string[]): Promise<{ status: number; location: string | null }> {
  const pinned = pinnedLookup(await checkSourceUrl(url, allow), allow);
  const request = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { 'user-agent': 'offerops-links/1', accept: '*/*' }, lookup: pinned, agent: false }, (res) => {
      res.destroy();
      const location = res.headers.location;
      resolve({ status: res.statusCode ?? 0, location: typeof location === 'string' ? location : null });
    });
    req.setTimeout(HOP_TIMEOUT_MS, () => req.destroy(new SourceError(`no answer within ${HOP_TIMEOUT_MS / 1000} s`, false)));
    req.on('error', reject);
    req.end();
  });
}

const unresolvable = (why: string) =>
  invalid('link_unresolvable', `The short link could not be followed: ${why}.`, [
    { location: 'body', field: 'url', rule: 'resolvable', message: why },
  ]);

/**
 * Follows `url`'s redirects while `more(next)` says the next URL is still a
 * short link; the first URL that is not (or that answers without a redirect).
 * A 400 `link_unresolvable` when a hop is refused, fails, or there are too many.
 */
export async function resolveShortLink(url: string, allow: readonly string[], more: (next: URL) => boolean): Promise<URL> {
  let current = url;
  for (let i = 0; i <= MAX_REDIRECTS; i++) {
    let answer: { status: number; location: string | null };
    try {
      answer = await hop(current, 'HEAD', allow);
      if (answer.status === 405 || answer.status === 501 || (answer.status >= 400 && !answer.location))
        answer = await hop(current, 'GET', allow);
    } catch (err) {
      if (err instanceof SourceError) throw unresolvable(err.message);
      const code = (err as { code?: unknown }).code;
      throw unresolvable(`the host could not be reached${typeof code === 'string' && /^[A-Z_]+$/.test(code) ? ` (${code})` : ''}`);
    }
    if (answer.status < 300 || answer.status >= 400 || !answer.location) {
      if (answer.status >= 400) throw unresolvable(`${new URL(current).host} answered ${answer.status}`);
      return new URL(current);
    }
    let next: URL;
    try {
      next = new URL(answer.location, current);
    } catch {
      throw unresolvable('a redirect pointed to no valid URL');
    }
    if (next.protocol !== 'https:' && next.protocol !== 'http:') throw unresolvable('a redirect left http(s)');
    if (!more(next)) return next;
    current = next.toString();
  }
  throw unresolvable(`more than ${MAX_REDIRECTS} redirects`);
}
