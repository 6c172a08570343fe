/**
 * A pure function's answers kept for the last `max` distinct arguments (the
 * oldest forgotten first): for hot paths that meet the same few inputs again
 * and again (a visitor's IP, a browser's user agent).
 */
export function boundedMemo<V>(max: number, compute: (key: string) => V): (key: string) => V {
  const kept = new Map<string, V>();
  return (key) => {
    const hit = kept.get(key);
    if (hit !== undefined) return hit;
    const value = compute(key);
    if (kept.size >= max) kept.delete(kept.keys().next().value!);
    kept.set(key, value);
    return value;
  };
}
