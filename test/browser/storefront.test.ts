/**
 * The storefront in a real browser: Debian's Chromium, headless, driven by
 * playwright-core (`.ci/run` installs it when missing). Screenshots are kept
 * in test-output/browser/ at the repository root (OFFEROPS_TEST_OUTPUT
 * changes the folder) for a person to look at: the home at desktop and phone
 * sizes, a page, the 404.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Browser, Page } from 'playwright-core';
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

/** The offers' pictures, as a CDN would serve them (no request leaves the machine: the browser's route answers). */
const PICTURE = 'https://img.example/cafeteira.svg';
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" fill="#8d6e63"/><circle cx="50" cy="55" r="25" fill="#efebe9"/></svg>';

async function newPage(width: number, height: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height } });
  await page.route('https://img.example/**', (route) => route.fulfill({ status: 200, contentType: 'image/svg+xml', body: SVG }));
  return page;
}

async function seedStore(theme = 'dark'): Promise<string> {
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
        theme,
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
    image: PICTURE,
  });
  assert.equal(offer.status, 201, offer.text);
  // A second offer without a picture, with a coupon: a placeholder, and the coupon on the card.
  const second = await api.post('/offers', {
    url: 'https://shop.example/p/liquidificador',
    title: 'Liquidificador 900W',
    price: 89.9,
    coupon: 'COZINHA10',
  });
  assert.equal(second.status, 201, second.text);
  for (const o of [offer, second]) assert.equal((await api.patch(`/offers/${o.body.data.id}`, { status: 'approved' })).status, 200);
  await setCollection(app.db, t, { title: 'Cozinha', offer_ids: [offer.body.data.id, second.body.data.id] });
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
    const page = await newPage(1280, 900);
    try {
      const home = await page.goto(`${app.origin}/s/${sub}/`);
      assert.equal(home?.status(), 200);
      assert.equal(await page.title(), 'Achados da Ana: ofertas do dia');
      assert.equal(await page.locator('header a.home').innerText(), 'Achados da Ana');
      assert.equal(await page.locator('section.collection h2').innerText(), 'Cozinha');
      const card = page.locator('li.offer').first();
      const offer = card.locator('h3 a');
      assert.equal(await offer.innerText(), 'Cafeteira Expresso');
      assert.equal(await offer.getAttribute('href'), 'https://shop.example/p/cafeteira');
      assert.match(await card.locator('.price').innerText(), /R\$\s149,90/);
      // A card sells: its picture, the discount, the old price, a clear button to the offer.
      assert.equal(
        await card
          .locator('img')
          .evaluate((i) => (i as { complete: boolean; naturalWidth: number }).complete && (i as { naturalWidth: number }).naturalWidth > 0),
        true,
      );
      assert.equal(await card.locator('.badge').innerText(), '-25%');
      assert.match(await card.locator('.was').innerText(), /R\$\s199,90/);
      const cta = card.getByRole('link', { name: 'Ver oferta' });
      assert.equal(await cta.getAttribute('href'), 'https://shop.example/p/cafeteira');
      const other = page.locator('li.offer').nth(1);
      assert.equal(await other.locator('.noimg').innerText(), 'L');
      assert.equal(await other.locator('.coupon code').innerText(), 'COZINHA10');
      assert.equal(await other.locator('.badge').count(), 0);
      // The header band in the theme's colour, the collections one click away, a footer with the store's links.
      assert.equal(await page.evaluate('getComputedStyle(document.querySelector("header.band")).backgroundColor'), 'rgb(241, 196, 15)');
      assert.equal(await page.locator('header nav a', { hasText: 'Cozinha' }).getAttribute('href'), '#cozinha');
      assert.match(await page.locator('footer').innerText(), /Links de afiliado/);
      assert.equal(await page.locator('meta[property="og:image"]').getAttribute('content'), PICTURE);
      assert.equal(await page.locator('a.contact').innerText(), 'Entre no grupo');
      assert.equal(await page.locator('meta[property="og:title"]').getAttribute('content'), 'Achados da Ana: ofertas do dia');
      assert.equal(
        await page.locator('meta[property="og:description"]').getAttribute('content'),
        'As melhores ofertas, escolhidas todos os dias.',
      );
      // The dark theme's background.
      assert.equal(await page.evaluate('getComputedStyle(document.body).backgroundColor'), 'rgb(18, 18, 18)');
      await page.screenshot({ path: screenshotPath('storefront-home-desktop'), fullPage: true });

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

      // A missing page: the store's look, a way back, not indexed.
      const missing = await page.goto(`${app.origin}/s/${sub}/nao-existe`);
      assert.equal(missing?.status(), 404);
      assert.equal(await page.getByRole('link', { name: 'Voltar à loja' }).getAttribute('href'), `${app.origin}/s/${sub}/`);
      assert.match(await page.evaluate('getComputedStyle(document.body).fontFamily'), /system-ui/);
      assert.equal(await page.locator('meta[name="robots"]').getAttribute('content'), 'noindex');
      await page.screenshot({ path: screenshotPath('storefront-404'), fullPage: true });
    } finally {
      await page.close();
    }
  });

  test('on a phone: two cards a row, nothing wider than the screen; another theme looks otherwise', async () => {
    const sub = await seedStore('minimal');
    const page = await newPage(390, 844);
    try {
      assert.equal((await page.goto(`${app.origin}/s/${sub}/`))?.status(), 200);
      const [a, b] = await Promise.all([0, 1].map((i) => page.locator('li.offer').nth(i).boundingBox()));
      assert.equal(a!.y, b!.y, 'side by side');
      assert.ok(a!.width > 150 && a!.width < 195, `a card is half the screen (${a!.width})`);
      assert.ok((await page.evaluate<number>('document.documentElement.scrollWidth')) <= 390, 'no sideways scroll');
      // The minimal theme: a white band with a rule under it, outlined buttons.
      assert.equal(await page.evaluate('getComputedStyle(document.querySelector("header.band")).backgroundColor'), 'rgb(255, 255, 255)');
      assert.equal(await page.evaluate('getComputedStyle(document.querySelector("a.cta")).backgroundColor'), 'rgba(0, 0, 0, 0)');
      await page.screenshot({ path: screenshotPath('storefront-home-phone'), fullPage: true });
    } finally {
      await page.close();
    }
  });
});

describe('storefront composed at any number of offers', () => {
  const COUNTS = [1, 2, 3, 7];

  /** A magazine store (the theme with a lead card) with a collection of 1, 2, 3 and 7 offers, and two pages. */
  async function seedCounts(): Promise<string> {
    const t = await seedTenant(app.db);
    const api = new ApiClient(app.baseUrl, t.apiKey);
    const sub = `counts-${process.pid}-${Date.now().toString(36)}`;
    const store = { name: 'Achados da Bia', subdomain: sub, tagline: 'Poucas ou muitas, sempre boas', theme: 'magazine', active: true };
    assert.equal((await api.patch('/store', store)).status, 200);
    const ids: string[] = [];
    for (let i = 1; i <= 7; i++) {
      const made = await api.post('/offers', {
        url: `https://shop.example/p/oferta-${i}`,
        title: `Oferta número ${i} com um título de tamanho comum`,
        price: 50 + i,
        original_price: 80 + i,
        image: PICTURE,
        ...(i % 3 === 0 ? { coupon: `CUPOM${i}` } : {}),
      });
      assert.equal(made.status, 201, made.text);
      assert.equal((await api.patch(`/offers/${made.body.data.id}`, { status: 'approved' })).status, 200);
      ids.push(made.body.data.id);
    }
    for (const n of COUNTS) await setCollection(app.db, t, { title: `Com ${n}`, slug: `com-${n}`, offer_ids: ids.slice(0, n) });
    for (const title of ['Guia de compras', 'Como usar cupons'])
      assert.equal((await api.post('/store/pages', { title, summary: title, published: true, body: `# ${title}` })).status, 201);
    return sub;
  }

  /** Each collection's cards: their boxes, where their button is, and how far it sits below the price (or coupon). */
  const cardsOf = (page: Page, n: number) =>
    page.locator(`#com-${n} li.offer`).evaluateAll((cards) =>
      cards.map((card) => {
        const box = card.getBoundingClientRect();
        const above = [...card.querySelectorAll('.prices, .coupon')].map((e) => e.getBoundingClientRect().bottom);
        const cta = card.querySelector('.cta')!.getBoundingClientRect();
        return { x: box.x, y: box.y, width: box.width, height: box.height, cta: cta.top, band: cta.top - Math.max(...above) };
      }),
    );

  test('on a desktop: a lead card only with 5 offers or more, no band inside it, buttons in line, pages as links in a row', async () => {
    const sub = await seedCounts();
    const page = await newPage(1280, 900);
    try {
      assert.equal((await page.goto(`${app.origin}/s/${sub}/`))?.status(), 200);
      for (const n of [1, 2, 3]) {
        const cards = await cardsOf(page, n);
        assert.equal(cards.length, n);
        // Four to a row: each a quarter of the width, side by side, none spread over two columns.
        for (const c of cards) assert.ok(c.width > 240 && c.width < 290, `with ${n}: a card ${c.width} px wide`);
        assert.ok(
          cards.every((c) => c.y === cards[0]!.y),
          `with ${n}: one row`,
        );
        // The buttons of a row line up (a card with a coupon is taller, the others' buttons go down with it).
        assert.ok(
          cards.every((c) => c.cta === cards[0]!.cta),
          `with ${n}: buttons at ${cards.map((c) => c.cta).join(', ')}`,
        );
      }
      const seven = await cardsOf(page, 7);
      const [lead, ...rest] = seven;
      assert.ok(lead!.width > 2 * rest[0]!.width, `the lead is two columns wide (${lead!.width} against ${rest[0]!.width})`);
      assert.ok(lead!.band < 24, `the lead: ${lead!.band} px between its price and its button`);
      const pages = page.locator('nav.pages li');
      assert.equal(await pages.count(), 2);
      const [first, second] = await Promise.all([0, 1].map((i) => pages.nth(i).boundingBox()));
      assert.equal(first!.y, second!.y, 'the pages side by side');
      assert.equal(await page.evaluate('getComputedStyle(document.querySelector("nav.pages li")).listStyleType'), 'none');
      await page.screenshot({ path: screenshotPath('storefront-counts-desktop'), fullPage: true });
    } finally {
      await page.close();
    }
  });

  test('on a phone: two cards a row at every count, no lead, no wide band, nothing wider than the screen', async () => {
    const sub = await seedCounts();
    const page = await newPage(390, 844);
    try {
      assert.equal((await page.goto(`${app.origin}/s/${sub}/`))?.status(), 200);
      for (const n of COUNTS) {
        const cards = await cardsOf(page, n);
        for (const c of cards) assert.ok(c.width > 150 && c.width < 195, `with ${n}: a card ${c.width} px wide`);
        for (const c of cards) assert.ok(c.band < 40, `with ${n}: ${c.band} px between price and button`);
      }
      assert.ok((await page.evaluate<number>('document.documentElement.scrollWidth')) <= 390, 'no sideways scroll');
      await page.screenshot({ path: screenshotPath('storefront-counts-phone'), fullPage: true });
    } finally {
      await page.close();
    }
  });
});
