/**
 * The commercial criteria of a monitor as one predicate, compiled once per
 * run: words compared without case or accents, stores and marketplaces
 * without case.
 */
import { discountPct } from '../offers/render';
import { FoundItem } from './feeds';
import { MonitorCriteria } from './store';

/** Lower case, accents removed: `Café` and `cafe` are the same word. */
export const fold = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** A predicate meeting every criterion given; an omitted criterion does not filter. */
export function compileCriteria(c: MonitorCriteria): (item: FoundItem) => boolean {
  const include = (c.keywords_include ?? []).map(fold);
  const exclude = (c.keywords_exclude ?? []).map(fold);
  const allow = new Set((c.stores_allow ?? []).map(fold));
  const deny = new Set((c.stores_deny ?? []).map(fold));
  const category = c.category === undefined ? null : fold(c.category);
  const marketplace = c.marketplace === undefined ? null : fold(c.marketplace);
  const priced = c.min_price !== undefined || c.max_price !== undefined;
  return (item) => {
    if (include.length || exclude.length) {
      const title = fold(item.title);
      if (!include.every((w) => title.includes(w))) return false;
      if (exclude.some((w) => title.includes(w))) return false;
    }
    if (category !== null && (item.category === null || !fold(item.category).includes(category))) return false;
    if (marketplace !== null && (item.marketplace === null || fold(item.marketplace) !== marketplace)) return false;
    if (allow.size && (item.store === null || !allow.has(fold(item.store)))) return false;
    if (deny.size && item.store !== null && deny.has(fold(item.store))) return false;
    if (priced) {
      if (item.price === null) return false;
      if (c.min_price !== undefined && item.price < c.min_price) return false;
      if (c.max_price !== undefined && item.price > c.max_price) return false;
    }
    if (c.min_discount_pct !== undefined && c.min_discount_pct > 0 && (discountPct(item.price, item.original_price) ?? 0) < c.min_discount_pct)
      return false;
    if (c.min_commission_pct !== undefined && item.commission_pct !== null && item.commission_pct < c.min_commission_pct) return false;
    return true;
  };
}
