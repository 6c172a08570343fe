import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

function base32(bytes: Uint8Array, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i]! & 31];
  return out;
}

/** Random bytes for ids, drawn from a buffer filled POOL_SIZE at a time: one system call per 128 ids, not one per id. */
const POOL_SIZE = 14 * 128;
let pool = Buffer.alloc(0);
let used = 0;

function randomChunk(n: number): Uint8Array {
  if (used + n > pool.length) {
    pool = randomBytes(POOL_SIZE);
    used = 0;
  }
  used += n;
  return pool.subarray(used - n, used);
}

/**
 * A prefixed, time-ordered id such as `off_01hx9…`: 10 characters of
 * millisecond time then 14 random ones (70 bits), so ids sort by creation.
 */
export function newId(prefix: string, now = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return `${prefix}_${time}${base32(randomChunk(14), 14)}`;
}

/**
 * A prefixed id derived from `parts` (24 characters of their SHA-256): the
 * same parts always give the same id, so a retried or repeated request finds
 * what its first try made. Not time-ordered.
 */
export function derivedId(prefix: string, ...parts: string[]): string {
  return `${prefix}_${base32(createHash('sha256').update(parts.join('\n')).digest(), 24)}`;
}

/** A random token of `length` characters from a 62-letter alphabet (≈5.95 bits each). */
export function randomToken(length: number): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += letters[b % 62]; // 248 = 4·62: no modulo bias
    }
  }
  return out;
}
