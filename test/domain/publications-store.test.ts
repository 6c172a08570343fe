import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tenantCollection, Tenant } from '../../domain/db';
import { prepareEvent } from '../../domain/events/store';
import { queuedRecord } from '../../domain/publications/queue';
import {
  claimSentBatch,
  DeliveryDoc,
  deliveriesOfPublication,
  deliveriesWithSent,
  forgetInFlight,
  getPublication,
  inFlightPublication,
  insertPublication,
  markDeliveriesSent,
  markSending,
  noteInFlight,
  PublicationDoc,
  queuedDeliveries,
  setPublicationStatus,
} from '../../domain/publications/store';
import { queuedPublicationDoc } from '../helpers/publications';
import { seedTenant, startTestApp, TestApp } from '../helpers/stack';

describe('publications store', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  const queuedEvent = (tenant: Tenant, doc: PublicationDoc) => prepareEvent(tenant, 'publication.queued', { publication: queuedRecord(doc) });

  it('a repeated insert after a crash writes the deliveries the first one left out, each once', async () => {
    const tenant = await seedTenant(app.db);
    const doc = queuedPublicationDoc(tenant, ['grp_0000000a', 'grp_0000000b', 'grp_0000000c', 'grp_0000000d']);
    // The first request died after writing two of the deliveries.
    await tenantCollection<DeliveryDoc>(app.db, 'deliveries', tenant).insertMany(queuedDeliveries(doc).slice(1, 3));
    await insertPublication(app.db, tenant, doc, queuedEvent(tenant, doc));
    const stored = await deliveriesOfPublication(app.db, tenant, doc);
    assert.deepEqual(
      stored.map((d) => d.group_id),
      ['grp_0000000a', 'grp_0000000b', 'grp_0000000c', 'grp_0000000d'],
    );
    assert.equal(await app.db.collection('deliveries').countDocuments({ publication_id: doc._id }), 4);
    assert.ok(await getPublication(app.db, tenant, doc._id));
  });

  it('sends recorded in batches: written by id, each batch claimed once, the others read back', async () => {
    const tenant = await seedTenant(app.db);
    const doc = queuedPublicationDoc(tenant, ['grp_0000000a', 'grp_0000000b', 'grp_0000000c']);
    await insertPublication(app.db, tenant, doc, queuedEvent(tenant, doc));
    const sent = [
      { group_id: 'grp_0000000a', with_image: false, sent_at: '2026-11-24T09:00:00.000Z', attempts: 1 },
      { group_id: 'grp_0000000c', with_image: true, sent_at: '2026-11-24T09:00:01.000Z', attempts: 2 },
    ];
    await markDeliveriesSent(app.db, tenant, doc, sent);
    assert.equal(await claimSentBatch(app.db, tenant, doc, 0), true);
    assert.equal(await claimSentBatch(app.db, tenant, doc, 0), false, 'a repeated recording of batch 0 counts nothing');
    assert.equal(await claimSentBatch(app.db, tenant, doc, 1), true);

    const stored = await deliveriesOfPublication(app.db, tenant, doc);
    assert.deepEqual(
      stored.map((d) => [d.group_id, d.status, d.attempts, d.with_image, d.sent_at?.toISOString() ?? null]),
      [
        ['grp_0000000a', 'sent', 1, false, '2026-11-24T09:00:00.000Z'],
        ['grp_0000000b', 'queued', 0, false, null],
        ['grp_0000000c', 'sent', 2, true, '2026-11-24T09:00:01.000Z'],
      ],
    );
    // What complete builds from the sends it was told of equals what a read gives.
    assert.deepEqual(await deliveriesWithSent(app.db, tenant, doc, sent), stored);
  });

  it("a fan-out's sends recorded at once: 250 deliveries written in one call, every one sent", { timeout: 120_000 }, async () => {
    // The embedded FerretDB never answered an update command of 100 statements or more (a hung publication); the
    // writes go in smaller bulk writes. On that database this test hangs (and times out) if they did not.
    const tenant = await seedTenant(app.db);
    const groups = Array.from({ length: 250 }, (_, i) => `grp_${String(i).padStart(8, '0')}`);
    const doc = queuedPublicationDoc(tenant, groups);
    await insertPublication(app.db, tenant, doc, queuedEvent(tenant, doc));
    const sent = groups.map((group_id, i) => ({
      group_id,
      with_image: false,
      sent_at: new Date(Date.UTC(2026, 10, 24, 9, 0, i % 60)).toISOString(),
      attempts: 1,
    }));
    await markDeliveriesSent(app.db, tenant, doc, sent);
    const stored = await deliveriesOfPublication(app.db, tenant, doc);
    assert.equal(stored.length, 250);
    assert.deepEqual(
      stored.filter((d) => d.status !== 'sent').map((d) => d.group_id),
      [],
    );
  });

  it('a publication in flight is found by its content and destination until it ends, or a later one takes its place', async () => {
    const tenant = await seedTenant(app.db);
    const key = (d: PublicationDoc) => ({ offer_id: d.offer_id, group_id: d.group_id, segment_id: d.segment_id, schedule_id: d.schedule_id });
    const first = { ...queuedPublicationDoc(tenant, ['grp_0000000a']), offer_id: 'off_0000000a', group_id: 'grp_0000000a' };
    await insertPublication(app.db, tenant, first, queuedEvent(tenant, first));
    assert.equal(await inFlightPublication(app.db, tenant, key(first)), null, 'not noted yet');
    await noteInFlight(app.db, tenant, first);
    assert.equal((await inFlightPublication(app.db, tenant, key(first)))?._id, first._id);
    assert.equal(await inFlightPublication(app.db, tenant, { ...key(first), group_id: 'grp_0000000b' }), null, 'another destination');
    const stranger = await seedTenant(app.db);
    assert.equal(await inFlightPublication(app.db, stranger, key(first)), null, "another tenant's");

    const sending = await setPublicationStatus(app.db, tenant, first, 'sending');
    assert.equal(sending?.before.status, 'queued');
    assert.equal((await inFlightPublication(app.db, tenant, key(first)))?.status, 'sending');
    const done = await setPublicationStatus(app.db, tenant, sending.after, 'sent');
    assert.equal(done?.before.completed_at, null, 'this write completed it');
    assert.equal(await inFlightPublication(app.db, tenant, key(first)), null, 'ended');
    const again = await setPublicationStatus(app.db, tenant, done.after, 'sent');
    assert.ok(again?.before.completed_at, 'a repeated completion sees the first one');

    // A later publication of the same takes the note: forgetting the first leaves it.
    const second = { ...queuedPublicationDoc(tenant, ['grp_0000000a']), offer_id: 'off_0000000a', group_id: 'grp_0000000a' };
    await insertPublication(app.db, tenant, second, queuedEvent(tenant, second));
    await noteInFlight(app.db, tenant, second);
    await forgetInFlight(app.db, tenant, first);
    assert.equal((await inFlightPublication(app.db, tenant, key(first)))?._id, second._id);
    await forgetInFlight(app.db, tenant, second);
    assert.equal(await inFlightPublication(app.db, tenant, key(first)), null);
  });

  it('markSending moves a queued publication to sending; landing after its completion, it leaves the completed state', async () => {
    const tenant = await seedTenant(app.db);
    const doc = queuedPublicationDoc(tenant, ['grp_0000000a']);
    const queued = await insertPublication(app.db, tenant, doc, queuedEvent(tenant, doc));
    await markSending(app.db, tenant, queued);
    assert.equal((await getPublication(app.db, tenant, doc._id))?.status, 'sending');

    const late = queuedPublicationDoc(tenant, ['grp_0000000b']);
    const stale = await insertPublication(app.db, tenant, late, queuedEvent(tenant, late));
    const completed = await setPublicationStatus(app.db, tenant, stale, 'sent');
    await markSending(app.db, tenant, stale);
    const now = await getPublication(app.db, tenant, late._id);
    assert.equal(now?.status, 'sent');
    assert.deepEqual(now?.completed_at, completed!.after.completed_at);
    assert.deepEqual(now?.updated_at, completed!.after.updated_at);
  });
});
