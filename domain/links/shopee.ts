/**
 * Shopee's affiliate open API (GraphQL `generateShortLink`), for accounts
 * whose Shopee integration has API credentials. The endpoint is an operator
 * setting (OFFEROPS_SHOPEE_API_URL; tests point it at a fake server), not a
 * user's URL, so it is called as configured. Request signature as Shopee
 * documents it: `Authorization: SHA256 Credential=<app id>,
 * Timestamp=<unix s>, Signature=<hex sha256(app id + timestamp + body + secret)>`.
 */
import { createHash } from 'node:crypto';
import { DomainError } from '../errors';

export const SHOPEE_API_URL = 'https://open-api.affiliate.shopee.com.br/graphql';
const TIMEOUT_MS = 10_000;

export const shopeeSignature = (appId: string, timestamp: number, payload: string, secret: string): string =>
  createHash('sha256').update(`${appId}${timestamp}${payload}${secret}`).digest('hex');

const unavailable = (why: string) => new DomainError('service_unavailable', `Shopee's affiliate API did not make the short link: ${why}.`);

/** A Shopee short link (`https://s.shopee.com.br/…`) for `originUrl`, carrying `subIds`. */
export async function shopeeShortLink(
  apiUrl: string,
  credentials: { appId: string; secret: string },
  originUrl: string,
  subIds: string[],
): Promise<string> {
  const payload = JSON.stringify({
    query: `mutation{generateShortLink(input:{originUrl:${JSON.stringify(originUrl)},subIds:${JSON.stringify(subIds)}}){shortLink}}`,
  });
  const timestamp = Math.floor(Date.now() / 1000);
  let body: { data?: { generateShortLink?: { shortLink?: unknown } }; errors?: { message?: unknown }[] };
  try {
    const res = await fetch(apiUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `SHA256 Credential=${credentials.appId}, Timestamp=${timestamp}, Signature=${shopeeSignature(credentials.appId, timestamp, payload, credentials.secret)}`,
      },
      body: payload,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!res.ok) throw unavailable(`it answered ${res.status}`);
    body = (await res.json()) as typeof body;
  } catch (err) {
    if (err instanceof DomainError) throw err;
    throw unavailable('no answer');
  }
  const link = body.data?.generateShortLink?.shortLink;
  if (typeof link === 'string' && /^https:\/\//.test(link)) return link;
  const message = body.errors?.[0]?.message;
  throw unavailable(typeof message === 'string' ? message.slice(0, 200) : 'no short link in its answer');
}
