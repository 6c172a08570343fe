/**
 * Encryption of stored secrets (channel credentials, webhook signing
 * secrets): AES-256-GCM under the key in OFFEROPS_SECRET_KEY (32 bytes,
 * base64). `npm start` creates one in the data directory on first start.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** `v1.<iv>.<tag>.<ciphertext>`, each part base64url. */
export type Sealed = string;

export function secretKeyFromEnv(env: NodeJS.ProcessEnv = process.env): Buffer {
  const raw = env.OFFEROPS_SECRET_KEY;
  if (!raw) throw new Error('OFFEROPS_SECRET_KEY is not set (npm start sets it for you)');
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new Error('OFFEROPS_SECRET_KEY must be 32 bytes, base64-encoded');
  return key;
}

export const newSecretKey = (): string => randomBytes(32).toString('base64');

export function seal(plaintext: string, key: Buffer): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

export function unseal(sealed: Sealed, key: Buffer): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
