/**
 * The pure parts of journey executions: the wait until a time of day in a
 * time zone (daylight-saving days included, from the zone data), and the
 * tests of filters and condition blocks, and what an event is about.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { holds, subjectOf } from '../../domain/journeys/conditions';
import { msUntilTimeOfDay } from '../../workflows/journey-time';
import { nextOffsetChange, utcOffsetMinutes } from '../helpers/time';

const MIN = 60_000;
/** The wall-clock `HH:MM` of `ms` in `zone`. */
const wall = (ms: number, zone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);

describe('msUntilTimeOfDay', () => {
  test('the next such wall-clock time: later today, or tomorrow when it has passed or is now', () => {
    const now = Date.parse('2026-11-23T12:00:00Z'); // 09:00 in São Paulo (UTC-3, no daylight saving)
    assert.equal(msUntilTimeOfDay(now, '10:30', 'America/Sao_Paulo'), 90 * MIN);
    assert.equal(msUntilTimeOfDay(now, '09:00', 'America/Sao_Paulo'), 24 * 60 * MIN);
    assert.equal(msUntilTimeOfDay(now, '08:59', 'America/Sao_Paulo'), 24 * 60 * MIN - MIN);
    assert.equal(msUntilTimeOfDay(now + 30_000, '09:01', 'America/Sao_Paulo'), 30_000);
  });

  for (const zone of ['America/New_York', 'Europe/Lisbon']) {
    test(`${zone}: across the next daylight-saving changes the wait lands on the wall-clock time`, () => {
      for (const change of [nextOffsetChange(zone, new Date()), nextOffsetChange(zone, new Date(Date.now() + 200 * 86_400_000))]) {
        const from = change.at.getTime() - 6 * 60 * MIN; // six hours before the change
        for (const until of ['07:00', '12:15', '23:45']) {
          const at = from + msUntilTimeOfDay(from, until, zone);
          assert.equal(wall(at, zone), until, `${until} from ${new Date(from).toISOString()}`);
          assert.ok(at > from && at - from <= 25 * 60 * MIN);
        }
      }
    });
  }

  test('a time the clocks skip is reached just after the gap', () => {
    const zone = 'America/New_York';
    const spring = nextOffsetChange(zone, new Date(), (c) => c.after > c.before);
    const from = spring.at.getTime() - 3 * 60 * MIN;
    const skippedWall = wall(spring.at.getTime() - 30 * MIN, zone); // half an hour before the jump: e.g. 01:30
    const [h, m] = skippedWall.split(':').map(Number) as [number, number];
    const skipped = `${String(h + 1).padStart(2, '0')}:${String(m).padStart(2, '0')}`; // e.g. 02:30, which does not exist that day
    const at = from + msUntilTimeOfDay(from, skipped, zone);
    assert.equal(at, spring.at.getTime() + 30 * MIN);
    assert.equal(utcOffsetMinutes(new Date(at), zone), spring.after);
  });
});

describe('conditions', () => {
  const scope = {
    event: { kind: 'message.received', data: { message: { text: 'Quero um ATENDENTE', direction: 'inbound' }, price: '12.5' } },
    contact: { tags: ['vip', 'sp'], stage: 'new', display_name: null },
    http: { call: { status: 200, body: { score: 7 } } },
  };
  const check = (field: string, operator: string, value?: string | number | boolean | null) =>
    holds({ field, operator, ...(value !== undefined ? { value } : {}) } as Parameters<typeof holds>[0], scope);

  test('eq and neq compare as text; contains looks in text (any case) or a list; gt and lt as numbers; exists', () => {
    assert.equal(check('event.data.message.direction', 'eq', 'inbound'), true);
    assert.equal(check('http.call.status', 'eq', '200'), true);
    assert.equal(check('http.call.status', 'neq', 200), false);
    assert.equal(check('contact.stage', 'neq', 'customer'), true);
    assert.equal(check('event.data.message.text', 'contains', 'atendente'), true);
    assert.equal(check('contact.tags', 'contains', 'vip'), true);
    assert.equal(check('contact.tags', 'contains', 'v'), false, 'a list holds whole items');
    assert.equal(check('event.data.price', 'gt', 10), true);
    assert.equal(check('http.call.body.score', 'lt', 5), false);
    assert.equal(check('event.data.message.text', 'gt', 1), false, 'not a number');
    assert.equal(check('contact.display_name', 'exists'), false);
    assert.equal(check('contact.tags', 'exists'), true);
  });

  test('a missing field: eq, contains, gt fail; neq holds', () => {
    assert.equal(check('event.data.nothing.here', 'eq', 'x'), false);
    assert.equal(check('conversation.status', 'contains', 'open'), false);
    assert.equal(check('http.other.status', 'gt', 0), false);
    assert.equal(check('event.data.nothing', 'neq', 'x'), true);
  });

  test('what an event is about: its conversation and contact', () => {
    assert.deepEqual(subjectOf({ conversation: { id: 'cnv_1', contact_id: 'ctc_1' } }), { conversation_id: 'cnv_1', contact_id: 'ctc_1' });
    assert.deepEqual(subjectOf({ message: { conversation_id: 'cnv_2', contact_id: 'ctc_2' }, contact_id: 'ctc_2' }), {
      conversation_id: 'cnv_2',
      contact_id: 'ctc_2',
    });
    assert.deepEqual(subjectOf({ contact: { id: 'ctc_3' } }), { conversation_id: null, contact_id: 'ctc_3' });
    assert.deepEqual(subjectOf({ offer: { id: 'off_1' } }), { conversation_id: null, contact_id: null });
  });
});
