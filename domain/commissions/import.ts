/**
 * Report import (`offerops admin commissions import`): a network's CSV report
 * of commissions, one row per transaction status, applied like postbacks
 * (source `import`). Idempotent per row — a row applied again is
 * `unchanged` — and a bad row is a row-level error that never stops the
 * good ones. The file must be CSV with a header row naming the report fields
 * (report.ts), at most IMPORT_MAX_BYTES and IMPORT_MAX_ROWS rows.
 */
import { parse } from 'csv-parse/sync';
import { Tenant } from '../db';
import { Db } from 'mongodb';
import { REPORT_FIELDS, reportOf, REQUIRED_FIELDS } from './report';
import { applyReport, ReportError } from './service';

export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 20_000;

/** The file is refused as a whole (not CSV, too large, no usable header). */
export class ImportRefused extends Error {}

export interface ImportSummary {
  rows: number;
  created: number;
  updated: number;
  /** Rows older than their commission's state: kept in its history, not applied. */
  late: number;
  unchanged: number;
  /** Rows recorded without attribution: neither a click nor an offer published in the window matched. */
  unmatched: number;
  errors: { row: number; transaction_id: string | null; message: string }[];
}

/** The rows of `file` as records keyed by header, or ImportRefused. Row numbers count the header as row 1. */
export function readReport(file: Buffer): Record<string, string>[] {
  if (file.length > IMPORT_MAX_BYTES)
    throw new ImportRefused(`the file has ${file.length} bytes; the limit is ${IMPORT_MAX_BYTES} (5 MiB): split it`);
  if (file.includes(0)) throw new ImportRefused('the file is not CSV text (it holds binary data)');
  let rows: string[][];
  try {
    const parsed: unknown = parse(file.toString('utf8').replace(/^\uFEFF/, ''), {
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    });
    rows = parsed as string[][];
  } catch (err) {
    throw new ImportRefused(`the file is not valid CSV: ${(err as Error).message}`);
  }
  const header = (rows[0] ?? []).map((h) => h.toLowerCase());
  const missing = REQUIRED_FIELDS.filter((f) => !header.includes(f));
  if (!rows.length || missing.length) {
    throw new ImportRefused(
      `the first row must be a header naming the report columns; missing: ${missing.join(', ')} (columns: ${REPORT_FIELDS.join(', ')})`,
    );
  }
  const unknown = header.filter((h) => !(REPORT_FIELDS as readonly string[]).includes(h));
  if (unknown.length) throw new ImportRefused(`unknown columns: ${unknown.join(', ')} (columns: ${REPORT_FIELDS.join(', ')})`);
  if (rows.length - 1 > IMPORT_MAX_ROWS)
    throw new ImportRefused(`the file has ${rows.length - 1} rows; the limit is ${IMPORT_MAX_ROWS}: split it`);
  return rows.slice(1).map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ''])));
}

/** Applies every row; the events are left in the outbox for the worker's sweep (the CLI reaches MongoDB only). */
export async function importReport(db: Db, tenant: Tenant, marketplace: string, file: Buffer): Promise<ImportSummary> {
  const rows = readReport(file);
  const summary: ImportSummary = { rows: rows.length, created: 0, updated: 0, late: 0, unchanged: 0, unmatched: 0, errors: [] };
  for (const [i, row] of rows.entries()) {
    const rowNumber = i + 2;
    const transactionId = row.transaction_id || null;
    const parsed = reportOf(row, marketplace, 'import');
    if ('problems' in parsed) {
      summary.errors.push({
        row: rowNumber,
        transaction_id: transactionId,
        message: parsed.problems.map((p) => `${p.field} ${p.message}`).join('; '),
      });
      continue;
    }
    try {
      const { outcome, commission } = await applyReport(db, tenant, parsed.report);
      summary[outcome]++;
      if (outcome === 'created' && commission.attribution.method === 'none') summary.unmatched++;
    } catch (err) {
      if (!(err instanceof ReportError)) throw err;
      summary.errors.push({ row: rowNumber, transaction_id: transactionId, message: err.message });
    }
  }
  return summary;
}
