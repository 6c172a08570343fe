/**
 * Reads Prometheus' text exposition format (what a scraper reads): every
 * sample line `name{label="value",…} number`, comments and types skipped. A
 * line that is none of those fails the parse, so a malformed scrape is caught.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) labels[key!] = value!.replace(/\\(.)/g, '$1');
    // Prometheus reads NaN and Inf in any case (Go's ParseFloat); prom-client writes `Nan`.
    const raw = match[3]!.toLowerCase();
    const value = raw === 'nan' ? NaN : /^\+?inf$/.test(raw) ? Infinity : raw === '-inf' ? -Infinity : Number(raw);
    if (Number.isNaN(value) && raw !== 'nan') throw new Error(`not a number in: ${line}`);
    samples.push({ name: match[1]!, labels, value });
  }
  return samples;
}

/** The sum of the samples named `name` whose labels include `labels`. */
export function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}
