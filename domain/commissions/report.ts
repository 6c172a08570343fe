/**
 * The fields of a commission report, the same for a postback body (JSON) and
 * an import row (CSV columns): checked and converted here, each problem named.
 *
 * | field | required | |
 * |---|---|---|
 * | `transaction_id` | yes | the network's id of the transaction, 1–200 characters |
 * | `status` | yes | pending, approved, paid, cancelled, refunded |
 * | `commission` | yes | the commission amount, a decimal (`12.34`), at most the currency's decimals |
 * | `currency` | yes | ISO 4217 code (`BRL`) |
 * | `occurred_at` | yes | when the order was placed (RFC 3339) |
 * | `updated_at` | no | the network's timestamp of this status (default `occurred_at`) |
 * | `sub_id` | no | the sub-id the tracked link carried: our click id (`clk_…`) |
 * | `product_url` | no | the product's URL, to infer the offer without a click |
 * | `order_amount` | no | the order's value, a decimal |
 * | `order_ref` | no | the network's order reference (no shopper data), up to 200 characters |
 */
import { COMMISSION_STATUSES } from '../../schemas/openapi/commissions';
import { toMinor } from './money';
import { CommissionReport } from './service';
import { CommissionSource, CommissionStatus } from './store';

export const REPORT_FIELDS = [
  'transaction_id',
  'status',
  'commission',
  'currency',
  'occurred_at',
  'updated_at',
  'sub_id',
  'product_url',
  'order_amount',
  'order_ref',
] as const;
export const REQUIRED_FIELDS = ['transaction_id', 'status', 'commission', 'currency', 'occurred_at'] as const;

export interface ReportProblem {
  field: string;
  message: string;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Reads the fields of a report: a value with a problem reads as null, its problem added to `problems`. */
function fieldReader(fields: Record<string, unknown>, problems: ReportProblem[]) {
  const get = (name: string): unknown => (fields[name] === '' ? undefined : fields[name]);
  const text = (name: string, max: number): string | null => {
    const v = get(name);
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string' || v.trim() === '' || v.length > max) {
      problems.push({ field: name, message: `must be a string of 1 to ${max} characters` });
      return null;
    }
    return v.trim();
  };
  const date = (name: string): Date | null => {
    const v = text(name, 40);
    if (v === null) return null;
    const d = new Date(v);
    if (!RFC3339.test(v) || Number.isNaN(d.getTime())) {
      problems.push({ field: name, message: 'must be an RFC 3339 date-time with a time zone (2026-11-24T10:00:00Z)' });
      return null;
    }
    return d;
  };
  /** An amount in minor units of `currency` (null without a valid currency). */
  const money = (name: string, currency: string | null): number | null => {
    const v = get(name);
    if (v === undefined || v === null || !currency) return null;
    const minor = toMinor(v, currency);
    if (minor === null || minor < 0) {
      problems.push({ field: name, message: `must be a non-negative decimal with at most the decimals of ${currency} (12.34)` });
      return null;
    }
    return minor;
  };
  return { get, text, date, money };
}

type FieldReader = ReturnType<typeof fieldReader>;

/** Names that are not report fields, and required fields left out. */
function checkNames(fields: Record<string, unknown>, read: FieldReader, problems: ReportProblem[]): void {
  for (const name of Object.keys(fields)) {
    if (!(REPORT_FIELDS as readonly string[]).includes(name)) problems.push({ field: name, message: 'is not a report field' });
  }
  for (const name of REQUIRED_FIELDS)
    if (read.get(name) === undefined || read.get(name) === null) problems.push({ field: name, message: 'is required' });
}

/** The status, in any case, if it is one of COMMISSION_STATUSES. */
function statusOf(read: FieldReader, problems: ReportProblem[]): CommissionStatus | null {
  const statusText = read.text('status', 20)?.toLowerCase() ?? null;
  const status =
    statusText !== null && (COMMISSION_STATUSES as readonly string[]).includes(statusText) ? (statusText as CommissionStatus) : null;
  if (statusText !== null && !status) problems.push({ field: 'status', message: `must be one of ${COMMISSION_STATUSES.join(', ')}` });
  return status;
}

/** The currency, in any case, if it is three letters. */
function currencyOf(read: FieldReader, problems: ReportProblem[]): string | null {
  const currencyText = read.text('currency', 3)?.toUpperCase() ?? null;
  const currency = currencyText !== null && /^[A-Z]{3}$/.test(currencyText) ? currencyText : null;
  if (currencyText !== null && !currency) problems.push({ field: 'currency', message: 'must be an ISO 4217 code such as BRL' });
  return currency;
}

/** A report from `fields`, or every problem found. Empty strings count as absent (a CSV cell left blank). */
export function reportOf(
  fields: Record<string, unknown>,
  marketplace: string,
  source: CommissionSource,
): { report: CommissionReport } | { problems: ReportProblem[] } {
  const problems: ReportProblem[] = [];
  const read = fieldReader(fields, problems);
  checkNames(fields, read, problems);
  const transactionId = read.text('transaction_id', 200);
  const status = statusOf(read, problems);
  const currency = currencyOf(read, problems);
  const amount = read.money('commission', currency);
  const orderAmount = read.money('order_amount', currency);
  const occurredAt = read.date('occurred_at');
  const updatedAt = read.date('updated_at');
  const subId = read.text('sub_id', 100);
  const productUrl = read.text('product_url', 2000);
  const orderRef = read.text('order_ref', 200);
  if (problems.length) return { problems };
  return {
    report: {
      marketplace,
      transaction_id: transactionId!,
      status: status!,
      amount_minor: amount!,
      currency: currency!,
      order_amount_minor: orderAmount,
      order_ref: orderRef,
      occurred_at: occurredAt!,
      at: updatedAt ?? occurredAt!,
      sub_id: subId,
      product_url: productUrl,
      source,
    },
  };
}
