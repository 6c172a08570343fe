import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { crossTenantCollection, tenantCollection, TenantDoc } from '../../domain/db';
import { commitEvent } from '../../domain/events/commit';
import { prepareEvent, relayOutbox } from '../../domain/events/store';
import { newId } from '../../domain/ids';
import { seedTenant, startTestApp, TestApp } from '../helpers/stack';

describe('events outbox', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  it('a relay moves every event of the outbox to events once and leaves the outbox empty', async () => {
    const tenant = await seedTenant(app.db);
    const id = newId('tpl');
    const coll = tenantCollection<TenantDoc & { name: string }>(app.db, 'templates', tenant);
    const created = prepareEvent(tenant, 'template.deleted', { template_id: id });
    const changed = prepareEvent(tenant, 'template.deleted', { template_id: id });
    await coll.insert({ _id: id, name: 'Outbox' }, created);
    await coll.updateById(id, { $set: { name: 'Outbox 2' } }, {}, changed);

    const relayed = await relayOutbox(app.db, 'templates', id);
    assert.deepEqual(
      relayed.map((e) => e.id),
      [created.id, changed.id],
    );
    const doc = await crossTenantCollection(app.db, 'templates').findOne({ _id: id });
    assert.deepEqual(doc?._outbox, [], 'nothing left to relay');
    assert.deepEqual(await relayOutbox(app.db, 'templates', id), [], 'a second relay finds nothing');
    assert.equal(await crossTenantCollection(app.db, 'events').countDocuments({ _id: { $in: [created.id, changed.id] } }), 2);
  });

  it('an event its writer knows is relayed without a read of the outbox, marked dispatched when nothing awaits it', async () => {
    const tenant = await seedTenant(app.db);
    const id = newId('tpl');
    const coll = tenantCollection<TenantDoc & { name: string }>(app.db, 'templates', tenant);
    const event = prepareEvent(tenant, 'template.deleted', { template_id: id });
    await coll.insert({ _id: id, name: 'Known' }, event);
    const temporal = { client: null as never };
    await commitEvent({ db: app.db, temporal }, 'templates', id, event);
    const doc = await crossTenantCollection(app.db, 'templates').findOne({ _id: id });
    assert.deepEqual(doc?._outbox, []);
    const stored = await crossTenantCollection(app.db, 'events').findOne({ _id: event.id });
    assert.ok(stored?.dispatched_at instanceof Date, 'no webhook nor journey awaits it: dispatched');
    // Committed again (a retry): stored once, nothing else happens.
    await commitEvent({ db: app.db, temporal }, 'templates', id, event);
    assert.equal(await crossTenantCollection(app.db, 'events').countDocuments({ _id: event.id }), 1);
  });
});
