/** The analytics day and hour of an instant, kept per quarter hour, agree with the wall clock read afresh — across DST changes and odd offsets. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { localDayHour } from '../../domain/analytics/buckets';
import { localTime } from '../../domain/recurrence';

test('localDayHour matches the wall clock minute by minute through DST changes and 45-minute offsets', () => {
  const spans: [string, string][] = [
    ['Europe/Berlin', '2026-10-25T00:00:00Z'], // clocks go back at 01:00 UTC
    ['America/New_York', '2026-03-08T06:00:00Z'], // clocks go forward at 07:00 UTC
    ['Asia/Kathmandu', '2026-11-24T17:00:00Z'], // +05:45: local midnight at 18:15 UTC
    ['Australia/Lord_Howe', '2026-10-03T14:00:00Z'], // a 30-minute DST change at 15:30 UTC
  ];
  for (const [zone, from] of spans) {
    for (let m = 0; m < 3 * 60; m += 7) {
      const at = new Date(Date.parse(from) + m * 60_000 + (m % 60) * 1000);
      const t = localTime(at, zone);
      const pad = (n: number) => String(n).padStart(2, '0');
      assert.deepEqual(
        localDayHour(at, zone),
        { day: `${t.year}-${pad(t.month)}-${pad(t.day)}`, hour: t.hour },
        `${zone} at ${at.toISOString()}`,
      );
    }
  }
});
