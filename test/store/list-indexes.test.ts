/**
 * Every list the API serves reads an index, for each documented filter: the
 * store's own list functions run against an empty database with the store's
 * indexes, their `find` and count commands are caught, and each is asked
 * again for its plan. On MongoDB: `explain` shows an index scan and no
 * collection scan. On the embedded FerretDB: the read is planned in SQL and
 * SQLite's plan searches an index (the comment `offerops:explain` returns it;
 * see tools/ferretdb/readpath.go), never scans the table.
 * Filters on array or dotted fields (a publication's group, a contact's tag
 * or channel, a monitor's marketplace, a commission's offer) are left out:
 * the embedded engine answers those without the planner.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Db, Document, MongoClient } from 'mongodb';
import { ensureIndexes, Page, Tenant, tenantCollection } from '../../domain/db';
import { listCommissions } from '../../domain/commissions/store';
import { listCoupons } from '../../domain/coupons/store';
import { listGroups } from '../../domain/groups/store';
import { listContacts, listConversations, listMessages } from '../../domain/inbox/store';
import { listJourneys } from '../../domain/journeys/store';
import { listMonitors } from '../../domain/monitors/store';
import { listOffers } from '../../domain/offers/store';
import { listPublications } from '../../domain/publications/store';
import { listSchedules } from '../../domain/schedules/store';
import { listSegments } from '../../domain/segments/store';
import { listCollections, publishedPages } from '../../domain/store/store';
import { listTemplates } from '../../domain/templates/store';
import { listWebhooks } from '../../domain/webhooks/store';
import { stackEnv } from '../helpers/stack';
import { waitFor } from '../helpers/wait';

let client: MongoClient;
let db: Db;
let embedded: boolean;
/** The read commands the store sent since the last look. */
let caught: Document[] = [];

const tenant: Tenant = { accountId: 'acc_lists', env: 'live' };
const page: Page = { limit: 20, offset: 0 };

before(async () => {
  client = await MongoClient.connect(stackEnv().mongodbUri, { monitorCommands: true });
  client.on('commandStarted', (e) => {
    if (e.commandName === 'find' || e.commandName === 'aggregate') caught.push(e.command);
  });
  db = client.db(`t_${randomBytes(6).toString('hex')}`);
  embedded = 'ferretdbVersion' in (await db.admin().command({ buildInfo: 1 }));
  await ensureIndexes(db);
});
after(async () => {
  await db.dropDatabase();
  await client.close();
});

/** The command as a client would send it again: without the driver's session and routing fields. */
const bare = (command: Document): Document =>
  Object.fromEntries(Object.entries(command).filter(([key]) => !key.startsWith('$') && key !== 'lsid' && key !== 'maxTimeMS'));

/** SQLite's plan of a read on the embedded engine; empty when the planner did not take it. */
async function planOf(command: Document): Promise<string[]> {
  const reply = await db.command({ ...bare(command), comment: 'offerops:explain' });
  return (reply.offeropsQueryPlan as string[] | undefined) ?? [];
}

/** Whether SQLite's plan searches an index and scans no table. */
const readsIndex = (plan: string[]): boolean =>
  plan.some((line) => /^SEARCH .* USING (COVERING )?INDEX/.test(line)) && !plan.some((line) => /^SCAN \S+$/.test(line));

/** Asserts the read reads an index, saying what it read. */
async function assertIndexed(what: string, command: Document): Promise<void> {
  if (embedded) {
    // The embedding's sweep makes a collection's twins and watches each in its own transaction, a moment apart: a
    // read may be planned in SQL before its index is there. Wait for the index, bounded; a failure shows the plan.
    let plan: string[] = [];
    await waitFor(
      `${what} planned in SQL on an index`,
      async () => {
        plan = await planOf(command);
        return readsIndex(plan) ? true : undefined;
      },
      30_000,
      () =>
        plan.length
          ? `SQLite's plan reads no index: ${plan.join(' | ')}`
          : `still answered by FerretDB itself: ${JSON.stringify(bare(command))}`,
    );
    return;
  }
  const explained = JSON.stringify(await db.command({ explain: bare(command), verbosity: 'queryPlanner' }));
  assert.ok(explained.includes('IXSCAN') && !explained.includes('COLLSCAN'), `${what}: MongoDB's plan: ${explained.slice(0, 600)}`);
}

const LISTS: [string, () => Promise<unknown>][] = [
  ['offers', () => listOffers(db, tenant, {}, page)],
  ['offers by status', () => listOffers(db, tenant, { status: 'pending' }, page)],
  ['offers by marketplace', () => listOffers(db, tenant, { marketplace: 'amazon' }, page)],
  ['offers by query', () => listOffers(db, tenant, { query: 'fryer' }, page)],
  ['publications', () => listPublications(db, tenant, {}, page)],
  ['publications by status', () => listPublications(db, tenant, { status: 'sent' }, page)],
  ['publications by offer', () => listPublications(db, tenant, { offer_id: 'off_1' }, page)],
  ['publications by segment', () => listPublications(db, tenant, { segment_id: 'seg_1' }, page)],
  ['publications by schedule', () => listPublications(db, tenant, { schedule_id: 'sch_1' }, page)],
  ['schedules', () => listSchedules(db, tenant, {}, page)],
  ['schedules by status', () => listSchedules(db, tenant, { status: 'active' }, page)],
  ['schedules by group', () => listSchedules(db, tenant, { group_id: 'grp_1' }, page)],
  ['schedules by offer', () => listSchedules(db, tenant, { offer_id: 'off_1' }, page)],
  ['commissions', () => listCommissions(db, tenant, {}, page)],
  ['commissions by status and dates', () => listCommissions(db, tenant, { status: 'approved', from: new Date(0), to: new Date() }, page)],
  ['commissions by currency', () => listCommissions(db, tenant, { currency: 'brl' }, page)],
  ['journeys', () => listJourneys(db, tenant, {}, page)],
  ['journeys by trigger', () => listJourneys(db, tenant, { active: true, trigger: 'message.received' }, page)],
  ['templates', () => listTemplates(db, tenant, {}, page)],
  ['templates by segment', () => listTemplates(db, tenant, { segment_id: 'seg_1', is_default: true }, page)],
  ['webhooks', () => listWebhooks(db, tenant, {}, page)],
  ['webhooks by state', () => listWebhooks(db, tenant, { state: 'enabled' }, page)],
  ['groups', () => listGroups(db, tenant, {}, page)],
  ['groups by segment', () => listGroups(db, tenant, { segment_id: 'seg_1', active: true }, page)],
  ['monitors', () => listMonitors(db, tenant, {}, page)],
  ['monitors by state', () => listMonitors(db, tenant, { state: 'active' }, page)],
  ['segments', () => listSegments(db, tenant, page)],
  ['conversations', () => listConversations(db, tenant, {}, page)],
  ['conversations by status', () => listConversations(db, tenant, { status: 'open', assignee: 'ana' }, page)],
  ['contacts', () => listContacts(db, tenant, {}, page)],
  ['contacts by stage and name', () => listContacts(db, tenant, { stage: 'engaged', query: 'ana' }, page)],
  ['messages of a conversation', () => listMessages(db, tenant, 'cnv_1', page)],
  ['coupons', () => listCoupons(db, tenant, { status: 'any', verification: 'any' }, page)],
  ['coupons active', () => listCoupons(db, tenant, { status: 'active', verification: 'verified' }, page)],
  ['coupons expired of a store', () => listCoupons(db, tenant, { status: 'expired', verification: 'any', store: 'Shop' }, page)],
  ['store pages published', () => publishedPages(db, tenant, 20)],
  ['store collections', () => listCollections(db, tenant, { published: true }, page)],
];

test('reads an index: documents by their ids', async () => {
  caught = [];
  await tenantCollection(db, 'offers', tenant).findByIds(['off_1', 'off_2', 'off_3']);
  assert.equal(caught.length, 1, 'one read');
  await assertIndexed('offers by ids', caught[0]!);
});

for (const [name, list] of LISTS) {
  test(`reads an index: ${name}`, async () => {
    caught = [];
    await list();
    const reads = [...caught]; // the plans asked below are read commands too
    assert.equal(reads.length, 2, `${name}: a page and its count (${reads.map((c) => Object.keys(c)[0]).join(', ')})`);
    for (const command of reads) await assertIndexed(`${name} (${Object.keys(command)[0]})`, command);
  });
}
