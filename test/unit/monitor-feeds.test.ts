/**
 * Monitor sources and criteria without the stack: the JSON splitter fed in
 * arbitrary pieces, prices as feeds write them, items through a mapping, and
 * each criterion.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileCriteria } from '../../domain/monitors/criteria';
import { FoundItem, JsonItemSplitter, parsePrice, toFoundItem } from '../../domain/monitors/feeds';
import { SourceError } from '../../domain/webhooks/sources';

/** Feeds `text` to a splitter in pieces of `size` characters; every item. */
function split(text: string, size: number): unknown[] {
  const s = new JsonItemSplitter();
  const out: unknown[] = [];
  for (let i = 0; i < text.length; i += size) out.push(...s.push(text.slice(i, i + size)));
  out.push(...s.end());
  return out;
}

describe('JSON items', () => {
  const items = [{ title: 'a "quoted" [x] {y}', url: 'https://s.example/1' }, { title: 'b\\', nested: { a: [1, { b: 2 }] } }, { title: 'ç' }];
  for (const size of [1, 3, 7, 1000]) {
    test(`an array cut in pieces of ${size}`, () =>
      assert.deepEqual(split(` \n${JSON.stringify(items, null, size % 2 ? 0 : 2)}\n`, size), items));
    test(`JSON lines cut in pieces of ${size}`, () => assert.deepEqual(split(items.map((i) => JSON.stringify(i)).join('\n'), size), items));
  }
  test('an empty array has no items', () => assert.deepEqual(split('[ ]', 1), []));
  const bad: [string, string][] = [
    ['[{"a":1}', 'the JSON array is not closed'],
    ['[1, 2]', 'the JSON array holds something other than objects'],
    ['[{"a":1}] x', 'text after the end of the JSON array'],
    ['{"a":1}\nnot json\n', 'not valid JSON'],
    ['[1]\n', 'the JSON array holds something other than objects'],
    ['   ', 'the feed is empty'],
  ];
  for (const [text, message] of bad) {
    test(`refuses ${JSON.stringify(text)}`, () => {
      assert.throws(
        () => split(text, 2),
        (err: unknown) => err instanceof SourceError && err.permanent && err.message === message,
      );
    });
  }
});

describe('prices', () => {
  const cases: [unknown, number | null, string | null][] = [
    [12.5, 12.5, null],
    ['12.99 USD', 12.99, 'USD'],
    ['R$ 1.299,90', 1299.9, null],
    ['1,299.90 BRL', 1299.9, 'BRL'],
    ['1.299,9 BRL', 1299.9, 'BRL'],
    ['1,299 BRL', 1299, 'BRL'],
    ['free', null, null],
    [null, null, null],
    [-3, null, null],
  ];
  for (const [input, amount, currency] of cases) {
    test(`${JSON.stringify(input)}`, () => assert.deepEqual(parsePrice(input), { amount, currency }));
  }
});

describe('items through a mapping', () => {
  test('defaults: Merchant fields, sale price under price', () => {
    const item = toFoundItem(
      {
        title: 'Air Fryer',
        link: 'https://s.example/1',
        price: '499.90 BRL',
        sale_price: '299.90 BRL',
        image_link: 'https://s.example/1.jpg',
        brand: 'Mondial',
        product_type: 'Casa > Cozinha',
      },
      { type: 'merchant_xml', url: 'https://feeds.example/f.xml', marketplace: 'loja' },
    );
    assert.deepEqual(item, {
      title: 'Air Fryer',
      url: 'https://s.example/1',
      price: 299.9,
      original_price: 499.9,
      currency: 'BRL',
      image: 'https://s.example/1.jpg',
      store: 'Mondial',
      category: 'Casa > Cozinha',
      commission_pct: null,
      marketplace: 'loja',
    });
  });
  test('an empty sale_price cell (most rows of a merchant CSV) leaves the price where it is', () => {
    const source = { type: 'csv' as const, url: 'https://feeds.example/f.csv' };
    const row = (sale_price: string) => ({ title: 'Air Fryer', link: 'https://s.example/1', price: '499.90 BRL', sale_price });
    for (const empty of ['', '  ']) {
      const item = toFoundItem(row(empty), source);
      assert.deepEqual([item?.price, item?.original_price], [499.9, null], JSON.stringify(empty));
    }
    const sale = toFoundItem(row('299.90 BRL'), source);
    assert.deepEqual([sale?.price, sale?.original_price], [299.9, 499.9]);
    const noOriginal = toFoundItem({ ...row(''), original_price: '' }, source);
    assert.deepEqual([noOriginal?.price, noOriginal?.original_price], [499.9, null]);
  });
  test('dot paths of a search mapping', () => {
    const item = toFoundItem(
      { name: { text: 'Cafeteira' }, permalink: 'https://m.example/p/9', pricing: { now: 149.9, was: 199.9, cur: 'BRL' }, pct: '7.5' },
      {
        type: 'search',
        url: 'https://api.example/search',
        mapping: {
          items: 'r',
          title: 'name.text',
          url: 'permalink',
          price: 'pricing.now',
          original_price: 'pricing.was',
          currency: 'pricing.cur',
          commission_pct: 'pct',
        },
      },
    );
    assert.equal(item?.title, 'Cafeteira');
    assert.equal(item?.price, 149.9);
    assert.equal(item?.original_price, 199.9);
    assert.equal(item?.commission_pct, 7.5);
  });
  test('an item without an HTTPS URL or a title is not usable', () => {
    const source = { type: 'json' as const, url: 'https://f.example/x.json' };
    assert.equal(toFoundItem({ title: 'Good title', url: 'http://s.example/1' }, source), null);
    assert.equal(toFoundItem({ title: 'ab', url: 'https://s.example/1' }, source), null);
    assert.equal(toFoundItem({ url: 'https://s.example/1' }, source), null);
  });
});

describe('criteria', () => {
  const base: FoundItem = {
    title: 'Cafeteira Elétrica Oster',
    url: 'https://s.example/1',
    price: 150,
    original_price: 200,
    currency: 'BRL',
    image: null,
    store: 'Loja A',
    category: 'Casa > Cozinha',
    commission_pct: 8,
    marketplace: 'Amazon',
  };
  const cases: [string, Parameters<typeof compileCriteria>[0], Partial<FoundItem>, boolean][] = [
    ['no criteria', {}, {}, true],
    ['every include word, accents ignored', { keywords_include: ['eletrica', 'CAFETEIRA'] }, {}, true],
    ['a missing include word', { keywords_include: ['cafeteira', 'italiana'] }, {}, false],
    ['an exclude word', { keywords_exclude: ['oster'] }, {}, false],
    ['category contains', { category: 'cozinha' }, {}, true],
    ['another category', { category: 'jardim' }, {}, false],
    ['marketplace, case ignored', { marketplace: 'amazon' }, {}, true],
    ['another marketplace', { marketplace: 'shopee' }, {}, false],
    ['store allowed', { stores_allow: ['loja a'] }, {}, true],
    ['store not allowed', { stores_allow: ['Loja B'] }, {}, false],
    ['store denied', { stores_deny: ['LOJA A'] }, {}, false],
    ['discount reached (25%)', { min_discount_pct: 25 }, {}, true],
    ['discount not reached', { min_discount_pct: 26 }, {}, false],
    ['no original price has no discount', { min_discount_pct: 1 }, { original_price: null }, false],
    ['price in range, bounds included', { min_price: 150, max_price: 150 }, {}, true],
    ['price above the range', { max_price: 149.99 }, {}, false],
    ['no price fails a price bound', { min_price: 0 }, { price: null }, false],
    ['commission reached', { min_commission_pct: 8 }, {}, true],
    ['commission too low', { min_commission_pct: 8.5 }, {}, false],
    ['no commission given is not filtered', { min_commission_pct: 50 }, { commission_pct: null }, true],
  ];
  for (const [name, criteria, change, expected] of cases) {
    test(name, () => assert.equal(compileCriteria(criteria)({ ...base, ...change }), expected));
  }
});
