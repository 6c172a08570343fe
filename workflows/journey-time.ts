/**
 * The wait of a journey's `wait` block `until` a time of day: how long from
 * `nowMs` to the next instant whose wall-clock time in `timeZone` is `HH:MM`.
 * Pure and deterministic (Intl's time-zone data; no clock of its own), so the
 * workflow computes it from its own time. A time the clocks skip that day (a
 * daylight-saving gap) is reached as the wall-clock time just after the gap
 * (02:30 skipped → 03:30); a time they repeat, at its first occurrence.
 */

const MINUTE = 60_000;

/** The wall-clock minutes since midnight of instant `ms` in `timeZone`. */
function minutesOfDay(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit' }).formatToParts(ms);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return part('hour') * 60 + part('minute');
}

/** Milliseconds from `nowMs` to the next `until` (`HH:MM`) in `timeZone`: more than 0, at most about a day. */
export function msUntilTimeOfDay(nowMs: number, until: string, timeZone: string): number {
  const [h, m] = until.split(':').map(Number) as [number, number];
  const target = h * 60 + m;
  const start = Math.floor(nowMs / MINUTE) * MINUTE + MINUTE;
  // First hop forward by the wall-clock distance; a daylight-saving change on the way leaves the landing off by its size,
  // which the next hops (signed) correct. A skipped time never converges: the latest landing is then the time after the gap.
  let at = start + ((target - minutesOfDay(start, timeZone) + 1440) % 1440) * MINUTE;
  let latest = at;
  for (let hop = 0; hop < 4; hop++) {
    const off = ((((target - minutesOfDay(at, timeZone)) % 1440) + 2160) % 1440) - 720;
    if (off === 0) return at - nowMs;
    at += off * MINUTE;
    if (at > start) latest = Math.max(latest, at);
  }
  return latest - nowMs;
}
