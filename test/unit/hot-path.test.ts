/** The click path's cheaper steps give what the plain ones gave: the redirect's encodings, the access-log lines, a batch's columns, the links kept in memory. */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import encodeUrl from 'encodeurl';
import escapeHtml from 'escape-html';
import pino from 'pino';
import { clickRedirect } from '../../api/links';
import { ClickFields, FillingColumns } from '../../domain/links/clicks';
import { CLICK_PLACEHOLDER, targetFor } from '../../domain/marketplaces';
import { lineWriter } from '../../domain/logger';
import { LinkDoc, linkReader } from '../../domain/links/store';
import { Db } from 'mongodb';

/** Koa's `ctx.redirect(url)`: Location and the body it writes. */
function koaRedirect(url: string, html: boolean): { location: string; body: string } {
  const normal = /^https?:\/\//i.test(url) ? new URL(url).toString() : url;
  return { location: encodeUrl(normal), body: `Redirecting to ${html ? escapeHtml(normal) : normal}.` };
}

test('a click redirect from the cached encodings of its link equals the one encoded whole, wherever the click id goes', () => {
  const targets = [
    `https://www.amazon.com.br/dp/B0X?tag=loja-20&ascsubtag=${CLICK_PLACEHOLDER}`,
    `https://Loja.Example/produto café/${CLICK_PLACEHOLDER}?q=a b&x="<y>"#frag`,
    `https://www.kabum.com.br/busca?q=ssd&sub=${CLICK_PLACEHOLDER}&o=1`,
    'https://www.magazinevoce.com.br/loja/p/123/',
    `/relative/${CLICK_PLACEHOLDER}?a=1&b=2`,
    // A target holding the slot's own text is encoded whole for each click.
    `https://x.example/clk_0slot0for0the0click0id0?s=${CLICK_PLACEHOLDER}`,
  ];
  for (const target of targets)
    for (const clickId of ['clk_01hx0000000000000000000000000', 'clk_zzzzzzzzzzzzzzzzzzzzzzzzv3v'])
      for (const html of [true, false]) {
        const want = koaRedirect(targetFor(target, clickId), html);
        assert.deepEqual(clickRedirect(target, clickId, html), want, `${target} ${clickId} ${html}`);
        assert.deepEqual(clickRedirect(target, clickId, html), want, 'the second time, from the cache');
      }
});

/** A pino logger writing its lines into `lines`, with the service logger's mixin and redaction and a fixed time. */
function capture(options: pino.LoggerOptions = {}): { logger: pino.Logger; lines: string[]; writes: () => number } {
  const lines: string[] = [];
  let writes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      writes++;
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const logger = pino(
    {
      name: 'offerops-api',
      timestamp: () => ',"time":1764201600000',
      mixin: () => ({}),
      redact: { paths: ['authorization', '*.authorization', 'secret', '*.secret'], censor: '[redacted]' },
      ...options,
    },
    sink,
  );
  return { logger, lines, writes: () => writes };
}

const records = [
  { request_id: 'req_1', method: 'GET', route: '/l/abcdefghjkmn', status: 302, duration_ms: 0.125 },
  { request_id: 'req_2', method: 'POST', route: '/offers', operation: 'createOffer', status: 201, duration_ms: 12, key_id: undefined },
  { request_id: 'req_3', status: 400, parser_error: null, duration_ms: 0, note: 'a "quoted"\nline é' },
  {},
];

test("lineWriter writes a batch as logger.info would write each line, in one write; nothing below the logger's level", async () => {
  const ours = capture();
  const pinos = capture();
  lineWriter(ours.logger, 'request')(records);
  for (const fields of records) pinos.logger.info(fields, 'request');
  await new Promise((r) => setImmediate(r));
  assert.equal(ours.writes(), 1);
  assert.equal(ours.lines.length, records.length);
  assert.deepEqual(ours.lines, pinos.lines);

  const quiet = capture({ level: 'warn' });
  lineWriter(quiet.logger, 'request')(records);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(quiet.lines, []);
});

test('lineWriter leaves a logger that shapes its lines (a log formatter) to logger.info', async () => {
  const shaped = capture({ formatters: { log: (o) => ({ ...o, shaped: true }) } });
  lineWriter(shaped.logger, 'request')(records.slice(0, 2));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(
    shaped.lines.map((l) => (JSON.parse(l) as { shaped?: boolean }).shaped),
    [true, true],
  );
});

test('columns filled click by click, past their first size, pack as text; an optional field joins with blank lines before it', () => {
  const at = new Date('2026-11-24T12:00:00Z');
  const columns = new FillingColumns();
  // 130 clicks: the typed arrays start at 64 and double twice.
  for (let i = 0; i < 130; i++) {
    const click: ClickFields = { ua_class: i % 2 ? 'desktop' : 'mobile', bot: i === 1, at: new Date(at.getTime() + i) };
    if (i >= 128) click.country = 'BR';
    columns.add(i < 100 ? 'lnk_a' : 'lnk_b', click);
  }
  const lines = columns.pack(at);
  assert.equal(columns.count, 130);
  assert.equal(lines.links, 'lnk_a\nlnk_b');
  assert.equal(lines.link, [...Array<string>(100).fill('0'), ...Array<string>(30).fill('1')].join('\n'));
  assert.equal(lines.ua, 'md'.repeat(65));
  assert.equal(lines.bot, `01${'0'.repeat(128)}`);
  assert.equal(lines.at, Array.from({ length: 130 }, (_, i) => i).join('\n'));
  assert.equal(lines.country, `${'\n'.repeat(128)}BR\nBR`);
  assert.equal(lines.page_id, undefined);
});

test('linkReader: one read per code however many clicks wait; an expired link answered at once while one read renews or drops it', async () => {
  // A stand-in for the driver's collection: each findOne waits until the test settles it.
  const reads: { id: string; settle: (doc: object | null | Error) => void }[] = [];
  const db = {
    collection: () => ({
      findOne: (filter: { _id: string }) =>
        new Promise((resolve, reject) => reads.push({ id: filter._id, settle: (doc) => (doc instanceof Error ? reject(doc) : resolve(doc)) })),
    }),
  } as unknown as Db;
  const link = { _id: 'lnk_abcdefghjkmn', code: 'abcdefghjkmn', target: 'https://x.example/' } as LinkDoc;
  const linkByCode = linkReader(db, 0);
  const first = linkByCode('abcdefghjkmn');
  const second = linkByCode('abcdefghjkmn');
  assert.ok(first instanceof Promise && second instanceof Promise);
  assert.equal(reads.length, 1, 'one read for both clicks');
  reads[0]!.settle(link);
  assert.deepEqual(await Promise.all([first, second]), [link, link]);

  // Expired at once (ttl 0): answered from memory, one renewal read for both clicks.
  assert.equal(linkByCode('abcdefghjkmn'), link);
  assert.equal(linkByCode('abcdefghjkmn'), link);
  assert.equal(reads.length, 2);
  reads[1]!.settle(new Error('database away'));
  await new Promise((r) => setImmediate(r));
  assert.equal(linkByCode('abcdefghjkmn'), link, 'a failed renewal keeps the link');
  assert.equal(reads.length, 3);
  reads[2]!.settle(null);
  await new Promise((r) => setImmediate(r));
  const gone = linkByCode('abcdefghjkmn');
  assert.ok(gone instanceof Promise, 'a removed link is read again');
  reads[3]!.settle(null);
  assert.equal(await gone, null);
});
