/**
 * When a schedule runs, as a Temporal ScheduleSpec (schedules and monitors), and
 * the time-zone rules analytics, accounts and journeys share. Pure: no I/O.
 *
 * - A one-off schedule is one calendar entry at its exact instant, written in
 *   UTC (so no daylight-saving gap or overlap can drop or double it).
 * - A recurring one is an RRULE subset mapped to one calendar entry, or a
 *   five-field cron expression passed to `cronExpressions`; either is read as
 *   wall-clock time in its IANA `timezone`, which Temporal applies, so 09:00
 *   stays 09:00 local across daylight-saving changes. `startAt` is `run_at`,
 *   `endAt` is `ends_at`.
 *
 * Both rule syntaxes are parsed here in full, so an unsupported part is a 400
 * naming it rather than a surprise in the scheduler.
 */
import type { CalendarSpec, DayOfWeek, Month, ScheduleSpec } from '@temporalio/client';

export interface Recurrence {
  rrule: string | null;
  cron: string | null;
  timezone: string;
  ends_at: Date | null;
}

/** A rule this module refuses: which field, which rule, and why (in words a client can act on). */
export class RecurrenceError extends Error {
  constructor(
    readonly field: string,
    readonly rule: string,
    message: string,
  ) {
    super(message);
  }
}

/** The shortest time allowed between two runs, in minutes. */
export const MIN_GAP_MINUTES = 15;

const MONTHS: Month[] = [
  'JANUARY',
  'FEBRUARY',
  'MARCH',
  'APRIL',
  'MAY',
  'JUNE',
  'JULY',
  'AUGUST',
  'SEPTEMBER',
  'OCTOBER',
  'NOVEMBER',
  'DECEMBER',
];
const DAYS: DayOfWeek[] = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'];
const RRULE_DAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

/** The canonical IANA names this runtime knows: a lookup, where asking Intl costs a formatter (a tenth of a millisecond or more). */
const CANONICAL_ZONES = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
/** Other names asked about (aliases such as `US/Eastern`, and names that are none), with the answer; forgotten past a size. */
const otherZones = new Map<string, boolean>();

/** True for a time zone name this runtime knows (IANA names and their aliases, e.g. `America/Sao_Paulo`, and `UTC`). */
export function isTimeZone(name: string): boolean {
  if (CANONICAL_ZONES.has(name)) return true;
  let known = otherZones.get(name);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat(undefined, { timeZone: name });
      known = true;
    } catch {
      known = false;
    }
    if (otherZones.size >= 1000) otherZones.clear();
    otherZones.set(name, known);
  }
  return known;
}

interface LocalTime {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number; // 0 = Sunday
}

/** One formatter per time zone: making an Intl.DateTimeFormat costs far more than using one. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock reading of `at` in `timeZone`. */
export function localTime(at: Date, timeZone: string): LocalTime {
  const parts = formatterFor(timeZone).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    hour: Number(get('hour')),
    minute: Number(get('minute')),
    second: Number(get('second')),
    weekday: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday')),
  };
}

/** `2030-10-27T01:30:00`: the wall-clock time of `at` in `timeZone`, to the second. */
export function wallTime(at: Date, timeZone: string): string {
  const t = localTime(at, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${t.year}-${two(t.month)}-${two(t.day)}T${two(t.hour)}:${two(t.minute)}:${two(t.second)}`;
}

/** Refuses rules whose times of day come closer than MIN_GAP_MINUTES, counting the gap across midnight too. */
function checkDensity(field: string, hours: number[], minutes: number[]): void {
  const times = [...new Set(hours.flatMap((h) => minutes.map((m) => h * 60 + m)))].sort((a, b) => a - b);
  let gap = 24 * 60 - times[times.length - 1]! + times[0]!;
  for (let i = 1; i < times.length; i++) gap = Math.min(gap, times[i]! - times[i - 1]!);
  if (gap < MIN_GAP_MINUTES) {
    throw new RecurrenceError(
      field,
      'frequency',
      `runs ${gap === 1 ? '1 minute' : `${gap} minutes`} apart; schedules run at most every ${MIN_GAP_MINUTES} minutes`,
    );
  }
}

// --- RRULE ------------------------------------------------------------------

interface Rrule {
  freq: 'DAILY' | 'WEEKLY' | 'MONTHLY';
  interval: number;
  byHour: number[] | null;
  byMinute: number[] | null;
  byDay: number[] | null;
  byMonthDay: number[] | null;
}

const UNSUPPORTED_PARTS: Record<string, string> = {
  COUNT: 'COUNT is not supported; end the recurrence with recurrence.ends_at',
  UNTIL: 'UNTIL is not supported; end the recurrence with recurrence.ends_at',
};

function intList(field: string, part: string, value: string, min: number, max: number): number[] {
  const out = value.split(',').map((v) => (/^\d{1,2}$/.test(v) ? Number(v) : NaN));
  if (out.some((n) => !(n >= min && n <= max))) {
    throw new RecurrenceError(field, 'rrule', `${part} takes numbers from ${min} to ${max}, separated by commas`);
  }
  return [...new Set(out)].sort((a, b) => a - b);
}

/** Parses the supported RRULE subset (see the contract's description); anything else throws RecurrenceError. */
export function parseRrule(text: string, field = 'recurrence.rrule'): Rrule {
  const parts = new Map<string, string>();
  for (const piece of text.split(';')) {
    const [key, value, ...rest] = piece.split('=');
    if (!key || value === undefined || rest.length) throw new RecurrenceError(field, 'rrule', `"${piece}" is not a KEY=VALUE part`);
    if (parts.has(key)) throw new RecurrenceError(field, 'rrule', `${key} appears twice`);
    parts.set(key, value);
  }
  for (const key of parts.keys()) {
    if (UNSUPPORTED_PARTS[key]) throw new RecurrenceError(field, 'rrule', UNSUPPORTED_PARTS[key]);
    if (!['FREQ', 'INTERVAL', 'BYHOUR', 'BYMINUTE', 'BYDAY', 'BYMONTHDAY'].includes(key)) {
      throw new RecurrenceError(field, 'rrule', `${key} is not supported (supported: FREQ, INTERVAL, BYHOUR, BYMINUTE, BYDAY, BYMONTHDAY)`);
    }
  }
  const freq = parts.get('FREQ');
  if (freq !== 'DAILY' && freq !== 'WEEKLY' && freq !== 'MONTHLY') {
    throw new RecurrenceError(field, 'rrule', `FREQ must be DAILY, WEEKLY or MONTHLY${freq ? ` (${freq} is not supported)` : ''}`);
  }
  const intervalText = parts.get('INTERVAL') ?? '1';
  const interval = /^\d{1,3}$/.test(intervalText) ? Number(intervalText) : 0;
  if (interval < 1) throw new RecurrenceError(field, 'rrule', 'INTERVAL must be a positive whole number');
  // A calendar can step months from a phase that repeats every year (12 divisible by the step), but not days or weeks.
  if (interval > 1 && (freq !== 'MONTHLY' || 12 % interval !== 0)) {
    throw new RecurrenceError(
      field,
      'rrule',
      freq === 'MONTHLY'
        ? 'INTERVAL for MONTHLY must be 1, 2, 3, 4, 6 or 12'
        : `INTERVAL above 1 is not supported for ${freq} (list the days with BYDAY, or use a cron expression)`,
    );
  }
  const byDayText = parts.get('BYDAY');
  let byDay: number[] | null = null;
  if (byDayText !== undefined) {
    byDay = byDayText.split(',').map((d) => {
      const i = RRULE_DAYS.indexOf(d);
      if (i < 0) throw new RecurrenceError(field, 'rrule', `BYDAY takes MO, TU, WE, TH, FR, SA, SU without ordinals ("${d}" is not supported)`);
      return i;
    });
    byDay = [...new Set(byDay)].sort((a, b) => a - b);
  }
  const byMonthDayText = parts.get('BYMONTHDAY');
  if (byMonthDayText !== undefined && freq !== 'MONTHLY')
    throw new RecurrenceError(field, 'rrule', 'BYMONTHDAY is supported with FREQ=MONTHLY only');
  return {
    freq,
    interval,
    byHour: parts.has('BYHOUR') ? intList(field, 'BYHOUR', parts.get('BYHOUR')!, 0, 23) : null,
    byMinute: parts.has('BYMINUTE') ? intList(field, 'BYMINUTE', parts.get('BYMINUTE')!, 0, 59) : null,
    byDay,
    byMonthDay: byMonthDayText !== undefined ? intList(field, 'BYMONTHDAY', byMonthDayText, 1, 31) : null,
  };
}

/**
 * The calendar entry of an RRULE; parts left out come from `start` read in
 * `timeZone` (as RFC 5545 takes them from DTSTART) — the second too, but only
 * when the whole time of day does (`BYHOUR=9` means 09:mm:00, not 09:mm:48).
 */
function rruleCalendar(rule: Rrule, start: Date, timeZone: string): CalendarSpec {
  const local = localTime(start, timeZone);
  const cal: CalendarSpec = {
    second: rule.byHour || rule.byMinute ? 0 : local.second,
    minute: rule.byMinute ?? local.minute,
    hour: rule.byHour ?? local.hour,
  };
  const days = rule.byDay?.map((d) => DAYS[d]!);
  if (rule.freq === 'WEEKLY') cal.dayOfWeek = days ?? DAYS[local.weekday]!;
  else if (days) cal.dayOfWeek = days;
  if (rule.freq === 'MONTHLY') {
    cal.dayOfMonth = rule.byMonthDay ?? (days ? '*' : local.day);
    if (rule.interval > 1) cal.month = { start: MONTHS[(local.month - 1) % rule.interval]!, end: 'DECEMBER', step: rule.interval };
  }
  return cal;
}

// --- cron -------------------------------------------------------------------

const CRON_FIELDS = [
  { name: 'minute', min: 0, max: 59, names: [] as string[] },
  { name: 'hour', min: 0, max: 23, names: [] },
  { name: 'day-of-month', min: 1, max: 31, names: [] },
  { name: 'month', min: 1, max: 12, names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] },
  { name: 'day-of-week', min: 0, max: 7, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
] as const;

/**
 * The values one cron field selects; throws RecurrenceError on anything outside
 * the documented grammar. A range running backwards is no matter of grammar
 * (rule `range`): it goes in `backwards`, for parseCron to refuse once the
 * whole expression is known to be well formed.
 */
function cronField(field: string, spec: (typeof CRON_FIELDS)[number], text: string, backwards: string[]): number[] {
  const why = (reason: string) => `${spec.name} field "${text}": ${reason}`;
  const refuse = (reason: string) => new RecurrenceError(field, 'cron', why(reason));
  const value = (v: string): number => {
    const named = (spec.names as readonly string[]).indexOf(v.toUpperCase());
    if (named >= 0) return named + (spec.name === 'month' ? 1 : 0);
    if (!/^\d{1,2}$/.test(v)) throw refuse(`"${v}" is not a number${spec.names.length ? ' or a name' : ''}`);
    const n = Number(v);
    if (n < spec.min || n > spec.max) throw refuse(`${n} is outside ${spec.min}-${spec.max}`);
    return n;
  };
  const out = new Set<number>();
  for (const item of text.split(',')) {
    const m = /^(\*|[A-Za-z0-9]+)(?:-([A-Za-z0-9]+))?(?:\/(\d{1,2}))?$/.exec(item);
    if (!m) throw refuse(`"${item}" is not supported (use *, a, a-b, */n, a/n, a-b/n)`);
    const [, from, to, stepText] = m;
    if (from === '*' && to !== undefined) throw refuse(`"${item}" is not supported`);
    const start = from === '*' ? spec.min : value(from!);
    const end = to !== undefined ? value(to) : from === '*' || stepText ? spec.max : start;
    const step = stepText ? Number(stepText) : 1;
    if (step < 1) throw refuse('a step must be at least 1');
    if (end < start) backwards.push(why(`the range ${start}-${end} runs backwards`));
    for (let n = start; n <= end; n += step) out.add(n);
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * Validates a five-field cron expression; its normal form (single spaces) is
 * what Temporal receives. The grammar first (rule `cron`: what the contract's
 * pattern states), then the rules across values that no pattern states:
 * a backwards range (`range`), runs closer than 15 minutes (`frequency`).
 */
export function parseCron(text: string, field = 'recurrence.cron'): string {
  const fields = text.trim().split(/\s+/);
  if (fields.length !== 5)
    throw new RecurrenceError(field, 'cron', 'a cron expression has five fields: minute hour day-of-month month day-of-week');
  const backwards: string[] = [];
  const [minutes, hours] = CRON_FIELDS.map((spec, i) => cronField(field, spec, fields[i]!, backwards));
  if (fields[2] !== '*' && fields[4] !== '*') {
    throw new RecurrenceError(field, 'cron', 'restrict day-of-month or day-of-week, not both (cron dialects disagree on what both mean)');
  }
  if (backwards.length) throw new RecurrenceError(field, 'range', backwards[0]!);
  checkDensity(field, hours!, minutes!);
  return fields.join(' ');
}

// --- validation and the spec ------------------------------------------------

/**
 * Checks a recurrence as sent (one of `rrule`/`cron`, a known time zone, the
 * frequency limit) for a schedule starting at `runAt`; its normal form.
 */
export function checkRecurrence(input: { rrule?: string; cron?: string; timezone?: string; ends_at: Date | null }, runAt: Date): Recurrence {
  const timezone = input.timezone ?? 'UTC';
  if (!isTimeZone(timezone)) throw new RecurrenceError('recurrence.timezone', 'timezone', `"${timezone}" is not an IANA time zone`);
  if (input.ends_at && input.ends_at <= runAt) throw new RecurrenceError('recurrence.ends_at', 'after_run_at', 'must be after run_at');
  if (input.cron !== undefined) return { rrule: null, cron: parseCron(input.cron), timezone, ends_at: input.ends_at };
  const rule = parseRrule(input.rrule!);
  const local = localTime(runAt, timezone);
  checkDensity('recurrence.rrule', rule.byHour ?? [local.hour], rule.byMinute ?? [local.minute]);
  return { rrule: input.rrule!, cron: null, timezone, ends_at: input.ends_at };
}

/** The exact instant `at` as a calendar entry in UTC: it matches that one second and never again. */
function instantCalendar(at: Date): CalendarSpec {
  return {
    year: at.getUTCFullYear(),
    month: MONTHS[at.getUTCMonth()]!,
    dayOfMonth: at.getUTCDate(),
    hour: at.getUTCHours(),
    minute: at.getUTCMinutes(),
    second: at.getUTCSeconds(),
  };
}

/** The Temporal ScheduleSpec of a schedule that runs at `run_at`, repeated by `recurrence` when set. */
export function scheduleSpec(s: { run_at: Date; recurrence: Recurrence | null }): ScheduleSpec {
  const r = s.recurrence;
  if (!r) return { calendars: [instantCalendar(s.run_at)], startAt: s.run_at, timezone: 'UTC' };
  const base: ScheduleSpec = { startAt: s.run_at, timezone: r.timezone, ...(r.ends_at ? { endAt: r.ends_at } : {}) };
  if (r.cron) return { ...base, cronExpressions: [r.cron] };
  return { ...base, calendars: [rruleCalendar(parseRrule(r.rrule!), s.run_at, r.timezone)] };
}
