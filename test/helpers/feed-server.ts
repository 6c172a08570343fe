/**
 * Product feeds as networks serve them, from a real HTTP server on
 * 127.0.0.1: each path answers what the test put there (a body with its
 * content type, a status, or a response that starts and then stalls), and
 * the builders write the same items as Google Merchant RSS or Atom, CSV,
 * JSON lines, a JSON array or a search API answer.
 */
import { once } from 'node:events';
import { createServer, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { listener } from './listener';

export interface FeedItem {
  title: string;
  url: string;
  price?: number;
  original_price?: number;
  image?: string;
  brand?: string;
  category?: string;
  commission_pct?: number;
}

type Route = { status: number; type: string; body: string } | { stall: true };

export interface FeedServer {
  origin: string;
  /** `path` answers `body` with `type` (status 200 unless told). */
  serve(path: string, type: string, body: string, status?: number): string;
  /** `path` answers 200 with a first line, then sends nothing more. */
  stall(path: string): string;
  /** How many requests each path got. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startFeedServer(): Promise<FeedServer> {
  const routes = new Map<string, Route>();
  const hits = new Map<string, number>();
  const open = new Set<ServerResponse>();
  const server = createServer(
    listener(async (req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const route = routes.get(path);
      if (!route) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('no such feed');
        return;
      }
      if ('stall' in route) {
        open.add(res);
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.write('{"title": "first item", "url": "https://s.example/stall/1"}\n');
        return;
      }
      res.writeHead(route.status, { 'content-type': route.type });
      res.end(route.body);
      await Promise.resolve();
    }),
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    hits,
    serve(path, type, body, status = 200) {
      routes.set(path, { status, type, body });
      return origin + path;
    },
    stall(path) {
      routes.set(path, { stall: true });
      return origin + path;
    },
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const xml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const money = (n: number | undefined): string => (n === undefined ? '' : `${n.toFixed(2)} BRL`);

/** Google Merchant RSS 2.0: `price` is the original price when a `sale_price` is given. */
export function merchantRss(items: FeedItem[]): string {
  const entries = items.map((i) => {
    const priced =
      i.original_price !== undefined
        ? `<g:price>${money(i.original_price)}</g:price><g:sale_price>${money(i.price)}</g:sale_price>`
        : i.price !== undefined
          ? `<g:price>${money(i.price)}</g:price>`
          : '';
    return (
      `<item><title><![CDATA[${i.title}]]></title><link>${xml(i.url)}</link>${priced}` +
      (i.image ? `<g:image_link>${xml(i.image)}</g:image_link>` : '') +
      (i.brand ? `<g:brand>${xml(i.brand)}</g:brand>` : '') +
      (i.category ? `<g:product_type>${xml(i.category)}</g:product_type>` : '') +
      `</item>`
    );
  });
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel>` +
    `<title>Feed</title><link>https://shop.example</link>${entries.join('\n')}</channel></rss>`
  );
}

/** Google Merchant Atom 1.0. */
export function merchantAtom(items: FeedItem[]): string {
  const entries = items.map(
    (i) =>
      `<entry><title>${xml(i.title)}</title><link rel="alternate" href="${xml(i.url)}"/>` +
      (i.price !== undefined ? `<g:price>${money(i.price)}</g:price>` : '') +
      (i.brand ? `<g:brand>${xml(i.brand)}</g:brand>` : '') +
      `</entry>`,
  );
  return `<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xmlns:g="http://base.google.com/ns/1.0"><title>F</title>${entries.join('')}</feed>`;
}

const csvCell = (v: string | number | undefined): string => (v === undefined ? '' : `"${String(v).replace(/"/g, '""')}"`);

/** CSV with a header row, columns named as the defaults read them. */
export function csvFeed(items: FeedItem[]): string {
  const cols = ['title', 'url', 'price', 'original_price', 'image', 'brand', 'category', 'commission_pct'] as const;
  return [cols.join(','), ...items.map((i) => cols.map((c) => csvCell(i[c])).join(','))].join('\r\n') + '\r\n';
}

export const jsonLines = (items: FeedItem[]): string => items.map((i) => JSON.stringify(i)).join('\n') + '\n';
export const jsonArray = (items: FeedItem[]): string => JSON.stringify(items, null, 1);

/** A marketplace search answer: `{data: {results: [{name, link: {href}, pricing: {now, was}}]}}`. */
export function searchAnswer(items: FeedItem[]): string {
  const results = items.map((i) => ({
    name: i.title,
    link: { href: i.url },
    pricing: { now: i.price, was: i.original_price },
    seller: i.brand,
  }));
  return JSON.stringify({ data: { total: results.length, results } });
}
export const SEARCH_MAPPING = {
  items: 'data.results',
  title: 'name',
  url: 'link.href',
  price: 'pricing.now',
  original_price: 'pricing.was',
  store: 'seller',
};
