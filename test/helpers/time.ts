/**
 * Time for tests, computed from now and from the runtime's time-zone data
 * (Intl), never hard-coded: a test must pass on any day of the year, and
 * must not take its expectations from the code it checks.
 */
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** A whole second at least `ms` from now. */
export const ahead = (ms: number): Date => new Date(Math.ceil((Date.now() + ms) / 1000) * 1000);

/** `timeZone`'s UTC offset at `at`, in minutes east of UTC (Berlin in winter: 60). */
export function utcOffsetMinutes(at: Date, timeZone: string): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  const m = /^GMT(?:([+-])(\d\d):(\d\d))?$/.exec(name ?? '');
  if (!m) throw new Error(`unexpected offset name ${name} for ${timeZone}`);
  return m[1] ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

export interface OffsetChange {
  /** The first minute of the new offset. */
  at: Date;
  /** The offsets before and after, in minutes east of UTC. */
  before: number;
  after: number;
}

/**
 * The first change of `timeZone`'s UTC offset after `from` that `wanted`
 * accepts (e.g. a clock going back: `(c) => c.after < c.before`), found
 * day by day and then to the minute.
 */
export function nextOffsetChange(timeZone: string, from: Date, wanted: (c: OffsetChange) => boolean = () => true): OffsetChange {
  const offset = (t: number) => utcOffsetMinutes(new Date(t), timeZone);
  const start = Math.floor(from.getTime() / MINUTE) * MINUTE;
  for (let day = start; day < start + 800 * DAY; day += DAY) {
    if (offset(day) === offset(day + DAY)) continue;
    let [lo, hi] = [day, day + DAY]; // offset(lo) is the old one, offset(hi) the new one
    while (hi - lo > MINUTE) {
      const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
      if (offset(mid) === offset(lo)) lo = mid;
      else hi = mid;
    }
    const change = { at: new Date(hi), before: offset(lo), after: offset(hi) };
    if (wanted(change)) return change;
  }
  throw new Error(`${timeZone} has no such offset change within two years of ${from.toISOString()}`);
}
