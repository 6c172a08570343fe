/**
 * The final text of an offer message, as a chat group receives it
 * (WhatsApp/Telegram-style emphasis). Preview and publish share it.
 */
import { OfferDoc } from './store/offers';
import { SegmentDoc } from './store/segments';

export function formatMoney(amount: number, currency: string): string {
  try {
    const text = new Intl.NumberFormat(currency === 'BRL' ? 'pt-BR' : 'en-US', { style: 'currency', currency }).format(amount);
    return text.replace(/\u00a0/g, ' '); // chat apps render a plain space more reliably
  } catch {
    return `${currency} ${amount.toFixed(2)}`; // not an ISO 4217 code Intl knows
  }
}

export function discountPct(price?: number | null, original?: number | null): number | null {
  if (price == null || original == null || original <= 0 || price >= original) return null;
  return Math.round((1 - price / original) * 100);
}

export function renderOfferMessage(offer: OfferDoc, segment: SegmentDoc | null): string {
  const lines: string[] = [];
  if (segment?.store_name) lines.push(`🏷️ ${segment.store_name}`, '');
  lines.push(`*${offer.title}*`);
  if (offer.price != null) {
    const price = formatMoney(offer.price, offer.currency);
    const pct = discountPct(offer.price, offer.original_price);
    lines.push(
      pct !== null && offer.original_price != null
        ? `De ~${formatMoney(offer.original_price, offer.currency)}~ por *${price}* (-${pct}%)`
        : `Por *${price}*`,
    );
  }
  if (offer.coupon) lines.push(`🎟️ Cupom: *${offer.coupon}*`);
  if (offer.copy) lines.push('', offer.copy);
  lines.push('', offer.store ? `🛒 ${offer.store}: ${offer.url}` : `🛒 ${offer.url}`);
  if (segment?.store_tagline) lines.push('', `_${segment.store_tagline}_`);
  return lines.join('\n');
}
