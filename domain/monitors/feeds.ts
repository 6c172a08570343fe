/**
 * Sources of a monitor behind one interface: `readSource(source, options)`
 * yields the items of a source in small batches as they arrive, whatever the
 * size of the feed (a streaming parse: memory holds one network chunk and
 * the items it completed, never the feed).
 *
 * Formats: Google Merchant RSS 2.0 / Atom (`sax`), CSV with a header row
 * (`csv-parse`), JSON lines or one JSON array (a small splitter below), and a
 * "marketplace search" HTTP JSON API whose answer is read whole (at most
 * MONITOR_SEARCH_MAX_BYTES) with its items at a mapped path.
 *
 * Fetches follow the webhook rules (domain/webhooks/destinations.ts): every
 * address the host resolves to must be public unless allow-listed, the
 * connection goes to the checked addresses only, redirects are not followed;
 * plain http is accepted only for an allow-listed host.
 */
import { IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { StringDecoder } from 'node:string_decoder';
import { parse as parseCsv } from 'csv-parse';
import sax from 'sax';
import { MONITOR_FEED_MAX_BYTES, MONITOR_SEARCH_MAX_BYTES } from '../../schemas/openapi/monitors';
import { pinnedLookup } from '../webhooks/destinations';
import { checkSourceUrl, SourceError } from '../webhooks/sources';
import { networkCause } from '../network-cause';
import { MappingField, MonitorSource } from './store';

/** An item as read from a feed, before the criteria: every field as the feed gave it. */
export type RawItem = Record<string, unknown>;

export interface FetchOptions {
  /** Hosts or addresses that may be loopback or private, and may be plain http (OFFEROPS_WEBHOOK_ALLOW). */
  allow: readonly string[];
  /** Extra CA certificate (PEM) trusted for HTTPS sources. */
  ca?: string;
  /** How long the source may send nothing before it is given up (default 30 s). */
  idleTimeoutMs?: number;
  /** The largest feed read, in bytes on the wire (default MONITOR_FEED_MAX_BYTES). */
  maxBytes?: number;
}

const IDLE_TIMEOUT_MS = 30_000;

/** The network failure as a source result reads it: its cause in words and code (domain/network-cause.ts). */
function unreachable(err: unknown): SourceError {
  if (err instanceof SourceError) return err;
  return new SourceError(`the source could not be reached: ${networkCause(err)}`, false);
}

/** A response, and the reason it was given up when it was (an idle timeout shows in the stream as a bare reset). */
export interface OpenSource {
  res: IncomingMessage;
  givenUp: () => SourceError | null;
}

/** GET `url` from its checked addresses; the response once it answered 200. */
export async function openSource(url: string, opts: FetchOptions): Promise<OpenSource> {
  const pinned = pinnedLookup(await checkSourceUrl(url, opts.allow), opts.allow);
  const idle = opts.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  const request = url.startsWith('https:') ? httpsRequest : httpRequest;
  let idleError: SourceError | null = null;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'GET',
        headers: { accept: 'application/xml, text/csv, application/json, application/x-ndjson, */*;q=0.5', 'user-agent': 'offerops-monitor/1' },
        lookup: pinned,
        agent: false,
        ...(opts.ca ? { ca: opts.ca } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status !== 200) {
          res.resume();
          const why =
            status >= 300 && status < 400 ? `the source answered ${status} (redirects are not followed)` : `the source answered ${status}`;
          reject(new SourceError(why, status < 500 && status !== 429 && status !== 408));
          return;
        }
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > (opts.maxBytes ?? MONITOR_FEED_MAX_BYTES)) {
          res.destroy();
          reject(new SourceError(`the feed is larger than the limit of ${opts.maxBytes ?? MONITOR_FEED_MAX_BYTES} bytes`, true));
          return;
        }
        resolve({ res, givenUp: () => idleError });
      },
    );
    req.setTimeout(idle, () => {
      idleError = new SourceError(`the source sent nothing for ${idle / 1000} s`, false);
      req.destroy(idleError);
    });
    req.on('error', (err) => reject(unreachable(err)));
    req.end();
  });
}

/** The body's chunks, given up past `maxBytes`. */
async function* limited({ res, givenUp }: OpenSource, maxBytes: number): AsyncGenerator<Buffer> {
  let total = 0;
  try {
    for await (const chunk of res) {
      const buf = chunk as Buffer;
      total += buf.length;
      if (total > maxBytes) throw new SourceError(`the feed is larger than the limit of ${maxBytes} bytes`, true);
      yield buf;
    }
  } catch (err) {
    throw givenUp() ?? unreachable(err);
  } finally {
    res.destroy();
  }
}

// --- formats --------------------------------------------------------------------

/** What the parser has made of a Merchant feed so far (a holder, so the checks after `write` are not narrowed away). */
interface MerchantRead {
  /** The items closed since the last batch went out. */
  out: RawItem[];
  /** The document's element, once met. */
  root: string | null;
  /** The first error met: the feed is no Merchant feed, or broke there. */
  error: SourceError | null;
}

/** A parser that collects each item's direct children by local name (`g:price` → `price`) into `read`. */
function merchantParser(read: MerchantRead): sax.SAXParser {
  const parser = sax.parser(true, { trim: false, normalize: false, position: true });
  let depth = 0;
  let itemDepth = -1;
  let item: RawItem | null = null;
  let field: string | null = null;
  let text = '';
  const local = (name: string): string => name.slice(name.indexOf(':') + 1).toLowerCase();
  parser.onopentag = (tag) => {
    depth++;
    const name = local(tag.name);
    if (read.root === null) {
      read.root = name;
      if (name !== 'rss' && name !== 'feed' && name !== 'rdf')
        read.error = new SourceError(`not an RSS or Atom feed (the document is <${tag.name}>)`, true);
      return;
    }
    if (item === null && (name === 'item' || name === 'entry')) {
      item = {};
      itemDepth = depth;
    } else if (item !== null && depth === itemDepth + 1) {
      field = name;
      text = '';
      // Atom: <link href="…" rel="alternate"/>
      const href = tag.attributes.href;
      if (name === 'link' && typeof href === 'string' && (tag.attributes.rel ?? 'alternate') === 'alternate') item.link ??= href;
    }
  };
  parser.ontext = parser.oncdata = (t) => {
    if (field !== null) text += t;
  };
  parser.onclosetag = () => {
    if (item !== null && depth === itemDepth + 1 && field !== null) {
      const value = text.trim();
      if (value && item[field] === undefined) item[field] = value;
      field = null;
    } else if (item !== null && depth === itemDepth) {
      // Past a well-formedness error the parser reads on, but nothing it makes of the rest is trusted.
      if (!read.error) read.out.push(item);
      item = null;
    }
    depth--;
  };
  parser.onerror = (err) => {
    // The first error is where the feed broke; those after it follow from it.
    read.error ??= new SourceError(`not well-formed XML (line ${parser.line + 1}: ${err.message.split('\n')[0]})`, true);
  };
  return parser;
}

/** Google Merchant RSS 2.0 (`<item>`) or Atom (`<entry>`): each item's direct children by local name. */
async function* merchantXml(chunks: AsyncIterable<Buffer>): AsyncGenerator<RawItem[]> {
  const read: MerchantRead = { out: [], root: null, error: null };
  const parser = merchantParser(read);
  const decoder = new StringDecoder('utf8');
  for await (const chunk of chunks) {
    parser.write(decoder.write(chunk));
    // The items closed before the break count: they go out before the error.
    if (read.out.length) {
      yield read.out;
      read.out = [];
    }
    if (read.error) throw read.error;
  }
  parser.write(decoder.end()).close();
  if (read.out.length) yield read.out;
  if (read.error) throw read.error;
  if (read.root === null) throw new SourceError('the feed is empty', true);
}

const CSV_BATCH = 256;

/** CSV with a header row; each row as an object keyed by the header. */
async function* csv(chunks: AsyncIterable<Buffer>): AsyncGenerator<RawItem[]> {
  const parser = parseCsv({ columns: true, bom: true, skip_empty_lines: true, relax_column_count: true, trim: true });
  const feeding = (async () => {
    try {
      for await (const chunk of chunks) if (!parser.write(chunk)) await new Promise((resolve) => parser.once('drain', resolve));
      parser.end();
    } catch (err) {
      parser.destroy(err as Error);
    }
  })();
  let batch: RawItem[] = [];
  try {
    for await (const row of parser) {
      batch.push(row as RawItem);
      if (batch.length >= CSV_BATCH) {
        yield batch;
        batch = [];
      }
    }
  } catch (err) {
    if (err instanceof SourceError) throw err;
    throw new SourceError(`not a valid CSV file (${(err as Error).message.split('\n')[0]})`, true);
  } finally {
    parser.destroy();
    await feeding;
  }
  if (batch.length) yield batch;
}

/**
 * Splits JSON lines, or one JSON array of objects, into items as the text
 * arrives: an array is told from its first character; its elements are cut
 * out at depth 1 (strings and escapes tracked) and parsed one by one.
 */
export class JsonItemSplitter {
  private mode: 'array' | 'lines' | null = null;
  private pending = '';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private done = false;

  /** The items completed by `text`. */
  push(text: string): RawItem[] {
    const out: RawItem[] = [];
    let s = text;
    if (this.mode === null) {
      s = this.pending + text;
      const first = s.search(/\S/);
      if (first < 0) {
        this.pending = s;
        return out;
      }
      s = s.slice(first);
      this.pending = '';
      if (s[0] === '[') {
        this.mode = 'array';
        s = s.slice(1);
      } else this.mode = 'lines';
    }
    if (this.mode === 'lines') {
      s = this.pending + s;
      const end = s.lastIndexOf('\n');
      this.pending = end < 0 ? s : s.slice(end + 1);
      if (end >= 0) for (const line of s.slice(0, end).split('\n')) this.line(line, out);
      return out;
    }
    this.scan(s, out);
    return out;
  }

  /** The items left at the end of the text. */
  end(): RawItem[] {
    const out: RawItem[] = [];
    if (this.mode === 'lines') this.line(this.pending, out);
    else if (this.mode === 'array' && (!this.done || this.depth !== 0)) throw new SourceError('the JSON array is not closed', true);
    else if (this.mode === null) throw new SourceError('the feed is empty', true);
    this.pending = '';
    return out;
  }

  private line(line: string, out: RawItem[]): void {
    const t = line.trim();
    if (!t) return;
    out.push(asItem(parseJson(t)));
  }

  /** Scans array text (after the `[`) once; `pending` keeps the start of an element under way. */
  private scan(s: string, out: RawItem[]): void {
    let start = -1; // where the element under way starts in `s` (-1: in `pending`, or none)
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (this.done) {
        if (c > 32) throw new SourceError('text after the end of the JSON array', true);
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 92 /* \ */) this.escaped = true;
        else if (c === 34 /* " */) this.inString = false;
        continue;
      }
      if (c === 34) {
        if (this.depth === 0) throw new SourceError('the JSON array holds something other than objects', true);
        this.inString = true;
      } else if (c === 123 /* { */ || c === 91 /* [ */) {
        if (this.depth === 0) start = i;
        this.depth++;
      } else if (c === 125 /* } */ || c === 93 /* ] */) {
        if (this.depth === 0) {
          if (c === 93) this.done = true;
          else throw new SourceError('not valid JSON', true);
          continue;
        }
        this.depth--;
        if (this.depth === 0) {
          out.push(asItem(parseJson(start >= 0 ? s.slice(start, i + 1) : this.pending + s.slice(0, i + 1))));
          this.pending = '';
          start = -1;
        }
      } else if (this.depth === 0 && c > 32 && c !== 44 /* , */) {
        throw new SourceError('the JSON array holds something other than objects', true);
      }
    }
    if (this.depth > 0) this.pending = start >= 0 ? s.slice(start) : this.pending + s;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new SourceError('not valid JSON', true);
  }
}

function asItem(value: unknown): RawItem {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SourceError('an item is not a JSON object', true);
  return value as RawItem;
}

async function* jsonItems(chunks: AsyncIterable<Buffer>): AsyncGenerator<RawItem[]> {
  const splitter = new JsonItemSplitter();
  const decoder = new StringDecoder('utf8');
  for await (const chunk of chunks) {
    const items = splitter.push(decoder.write(chunk));
    if (items.length) yield items;
  }
  const rest = splitter.push(decoder.end());
  rest.push(...splitter.end());
  if (rest.length) yield rest;
}

/** The value at a dot path (`data.results`); a key with dots in it is tried whole first. */
export function at(value: unknown, path: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const obj = value as Record<string, unknown>;
  if (path in obj) return obj[path];
  let cur: unknown = value;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** A marketplace search API: one JSON answer, its items at `mapping.items`. */
async function* search(chunks: AsyncIterable<Buffer>, source: MonitorSource): AsyncGenerator<RawItem[]> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.length;
    if (size > MONITOR_SEARCH_MAX_BYTES) throw new SourceError(`the answer is larger than the limit of ${MONITOR_SEARCH_MAX_BYTES} bytes`, true);
    parts.push(chunk);
  }
  const items = at(parseJson(Buffer.concat(parts).toString('utf8')), source.mapping?.items ?? 'items');
  if (!Array.isArray(items)) throw new SourceError(`the answer has no array at ${source.mapping?.items ?? 'items'}`, true);
  for (let i = 0; i < items.length; i += CSV_BATCH) yield items.slice(i, i + CSV_BATCH).map(asItem);
}

/** The raw items of a source, batch by batch as they arrive. */
export async function* readSource(source: MonitorSource, opts: FetchOptions): AsyncGenerator<RawItem[]> {
  const chunks = limited(await openSource(source.url, opts), opts.maxBytes ?? MONITOR_FEED_MAX_BYTES);
  switch (source.type) {
    case 'merchant_xml':
      yield* merchantXml(chunks);
      return;
    case 'csv':
      yield* csv(chunks);
      return;
    case 'json':
      yield* jsonItems(chunks);
      return;
    case 'search':
      yield* search(chunks, source);
      return;
  }
}

// --- items ------------------------------------------------------------------------

/** An item in offer terms, as the criteria and the catalogue read it. */
export interface FoundItem {
  title: string;
  url: string;
  price: number | null;
  original_price: number | null;
  currency: string;
  image: string | null;
  store: string | null;
  category: string | null;
  commission_pct: number | null;
  marketplace: string | null;
}

/** A price as feeds write it: `12.99`, `"12.99 USD"`, `"R$ 1.299,90"`, `"1,299.90 BRL"`; with the currency code when written. */
export function parsePrice(value: unknown): { amount: number | null; currency: string | null } {
  if (typeof value === 'number') return { amount: Number.isFinite(value) && value >= 0 ? value : null, currency: null };
  if (typeof value !== 'string') return { amount: null, currency: null };
  const currency = /\b([A-Z]{3})\b/.exec(value)?.[1] ?? null;
  let digits = value.replace(/[^\d.,]/g, '');
  const comma = digits.lastIndexOf(',');
  const dot = digits.lastIndexOf('.');
  if (comma >= 0 && dot >= 0) digits = comma > dot ? digits.replace(/\./g, '').replace(',', '.') : digits.replace(/,/g, '');
  else if (comma >= 0) digits = /,\d{1,2}$/.test(digits) ? digits.replace(/\./g, '').replace(',', '.') : digits.replace(/,/g, '');
  const amount = digits ? Number(digits) : NaN;
  return { amount: Number.isFinite(amount) ? amount : null, currency };
}

const text = (v: unknown): string | null => {
  if (typeof v === 'string') return v.trim() || null;
  if (typeof v === 'number') return String(v);
  return null;
};

const httpsUrl = (v: unknown): string | null => {
  const s = text(v);
  if (!s || s.length > 2000 || !s.startsWith('https://')) return null;
  try {
    new URL(s);
    return s;
  } catch {
    return null;
  }
};

const clip = (s: string | null, max: number): string | null => (s === null ? null : s.length > max ? s.slice(0, max) : s);

/** A value a feed gave: an empty cell (most rows of a merchant CSV have no `sale_price`) or blank text gives none. */
const given = (v: unknown): boolean => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '');

/** Reads a raw item through the source's mapping (defaults in the contract); null when it has no usable title or HTTPS URL. */
export function toFoundItem(raw: RawItem, source: MonitorSource): FoundItem | null {
  const m = source.mapping ?? {};
  const get = (field: MappingField, ...defaults: string[]): unknown => {
    const path = m[field];
    if (path) return at(raw, path);
    return defaults.map((d) => raw[d]).find(given);
  };
  const title = clip(text(get('title', 'title', 'name')), 240);
  const url = httpsUrl(get('url', 'url', 'link'));
  if (!title || title.length < 3 || !url) return null;
  // Merchant feeds: the sale price is the price when given, and the price then is the one before the discount.
  const onSale = !m.price && given(raw.sale_price);
  const current = parsePrice(m.price ? at(raw, m.price) : onSale ? raw.sale_price : raw.price);
  const before = parsePrice(
    m.original_price ? at(raw, m.original_price) : given(raw.original_price) ? raw.original_price : onSale ? raw.price : undefined,
  );
  const commission = get('commission_pct', 'commission_pct');
  const commissionPct = typeof commission === 'number' ? commission : parsePrice(commission).amount;
  const currency = text(get('currency', 'currency')) ?? current.currency ?? 'BRL';
  return {
    title,
    url,
    price: current.amount,
    original_price: before.amount,
    currency: currency.length >= 3 && currency.length <= 8 ? currency : 'BRL',
    image: httpsUrl(get('image', 'image', 'image_link')),
    store: clip(text(get('store', 'store', 'brand')), 120),
    category: clip(text(get('category', 'category', 'product_type', 'google_product_category')), 120),
    commission_pct: commissionPct,
    marketplace: clip(text(raw.marketplace) ?? source.marketplace ?? null, 40),
  };
}
