/**
 * The pure rules of link conversion, one marketplace at a time: which
 * marketplace a URL belongs to (and whether it is one of its short links),
 * which parameters of other people's affiliate and tracking to strip, and how
 * this account's integration makes the affiliate URL. No I/O here: resolving
 * a short link and storing tracked links are domain/links/service.ts.
 */

import { LINK_MARKETPLACES } from '../schemas/openapi/links';

/** The marketplaces: the contract's list (integrations, conversion, analytics sources), not another copy. */
export const MARKETPLACES = LINK_MARKETPLACES;
export type Marketplace = (typeof MARKETPLACES)[number];

/** What an account stores per marketplace (domain/integrations): the identifiers its affiliate programme gave it. */
export type IntegrationConfig =
  | { marketplace: 'amazon'; tag: string; sub_id_param?: string }
  | { marketplace: 'mercadolivre'; tool: string; word: string; sub_id_param?: string }
  | { marketplace: 'shopee'; affiliate_id: string; app_id?: string; app_secret?: string; sub_id_param?: string }
  | { marketplace: 'aliexpress'; params: Record<string, string>; sub_id_param?: string }
  | { marketplace: 'magalu'; store: string; sub_id_param?: string }
  | { marketplace: 'other'; template: string; hosts: string[] };

/**
 * The parameter each marketplace's click id (and a conversion's `sub_id`)
 * goes in unless the integration names another: the one its reports and
 * postbacks return. `other` uses the `{sub_id}` placeholder of its template.
 */
export const SUB_ID_PARAMS: Record<Exclude<Marketplace, 'other'>, string> = {
  amazon: 'ascsubtag',
  mercadolivre: 'sub_id', // Mercado Livre documents no sub-id parameter: set the one your reports return (docs/guides/links.md)
  shopee: 'sub_id',
  aliexpress: 'dp',
  magalu: 'utm_term',
};

/** Where a placeholder marks the click id in a tracked link's target; click ids are URL-safe, so it is replaced as text. */
export const CLICK_PLACEHOLDER = '{click_id}';

const endsWithDomain = (host: string, domain: string): boolean => host === domain || host.endsWith(`.${domain}`);

/** `amazon.com.br`, `www.amazon.com`, `smile.amazon.de`…: amazon plus a public suffix of one or two labels. */
const AMAZON_HOST = /(^|\.)amazon\.(com|[a-z]{2}|com?\.[a-z]{2})$/;
const MERCADOLIVRE_HOST = /(^|\.)(mercadolivre|mercadolibre)\.(com|com\.[a-z]{2}|[a-z]{2})$/;
const SHOPEE_HOST = /(^|\.)shopee\.(com|[a-z]{2}|com\.[a-z]{2}|co\.[a-z]{2})$/;

/** Short-link hosts of each marketplace (Mercado Livre's are paths: `mercadolivre.com/sec/…`). */
export const SHORT_LINK_HOSTS: Record<string, Exclude<Marketplace, 'other'>> = {
  'amzn.to': 'amazon',
  'a.co': 'amazon',
  'amzn.eu': 'amazon',
  's.shopee.com.br': 'shopee',
  'shope.ee': 'shopee',
  's.click.aliexpress.com': 'aliexpress',
  'a.aliexpress.com': 'aliexpress',
  'divulgador.magalu.com': 'magalu',
};

/** The marketplace of a host (`other` is never detected: it is the template integration's own list). */
export function marketplaceOfHost(hostname: string): Exclude<Marketplace, 'other'> | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const short = SHORT_LINK_HOSTS[host];
  if (short) return short;
  if (AMAZON_HOST.test(host)) return 'amazon';
  if (MERCADOLIVRE_HOST.test(host)) return 'mercadolivre';
  if (SHOPEE_HOST.test(host)) return 'shopee';
  if (endsWithDomain(host, 'aliexpress.com') || endsWithDomain(host, 'aliexpress.us')) return 'aliexpress';
  if (endsWithDomain(host, 'magazineluiza.com.br') || endsWithDomain(host, 'magazinevoce.com.br') || endsWithDomain(host, 'magalu.com'))
    return 'magalu';
  return null;
}

/**
 * True when the URL is a short link to resolve before converting: a
 * marketplace's short-link host, Mercado Livre's `/sec/` links, or a host the
 * operator added (OFFEROPS_SHORTLINK_HOSTS, e.g. a generic shortener).
 */
export function isShortLink(url: URL, extraHosts: readonly string[] = []): boolean {
  const host = url.hostname.toLowerCase();
  if (SHORT_LINK_HOSTS[host] || extraHosts.includes(host)) return true;
  return /^(www\.)?mercadoli[vb]re\.com$/.test(host) && url.pathname.startsWith('/sec/');
}

/** Tracking parameters of any site: campaign tags, ad click ids, referral marks. */
const COMMON_TRACKING =
  /^(utm_.*|fbclid|gclid|gbraid|wbraid|dclid|msclkid|yclid|ttclid|twclid|igshid|mc_cid|mc_eid|_ga|_gl|ref|ref_|referrer|tag|srsltid|li_fat_id|spm|aff_.*|affiliate_id|sub_id|subid|clickid|click_id)$/i;

/** Per marketplace, the query parameters kept (everything else is someone's tracking or affiliation, or noise); null keeps all but tracking. */
const KEPT_PARAMS: Record<Marketplace, readonly string[] | null> = {
  amazon: ['k', 'node', 'rh', 'i', 'th', 'psc', 'smid'],
  mercadolivre: [],
  shopee: ['keyword', 'category'],
  aliexpress: ['SearchText', 'catId'],
  magalu: [],
  other: null,
};

/** The URL without others' affiliate and tracking parameters and without a fragment (Mercado Livre puts its tracking there). */
export function stripTracking(input: URL, marketplace: Marketplace): URL {
  const url = new URL(input.toString());
  url.hash = '';
  const kept = KEPT_PARAMS[marketplace];
  for (const name of [...new Set(url.searchParams.keys())]) {
    if (kept ? !kept.includes(name) : COMMON_TRACKING.test(name)) url.searchParams.delete(name);
  }
  if (marketplace === 'amazon') {
    // `/dp/B0…/ref=sr_1_3`: the ref path segment is a tracking mark too.
    url.pathname = url.pathname.replace(/\/ref=[^/]*$/, '');
  }
  return url;
}

/** The product URL with this integration applied; `subId` goes in the integration's sub-id parameter (or placeholder). */
export interface Applied {
  /** The affiliate URL, with `subId` when one was given. */
  affiliateUrl: string;
  /** The same with CLICK_PLACEHOLDER where each click's id goes: what a tracked link redirects to. */
  target: string;
}

const withParams = (url: URL, params: Record<string, string>): URL => {
  const out = new URL(url.toString());
  for (const [k, v] of Object.entries(params)) out.searchParams.set(k, v);
  return out;
};

/** `url` plus `&name={click_id}` as text (the placeholder must stay unencoded). */
const withClickParam = (url: URL, name: string): string =>
  `${url.toString()}${url.search ? '&' : '?'}${encodeURIComponent(name)}=${CLICK_PLACEHOLDER}`;

function subIdParam(config: IntegrationConfig): string {
  return config.marketplace === 'other' ? '' : (config.sub_id_param ?? SUB_ID_PARAMS[config.marketplace]);
}

/** Magalu: the product path of either site, under the account's Parceiro Magalu store on magazinevoce.com.br. */
function magaluUrl(url: URL, store: string): URL {
  const host = url.hostname.toLowerCase();
  let path = url.pathname;
  if (endsWithDomain(host, 'magazinevoce.com.br')) path = path.replace(/^\/[^/]+/, ''); // someone else's store
  const product = /^(\/[^/]+\/p\/[^/]+)\//.exec(`${path.replace(/\/?$/, '/')}`);
  const out = new URL(`https://www.magazinevoce.com.br/${encodeURIComponent(store)}${product ? `${product[1]}/` : path}`);
  out.search = url.search;
  return out;
}

/** Applies `config` to a stripped product URL of its marketplace. */
export function applyIntegration(url: URL, config: IntegrationConfig, subId: string | null): Applied {
  const param = subIdParam(config);
  const finish = (base: URL): Applied => ({
    affiliateUrl: (subId ? withParams(base, { [param]: subId }) : base).toString(),
    target: withClickParam(base, param),
  });
  switch (config.marketplace) {
    case 'amazon':
      return finish(withParams(url, { tag: config.tag }));
    case 'mercadolivre':
      return finish(withParams(url, { matt_tool: config.tool, matt_word: config.word }));
    case 'aliexpress':
      return finish(withParams(url, config.params));
    case 'magalu':
      return finish(magaluUrl(url, config.store));
    case 'shopee': {
      // Shopee's own redirect carries the affiliate id and a sub id to any shopee page.
      const base = new URL('https://s.shopee.com.br/an_redir');
      base.searchParams.set('origin_link', url.toString());
      base.searchParams.set('affiliate_id', config.affiliate_id);
      return finish(base);
    }
    case 'other': {
      const fill = (sub: string) => config.template.replaceAll('{url}', encodeURIComponent(url.toString())).replaceAll('{sub_id}', sub);
      return { affiliateUrl: fill(subId ? encodeURIComponent(subId) : ''), target: fill(CLICK_PLACEHOLDER) };
    }
  }
}

/** True when the template integration of the account covers this host (its `hosts` and their subdomains). */
export const otherCovers = (config: IntegrationConfig, hostname: string): boolean =>
  config.marketplace === 'other' && config.hosts.some((h) => endsWithDomain(hostname.toLowerCase(), h));

/** The redirect's destination for one click. */
export const targetFor = (target: string, clickId: string): string => target.replace(CLICK_PLACEHOLDER, clickId);
