/**
 * The contract's RRULE and cron patterns (schemas/openapi/recurrence.ts)
 * against the domain's parsers (domain/recurrence.ts): a string
 * matches the pattern exactly when the parser takes it, but for the rules no
 * pattern can state (`frequency`, `range`), which the document lists as rules
 * across values. Boundaries by hand, then a few thousand strings made of the
 * grammar's pieces, seeded so that a failure replays.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCron, parseRrule, RecurrenceError } from '../../domain/recurrence';
import { schemas as monitorSchemas } from '../../schemas/openapi/monitors';
import { CRON, CRON_PATTERN, RRULE, RRULE_PATTERN } from '../../schemas/openapi/recurrence';
import { schemas as scheduleSchemas } from '../../schemas/openapi/schedules';

const rrulePattern = new RegExp(RRULE_PATTERN, 'u');
const cronPattern = new RegExp(CRON_PATTERN, 'u');

/** The parser's verdict: null when it takes the text, else the rule it refuses it under. */
function verdict(parse: (text: string) => unknown, text: string): string | null {
  try {
    parse(text);
    return null;
  } catch (err) {
    assert.ok(err instanceof RecurrenceError, String(err));
    return err.rule;
  }
}

/** Rules across values that the pattern admits and only the parser refuses. */
const ACROSS_VALUES = ['frequency', 'range'];

function agree(pattern: RegExp, parse: (text: string) => unknown, text: string): void {
  const rule = verdict(parse, text);
  const parserTakes = rule === null || ACROSS_VALUES.includes(rule);
  assert.equal(pattern.test(text), parserTakes, `${JSON.stringify(text)}: pattern ${pattern.test(text)}, parser ${rule ?? 'takes it'}`);
}

/** mulberry32: a small seeded generator, so that every run tries the same strings. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Numbers at and around the ranges' edges, as both grammars write them (one or two digits). */
const NUMBERS = ['0', '00', '12', '13', '23', '24', '31', '32', '59', '60'];

const pick = <T>(next: () => number, xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;

describe('RRULE', () => {
  test('boundaries: ranges, INTERVAL per FREQ, BYMONTHDAY with MONTHLY only, each part once, FREQ required', () => {
    const taken = [
      'FREQ=DAILY',
      'FREQ=WEEKLY;BYDAY=MO,WE,FR',
      'BYHOUR=9;FREQ=DAILY;BYMINUTE=0',
      'FREQ=DAILY;BYHOUR=0,23;BYMINUTE=00,59',
      'FREQ=DAILY;BYHOUR=07;INTERVAL=001',
      'FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=1,31',
      'FREQ=MONTHLY;INTERVAL=012;BYMONTHDAY=01',
      'FREQ=MONTHLY;INTERVAL=6;BYDAY=SU,SU',
    ];
    const refused = [
      'FREQ=HOURLY',
      'FREQ=YEARLY',
      'BYHOUR=9',
      'FREQ=DAILY;BYHOUR=24',
      'FREQ=DAILY;BYMINUTE=60',
      'FREQ=DAILY;BYHOUR=009',
      'FREQ=DAILY;BYHOUR=9,',
      'FREQ=MONTHLY;BYMONTHDAY=0',
      'FREQ=MONTHLY;BYMONTHDAY=32',
      'FREQ=DAILY;BYMONTHDAY=1',
      'FREQ=WEEKLY;INTERVAL=2',
      'FREQ=DAILY;INTERVAL=0',
      'FREQ=MONTHLY;INTERVAL=5',
      'FREQ=MONTHLY;INTERVAL=0012',
      'FREQ=WEEKLY;BYDAY=1MO',
      'FREQ=WEEKLY;BYDAY=mo',
      'FREQ=DAILY;COUNT=5',
      'FREQ=DAILY;FREQ=DAILY',
      'FREQ=DAILY;BYHOUR=9;BYHOUR=10',
      'BYDAY=MO;FREQ=WEEKLY;BYDAY=TU',
      'FREQ=DAILY;',
      'RRULE:FREQ=DAILY',
      'EZKS=0W4K6QRhePupBl;ABQ=81Uq3aL8',
    ];
    for (const text of taken) assert.ok(rrulePattern.test(text), text);
    for (const text of refused) assert.ok(!rrulePattern.test(text), text);
    for (const text of [...taken, ...refused]) agree(rrulePattern, parseRrule, text);
  });

  test('4000 strings of the grammar’s pieces: the pattern and the parser agree on each', () => {
    const next = random(14);
    const keys = ['FREQ', 'FREQ', 'INTERVAL', 'BYHOUR', 'BYMINUTE', 'BYDAY', 'BYMONTHDAY', 'COUNT', 'BYSETPOS', 'freq'];
    const values = [
      ...NUMBERS,
      '001',
      '0001',
      '2',
      '3',
      '5',
      '6',
      '012',
      'DAILY',
      'WEEKLY',
      'MONTHLY',
      'HOURLY',
      '1',
      '01',
      '9,18',
      '0,30,45',
      '9,',
      'MO',
      'SU,SA',
      '1MO',
      'mo',
      '',
    ];
    for (let i = 0; i < 4000; i++) {
      const parts = Array.from({ length: 1 + Math.floor(next() * 4) }, () => `${pick(next, keys)}=${pick(next, values)}`);
      agree(rrulePattern, parseRrule, parts.join(next() < 0.05 ? ',' : ';'));
    }
  });
});

describe('cron', () => {
  test('boundaries: ranges and names, steps, one day field restricted; backwards ranges and dense rules are across values', () => {
    const taken = [
      '0 9 * * 1-5',
      '30 18 * jan-dec sun',
      '*/15 9-17 * * *',
      '59 23 31 12 *',
      '00 00 01 01 *',
      '0 9 * * 0,7',
      '5/20 1-5/2 * * Mon',
    ];
    const refused = ['0 9 1 * 1', '0 9 L * *', '0 9 * * 8', '0 9 * * 1#2', '0 25 * * *', '0 9 * *', '60 9 * * *', '0 9 0 * *', '*/0 9 * * *'];
    for (const text of taken) assert.ok(cronPattern.test(text), text);
    for (const text of refused) assert.ok(!cronPattern.test(text), text);
    assert.ok(cronPattern.test('0 9-7 * * *') && cronPattern.test('*/10 * * * *'), 'across values: admitted by the pattern');
    for (const text of [...taken, ...refused, '0 9-7 * * *', '*/10 * * * *']) agree(cronPattern, parseCron, text);
  });

  test('4000 expressions of the grammar’s pieces: the pattern and the parser agree on each', () => {
    const next = random(5);
    const items = [
      ...NUMBERS,
      '*',
      '*/15',
      '*/0',
      '*-5',
      '7',
      '8',
      '1-5',
      '5-1',
      '1-5/2',
      '0/30',
      'JAN',
      'jan-Dec',
      'SUN',
      'mon-fri',
      'L',
      '?',
      '1#2',
      '',
    ];
    const field = () => Array.from({ length: next() < 0.8 ? 1 : 2 }, () => pick(next, items)).join(',');
    for (let i = 0; i < 4000; i++) {
      const fields = Array.from({ length: next() < 0.95 ? 5 : 4 }, field);
      // Mostly a day field left as `*`, so that the other fields are what is tried.
      if (next() < 0.8) fields[next() < 0.5 ? 2 : fields.length - 1] = '*';
      agree(cronPattern, parseCron, fields.join(' '));
    }
  });
});

test('schedules and monitors take the same RRULE and cron schemas', () => {
  const branches = (schema: unknown) => (schema as { oneOf: { properties: Record<string, unknown> }[] }).oneOf.map((b) => b.properties);
  const schedule = branches(scheduleSchemas.ScheduleRecurrenceInput);
  const monitor = branches(monitorSchemas.MonitorFrequency);
  assert.equal(schedule.find((p) => p.rrule)!.rrule, RRULE);
  assert.equal(schedule.find((p) => p.cron)!.cron, CRON);
  assert.equal(monitor.find((p) => p.rrule)!.rrule, RRULE);
  assert.equal(monitor.find((p) => p.cron)!.cron, CRON);
});
