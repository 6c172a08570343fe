/**
 * The marketplace an offer comes from, as analytics keys it (the `sources`
 * dimension): one of the links area's MARKETPLACES — `other` when it names
 * none of the others. The offer's `marketplace` field is free text ("Mercado
 * Livre", "amazon.com.br"); when it names none of them, the host of the
 * offer's URL decides.
 */
import { Marketplace } from '../marketplaces';

/** What names each marketplace (but `other`) in an offer's folded `marketplace` or host; a marketplace added there must be named here. */
const NAMES: Record<Exclude<Marketplace, 'other'>, RegExp> = {
  amazon: /amazon|amzn/,
  mercadolivre: /mercadoli[vb]re/,
  shopee: /shopee/,
  aliexpress: /aliexpress/,
  magalu: /magalu|magazineluiza|magazinevoce/,
};
const PATTERNS = Object.entries(NAMES) as [Exclude<Marketplace, 'other'>, RegExp][];

const match = (text: string): Marketplace | null => {
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
export function sourceOf(offer: { marketplace?: string | null; url?: string | null }): Marketplace {
  const host = offer.url ? hostOf(offer.url) : null;
  return (offer.marketplace ? match(offer.marketplace) : null) ?? (host ? match(host) : null) ?? 'other';
}
