/**
 * The rules a schedule's recurrence and a monitor's frequency are written in:
 * one schema each for the RRULE subset, the five-field cron and the IANA time
 * zone, shared by every operation that takes them. The patterns admit exactly
 * what the domain's parsers accept (domain/recurrence.ts: parts,
 * values and their ranges, which part goes with which `FREQ`, each part at
 * most once); test/unit/recurrence-patterns.test.ts holds them to the parsers.
 * What no pattern can state is a documented rule across values (see
 * STATE_DECIDED_RULES): runs at least 15 minutes apart (`frequency`), a cron
 * range not running backwards (`range`), a time zone the database knows (`timezone`).
 */
import { FORM_KEYWORD, str } from './common';

const alt = (...xs: string[]): string => `(?:${xs.join('|')})`;
const list = (item: string): string => `${item}(?:,${item})*`;
/** `JAN` → `[Jj][Aa][Nn]`: cron names are read in any case. */
const anyCase = (word: string): string => [...word].map((c) => `[${c}${c.toLowerCase()}]`).join('');

// --- RRULE ------------------------------------------------------------------

/** Numbers as the parser reads them: one or two digits (`7`, `07`), within the part's range. */
const HOUR = '(?:[01]?[0-9]|2[0-3])';
const MINUTE = '[0-5]?[0-9]';
const MONTH_DAY = '(?:0?[1-9]|[12][0-9]|3[01])';
const WEEKDAY = '(?:MO|TU|WE|TH|FR|SA|SU)';
/** INTERVAL has up to three digits: 1 for DAILY and WEEKLY; a divisor of 12 for MONTHLY. */
const INTERVAL_ONE = '0{0,2}1';
const INTERVAL_MONTHLY = '(?:0{0,2}[1-46]|0?12)';

const timeParts = [`BYHOUR=${list(HOUR)}`, `BYMINUTE=${list(MINUTE)}`, `BYDAY=${list(WEEKDAY)}`];
/** The parts besides FREQ that go with DAILY or WEEKLY, and with MONTHLY. */
const DAILY_PART = alt(`INTERVAL=${INTERVAL_ONE}`, ...timeParts);
const MONTHLY_PART = alt(`INTERVAL=${INTERVAL_MONTHLY}`, ...timeParts, `BYMONTHDAY=${list(MONTH_DAY)}`);
/** FREQ exactly once, anywhere among the other parts. */
const withFreq = (freq: string, part: string): string => `(?:${part};)*FREQ=${freq}(?:;${part})*`;
/** No part twice: no `KEY=` that appears again after a later `;`. */
const NO_PART_TWICE = '(?!(?:.*;)?(INTERVAL|BYHOUR|BYMINUTE|BYDAY|BYMONTHDAY)=.*;\\1=)';

export const RRULE_PATTERN = `^${NO_PART_TWICE}${alt(withFreq('(?:DAILY|WEEKLY)', DAILY_PART), withFreq('MONTHLY', MONTHLY_PART))}$`;

export const RRULE = str({
  minLength: 10,
  maxLength: 500,
  pattern: RRULE_PATTERN,
  examples: ['FREQ=DAILY;BYHOUR=9;BYMINUTE=0'],
  [FORM_KEYWORD]:
    'an RRULE of the supported subset: FREQ=DAILY, WEEKLY or MONTHLY, and at most once each INTERVAL (1; for MONTHLY 1, 2, 3, 4, ' +
    '6 or 12), BYHOUR (0-23), BYMINUTE (0-59), BYDAY (MO…SU) and, for MONTHLY, BYMONTHDAY (1-31), e.g. FREQ=DAILY;BYHOUR=9;BYMINUTE=0 ' +
    '(COUNT and UNTIL: use ends_at)',
  description:
    'RFC 5545 RRULE without the `RRULE:` prefix, e.g. `FREQ=DAILY;BYHOUR=9;BYMINUTE=0` or `FREQ=WEEKLY;BYDAY=MO,WE,FR`. ' +
    'Supported subset, each part at most once and in any order: `FREQ` (required) = `DAILY`, `WEEKLY` or `MONTHLY`; `BYHOUR` ' +
    '(0-23) and `BYMINUTE` (0-59) lists; `BYDAY` (`MO`…`SU`, no ordinals such as `1MO`); `BYMONTHDAY` (1-31, `MONTHLY` only; ' +
    'months without that day are skipped); `INTERVAL` = 1, or for `MONTHLY` 2, 3, 4, 6 or 12. Numbers have one or two digits ' +
    '(`INTERVAL` up to three). A part left out is taken from `run_at` read in `timezone` (the hour and minute — and the second ' +
    'when neither `BYHOUR` nor `BYMINUTE` is given, else :00; the weekday for `WEEKLY`; the day of the month for `MONTHLY`). ' +
    'Anything else (`COUNT`, `UNTIL` — use `ends_at` —, `HOURLY`, `YEARLY`, `BYSETPOS`, `INTERVAL` above 1 for ' +
    '`DAILY`/`WEEKLY`, …) is a 400 `validation_failed` (rule `pattern`). The times of day it gives must be at least 15 minutes ' +
    'apart, across midnight too (rule `frequency`).',
});

// --- cron -------------------------------------------------------------------

const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
/** A step `/n`: n from 1 to 99. */
const STEP = '(?:0?[1-9]|[1-9][0-9])';
/** One cron field of `value`s: a comma list of `*`, `a` or `a-b`, each with an optional step. */
const cronField = (value: string): string => list(`(?:\\*|${value}(?:-${value})?)(?:/${STEP})?`);
const CRON_MINUTE = cronField(MINUTE);
const CRON_HOUR = cronField(HOUR);
const CRON_MONTH_DAY = cronField(MONTH_DAY);
const CRON_MONTH = cronField(alt('0?[1-9]', '1[0-2]', ...MONTH_NAMES.map(anyCase)));
const CRON_WEEKDAY = cronField(alt('0?[0-7]', ...DAY_NAMES.map(anyCase)));

/** Day-of-month or day-of-week restricted, never both (one of them is `*`). */
export const CRON_PATTERN = `^${CRON_MINUTE} ${CRON_HOUR} ${alt(`\\* ${CRON_MONTH} ${CRON_WEEKDAY}`, `${CRON_MONTH_DAY} ${CRON_MONTH} \\*`)}$`;

export const CRON = str({
  minLength: 9,
  maxLength: 120,
  pattern: CRON_PATTERN,
  examples: ['0 9 * * 1-5'],
  [FORM_KEYWORD]:
    'a five-field cron expression (minute hour day-of-month month day-of-week, single spaces) of *, a, a-b, */n, a/n, a-b/n or ' +
    'comma lists of those, restricting day-of-month or day-of-week but not both, e.g. 0 9 * * 1-5',
  description:
    'five-field cron expression (minute hour day-of-month month day-of-week, separated by single spaces), e.g. `0 9 * * 1-5`. ' +
    'Each field: `*`, a value, a range `a-b`, a step `*/n`, `a/n` or `a-b/n` (n from 1 to 99), or a comma list of those; ' +
    'minutes 0-59, hours 0-23, days of the month 1-31, months `1-12` or `JAN`-`DEC`, weekdays `0-7` (0 and 7 are Sunday) or ' +
    '`SUN`-`SAT` (names in any case; numbers of one or two digits). Restrict day-of-month or day-of-week, not both (classic ' +
    'cron would run when either matches, the scheduler when both do: the ambiguity is refused). No `@daily`-style ' +
    'shorthands, `L`, `W`, `#` or `?`. A range must not run backwards (`9-7`: rule `range`), and the times of day must be ' +
    'at least 15 minutes apart, across midnight too (rule `frequency`).',
});

// --- time zone ----------------------------------------------------------------

export const IANA_TIMEZONE = str({
  minLength: 1,
  maxLength: 64,
  pattern: '^(?:UTC|[A-Za-z]+(?:/[A-Za-z0-9_+-]+)+)$',
  [FORM_KEYWORD]: 'an IANA time zone name such as America/Sao_Paulo, or UTC',
  description:
    'IANA time zone name, e.g. `America/Sao_Paulo`, or `UTC` (the default when omitted); a name the time zone database does ' +
    'not know is a 400 `validation_failed` (rule `timezone`)',
});
