/**
 * The API reference at /docs in a real browser (Debian's Chromium, headless,
 * driven by playwright-core): Redoc, served by the API process, renders the
 * served document; every operation's summary is on the page, alternatives
 * carry titles, and nothing is requested from anywhere but the API itself.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Browser } from 'playwright-core';
import { openapiDocument } from '../../schemas/openapi/index';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { startTestApp, TestApp } from '../helpers/stack';

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

test('/docs renders the reference: every operation, the guide sections, no outside request', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const res = await page.goto(`${app.origin}/docs`);
  assert.equal(res?.status(), 200);
  await page.locator('h1', { hasText: 'offerops Operations API' }).waitFor({ timeout: 60_000 });
  const text = await page.locator('body').innerText();
  const summaries = Object.values(openapiDocument.paths as Record<string, Record<string, { summary: string }>>).flatMap((item) =>
    Object.values(item).map((op) => op.summary),
  );
  assert.equal(summaries.length, 73);
  const missing = summaries.filter((s) => !text.includes(s));
  assert.deepEqual(missing, []);
  for (const heading of ['Authentication', 'Errors', 'Rate limit', 'Pagination', 'Webhook verification', 'Sandbox']) {
    assert.ok(text.includes(heading), `section ${heading}`);
  }
  // Each alternative of a body is named for what it is, not "object".
  for (const title of ['with group_id', 'with segment_id', 'with offer_id']) assert.ok(text.includes(title), `alternative ${title}`);
  const broken = await page.$$eval('img', (imgs) => imgs.filter((i) => i.complete && i.naturalWidth === 0).map((i) => i.alt));
  assert.deepEqual(broken, [], 'no broken image');
  await page.screenshot({ path: screenshotPath('docs') });
  assert.deepEqual(
    requested.filter((u) => !u.startsWith(app.origin) && !u.startsWith('blob:') && !u.startsWith('data:')),
    [],
  );
  assert.deepEqual(errors, []);
  await page.close();
});
