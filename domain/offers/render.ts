/**
 * The final text of an offer message, as a chat group receives it. Preview
 * and publish share it: `renderOfferForSend` picks the template (the one
 * named, else the segment's default, else the account's) and renders it, or
 * falls back to the built-in layout (`renderOfferMessage`, WhatsApp-style
 * emphasis) when the account has no template for it. It lives with offers,
 * above templates, as it renders both (the body's syntax: ../templates/parse.ts).
 */
import { Db } from 'mongodb';
import { unknownReference } from '../errors';
import { Tenant } from '../db';
import { CouponDoc, couponStatus, getCoupon } from '../coupons/store';
import { SegmentDoc } from '../segments/store';
import { parseTemplate, Placeholder } from '../templates/parse';
import { defaultTemplate, getTemplate, TemplateDoc, TemplateFormat } from '../templates/store';
import { OfferDoc, OfferFields } from './store';

export function formatMoney(amount: number, currency: string): string {
  try {
    const text = new Intl.NumberFormat(currency === 'BRL' ? 'pt-BR' : 'en-US', { style: 'currency', currency }).format(amount);
    return text.replace(/\u00a0/g, ' '); // chat apps render a plain space more reliably
  } catch {
    return `${currency} ${amount.toFixed(2)}`; // not an ISO 4217 code Intl knows
  }
}

/** `FRETE10 (10% off, up to R$ 50,00)`: a registered coupon as `{coupon}` renders it in a message. */
export function couponText(c: CouponDoc): string {
  const d = c.discount;
  const off =
    d.type === 'percent'
      ? `${d.value}% off${d.max_amount !== null ? `, up to ${formatMoney(d.max_amount, c.currency)}` : ''}`
      : d.type === 'amount'
        ? `${formatMoney(d.value, c.currency)} off`
        : 'free shipping';
  const min = c.min_purchase !== null ? `, min. ${formatMoney(c.min_purchase, c.currency)}` : '';
  return `${c.code} (${off}${min})`;
}

/**
 * The offer with its registered coupon (`coupon_id`) written into `coupon`
 * as code and discount, while the coupon is live; an inactive or expired
 * coupon is not shown (publishing refuses it, see publications/queue.ts).
 */
export async function withCoupon(db: Db, tenant: Tenant, offer: OfferDoc): Promise<OfferDoc> {
  if (!offer.coupon_id) return offer;
  const coupon = await getCoupon(db, tenant, offer.coupon_id);
  const status = coupon ? couponStatus(coupon) : null;
  if (!coupon || status === 'inactive' || status === 'expired') return offer;
  return { ...offer, coupon: couponText(coupon) };
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

// --- templates -----------------------------------------------------------

/** The offer fields a template can use. */
export type MessageOffer = Pick<OfferFields, 'title' | 'url' | 'currency' | 'price' | 'original_price' | 'coupon' | 'store' | 'copy'> & {
  /** The offer's own URL when `url` is a converted one (`{raw_url}`); `url` otherwise. */
  raw_url?: string;
};

/** Each placeholder's value, or null when the offer has none. `{original_price}` only shows above `{price}`. */
function placeholderValues(offer: MessageOffer): Record<Placeholder, string | null> {
  const pct = discountPct(offer.price, offer.original_price);
  return {
    title: offer.title,
    price: offer.price != null ? formatMoney(offer.price, offer.currency) : null,
    original_price: pct !== null ? formatMoney(offer.original_price!, offer.currency) : null,
    discount_pct: pct !== null ? String(pct) : null,
    coupon: offer.coupon || null,
    store: offer.store || null,
    url: offer.url,
    raw_url: offer.raw_url ?? offer.url,
    copy: offer.copy || null,
  };
}

const escapeHtml = (v: string): string => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** How a value is written into a body of each format. */
const ESCAPE: Record<TemplateFormat, (value: string, placeholder: Placeholder) => string> = {
  plain: (v) => v,
  // Backslash-escape Markdown metacharacters, except in the url (an autolinked URL would keep the backslashes).
  markdown: (v, p) => (p === 'url' || p === 'raw_url' ? v : v.replace(/[\\`*_[\]<>~|#]/g, '\\$&')),
  // WhatsApp has no escape syntax: values go as they are.
  whatsapp: (v) => v,
  telegram_html: (v) => escapeHtml(v),
};

/**
 * Fills a template's placeholders from the offer. A missing value renders as
 * nothing; a line whose placeholders are all missing is dropped, and so is a
 * blank line the drop would leave doubled (or leading, or trailing).
 */
export function renderTemplate(template: { body: string; format: TemplateFormat }, offer: MessageOffer): string {
  const values = placeholderValues(offer);
  const escape = ESCAPE[template.format];
  const out: string[] = [];
  let afterDrop = false;
  const lastBlank = () => out.length === 0 || out[out.length - 1]!.trim() === '';
  for (const parts of parseTemplate(template.body).lines) {
    let used = 0;
    let filled = 0;
    const line = parts
      .map((part) => {
        if ('text' in part) return part.text;
        used++;
        const value = values[part.placeholder];
        if (!value) return '';
        filled++;
        return escape(value, part.placeholder);
      })
      .join('');
    if (used > 0 && filled === 0) {
      afterDrop = true;
      continue;
    }
    if (line.trim() === '' && afterDrop && lastBlank()) continue;
    afterDrop = false;
    out.push(line);
  }
  if (afterDrop) while (out.length && lastBlank()) out.pop();
  return out.join('\n');
}

/**
 * The template a message uses: the one named (a 400 `unknown_reference` when
 * this tenant has no such template), else the segment's default, else the
 * account's default; null means the built-in layout.
 */
export async function resolveTemplate(
  db: Db,
  tenant: Tenant,
  { templateId, segmentId }: { templateId?: string | null; segmentId?: string | null },
): Promise<TemplateDoc | null> {
  if (templateId) {
    const named = await getTemplate(db, tenant, templateId);
    if (!named) {
      throw unknownReference('template_id', 'template', templateId);
    }
    return named;
  }
  return (segmentId ? await defaultTemplate(db, tenant, segmentId) : null) ?? (await defaultTemplate(db, tenant, null));
}

/**
 * The text an offer is sent (or previewed) with, the template it came from
 * (null: the built-in layout) and the markup of the text (`whatsapp` for the
 * built-in layout), for the connector to tell the channel how to read it.
 */
export async function renderOfferForSend(
  db: Db,
  tenant: Tenant,
  {
    offer,
    segment,
    templateId,
    url: urlOrPending,
  }: { offer: OfferDoc; segment: SegmentDoc | null; templateId?: string | null; url?: string | Promise<string | undefined> },
): Promise<{ text: string; templateId: string | null; format: TemplateFormat }> {
  // The template, the coupon and a `url` still being made (the publish request's tracked links) side by side.
  const [template, withItsCoupon, url] = await Promise.all([
    resolveTemplate(db, tenant, { templateId, segmentId: segment?._id ?? null }),
    withCoupon(db, tenant, offer),
    urlOrPending,
  ]);
  offer = withItsCoupon;
  // `url`: the converted link `{url}` shows instead of the offer's own, which `{raw_url}` keeps.
  const shown = url ? { ...offer, url, raw_url: offer.url } : offer;
  if (!template) return { text: renderOfferMessage(shown, segment), templateId: null, format: 'whatsapp' };
  return { text: renderTemplate(template, shown), templateId: template._id, format: template.format };
}
