/**
 * What an API command prints on a terminal: a table for a list (its scalar
 * fields as columns, as many as fit the width), a record (`field  value`
 * lines) for anything else. Piped or with `--json`, the CLI prints the API's
 * JSON instead and none of this is used.
 */

const scalar = (v: unknown): boolean => v === null || ['string', 'number', 'boolean'].includes(typeof v);

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  return (typeof v === 'string' ? v : JSON.stringify(v)).replace(/\s+/g, ' ');
}

function clip(s: string, width: number): string {
  return s.length <= width ? s : `${s.slice(0, Math.max(1, width - 1))}…`;
}

export function table(rows: Record<string, unknown>[], width = 120): string {
  if (!rows.length) return '(none)\n';
  const keys: string[] = [];
  for (const row of rows) for (const [k, v] of Object.entries(row)) if (scalar(v) && !keys.includes(k)) keys.push(k);
  if (keys.includes('id')) keys.splice(0, 0, ...keys.splice(keys.indexOf('id'), 1));
  const MAX_CELL = 40;
  const widths = keys.map((k) => Math.min(MAX_CELL, Math.max(k.length, ...rows.map((r) => cell(r[k]).length))));
  const columns: number[] = [];
  let used = 0;
  for (const [i, w] of widths.entries()) {
    if (columns.length && used + w + 2 > width) break;
    columns.push(i);
    used += w + 2;
  }
  const line = (values: string[]) =>
    columns
      .map((i) => clip(values[i]!, widths[i]!).padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(keys.map((k) => k.toUpperCase())), ...rows.map((r) => line(keys.map((k) => cell(r[k]))))].join('\n') + '\n';
}

export function record(value: Record<string, unknown>): string {
  const keys = Object.keys(value);
  const width = Math.max(0, ...keys.map((k) => k.length)) + 2;
  return keys.map((k) => `${k.padEnd(width)}${cell(value[k])}`).join('\n') + '\n';
}

/** An API answer for a person: the list as a table with where it stands, or the resource as a record. */
export function human(body: unknown, width: number): string {
  if (body === null || typeof body !== 'object') return `${cell(body)}\n`;
  const { data, pagination, request_id: _requestId, ...rest } = body as Record<string, unknown>;
  if (Array.isArray(data)) {
    const p = pagination as { total?: number; offset?: number; has_more?: boolean } | undefined;
    const from = (p?.offset ?? 0) + (data.length ? 1 : 0);
    const footer = p ? `\n${from}–${(p.offset ?? 0) + data.length} of ${p.total ?? '?'}${p.has_more ? ' (--all for every page)' : ''}\n` : '';
    return table(data as Record<string, unknown>[], width) + footer;
  }
  const main = data && typeof data === 'object' ? record(data as Record<string, unknown>) : '';
  const extra = Object.keys(rest).length ? record(rest) : '';
  return main && extra ? `${main}\n${extra}` : main || extra || '(empty answer)\n';
}
