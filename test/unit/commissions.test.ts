/**
 * The rules of commissions that need no database: money in minor units
 * (domain/commissions/money.ts), a network's report checked field by field
 * (report.ts), where a sale came from (attribution.ts), and what a status
 * change moves in analytics (service.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inspect } from 'node:util';
import { ATTRIBUTION_WINDOW_DAYS, byClick, inferenceWindow, inferredFrom } from '../../domain/commissions/attribution';
import { fromMinor, minorDigits, toMinor } from '../../domain/commissions/money';
import { reportOf } from '../../domain/commissions/report';
import { commissionChange } from '../../domain/commissions/service';
import { Attribution, CommissionDoc } from '../../domain/commissions/store';

describe('money in minor units', () => {
  test('a currency’s digits come from Intl; an unknown code has 2', () => {
    assert.deepEqual(['BRL', 'USD', 'JPY', 'KWD', 'XYZ'].map(minorDigits), [2, 2, 0, 3, 2]);
  });

  test('a decimal string or a JSON number becomes exact minor units', () => {
    assert.equal(toMinor('12.34', 'BRL'), 1234);
    assert.equal(toMinor(' 12.3 ', 'BRL'), 1230);
    assert.equal(toMinor('12', 'BRL'), 1200);
    assert.equal(toMinor(12.34, 'BRL'), 1234);
    assert.equal(toMinor(0.3, 'BRL'), 30);
    assert.equal(toMinor('-5.5', 'USD'), -550);
    assert.equal(toMinor('500', 'JPY'), 500);
    assert.equal(toMinor('1.234', 'KWD'), 1234);
    // Trailing zeros past the currency's digits are no precision lost.
    assert.equal(toMinor('7.5000', 'BRL'), 750);
    assert.equal(toMinor('9999999999999.99', 'BRL'), 999_999_999_999_999);
  });

  test('an amount whose minor units pass 2^53 is refused, not rounded', () => {
    assert.equal(toMinor('999999999999999.99', 'BRL'), null);
    assert.equal(toMinor('90071992547409.92', 'BRL'), null);
    assert.equal(toMinor('90071992547409.91', 'BRL'), Number.MAX_SAFE_INTEGER);
  });

  test('more decimals than the currency has, or anything that is not a plain decimal, is refused, never rounded', () => {
    for (const [value, currency] of [
      ['12.345', 'BRL'],
      ['1.5', 'JPY'],
      ['1e3', 'BRL'],
      ['12,34', 'BRL'],
      ['', 'BRL'],
      ['.5', 'BRL'],
      ['1234567890123456', 'BRL'],
      [0.1 + 0.2, 'BRL'],
      [Number.NaN, 'BRL'],
      [Number.POSITIVE_INFINITY, 'BRL'],
      [null, 'BRL'],
      [{}, 'BRL'],
    ] as const) {
      assert.equal(toMinor(value, currency), null, `${inspect(value)} ${currency}`);
    }
  });

  test('minor units are written back with the currency’s digits, and read back the same', () => {
    assert.deepEqual(
      [fromMinor(1234, 'BRL'), fromMinor(5, 'BRL'), fromMinor(0, 'USD'), fromMinor(-550, 'USD'), fromMinor(500, 'JPY'), fromMinor(1, 'KWD')],
      ['12.34', '0.05', '0.00', '-5.50', '500', '0.001'],
    );
    for (const minor of [0, 1, 99, 100, 123_456_789, -42]) assert.equal(toMinor(fromMinor(minor, 'BRL'), 'BRL'), minor);
  });
});

describe('a commission report', () => {
  const fields = {
    transaction_id: 'tx-1',
    status: 'Approved',
    commission: '12.34',
    currency: 'brl',
    occurred_at: '2026-11-20T10:00:00-03:00',
  };

  test('the required fields give a report in minor units; the status time defaults to the order’s', () => {
    const result = reportOf({ ...fields, order_amount: '199.90', sub_id: 'clk_1', order_ref: '' }, 'shopee', 'postback');
    assert.ok('report' in result, JSON.stringify(result));
    assert.deepEqual(result.report, {
      marketplace: 'shopee',
      transaction_id: 'tx-1',
      status: 'approved',
      amount_minor: 1234,
      currency: 'BRL',
      order_amount_minor: 19_990,
      order_ref: null,
      occurred_at: new Date('2026-11-20T13:00:00Z'),
      at: new Date('2026-11-20T13:00:00Z'),
      sub_id: 'clk_1',
      product_url: null,
      source: 'postback',
    });
    const later = reportOf({ ...fields, updated_at: '2026-11-22T09:00:00Z' }, 'shopee', 'import');
    assert.ok('report' in later);
    assert.deepEqual(later.report.at, new Date('2026-11-22T09:00:00Z'));
  });

  test('every problem is named by its field', () => {
    const result = reportOf(
      {
        transaction_id: '',
        status: 'settled',
        commission: '-1.00',
        currency: 'BRL',
        occurred_at: '2026-11-20 10:00',
        order_amount: '1.999',
        color: 'red',
      },
      'shopee',
      'import',
    );
    assert.ok('problems' in result);
    assert.deepEqual(result.problems.map((p) => p.field).sort(), [
      'color',
      'commission',
      'occurred_at',
      'order_amount',
      'status',
      'transaction_id',
    ]);
    const message = (field: string) => result.problems.find((p) => p.field === field)!.message;
    assert.equal(message('transaction_id'), 'is required');
    assert.equal(message('color'), 'is not a report field');
    assert.match(message('status'), /^must be one of pending, approved, paid, cancelled, refunded$/);
    assert.match(message('commission'), /non-negative decimal with at most the decimals of BRL/);
    assert.match(message('occurred_at'), /RFC 3339 date-time with a time zone/);
  });

  test('a currency that is not a code is refused, and its amounts are not judged by it', () => {
    const result = reportOf({ ...fields, currency: 'R$' }, 'shopee', 'import');
    assert.ok('problems' in result);
    assert.deepEqual(result.problems, [{ field: 'currency', message: 'must be an ISO 4217 code such as BRL' }]);
  });
});

describe('attribution', () => {
  test('a click names the offer, publication, group and segment it came through', () => {
    assert.deepEqual(byClick({ _id: 'clk_1', offer_id: 'off_1', publication_id: 'pub_1', group_id: 'grp_1', segment_id: 'seg_1' }), {
      method: 'click',
      click_id: 'clk_1',
      offer_id: 'off_1',
      publication_id: 'pub_1',
      group_id: 'grp_1',
      segment_id: 'seg_1',
    });
    // A click on a link made outside a publication names only what it knows.
    assert.deepEqual(byClick({ _id: 'clk_2', offer_id: 'off_1' }), {
      method: 'click',
      click_id: 'clk_2',
      offer_id: 'off_1',
      publication_id: null,
      group_id: null,
      segment_id: null,
    });
  });

  test(`without a click: a publication queued within ${ATTRIBUTION_WINDOW_DAYS} days before the order, the order's moment included`, () => {
    const order = new Date('2026-11-20T12:00:00Z');
    assert.deepEqual(inferenceWindow(order), { $gte: new Date('2026-11-13T12:00:00Z'), $lte: order });
  });

  test('inferred from a publication: its group when it went to one group, else none; its segment', () => {
    const publication = { _id: 'pub_1', offer_id: 'off_1', group_id: null, group_ids: ['grp_1'], segment_id: 'seg_1' };
    assert.deepEqual(inferredFrom(publication), {
      method: 'inferred',
      click_id: null,
      offer_id: 'off_1',
      publication_id: 'pub_1',
      group_id: 'grp_1',
      segment_id: 'seg_1',
    });
    assert.equal(inferredFrom({ ...publication, group_ids: ['grp_1', 'grp_2'] }).group_id, null);
    assert.equal(inferredFrom({ ...publication, group_id: 'grp_9', group_ids: ['grp_9'], segment_id: null }).segment_id, null);
  });
});

describe('what a commission moves in analytics', () => {
  const attribution: Attribution = {
    method: 'click',
    click_id: 'clk_1',
    offer_id: 'off_1',
    publication_id: 'pub_1',
    group_id: 'grp_1',
    segment_id: null,
  };
  const occurred_at = new Date('2026-11-20T12:00:00Z');
  const commission = (status: CommissionDoc['status'], amount_minor = 1234): CommissionDoc =>
    ({ marketplace: 'shopee', currency: 'BRL', status, amount_minor, attribution, occurred_at }) as CommissionDoc;
  /** The moves as `dimension:key counter by`, the sale's time checked. */
  const moves = (before: CommissionDoc | null, after: CommissionDoc): string[] | null => {
    const fact = commissionChange(before, after);
    if (fact) assert.equal(fact.at, occurred_at);
    return fact && fact.incs.map((i) => `${i.dimension}:${i.key ?? ''} ${i.counter} ${i.by}`);
  };

  test('a new pending, approved or paid commission counts once with its amount, where it was attributed', () => {
    assert.deepEqual(moves(null, commission('pending')), [
      'totals: commissions.BRL.count 1',
      'totals: commissions.BRL.amount_minor 1234',
      'sources:shopee commissions.BRL.count 1',
      'sources:shopee commissions.BRL.amount_minor 1234',
      'groups:grp_1 commissions.BRL.count 1',
      'groups:grp_1 commissions.BRL.amount_minor 1234',
      'offers:off_1 commissions.BRL.count 1',
      'offers:off_1 commissions.BRL.amount_minor 1234',
    ]);
    assert.equal(moves(null, commission('paid'))!.length, 8);
  });

  test('moving between counted statuses moves nothing, unless the amount changed: then the difference', () => {
    assert.equal(moves(commission('pending'), commission('approved')), null);
    assert.equal(moves(commission('approved'), commission('paid')), null);
    assert.deepEqual(moves(commission('approved', 1234), commission('approved', 1000))!.slice(0, 1), [
      'totals: commissions.BRL.amount_minor -234',
    ]);
  });

  test('cancelled or refunded takes it back out; a new cancelled one counts nothing; a reinstated one counts again', () => {
    assert.deepEqual(moves(commission('approved'), commission('refunded'))!.slice(0, 2), [
      'totals: commissions.BRL.count -1',
      'totals: commissions.BRL.amount_minor -1234',
    ]);
    assert.equal(moves(null, commission('cancelled')), null);
    assert.equal(moves(commission('cancelled'), commission('refunded')), null);
    assert.deepEqual(moves(commission('cancelled'), commission('approved', 900))!.slice(0, 2), [
      'totals: commissions.BRL.count 1',
      'totals: commissions.BRL.amount_minor 900',
    ]);
  });
});
