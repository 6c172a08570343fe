/**
 * Publishing and preview with an integration: each group receives its own
 * tracked link (so its clicks name the publication and the group), the
 * preview shows the affiliate URL, `{raw_url}` keeps the offer's own URL,
 * and an offer of a marketplace without integration goes as it is.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createGroup } from '../../domain/groups/store';
import { putIntegration } from '../../domain/integrations/store';
import { clickById } from '../../domain/links/clicks';
import { secretKeyFromEnv } from '../../domain/sealing';
import { ApiClient } from '../helpers/client';
import { seedTenant, startTestApp, TestApp } from '../helpers/stack';
import { startTestWorker } from '../helpers/worker';
import { waitFor } from '../helpers/wait';
import { clicksState, publicationState } from '../helpers/states';

const taskQueue = `test-links-publish-${randomBytes(4).toString('hex')}`;
let app: TestApp;
let worker: { stop(): Promise<void> };

before(async () => {
  app = await startTestApp({ taskQueue, clickFlushMs: 50, publicUrl: 'https://go.example.com' });
  worker = await startTestWorker(app, taskQueue);
});
after(async () => {
  await worker.stop();
  await app.close();
});

async function setup(url: string) {
  const tenant = await seedTenant(app.db, { env: 'test' });
  await putIntegration(app.db, { accountId: tenant.accountId, env: 'test' }, { marketplace: 'amazon', tag: 'grupo-20' }, secretKeyFromEnv());
  const api = new ApiClient(app.baseUrl, tenant.apiKey);
  const offer = (await api.post('/offers', { url, title: 'Cafeteira', price: 199.9 })).body.data;
  const segment = (await api.post('/segments', { name: `Cozinha ${randomBytes(3).toString('hex')}` })).body.data;
  const groups = [];
  for (const name of ['A', 'B']) groups.push(await createGroup(app.db, tenant, { name: `Group ${name}`, segment_id: segment.id }));
  return { tenant, api, offer, segment, groups };
}

const finished = (api: ApiClient, id: string) =>
  waitFor(
    `publication ${id} to finish`,
    async () => {
      const p = (await api.get(`/publications/${id}`)).body.data;
      return p.completed_at && p.status !== 'sending' ? p : undefined;
    },
    30_000,
    () => publicationState(api, id, app.temporal.client),
  );

describe('publishing with an integration', () => {
  test('each group gets its own tracked link; a click names the publication, group, segment and offer', async () => {
    const { tenant, api, offer, segment, groups } = await setup('https://www.amazon.com.br/dp/B0PUBLISH1?tag=someone-20');
    const res = await api.post(`/offers/${offer.id}/publish`, { segment_id: segment.id });
    assert.equal(res.status, 200, res.text);
    const pub = res.body.data.publications[0];
    await finished(api, pub.id);
    const sent = await app.db
      .collection('sandbox_messages')
      .find({ _id: { $regex: `^${pub.id}:` } } as object)
      .toArray();
    assert.equal(sent.length, 2);
    const codes = sent.map((m) => /https:\/\/go\.example\.com\/l\/([a-z2-9]{12})/.exec(String(m.text))?.[1]);
    assert.ok(codes[0] && codes[1] && codes[0] !== codes[1], JSON.stringify(sent.map((m) => m.text)));
    assert.ok(sent.every((m) => !String(m.text).includes('someone-20')));
    const links = await app.db
      .collection('links')
      .find({ _id: { $in: codes.map((c) => `lnk_${c}`) } } as object)
      .toArray();
    assert.deepEqual(links.map((l) => l.group_id).sort(), groups.map((g) => g._id).sort());
    assert.ok(links.every((l) => l.publication_id === pub.id && l.offer_id === offer.id && l.segment_id === segment.id));
    assert.ok(links.every((l) => l.affiliate_url === 'https://www.amazon.com.br/dp/B0PUBLISH1?tag=grupo-20'));

    const reply = await fetch(`${app.origin}/l/${codes[0]}`, {
      redirect: 'manual',
      headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Mobile' },
    });
    assert.equal(reply.status, 302);
    const clickId = /ascsubtag=(clk_[0-9a-z]+)$/.exec(reply.headers.get('location')!)![1]!;
    const click = await waitFor(
      'the click',
      async () => (await clickById(app.db, tenant, clickId)) ?? undefined,
      30_000,
      () => clicksState(app.db, tenant, [clickId]),
    );
    const link = links.find((l) => l.code === codes[0])!;
    assert.equal(click.publication_id, pub.id);
    assert.equal(click.group_id, link.group_id);
    assert.equal(click.segment_id, segment.id);
    assert.equal(click.offer_id, offer.id);
  });

  test('the preview shows the affiliate URL; {raw_url} gives the offer URL as given', async () => {
    const { api, offer } = await setup('https://www.amazon.com.br/dp/B0PREVIEW1?utm_source=x');
    const preview = await api.post(`/offers/${offer.id}/preview`, {});
    assert.equal(preview.status, 200, preview.text);
    assert.ok(preview.body.data.text.includes('https://www.amazon.com.br/dp/B0PREVIEW1?tag=grupo-20'), preview.body.data.text);
    const template = await api.post('/templates', { name: 'Raw', body: '{title} {raw_url}', format: 'plain' });
    assert.equal(template.status, 201, template.text);
    const raw = await api.post(`/offers/${offer.id}/preview`, { template_id: template.body.data.id });
    assert.equal(raw.body.data.text, 'Cafeteira https://www.amazon.com.br/dp/B0PREVIEW1?utm_source=x');
  });

  test('an offer of a marketplace without integration is sent as it is, with no link', async () => {
    const { api, offer, groups } = await setup('https://shop.example/p/1');
    const res = await api.post(`/offers/${offer.id}/publish`, { group_id: groups[0]!._id });
    const pub = res.body.data.publications[0];
    await finished(api, pub.id);
    const sent = await app.db.collection('sandbox_messages').findOne({ _id: `${pub.id}:${groups[0]!._id}` } as object);
    assert.ok(String(sent?.text).includes('https://shop.example/p/1'));
    assert.equal(await app.db.collection('links').countDocuments({ publication_id: pub.id }), 0);
  });
});
