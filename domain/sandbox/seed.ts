/**
 * The sample data every account's test environment starts with, made through
 * the same domain functions as real data (a channel and a group through the
 * operator functions, the rest through the API's services), so what a client
 * author tests against is what the API itself would have written.
 *
 * Seeding is idempotent: an account is seeded once (`sandbox_seeds` keeps
 * what was made, keyed by the account); `resetSandbox` removes that record
 * with the rest of the test environment and seeds again.
 */
import { Db } from 'mongodb';
import { AccountDoc, createAccount, Plan } from '../accounts/store';
import { isDuplicateKey, platformCollection, Tenant } from '../db';
import { connectChannel } from '../channels/service';
import { createOperatorGroup } from '../operator/groups';
import { createCoupon } from '../coupons/service';
import { createOffer } from '../offers/service';
import { queuePublication } from '../publications/queue';
import { DomainDeps } from '../resource';
import { createSegment } from '../segments/service';
import { createTemplate } from '../templates/service';

/** What the seed is made of: the values client authors can rely on (docs/guides/sandbox.md). */
export const SANDBOX_SEED = {
  channel: { type: 'sandbox', name: 'Sandbox channel' },
  segment: { name: 'Sample segment', slug: 'sample-segment', description: 'Seeded sample data of the test environment' },
  group: { name: 'Sample group', address: 'sample-group@sandbox' },
  coupon: {
    code: 'SAMPLE10',
    store: 'Sample store',
    description: '10% off the sample store (sample)',
    discount: { type: 'percent', value: 10 },
    currency: 'BRL',
    first_purchase_only: false,
    verified: true,
  },
  offer: {
    url: 'https://shop.example/sandbox/air-fryer',
    title: 'Air Fryer 4L (sample)',
    price: 299.9,
    original_price: 499.9,
    currency: 'BRL',
    store: 'Sample store',
    category: 'kitchen',
  },
  template: { name: 'Sample template', body: '*{title}*\n{url}', format: 'plain', is_default: true },
  /** The publication is queued with this Idempotency-Key: its id is derived from it (the same after every reset). */
  publicationKey: 'sandbox-seed',
} as const;

/** The ids of one seeding of the test environment. */
export interface SandboxSeed {
  channel_id: string;
  segment_id: string;
  group_id: string;
  /** Absent from seeds made before the seed had a coupon. */
  coupon_id?: string;
  offer_id: string;
  template_id: string;
  publication_id: string;
}

interface SeedDoc {
  _id: string;
  state: 'seeding' | 'seeded';
  seed: SandboxSeed | null;
  seeded_at: Date | null;
}

const seeds = (db: Db) => platformCollection<SeedDoc>(db, 'sandbox_seeds');

/** The test environment of `accountId`. */
export const sandboxTenant = (accountId: string): Tenant => ({ accountId, env: 'test' });

/** What the last seeding made, or null when the account was never seeded (or a seeding is under way). */
export async function sandboxSeedOf(db: Db, accountId: string): Promise<SandboxSeed | null> {
  return (await seeds(db).findOne({ _id: accountId }))?.seed ?? null;
}

/** Forgets the seeding of `accountId` (a reset, before seeding again). */
export async function forgetSeed(db: Db, accountId: string): Promise<void> {
  await seeds(db).deleteOne({ _id: accountId });
}

const noSecret = (): Buffer => {
  throw new Error('the sandbox channel has no token to seal');
};

async function makeSeed(deps: DomainDeps, tenant: Tenant): Promise<SandboxSeed> {
  const s = SANDBOX_SEED;
  const { channel } = await connectChannel(deps.db, tenant, { type: s.channel.type, name: s.channel.name }, noSecret);
  const segment = await createSegment(deps, tenant, { ...s.segment });
  const group = await createOperatorGroup(deps.db, tenant, {
    name: s.group.name,
    segment_id: segment._id,
    channel: { id: channel._id, address: s.group.address },
  });
  const coupon = await createCoupon(deps, tenant, { ...s.coupon, discount: { ...s.coupon.discount } });
  const { offer } = await createOffer(deps, tenant, { ...s.offer, coupon_id: coupon._id });
  const template = await createTemplate(deps, tenant, { ...s.template, segment_id: segment._id });
  // Seeded right after the test environment was emptied: no integration, so no tracked link to unseal one for. Its
  // bookkeeping is awaited (no afterAnswer): the seed is complete, counted and relayed when it is answered.
  const { publication } = await queuePublication({ db: deps.db, temporal: deps.temporal, secretKey: null }, tenant, {
    offer_id: offer._id,
    text: null,
    template_id: template._id,
    group_id: group._id,
    segment_id: null,
    with_image: false,
    schedule_id: null,
    idempotency_key: s.publicationKey,
  });
  return {
    channel_id: channel._id,
    segment_id: segment._id,
    group_id: group._id,
    coupon_id: coupon._id,
    offer_id: offer._id,
    template_id: template._id,
    publication_id: publication._id,
  };
}

/**
 * Seeds the test environment of `accountId` unless it was seeded already:
 * the seed, and whether it was made now. A seeding that died half-way is
 * not repeated (its record says `seeding`); a reset repairs it.
 */
export async function seedSandbox(deps: DomainDeps, accountId: string): Promise<{ seed: SandboxSeed | null; created: boolean }> {
  try {
    await seeds(deps.db).insertOne({ _id: accountId, state: 'seeding', seed: null, seeded_at: null });
  } catch (err) {
    if (isDuplicateKey(err)) return { seed: await sandboxSeedOf(deps.db, accountId), created: false };
    throw err;
  }
  const seed = await makeSeed(deps, sandboxTenant(accountId));
  await seeds(deps.db).updateOne({ _id: accountId }, { $set: { state: 'seeded', seed, seeded_at: new Date() } });
  return { seed, created: true };
}

/**
 * A new account with its test environment seeded: how every account starts
 * (`admin account create`, the demo account of `npm start`), so a first test
 * key finds the documented sample data.
 */
export async function createSeededAccount(
  deps: DomainDeps,
  input: { name: string; plan?: Plan },
): Promise<{ account: AccountDoc; seed: SandboxSeed | null }> {
  const account = await createAccount(deps.db, input);
  const { seed } = await seedSandbox(deps, account._id);
  return { account, seed };
}
