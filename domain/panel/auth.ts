/**
 * Signing in to the developer panel: one-time links and sessions.
 *
 * A link (`admin panel-link`) carries a random token; only its SHA-256 is
 * stored (`panel_links`), valid 15 minutes and used at most once (the use
 * is one conditional write, so two clicks cannot both open a session). A
 * session (`panel_sessions`) is likewise stored by the hash of its cookie
 * value, expires after SESSION_MS, and carries the CSRF token its forms send.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Db } from 'mongodb';
import { platformCollection } from '../db';

export const LINK_MS = 15 * 60_000;
export const SESSION_MS = 8 * 3_600_000;

interface LinkDoc {
  _id: string;
  account_id: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export interface PanelSession {
  _id: string;
  account_id: string;
  csrf: string;
  created_at: Date;
  expires_at: Date;
}

const links = (db: Db) => platformCollection<LinkDoc>(db, 'panel_links');
const sessions = (db: Db) => platformCollection<PanelSession>(db, 'panel_sessions');

const digest = (token: string): string => createHash('sha256').update(token).digest('hex');
const token = (prefix: string): string => `${prefix}_${randomBytes(32).toString('base64url')}`;
const TOKEN_FORM = /^(opl|ops)_[A-Za-z0-9_-]{43}$/;

/** A new one-time sign-in token for `accountId` (shown once; stored as its hash). */
export async function createPanelLink(db: Db, accountId: string, now = new Date()): Promise<{ token: string; expires_at: Date }> {
  const secret = token('opl');
  const expires = new Date(now.getTime() + LINK_MS);
  await links(db).insertOne({ _id: digest(secret), account_id: accountId, created_at: now, expires_at: expires, used_at: null });
  return { token: secret, expires_at: expires };
}

export type LinkRefusal = 'invalid' | 'expired' | 'used';

/**
 * Uses a sign-in token: a new session for its account, or why not. Unknown
 * and malformed tokens are `invalid`; a token is used by its first attempt
 * even when that finds it expired.
 */
export async function signIn(
  db: Db,
  presented: string,
  now = new Date(),
): Promise<{ session: PanelSession; cookie: string } | { refused: LinkRefusal }> {
  if (!TOKEN_FORM.test(presented) || !presented.startsWith('opl_')) return { refused: 'invalid' };
  const link = await links(db).findOneAndUpdate(
    { _id: digest(presented), used_at: null },
    { $set: { used_at: now } },
    { returnDocument: 'before' },
  );
  if (!link) return { refused: (await links(db).findOne({ _id: digest(presented) })) ? 'used' : 'invalid' };
  if (link.expires_at.getTime() <= now.getTime()) return { refused: 'expired' };
  const cookie = token('ops');
  const session: PanelSession = {
    _id: digest(cookie),
    account_id: link.account_id,
    csrf: randomBytes(24).toString('base64url'),
    created_at: now,
    expires_at: new Date(now.getTime() + SESSION_MS),
  };
  await sessions(db).insertOne(session);
  return { session, cookie };
}

/** The live session of a cookie value, or null (unknown, malformed or expired). */
export async function sessionOf(db: Db, cookie: string | undefined, now = new Date()): Promise<PanelSession | null> {
  if (!cookie || !TOKEN_FORM.test(cookie) || !cookie.startsWith('ops_')) return null;
  const session = await sessions(db).findOne({ _id: digest(cookie) });
  return session && session.expires_at.getTime() > now.getTime() ? session : null;
}

export async function signOut(db: Db, session: PanelSession): Promise<void> {
  await sessions(db).deleteOne({ _id: session._id });
}

/** True when `presented` is the session's CSRF token (compared in constant time). */
export function csrfMatches(session: PanelSession, presented: unknown): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(session.csrf);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}
