/**
 * A redirect's clicks move the analytics counters once per flush, however
 * many batches filled in between: a bucket upsert costs the embedded
 * FerretDB the same whatever it adds, and at tens of thousands of clicks a
 * second a process fills a 5,000-click batch several times a second.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Db, MongoClient } from 'mongodb';
import { bucketId, readBuckets } from '../../domain/analytics/buckets';
import { Tenant } from '../../domain/db';
import { createLogger } from '../../domain/logger';
import { CLICK_BATCH, ClickBuffer } from '../../domain/links/clicks';
import { LinkDoc } from '../../domain/links/store';
import { stackEnv } from '../helpers/stack';

let client: MongoClient;
let db: Db;
/** Update commands sent to the buckets, per tenant (the account id in the statements' `_id`). */
const bucketUpdates = new Map<string, number>();

before(async () => {
  client = await MongoClient.connect(stackEnv().mongodbUri, { monitorCommands: true });
  client.on('commandStarted', (e) => {
    const cmd = e.command as { update?: string; updates?: { q: { _id?: string } }[] };
    if (e.commandName !== 'update' || cmd.update !== 'analytics_buckets') return;
    const account = String(cmd.updates?.[0]?.q._id ?? '').split(':')[0]!;
    bucketUpdates.set(account, (bucketUpdates.get(account) ?? 0) + 1);
  });
  db = client.db(`t_${randomBytes(6).toString('hex')}`);
});
after(async () => {
  await db.dropDatabase();
  await client.close();
});

const linkOf = (tenant: Tenant): LinkDoc =>
  ({
    _id: `lnk_${randomBytes(6).toString('hex')}`,
    account_id: tenant.accountId,
    env: tenant.env,
    code: randomBytes(4).toString('hex'),
    marketplace: 'amazon',
    target: 'https://www.amazon.com.br/dp/B0TEST0001?tag=test-20',
    offer_id: 'off_1',
    publication_id: null,
    group_id: null,
    segment_id: null,
  }) as unknown as LinkDoc;

/** Adds `count` people's clicks at `at` through a new link of `tenant`, flushes, and returns the day's total. */
async function clicks(tenant: Tenant, count: number, at: Date): Promise<number> {
  // No flush by time during the test: only full batches are written until close().
  const buffer = new ClickBuffer(db, createLogger('test', 'silent'), 600_000);
  const link = linkOf(tenant);
  for (let i = 0; i < count; i++) buffer.add(link, { ua_class: 'mobile', bot: false, at });
  await buffer.close();
  const totals = await db.collection<{ _id: string; c: { clicks?: number } }>('analytics_buckets').findOne({
    _id: bucketId(tenant, at.toISOString().slice(0, 10), 'totals'),
  });
  return totals?.c.clicks ?? 0;
}

test('three full batches move the buckets with as many commands as one click, and count every click once', async () => {
  const at = new Date(Date.UTC(2026, 10, 20, 12, 0, 0));
  const one: Tenant = { accountId: `acc_one${randomBytes(3).toString('hex')}`, env: 'live' };
  const many: Tenant = { accountId: `acc_many${randomBytes(3).toString('hex')}`, env: 'live' };

  assert.equal(await clicks(one, 1, at), 1);
  assert.equal(await clicks(many, 3 * CLICK_BATCH, at), 3 * CLICK_BATCH);

  assert.ok(bucketUpdates.get(one.accountId)! > 0);
  assert.equal(bucketUpdates.get(many.accountId), bucketUpdates.get(one.accountId));
  assert.equal(await db.collection('clicks').countDocuments({ account_id: many.accountId }), 3);
});

test('counters of batches merged for a flush add up per link, hour and kind of visitor', async () => {
  const tenant: Tenant = { accountId: `acc_mix${randomBytes(3).toString('hex')}`, env: 'live' };
  const [a, b] = [linkOf(tenant), { ...linkOf(tenant), offer_id: 'off_2' } as LinkDoc];
  const noon = new Date(Date.UTC(2026, 10, 21, 12, 0, 0));
  const later = new Date(Date.UTC(2026, 10, 21, 13, 5, 0));
  const expected = new Map<string, number>();
  const tally = (key: string) => expected.set(key, (expected.get(key) ?? 0) + 1);
  const buffer = new ClickBuffer(db, createLogger('test', 'silent'), 600_000);
  // Two full batches and part of a third: both links, people and machines, two hours, in every batch.
  for (let i = 0; i < 2 * CLICK_BATCH + 10; i++) {
    const link = i % 2 ? a : b;
    const bot = i % 5 === 0;
    const at = i % 3 ? noon : later;
    const counter = bot ? 'bot_clicks' : 'clicks';
    buffer.add(link, { ua_class: bot ? 'bot' : 'mobile', bot, at });
    for (const key of [`totals ${counter}`, `offers ${link.offer_id} ${counter}`, `hours ${at.getUTCHours()} ${counter}`]) tally(key);
  }
  await buffer.close();
  const day = '2026-11-21';
  const read = async (dimension: 'totals' | 'offers' | 'hours') => (await readBuckets(db, tenant, dimension, [day]))[0]!.c;
  const totals = await read('totals');
  const offers = (await read('offers')) as Record<string, Record<string, number>>;
  const hours = (await read('hours')) as Record<string, Record<string, number>>;
  for (const [key, n] of expected) {
    const [dimension, k, counter] = key.split(' ') as [string, string, string?];
    if (dimension === 'totals') assert.equal(totals[k], n, key);
    else if (dimension === 'offers') assert.equal(offers[k]?.[counter!], n, key);
    else assert.equal(hours[k]?.[counter!], n, key);
  }
});
