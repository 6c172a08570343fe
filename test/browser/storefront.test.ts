/**
 * The storefront in a real browser: Debian's Chromium, headless, driven by
 * playwright-core (`.ci/run` installs it when missing). Screenshots are kept
 * in test-output/browser/ at the repository root (OFFEROPS_TEST_OUTPUT
 * changes the folder) for a person to look at.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Browser } from 'playwright-core';
import { setCollection } from '../../domain/store/admin';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { ApiClient } from '../helpers/client';
import { seedTenant, startTestApp, TestApp } from '../helpers/stack';

let app: TestApp;
let browser: Browser;

before(async () => {
  app = await startTestApp();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await app?.close();
});

async function seedStore(): Promise<string> {
  const t = await seedTenant(app.db);
  const api = new ApiClient(app.baseUrl, t.apiKey);
  const sub = `browser-${process.pid}-${Date.now().toString(36)}`;
  assert.equal(
    (
      await api.patch('/store', {
        name: 'Achados da Ana',
        subdomain: sub,
        tagline: 'Ofertas escolhidas a dedo',
        seo_title: 'Achados da Ana: ofertas do dia',
        seo_description: 'As melhores ofertas, escolhidas todos os dias.',
        theme: 'dark',
        contact: { kind: 'whatsapp_group', url: 'https://chat.whatsapp.com/AbCdEfGh', label: 'Entre no grupo' },
        active: true,
      })
    ).status,
    200,
  );
  const offer = await api.post('/offers', {
    url: 'https://shop.example/p/cafeteira',
    title: 'Cafeteira Expresso',
    price: 149.9,
    original_price: 199.9,
  });
  assert.equal(offer.status, 201, offer.text);
  assert.equal((await api.patch(`/offers/${offer.body.data.id}`, { status: 'approved' })).status, 200);
  await setCollection(app.db, t, { title: 'Cozinha', offer_ids: [offer.body.data.id] });
  const page = await api.post('/store/pages', {
    title: 'Guia de compras',
    summary: 'Como comprar bem',
    published: true,
    body: [
      '# Como comprar bem',
      '',
      'Compare **preços** antes de comprar.',
      '',
      '<script>window.__pwned = 1; document.title = "pwned"</script>',
      '',
      '<img src="https://invalid.example/x.png" onerror="window.__pwned = 2">',
      '',
      '[clique aqui](javascript:window.__pwned=3) e [a loja parceira](https://shop.example/parceira)',
    ].join('\n'),
  });
  assert.equal(page.status, 201, page.text);
  return sub;
}

describe('storefront in Chromium', () => {
  test('a visitor sees the store home and a Markdown page; a hostile page does nothing', async () => {
    const sub = await seedStore();
    const page = await browser.newPage({ viewport: { width: 1024, height: 800 } });
    try {
      const home = await page.goto(`${app.origin}/s/${sub}/`);
      assert.equal(home?.status(), 200);
      assert.equal(await page.title(), 'Achados da Ana: ofertas do dia');
      assert.equal(await page.locator('header a.home').innerText(), 'Achados da Ana');
      assert.equal(await page.locator('section.collection h2').innerText(), 'Cozinha');
      const offer = page.locator('li.offer h3 a');
      assert.equal(await offer.innerText(), 'Cafeteira Expresso');
      assert.equal(await offer.getAttribute('href'), 'https://shop.example/p/cafeteira');
      assert.match(await page.locator('li.offer .price').innerText(), /R\$\s149,90/);
      assert.equal(await page.locator('a.contact').innerText(), 'Entre no grupo');
      assert.equal(await page.locator('meta[property="og:title"]').getAttribute('content'), 'Achados da Ana: ofertas do dia');
      assert.equal(
        await page.locator('meta[property="og:description"]').getAttribute('content'),
        'As melhores ofertas, escolhidas todos os dias.',
      );
      // The dark theme's background.
      assert.equal(await page.evaluate('getComputedStyle(document.body).backgroundColor'), 'rgb(18, 18, 18)');
      await page.screenshot({ path: screenshotPath('storefront-home'), fullPage: true });

      await page.locator('nav.pages a', { hasText: 'Guia de compras' }).click();
      await page.waitForURL(`${app.origin}/s/${sub}/guia-de-compras`);
      assert.equal(await page.title(), 'Guia de compras');
      assert.equal(await page.locator('article h1').nth(1).innerText(), 'Como comprar bem');
      assert.equal(await page.locator('article strong').innerText(), 'preços');
      assert.equal(await page.locator('link[rel="canonical"]').getAttribute('href'), `${app.origin}/s/${sub}/guia-de-compras`);
      assert.equal(await page.locator('meta[property="og:type"]').getAttribute('content'), 'article');
      assert.equal(await page.locator('a', { hasText: 'a loja parceira' }).getAttribute('href'), 'https://shop.example/parceira');
      // The javascript: link was dropped: its text stays, with no href.
      assert.equal(await page.locator('a', { hasText: 'clique aqui' }).count(), 0);
      assert.equal(await page.locator('script').count(), 0);
      assert.equal(await page.locator('[onerror]').count(), 0);
      assert.equal(await page.evaluate('window.__pwned'), undefined);
      await page.screenshot({ path: screenshotPath('storefront-page'), fullPage: true });
    } finally {
      await page.close();
    }
  });
});
