/** "Did you mean …?": the allowed word a mistyped one most likely meant (request validation, operator commands). */

/** Edit distance of two short words (insertions, deletions, substitutions, swaps of neighbours). */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  return rows[a.length]![b.length]!;
}

/** The allowed value a mistyped one most likely meant: within a third of its length in edits, else none. */
export function closest(value: unknown, allowed: readonly unknown[]): string | null {
  if (typeof value !== 'string' || value.length > 100) return null;
  let best: { word: string; d: number } | null = null;
  for (const word of allowed) {
    const most = typeof word === 'string' ? Math.max(1, Math.floor(word.length / 3)) : -1;
    // The lengths alone rule most words out (edits ≥ their difference): a request of many wrong values stays cheap.
    if (typeof word !== 'string' || Math.abs(word.length - value.length) > most) continue;
    const d = word.toLowerCase() === value.toLowerCase() ? 0.5 : distance(value, word);
    if (d <= most && (!best || d < best.d)) best = { word, d };
  }
  return best?.word ?? null;
}
