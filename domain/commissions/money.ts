/**
 * Money as integers: amounts arrive as decimal strings (or numbers a network
 * wrote in JSON) and are kept in minor units of their currency (cents), so
 * sums never drift and currencies are never mixed.
 */

/** Digits after the point of a currency (2 for BRL and USD, 0 for JPY), from Intl; 2 for a code Intl does not know. */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** The form of an amount; its minor units must also be a safe integer (about 9 × 10^15). */
const DECIMAL = /^(-)?(\d{1,15})(?:\.(\d{1,6}))?$/;

/**
 * `"12.34"` in BRL → 1234. A string, or a number written in JSON (taken by
 * its shortest decimal text). Null for anything else, and for more decimals
 * than the currency has (except trailing zeros): the amount is refused, not rounded.
 */
export function toMinor(value: unknown, currency: string): number | null {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : null;
  const m = text === null ? null : DECIMAL.exec(text);
  if (!m) return null;
  const digits = minorDigits(currency);
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  if (fraction.length > digits) return null;
  const minor = Number(m[2]! + fraction.padEnd(digits, '0'));
  // Past 2^53 minor units a number is no longer exact: refused, never rounded.
  if (!Number.isSafeInteger(minor)) return null;
  return m[1] ? -minor : minor;
}

/** 1234 in BRL → `"12.34"`. */
export function fromMinor(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  const sign = minor < 0 ? '-' : '';
  const abs = String(Math.abs(minor)).padStart(digits + 1, '0');
  return digits ? `${sign}${abs.slice(0, -digits)}.${abs.slice(-digits)}` : `${sign}${abs}`;
}
