/** The pure rules of link conversion and click classification. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classifyAgent, countryOf, isMachine, referrerHost } from '../../domain/links/agents';
import { batchDoc, CLICK_BATCH, clickAt, clickIdOf, clickIncrements, ClickDoc, hashIp } from '../../domain/links/clicks';
import { applyIntegration, isShortLink, marketplaceOfHost, otherCovers, stripTracking, targetFor } from '../../domain/marketplaces';

const headers =
  (h: Record<string, string> = {}) =>
  (name: string): string =>
    h[name] ?? '';

describe('marketplaceOfHost', () => {
  test('each marketplace, its country sites and short-link hosts', () => {
    const cases: [string, string | null][] = [
      ['www.amazon.com.br', 'amazon'],
      ['amazon.com', 'amazon'],
      ['smile.amazon.de', 'amazon'],
      ['amzn.to', 'amazon'],
      ['a.co', 'amazon'],
      ['produto.mercadolivre.com.br', 'mercadolivre'],
      ['www.mercadolibre.com.ar', 'mercadolivre'],
      ['shopee.com.br', 'shopee'],
      ['s.shopee.com.br', 'shopee'],
      ['shope.ee', 'shopee'],
      ['pt.aliexpress.com', 'aliexpress'],
      ['s.click.aliexpress.com', 'aliexpress'],
      ['www.magazineluiza.com.br', 'magalu'],
      ['www.magazinevoce.com.br', 'magalu'],
      ['divulgador.magalu.com', 'magalu'],
      ['amazon.com.br.evil.example', null],
      ['notamazon.com', null],
      ['www.kabum.com.br', null],
    ];
    for (const [host, want] of cases) assert.equal(marketplaceOfHost(host), want, host);
  });

  test('short links: the marketplaces’ hosts, Mercado Livre’s /sec/ paths, and hosts an operator adds', () => {
    assert.equal(isShortLink(new URL('https://amzn.to/3xYz')), true);
    assert.equal(isShortLink(new URL('https://mercadolivre.com/sec/1AbCd')), true);
    assert.equal(isShortLink(new URL('https://www.mercadolivre.com.br/sec/1AbCd')), false);
    assert.equal(isShortLink(new URL('https://www.amazon.com.br/dp/B0')), false);
    assert.equal(isShortLink(new URL('https://bit.ly/x')), false);
    assert.equal(isShortLink(new URL('https://bit.ly/x'), ['bit.ly']), true);
  });
});

describe('stripTracking', () => {
  test('amazon keeps search and variant parameters, drops tags, refs and the ref path segment', () => {
    const out = stripTracking(new URL('https://www.amazon.com.br/dp/B0X/ref=sr_1_1?tag=a-20&ascsubtag=z&th=1&pd_rd_w=q#x'), 'amazon');
    assert.equal(out.toString(), 'https://www.amazon.com.br/dp/B0X?th=1');
  });
  test('other: only tracking parameters go, the rest stay', () => {
    const out = stripTracking(new URL('https://www.kabum.com.br/busca?q=ssd&utm_source=a&fbclid=b&gclid=c&ref=d&page=2'), 'other');
    assert.equal(out.toString(), 'https://www.kabum.com.br/busca?q=ssd&page=2');
  });
  test('mercado livre: query and fragment go', () => {
    const out = stripTracking(new URL('https://produto.mercadolivre.com.br/MLB-1?matt_tool=1&c_id=2#reco=3'), 'mercadolivre');
    assert.equal(out.toString(), 'https://produto.mercadolivre.com.br/MLB-1');
  });
});

describe('applyIntegration', () => {
  const url = (s: string) => new URL(s);
  test('amazon: tag, and the sub id in ascsubtag (or the configured parameter)', () => {
    const a = applyIntegration(url('https://www.amazon.com.br/dp/B0X'), { marketplace: 'amazon', tag: 't-20' }, 's1');
    assert.equal(a.affiliateUrl, 'https://www.amazon.com.br/dp/B0X?tag=t-20&ascsubtag=s1');
    assert.equal(targetFor(a.target, 'clk_1'), 'https://www.amazon.com.br/dp/B0X?tag=t-20&ascsubtag=clk_1');
    const b = applyIntegration(url('https://www.amazon.com.br/dp/B0X'), { marketplace: 'amazon', tag: 't-20', sub_id_param: 'sid' }, null);
    assert.equal(b.affiliateUrl, 'https://www.amazon.com.br/dp/B0X?tag=t-20');
    assert.equal(targetFor(b.target, 'clk_2'), 'https://www.amazon.com.br/dp/B0X?tag=t-20&sid=clk_2');
  });
  test('shopee: its an_redir with the affiliate id and sub_id', () => {
    const a = applyIntegration(url('https://shopee.com.br/x-i.1.2'), { marketplace: 'shopee', affiliate_id: '99' }, null);
    assert.equal(
      targetFor(a.target, 'clk_3'),
      `https://s.shopee.com.br/an_redir?origin_link=${encodeURIComponent('https://shopee.com.br/x-i.1.2')}&affiliate_id=99&sub_id=clk_3`,
    );
  });
  test("magalu: a magazineluiza product, or another partner's store, under the account's store", () => {
    const cfg = { marketplace: 'magalu' as const, store: 'minhaloja' };
    assert.equal(
      applyIntegration(url('https://www.magazineluiza.com.br/tv-50/p/abc123/et/tv4k/'), cfg, null).affiliateUrl,
      'https://www.magazinevoce.com.br/minhaloja/tv-50/p/abc123/',
    );
    assert.equal(
      applyIntegration(url('https://www.magazinevoce.com.br/outraloja/tv-50/p/abc123/'), cfg, null).affiliateUrl,
      'https://www.magazinevoce.com.br/minhaloja/tv-50/p/abc123/',
    );
  });
  test('other: {url} encoded, {sub_id} filled (empty without one)', () => {
    const cfg = { marketplace: 'other' as const, template: 'https://n.example/r?u={url}&s={sub_id}', hosts: ['kabum.com.br'] };
    const a = applyIntegration(url('https://www.kabum.com.br/p/1'), cfg, null);
    assert.equal(a.affiliateUrl, `https://n.example/r?u=${encodeURIComponent('https://www.kabum.com.br/p/1')}&s=`);
    assert.equal(targetFor(a.target, 'clk_4'), `https://n.example/r?u=${encodeURIComponent('https://www.kabum.com.br/p/1')}&s=clk_4`);
    assert.equal(otherCovers(cfg, 'www.kabum.com.br'), true);
    assert.equal(otherCovers(cfg, 'kabum.com.br.evil.example'), false);
  });
});

describe('clicks', () => {
  test('user agents: people by device; previews, crawlers, empty agents and prefetches are machines', () => {
    const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
    assert.equal(classifyAgent(iphone, headers()), 'mobile');
    assert.equal(classifyAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0 Safari/537.36', headers()), 'desktop');
    for (const ua of [
      'WhatsApp/2.23.20.0 A',
      'facebookexternalhit/1.1',
      'TelegramBot (like TwitterBot)',
      'Slackbot-LinkExpanding 1.0',
      'Twitterbot/1.0',
    ])
      assert.equal(classifyAgent(ua, headers()), 'preview', ua);
    for (const ua of ['Mozilla/5.0 (compatible; Googlebot/2.1)', 'curl/8.0', 'python-requests/2.31', ''])
      assert.equal(classifyAgent(ua, headers()), 'bot', ua);
    assert.equal(classifyAgent(iphone, headers({ purpose: 'prefetch' })), 'prefetch');
    assert.equal(classifyAgent(iphone, headers({ 'sec-purpose': 'prefetch;prerender' })), 'prefetch');
    assert.equal(isMachine('preview'), true);
    assert.equal(isMachine('mobile'), false);
  });
  test('country from CF-IPCountry only when a real two-letter code; referrer host', () => {
    assert.equal(countryOf(headers({ 'cf-ipcountry': 'br' })), 'BR');
    assert.equal(countryOf(headers({ 'cf-ipcountry': 'XX' })), null);
    assert.equal(countryOf(headers()), null);
    assert.equal(referrerHost('https://Web.WhatsApp.com/x'), 'web.whatsapp.com');
    assert.equal(referrerHost('not a url'), null);
  });
  test('the IP hash is keyed: the same IP under another key differs, and the IP does not show', () => {
    const a = hashIp('203.0.113.9', Buffer.alloc(32, 1));
    assert.notEqual(a, hashIp('203.0.113.9', Buffer.alloc(32, 2)));
    assert.equal(a, hashIp('203.0.113.9', Buffer.alloc(32, 1)));
    assert.ok(!a.includes('203'));
  });
  test('counters: clicks or bot_clicks in each dimension the click knows', () => {
    const base = {
      _id: 'clk_1',
      account_id: 'acc_1',
      env: 'live',
      link_id: 'lnk_1',
      marketplace: 'amazon',
      ua_class: 'mobile',
      bot: false,
      at: new Date(),
    } as ClickDoc;
    assert.deepEqual(
      clickIncrements({ ...base, group_id: 'grp_1', element: 'hero' }).map((i) => `${i.dimension}:${i.key ?? ''}:${i.counter}`),
      ['totals::clicks', 'hours::clicks', 'sources:amazon:clicks', 'groups:grp_1:clicks', 'elements:hero:clicks'],
    );
    assert.ok(clickIncrements({ ...base, bot: true }).every((i) => i.counter === 'bot_clicks'));
  });
  test('a click id is its batch id and its index in 3 digits; a batch keeps its clicks as text columns and gives each back', () => {
    const batchId = 'clk_01hx00000000000000000000';
    assert.equal(clickIdOf(batchId, 0), `${batchId}000`);
    assert.equal(clickIdOf(batchId, CLICK_BATCH - 1).length, batchId.length + 3);
    assert.equal(new Set(Array.from({ length: CLICK_BATCH }, (_, i) => clickIdOf(batchId, i))).size, CLICK_BATCH);
    const at = new Date('2026-11-24T12:00:00Z');
    const later = new Date('2026-11-24T12:00:00.750Z');
    const clicks = [
      { link_id: 'lnk_b', ua_class: 'bot' as const, bot: true, at },
      { link_id: 'lnk_a', ua_class: 'mobile' as const, bot: false, element: 'hero', at: later },
      { link_id: 'lnk_b', ua_class: 'desktop' as const, bot: false, country: 'BR', at: later },
    ];
    const doc = batchDoc({ _id: batchId, account_id: 'acc_1', env: 'live' }, clicks);
    assert.deepEqual(doc, {
      _id: batchId,
      account_id: 'acc_1',
      env: 'live',
      count: 3,
      since: at,
      lines: {
        links: 'lnk_b\nlnk_a',
        link: '0\n1\n0',
        ua: 'bmd',
        bot: '100',
        at: '0\n750\n750',
        element: '\nhero\n',
        country: '\n\nBR',
      },
    });
    assert.deepEqual(
      clicks.map((_, i) => clickAt(doc, i)),
      clicks.map((c, i) => ({ _id: `${batchId}00${i}`, ...c })),
    );
  });

  test('a batch written with one array per field (before text columns) gives its clicks back', () => {
    const batchId = 'clk_01hx00000000000000000001';
    const at = new Date('2026-11-24T12:00:00Z');
    const doc = {
      _id: batchId,
      account_id: 'acc_1',
      env: 'live' as const,
      count: 2,
      clicks: {
        link_id: ['lnk_b', 'lnk_a'],
        ua_class: ['bot' as const, 'mobile' as const],
        bot: [true, false],
        at: [at, at],
        element: [null, 'hero'],
      },
    };
    assert.deepEqual(
      [clickAt(doc, 0), clickAt(doc, 1)],
      [
        { _id: `${batchId}000`, link_id: 'lnk_b', ua_class: 'bot', bot: true, at },
        { _id: `${batchId}001`, link_id: 'lnk_a', ua_class: 'mobile', bot: false, element: 'hero', at },
      ],
    );
  });
});
