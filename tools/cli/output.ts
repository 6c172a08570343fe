/**
 * What a command prints. Piped, or with `--json`, the JSON as it is, one
 * line. On a terminal: a list is a table (cli-table3) of its scalar fields,
 * as many columns as fit the width, leaving out those empty on every row; a
 * resource is a record (`field  value` lines), with its nested objects
 * indented under their name and its lists of objects as tables after it.
 */
import Table from 'cli-table3';

/** JSON output: asked for with --json, or stdout is not a terminal. */
export const wantsJson = (): boolean => process.argv.slice(2).includes('--json') || !process.stdout.isTTY;

const width = (): number => process.stdout.columns || 120;

const scalar = (v: unknown): boolean => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const empty = (v: unknown): boolean => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v) && v.every(scalar)) return v.join(', ');
  return (typeof v === 'string' ? v : JSON.stringify(v)).replace(/\s+/g, ' ');
}

const BORDERLESS = Object.fromEntries(
  ['top', 'top-mid', 'top-left', 'top-right', 'bottom', 'bottom-mid', 'bottom-left', 'bottom-right']
    .concat(['left', 'left-mid', 'mid', 'mid-mid', 'right', 'right-mid'])
    .map((k) => [k, '']),
);
const GAP = 2;
const MAX_CELL = 40;

/** Rows as a table: `id` first, then each field with a value in some row (scalars and lists of scalars) that fits the width. */
export function table(rows: Record<string, unknown>[], maxWidth = width(), indent = ''): string {
  if (!rows.length) return `${indent}(none)\n`;
  const keys: string[] = [];
  for (const row of rows) {
    for (const [k, v] of Object.entries(row)) {
      const shown = scalar(v) || (Array.isArray(v) && v.every(scalar));
      if (shown && !keys.includes(k) && rows.some((r) => !empty(r[k]))) keys.push(k);
    }
  }
  if (keys.includes('id')) keys.splice(0, 0, ...keys.splice(keys.indexOf('id'), 1));
  const widths = keys.map((k) => Math.min(MAX_CELL, Math.max(k.length, ...rows.map((r) => cell(r[k]).length))));
  const fit: string[] = [];
  let used = indent.length;
  for (const [i, k] of keys.entries()) {
    if (fit.length && used + widths[i]! > maxWidth) continue;
    fit.push(k);
    used += widths[i]! + GAP;
  }
  const t = new Table({
    head: fit.map((k) => k.toUpperCase()),
    chars: { ...BORDERLESS, middle: ' '.repeat(GAP) },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
    colWidths: fit.map((k) => widths[keys.indexOf(k)]!),
  });
  for (const r of rows) t.push(fit.map((k) => cell(r[k])));
  return `${t
    .toString()
    .split('\n')
    .map((l) => `${indent}${l}`.trimEnd())
    .join('\n')}\n`;
}

/** `field  value` lines; nested objects indented under their name, lists of objects as tables after the record. */
export function record(value: Record<string, unknown>, indent = ''): string {
  const keys = Object.keys(value).filter((k) => !(Array.isArray(value[k]) && !(value[k] as unknown[]).every(scalar)));
  const pad = Math.max(0, ...keys.map((k) => k.length)) + 2;
  const lines = keys.map((k) => {
    const v = value[k];
    return isRecord(v) && Object.keys(v).length
      ? `${indent}${k}\n${record(v, `${indent}  `).trimEnd()}`
      : `${indent}${k.padEnd(pad)}${cell(v)}`.trimEnd();
  });
  const lists = Object.entries(value)
    .filter((e): e is [string, unknown[]] => Array.isArray(e[1]) && !e[1].every(scalar))
    .map(([k, items]) => {
      const rows = items.map((i) => (isRecord(i) ? i : { value: i }));
      // Items with lists of their own (a publication's deliveries) are records one after the other; flat ones a table.
      const nested = rows.some((r) => Object.values(r).some((v) => Array.isArray(v) && !v.every(scalar)));
      const body = nested ? rows.map((r) => record(r, `${indent}  `)).join('\n') : table(rows, width(), indent);
      return `\n${indent}${k}:\n${body}`.trimEnd();
    });
  return `${[...lines, ...lists].join('\n').replace(/^\n/, '')}\n`;
}

/** An API answer for a person: the list as a table with where it stands, or the resource as a record. */
export function human(body: unknown, maxWidth = width()): string {
  if (!isRecord(body)) return `${cell(body)}\n`;
  const { data, pagination, request_id: _requestId, ...rest } = body;
  if (Array.isArray(data)) {
    const p = pagination as { total?: number; offset?: number; has_more?: boolean } | undefined;
    const from = (p?.offset ?? 0) + (data.length ? 1 : 0);
    const footer = p ? `\n${from}–${(p.offset ?? 0) + data.length} of ${p.total ?? '?'}${p.has_more ? ' (--all for every page)' : ''}\n` : '';
    return table(data as Record<string, unknown>[], maxWidth) + footer;
  }
  const main = isRecord(data) ? record(data) : '';
  const extra = Object.keys(rest).length ? record(rest) : '';
  return main && extra ? `${main}\n${extra}` : main || extra || '(empty answer)\n';
}

/** An API answer: its JSON, or for a person a table or record. */
export function printAnswer(body: unknown): void {
  process.stdout.write(wantsJson() ? `${JSON.stringify(body)}\n` : human(body));
}

/** An object of the CLI's own (`{"recipes": […]}`): its JSON, or for a person a record with its lists as tables. */
export function printRecords(value: object): void {
  process.stdout.write(wantsJson() ? `${JSON.stringify(value)}\n` : record(value as Record<string, unknown>));
}
