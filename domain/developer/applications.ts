/**
 * Applications (spec 5.6): registered on an account and environment with
 * allowed scopes, they exchange their client credentials for access tokens
 * (domain/developer/tokens.ts). The application's id (`app_…`) is its
 * `client_id`; the `client_secret` (`oo_cs_…`, 40 random characters) is
 * shown once and stored only as its SHA-256. Revoking an application makes
 * every token issued to it fail at once (the token check reads it).
 * Creation and revocation record `application.created` / `application.revoked`
 * in the document's outbox; the worker's outbox sweep relays them.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Db } from 'mongodb';
import { Scope, SCOPES } from '../../schemas/openapi/common';
import { crossTenantCollection, Environment, Tenant, TenantDoc, tenantCollection } from '../db';
import { invalid } from '../errors';
import { prepareEvent } from '../events/store';
import { newId, randomToken } from '../ids';

export interface ApplicationDoc extends TenantDoc {
  name: string;
  scopes: Scope[];
  /** SHA-256 (hex) of the client secret. */
  secret_hash: string;
  created_at: Date;
  revoked_at: Date | null;
}

/** What operators and the panel see of an application: never its secret or hash. */
export interface ApplicationSummary {
  id: string;
  client_id: string;
  name: string;
  env: Environment;
  scopes: Scope[];
  state: 'active' | 'revoked';
  created_at: string;
  revoked_at: string | null;
}

export const APPLICATION_NAME_MAX = 100;
const SECRET_FORM = /^oo_cs_[A-Za-z0-9]{40}$/;

const sha256 = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();
const applications = (db: Db, tenant: Tenant) => tenantCollection<ApplicationDoc>(db, 'applications', tenant);

export function applicationSummary(app: ApplicationDoc): ApplicationSummary {
  return {
    id: app._id,
    client_id: app._id,
    name: app.name,
    env: app.env,
    scopes: app.scopes,
    state: app.revoked_at ? 'revoked' : 'active',
    created_at: app.created_at.toISOString(),
    revoked_at: app.revoked_at ? app.revoked_at.toISOString() : null,
  };
}

/** What the events carry: the summary (no secret). */
const eventData = (app: ApplicationDoc) => ({ application: applicationSummary(app) });

/**
 * Registers an application of `tenant` with `scopes` (at least one, each a
 * scope of the contract); its client secret is returned here only.
 * 400 `validation_failed` for a bad name or scope.
 */
export async function createApplication(
  db: Db,
  tenant: Tenant,
  input: { name: string; scopes: readonly string[] },
  now = new Date(),
): Promise<{ application: ApplicationSummary; clientSecret: string }> {
  const name = input.name.trim();
  if (!name || name.length > APPLICATION_NAME_MAX) {
    throw invalid('validation_failed', `An application name is 1 to ${APPLICATION_NAME_MAX} characters.`, [
      { location: 'body', field: 'name', rule: 'maxLength', message: `must be 1 to ${APPLICATION_NAME_MAX} characters` },
    ]);
  }
  const unknown = input.scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length || input.scopes.length === 0) {
    const message = unknown.length ? `unknown scopes: ${unknown.join(', ')}` : 'at least one scope is needed';
    throw invalid('validation_failed', `An application's scopes are scopes of the API: ${message}.`, [
      { location: 'body', field: 'scopes', rule: 'enum', message },
    ]);
  }
  const clientSecret = `oo_cs_${randomToken(40)}`;
  const doc = {
    _id: newId('app', now.getTime()),
    name,
    scopes: [...new Set(input.scopes)] as Scope[],
    secret_hash: sha256(clientSecret).toString('hex'),
    created_at: now,
    revoked_at: null,
  };
  const full = { ...doc, account_id: tenant.accountId, env: tenant.env };
  const stored = await applications(db, tenant).insert(doc, prepareEvent(tenant, 'application.created', eventData(full), now));
  return { application: applicationSummary(stored), clientSecret };
}

/** The applications of an account (of one environment, or both), oldest first. */
export async function listApplications(db: Db, accountId: string, env?: Environment): Promise<ApplicationSummary[]> {
  const envs: Environment[] = env ? [env] : ['live', 'test'];
  const lists = await Promise.all(envs.map((e) => applications(db, { accountId, env: e }).all({})));
  return lists
    .flat()
    .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || (a._id < b._id ? -1 : 1))
    .map(applicationSummary);
}

/** The account and environment an application belongs to (for operators, who name it by id alone); null when there is none. */
export async function applicationOwner(db: Db, id: string): Promise<Tenant | null> {
  const app = await crossTenantCollection<ApplicationDoc>(db, 'applications').findOne({ _id: id });
  return app && app._deleted !== true ? { accountId: app.account_id, env: app.env } : null;
}

/**
 * Revokes the application `id` of `tenant`: every token issued to it fails
 * from now on. False when the tenant has no such application; revoking twice
 * keeps the first time (and records one event).
 */
export async function revokeApplication(db: Db, tenant: Tenant, id: string, now = new Date()): Promise<boolean> {
  const coll = applications(db, tenant);
  const app = await coll.findById(id);
  if (!app) return false;
  if (app.revoked_at) return true;
  const event = prepareEvent(tenant, 'application.revoked', eventData({ ...app, revoked_at: now }), now);
  // Only if still active: of two revocations at once, one records the event.
  await coll.updateById(id, { $set: { revoked_at: now } }, { revoked_at: null }, event);
  return true;
}

/**
 * The application whose client credentials these are, when they are right
 * and it is not revoked; null otherwise (unknown client, wrong secret,
 * revoked: the caller cannot tell which). Read by `_id`; the secret compared
 * in constant time.
 */
export async function authenticateClient(db: Db, clientId: string, clientSecret: string): Promise<ApplicationDoc | null> {
  if (!/^app_[0-9a-z]{24}$/.test(clientId) || !SECRET_FORM.test(clientSecret)) return null;
  const app = await crossTenantCollection<ApplicationDoc>(db, 'applications').findOne({ _id: clientId });
  if (!app || app._deleted === true || app.revoked_at) return null;
  return timingSafeEqual(Buffer.from(app.secret_hash, 'hex'), sha256(clientSecret)) ? app : null;
}

/** An application by id, across tenants (the token check, which starts from the token's application id). */
export const applicationById = (db: Db, id: string): Promise<ApplicationDoc | null> =>
  crossTenantCollection<ApplicationDoc>(db, 'applications').findOne({ _id: id });
