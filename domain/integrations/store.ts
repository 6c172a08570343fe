/**
 * An account's marketplace integrations: one per tenant (account and
 * environment: a test key converts with the test environment's identifiers)
 * and marketplace, `_id` derived from the three so every read is by `_id`
 * alone. The whole configuration is stored sealed (domain/sealing.ts): what
 * a listing shows is unsealed on the way out, without the secrets.
 */
import { Db } from 'mongodb';
import { crossTenantCollection, Tenant, tenantCollection, TenantDoc } from '../db';
import { derivedId } from '../ids';
import { IntegrationConfig, Marketplace, MARKETPLACES } from '../marketplaces';
import { seal, Sealed, unseal } from '../sealing';

export interface IntegrationDoc extends TenantDoc {
  marketplace: Marketplace;
  /** JSON of the IntegrationConfig, sealed. */
  sealed: Sealed;
  created_at: Date;
  updated_at: Date;
}

export interface Integration {
  id: string;
  marketplace: Marketplace;
  config: IntegrationConfig;
  created_at: Date;
  updated_at: Date;
}

export const integrationId = (tenant: Tenant, marketplace: Marketplace): string => derivedId('int', tenant.accountId, tenant.env, marketplace);

const coll = (db: Db, tenant: Tenant) => tenantCollection<IntegrationDoc>(db, 'integrations', tenant);

const open = (doc: IntegrationDoc, key: Buffer): Integration => ({
  id: doc._id,
  marketplace: doc.marketplace,
  // Sealed by putIntegration from an IntegrationConfig.
  config: JSON.parse(unseal(doc.sealed, key)) as IntegrationConfig,
  created_at: doc.created_at,
  updated_at: doc.updated_at,
});

/** Creates or replaces the tenant's integration for `config.marketplace`; `created` when there was none. */
export async function putIntegration(db: Db, tenant: Tenant, config: IntegrationConfig, key: Buffer): Promise<{ id: string; created: boolean }> {
  const id = integrationId(tenant, config.marketplace);
  const now = new Date();
  const before = await crossTenantCollection<IntegrationDoc>(db, 'integrations').findOneAndUpdate(
    { _id: id },
    {
      $set: { marketplace: config.marketplace, sealed: seal(JSON.stringify(config), key), updated_at: now },
      $setOnInsert: { account_id: tenant.accountId, env: tenant.env, created_at: now },
    },
    { upsert: true, returnDocument: 'before' },
  );
  return { id, created: before === null };
}

/** The tenant's integration for one marketplace, unsealed; null when it has none. */
export async function getIntegration(db: Db, tenant: Tenant, marketplace: Marketplace, key: Buffer): Promise<Integration | null> {
  const doc = await coll(db, tenant).findById(integrationId(tenant, marketplace));
  return doc ? open(doc, key) : null;
}

/** Every integration of the tenant (one read by `_id` per marketplace). */
export async function listIntegrations(db: Db, tenant: Tenant, key: Buffer): Promise<Integration[]> {
  const docs = await coll(db, tenant).findByIds(MARKETPLACES.map((m) => integrationId(tenant, m)));
  return docs.map((d) => open(d, key));
}

/** An integration by its id alone, whoever's it is (public endpoints named by it); the caller checks what it needs. */
export async function integrationById(db: Db, id: string, key: Buffer): Promise<(Integration & { tenant: Tenant }) | null> {
  const doc = await crossTenantCollection<IntegrationDoc>(db, 'integrations').findOne({ _id: id });
  return doc ? { ...open(doc, key), tenant: { accountId: doc.account_id, env: doc.env } } : null;
}

export async function deleteIntegration(db: Db, tenant: Tenant, marketplace: Marketplace): Promise<boolean> {
  return coll(db, tenant).deleteById(integrationId(tenant, marketplace));
}
