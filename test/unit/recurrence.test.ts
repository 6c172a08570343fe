/**
 * The recurrence rules (domain/recurrence.ts), without the stack:
 * which RRULEs and cron expressions are refused and why, the frequency limit,
 * and the Temporal ScheduleSpec a schedule becomes. test/api/schedules.test.ts
 * checks that a refusal is a 400 naming the part, and what Temporal makes of
 * the spec.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkRecurrence, RecurrenceError, scheduleSpec, wallTime } from '../../domain/recurrence';
import { DAY, MINUTE, nextOffsetChange } from '../helpers/time';

const runAt = new Date(Date.now() + DAY);

/** Asserts that `recurrence` is refused on `field` under `rule`, with a message matching `says`. */
function refused(recurrence: { rrule?: string; cron?: string }, field: string, rule: string, says: RegExp): void {
  assert.throws(
    () => checkRecurrence({ ...recurrence, ends_at: null }, runAt),
    (err: unknown) => {
      assert.ok(err instanceof RecurrenceError, String(err));
      assert.deepEqual([err.field, err.rule], [field, rule], err.message);
      assert.match(err.message, says);
      return true;
    },
    JSON.stringify(recurrence),
  );
}

describe('RRULE subset', () => {
  test('parts and values outside the subset are refused, naming the part', () => {
    for (const [rrule, says] of [
      ['FREQ=HOURLY', /HOURLY is not supported/],
      ['FREQ=YEARLY', /YEARLY is not supported/],
      ['FREQ=DAILY;COUNT=5', /recurrence\.ends_at/],
      ['FREQ=DAILY;UNTIL=20310101T000000Z', /recurrence\.ends_at/],
      ['FREQ=WEEKLY;BYDAY=1MO', /without ordinals/],
      ['FREQ=WEEKLY;INTERVAL=2', /INTERVAL above 1 is not supported for WEEKLY/],
      ['FREQ=DAILY;INTERVAL=3', /INTERVAL above 1 is not supported for DAILY/],
      ['FREQ=MONTHLY;INTERVAL=5', /1, 2, 3, 4, 6 or 12/],
      ['FREQ=DAILY;BYMONTHDAY=1', /MONTHLY only/],
      ['FREQ=DAILY;BYSETPOS=1', /BYSETPOS is not supported/],
      ['FREQ=DAILY;BYHOUR=24', /BYHOUR takes numbers from 0 to 23/],
      ['BYHOUR=9', /FREQ must be/],
    ] as const) {
      refused({ rrule }, 'recurrence.rrule', 'rrule', says);
    }
  });

  test('runs closer than 15 minutes are refused, across midnight too; exactly 15 minutes, and an hour across midnight, are allowed', () => {
    refused({ rrule: 'FREQ=DAILY;BYHOUR=9;BYMINUTE=0,14' }, 'recurrence.rrule', 'frequency', /14 minutes apart/);
    refused({ rrule: 'FREQ=DAILY;BYHOUR=0,23;BYMINUTE=0,55' }, 'recurrence.rrule', 'frequency', /5 minutes apart/); // 23:55 → 00:00
    for (const rrule of ['FREQ=DAILY;BYHOUR=9;BYMINUTE=0,15,30,45', 'FREQ=DAILY;BYHOUR=0,23;BYMINUTE=50']) {
      assert.deepEqual(checkRecurrence({ rrule, ends_at: null }, runAt), { rrule, cron: null, timezone: 'UTC', ends_at: null });
    }
  });

  test('WEEKLY;BYDAY;BYHOUR;BYMINUTE is one calendar entry in the time zone, starting at run_at', () => {
    const spec = scheduleSpec({
      run_at: runAt,
      recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=9;BYMINUTE=30', cron: null, timezone: 'America/Sao_Paulo', ends_at: null },
    });
    assert.deepEqual(spec, {
      startAt: runAt,
      timezone: 'America/Sao_Paulo',
      calendars: [{ second: 0, minute: [30], hour: [9], dayOfWeek: ['MONDAY', 'WEDNESDAY'] }],
    });
  });

  test('parts left out come from run_at read in the time zone; MONTHLY INTERVAL steps months from its month', () => {
    const start = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 4, 20, 23, 45, 12)); // 20 May, 08:45:12 next day in Tokyo
    const daily = scheduleSpec({ run_at: start, recurrence: { rrule: 'FREQ=DAILY', cron: null, timezone: 'Asia/Tokyo', ends_at: null } });
    assert.deepEqual(daily.calendars, [{ second: 12, minute: 45, hour: 8 }]);
    const quarterly = scheduleSpec({
      run_at: start,
      recurrence: { rrule: 'FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=15;BYHOUR=8;BYMINUTE=0', cron: null, timezone: 'UTC', ends_at: null },
    });
    // May is month 5: every third month from February (5 ≡ 2 mod 3) gives May, August, November, February.
    assert.deepEqual(quarterly.calendars, [
      { second: 0, minute: [0], hour: [8], dayOfMonth: [15], month: { start: 'FEBRUARY', end: 'DECEMBER', step: 3 } },
    ]);
  });
});

describe('cron', () => {
  test('outside the grammar, both day fields, or denser than 15 minutes is refused, naming the part', () => {
    for (const [cron, rule, says] of [
      ['*/10 * * * *', 'frequency', /10 minutes apart/],
      ['0,1 * * * *', 'frequency', /runs 1 minute apart/],
      ['0 9 1 * 1', 'cron', /not both/],
      ['0 9 L * *', 'cron', /"L" is not a number/],
      ['0 9 * * 8', 'cron', /outside 0-7/],
      ['0 9 * * 1#2', 'cron', /not supported/],
      ['0 25 * * *', 'cron', /outside 0-23/],
      ['0 9-7 * * *', 'range', /runs backwards/],
      ['0 9 * *', 'cron', /five fields/],
    ] as const) {
      refused({ cron }, 'recurrence.cron', rule, says);
    }
  });

  test('an accepted expression goes to Temporal in its normal form, with the time zone and ends_at', () => {
    const endsAt = new Date(runAt.getTime() + 30 * DAY);
    const recurrence = checkRecurrence({ cron: ' 30  18 * jan-dec sun ', timezone: 'Europe/Berlin', ends_at: endsAt }, runAt);
    assert.deepEqual(recurrence, { rrule: null, cron: '30 18 * jan-dec sun', timezone: 'Europe/Berlin', ends_at: endsAt });
    assert.deepEqual(scheduleSpec({ run_at: runAt, recurrence }), {
      startAt: runAt,
      endAt: endsAt,
      timezone: 'Europe/Berlin',
      cronExpressions: ['30 18 * jan-dec sun'],
    });
  });
});

describe('time zones and the spec', () => {
  test('an unknown time zone, or an ends_at not after run_at, is refused', () => {
    assert.throws(() => checkRecurrence({ rrule: 'FREQ=DAILY', timezone: 'Mars/Olympus_Mons', ends_at: null }, runAt), {
      field: 'recurrence.timezone',
      rule: 'timezone',
    });
    assert.throws(() => checkRecurrence({ rrule: 'FREQ=DAILY', ends_at: runAt }, runAt), { field: 'recurrence.ends_at', rule: 'after_run_at' });
  });

  test('a one-off is one calendar entry at its exact instant in UTC', () => {
    const at = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 2, 29, 1, 30, 5));
    assert.deepEqual(scheduleSpec({ run_at: at, recurrence: null }), {
      startAt: at,
      timezone: 'UTC',
      calendars: [{ year: at.getUTCFullYear(), month: 'MARCH', dayOfMonth: 29, hour: 1, minute: 30, second: 5 }],
    });
  });

  test('wallTime reads the twice-occurring time of a night the clocks go back the same both times', () => {
    const back = nextOffsetChange('Europe/Berlin', new Date(), (c) => c.after < c.before);
    const first = new Date(back.at.getTime() - 30 * MINUTE);
    const second = new Date(first.getTime() + (back.before - back.after) * MINUTE);
    assert.equal(wallTime(first, 'Europe/Berlin'), wallTime(second, 'Europe/Berlin'));
    assert.match(wallTime(first, 'Europe/Berlin'), /T02:30:00$/);
  });
});
