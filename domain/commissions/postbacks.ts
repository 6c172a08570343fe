/**
 * Postback endpoints: `POST /postbacks/{integration_id}`, one per account,
 * environment and marketplace, each with its own secret. An operator creates
 * (or rotates) the secret (`offerops admin postback secret`); it is shown
 * once and stored sealed (the server needs it to compute HMACs). A network
 * proves a postback by either
 * - `X-Offerops-Signature: sha256=<hex HMAC-SHA256 of the raw body, keyed by the secret>`, or
 * - `?token=<the secret>` for networks that can only call a fixed URL.
 * The endpoint id is derived from (account, env, marketplace): rotating a
 * secret keeps the URL.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { Db } from 'mongodb';
import { Environment, platformCollection, Tenant } from '../db';
import { derivedId, randomToken } from '../ids';
import { seal, Sealed, unseal } from '../sealing';

export interface PostbackEndpointDoc {
  _id: string;
  account_id: string;
  env: Environment;
  marketplace: string;
  secret: Sealed;
  created_at: Date;
}

const endpoints = (db: Db) => platformCollection<PostbackEndpointDoc>(db, 'postback_endpoints');

export const postbackEndpointId = (tenant: Tenant, marketplace: string): string => derivedId('pbk', tenant.accountId, tenant.env, marketplace);

/** Creates the marketplace's endpoint, or gives it a new secret; the secret is returned here once. */
export async function createPostbackSecret(
  db: Db,
  tenant: Tenant,
  marketplace: string,
  key: Buffer,
): Promise<{ integration_id: string; secret: string }> {
  const id = postbackEndpointId(tenant, marketplace);
  const secret = `oo_pb_${randomToken(40)}`;
  await endpoints(db).updateOne(
    { _id: id },
    { $set: { account_id: tenant.accountId, env: tenant.env, marketplace, secret: seal(secret, key), created_at: new Date() } },
    { upsert: true },
  );
  return { integration_id: id, secret };
}

const sha256 = (s: string | Buffer): Buffer => createHash('sha256').update(s).digest();

/** Equal in constant time (both sides hashed first, so lengths never differ). */
const same = (a: string | Buffer, b: string | Buffer): boolean => timingSafeEqual(sha256(a), sha256(b));

/**
 * The endpoint `id` when the request proves its secret (signature or
 * token); null for an unknown endpoint or a bad proof, alike. `reason` says
 * which, for the log (never the secret).
 */
export async function verifyPostback(
  db: Db,
  id: string,
  raw: Buffer,
  proof: { signature: string | null; token: string | null },
  key: Buffer,
): Promise<{ endpoint: PostbackEndpointDoc } | { reason: string }> {
  if (!proof.signature && !proof.token) return { reason: 'no signature or token' };
  const endpoint = await endpoints(db).findOne({ _id: id });
  if (!endpoint) return { reason: 'unknown endpoint' };
  const secret = unseal(endpoint.secret, key);
  if (proof.signature) {
    const hex = /^sha256=([0-9a-f]{64})$/i.exec(proof.signature)?.[1];
    if (!hex) return { reason: 'malformed signature' };
    const expected = createHmac('sha256', secret).update(raw).digest();
    return timingSafeEqual(expected, Buffer.from(hex, 'hex')) ? { endpoint } : { reason: 'bad signature' };
  }
  return same(proof.token!, secret) ? { endpoint } : { reason: 'bad token' };
}
