/**
 * The marketplace an offer comes from, as analytics keys it (the `sources`
 * dimension): `amazon`, `mercadolivre`, `shopee`, `aliexpress`, `magalu`, or
 * `other`. The offer's `marketplace` field is free text ("Mercado Livre",
 * "amazon.com.br"); when it names none of these, the host of the offer's URL
 * decides.
 */
export const SOURCES = ['amazon', 'mercadolivre', 'shopee', 'aliexpress', 'magalu', 'other'] as const;
export type Source = (typeof SOURCES)[number];

const PATTERNS: [Source, RegExp][] = [
  ['amazon', /amazon|amzn/],
  ['mercadolivre', /mercadoli[vb]re/],
  ['shopee', /shopee/],
  ['aliexpress', /aliexpress/],
  ['magalu', /magalu|magazineluiza|magazinevoce/],
];

const match = (text: string): Source | null => {
  const folded = text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z0-9.]/g, '');
  return PATTERNS.find(([, re]) => re.test(folded))?.[0] ?? null;
};

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

/** The source key of an offer (its `marketplace` first, then its URL's host). */
export function sourceOf(offer: { marketplace?: string | null; url?: string | null }): Source {
  const host = offer.url ? hostOf(offer.url) : null;
  return (offer.marketplace ? match(offer.marketplace) : null) ?? (host ? match(host) : null) ?? 'other';
}
