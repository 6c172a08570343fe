/**
 * Idempotency keys (Stripe's semantics) for every POST of the API: the first
 * answer to a key — status and body — is kept 24 hours per credential and
 * replayed for a repeat of the same request; a repeat with another request
 * (method, path or body) is refused, and so is a repeat while the first is
 * still running. Stored by a derived `_id` (credential + key), so every
 * look-up is by `_id` alone (the cheapest read on every engine).
 * Expired records are removed by the retention sweep.
 */
import { createHash } from 'node:crypto';
import { Db } from 'mongodb';
import { isDuplicateKey, platformCollection } from '../db';
import { derivedId } from '../ids';

/** How long an answer is kept for replay. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** The longest key accepted (longer: 400). */
export const IDEMPOTENCY_KEY_MAX = 255;
/**
 * A claim still running after this long is taken to be abandoned: its API
 * process died before answering, or the claim reached a stalled database
 * only after its request had been answered 503. A repeat may then run the
 * request again. Requests are answered within their 10 s deadline, and the
 * work of one answered 503 meanwhile ends within the database's and
 * Temporal's own time-outs, well inside this.
 */
export const IDEMPOTENCY_ABANDONED_MS = 60_000;

/** An answer as replayed: the status and the body without its request id. */
export interface StoredAnswer {
  status: number;
  body: Record<string, unknown>;
}

interface IdempotencyDoc {
  _id: string;
  credential_id: string;
  /** SHA-256 of the request (method, path, canonical body). */
  fingerprint: string;
  state: 'running' | 'done';
  answer: StoredAnswer | null;
  created_at: Date;
  expires_at: Date;
}

const records = (db: Db) => platformCollection<IdempotencyDoc>(db, 'idempotency_keys');

/** JSON with object keys sorted at every depth: the same body sent with its fields in another order is the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What makes two requests the same: method, path (with its ids) and body. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${path}\n${canonical(body ?? null)}`)
    .digest('hex');
}

export type Claim =
  /** This request runs; `complete` or `release` the claim when it has answered. */
  | { kind: 'claimed'; id: string; createdAt: Date }
  /** The key answered before: replay that answer. */
  | { kind: 'replay'; answer: StoredAnswer }
  /** The key was used for another request. */
  | { kind: 'mismatch' }
  /** The first request with this key has not answered yet. */
  | { kind: 'running' };

/** Claims `key` of `credentialId` for a request, or says why it may not run. */
export async function claimIdempotencyKey(db: Db, credentialId: string, key: string, fingerprint: string, now = new Date()): Promise<Claim> {
  const id = derivedId('idk', credentialId, key);
  const fresh: IdempotencyDoc = {
    _id: id,
    credential_id: credentialId,
    fingerprint,
    state: 'running',
    answer: null,
    created_at: now,
    expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await records(db).insertOne(fresh);
      return { kind: 'claimed', id, createdAt: now };
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const existing = await records(db).findOne({ _id: id });
    if (!existing) continue; // removed in between (expired, released): claim again
    const stale =
      existing.expires_at.getTime() <= now.getTime() ||
      (existing.state === 'running' && existing.created_at.getTime() <= now.getTime() - IDEMPOTENCY_ABANDONED_MS);
    if (stale) {
      // Take it over only if nobody else did since we read it (same created_at).
      const res = await records(db).replaceOne({ _id: id, created_at: existing.created_at }, fresh);
      if (res.matchedCount === 1) return { kind: 'claimed', id, createdAt: now };
      continue;
    }
    if (existing.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (existing.state === 'running' || !existing.answer) return { kind: 'running' };
    return { kind: 'replay', answer: existing.answer };
  }
  // Three races lost in a row: another request holds the key now.
  return { kind: 'running' };
}

/** Keeps the answer of a claimed request for replay. */
export async function completeIdempotencyKey(db: Db, claim: { id: string }, answer: StoredAnswer): Promise<void> {
  await records(db).updateOne({ _id: claim.id }, { $set: { state: 'done', answer } });
}

/** Gives a claim up without an answer (a server failure: a repeat may try again). */
export async function releaseIdempotencyKey(db: Db, claim: { id: string }): Promise<void> {
  await records(db).deleteOne({ _id: claim.id });
}

/** Removes records whose 24 hours are over (the retention sweep); how many. */
export async function sweepIdempotencyKeys(db: Db, now = new Date()): Promise<number> {
  return (await records(db).deleteMany({ expires_at: { $lt: now } })).deletedCount;
}
