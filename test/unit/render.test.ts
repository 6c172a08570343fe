/**
 * The template renderer (domain/offers/render.ts; the body's syntax in
 * domain/templates/parse.ts), without the stack: each placeholder, each
 * format's escaping, literal braces, dropped lines, and the parser's refusals.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MessageOffer, renderTemplate } from '../../domain/offers/render';
import { parseTemplate } from '../../domain/templates/parse';

const FULL: MessageOffer = {
  title: 'Air Fryer Mondial',
  url: 'https://shop.example/p/1?a=1&b=2',
  currency: 'BRL',
  price: 299.9,
  original_price: 499.9,
  coupon: 'FRY10',
  store: 'Loja Y',
  copy: 'Só hoje!',
};

const BARE: MessageOffer = { title: 'Cafeteira', url: 'https://shop.example/p/2', currency: 'BRL' };

const plain = (body: string, offer: MessageOffer = FULL) => renderTemplate({ body, format: 'plain' }, offer);

describe('placeholders', () => {
  const cases: [string, string][] = [
    ['{title}', 'Air Fryer Mondial'],
    ['{price}', 'R$ 299,90'],
    ['{original_price}', 'R$ 499,90'],
    ['{discount_pct}', '40'],
    ['{coupon}', 'FRY10'],
    ['{store}', 'Loja Y'],
    ['{url}', 'https://shop.example/p/1?a=1&b=2'],
    ['{copy}', 'Só hoje!'],
  ];
  for (const [body, expected] of cases) {
    test(`${body} → ${expected}`, () => assert.equal(plain(`> ${body} <`), `> ${expected} <`));
  }

  test('prices use the offer currency', () => {
    assert.equal(plain('{price} / {original_price}', { ...FULL, currency: 'USD', price: 10, original_price: 12.5 }), '$10.00 / $12.50');
  });

  test('the same placeholder twice, and several on one line', () => {
    assert.equal(
      plain('{title} ({title}) de {original_price} por {price} -{discount_pct}%'),
      'Air Fryer Mondial (Air Fryer Mondial) de R$ 499,90 por R$ 299,90 -40%',
    );
  });

  test('{original_price} and {discount_pct} show only when the price is lower', () => {
    const noDiscount = { ...FULL, price: 500, original_price: 499.9 };
    assert.equal(plain('{price}|{original_price}|{discount_pct}', noDiscount), 'R$ 500,00||');
  });

  test('{{ and }} are literal braces, around placeholders too', () => {
    assert.equal(plain('{{title}} {{{title}}} }}{{'), '{title} {Air Fryer Mondial} }{');
  });
});

describe('missing values', () => {
  test('a missing value is empty; a line whose placeholders are all missing is dropped with its labels', () => {
    const body = ['*{title}*', 'De {original_price} por {price}', 'Cupom: {coupon}', 'Loja: {store}', 'Sem placeholder', '{url}'].join('\n');
    assert.equal(plain(body, BARE), ['*Cafeteira*', 'Sem placeholder', 'https://shop.example/p/2'].join('\n'));
    assert.equal(
      plain(body, { ...BARE, price: 10 }),
      ['*Cafeteira*', 'De  por R$ 10,00', 'Sem placeholder', 'https://shop.example/p/2'].join('\n'),
    );
  });

  test('an empty string counts as missing', () => {
    assert.equal(plain('a\nCupom: {coupon}\nb', { ...BARE, coupon: '' }), 'a\nb');
  });

  test("a dropped line leaves no doubled, leading or trailing blank line; the author's blank lines stay", () => {
    const body = ['{coupon}', '', '{title}', '', '{copy}', '', '{url}', '', '', 'fim', '', '{store}'].join('\n');
    assert.equal(plain(body, BARE), ['Cafeteira', '', 'https://shop.example/p/2', '', '', 'fim'].join('\n'));
    assert.equal(plain(body, FULL), ['FRY10', '', 'Air Fryer Mondial', '', 'Só hoje!', '', FULL.url, '', '', 'fim', '', 'Loja Y'].join('\n'));
  });

  test('a multi-line value is kept whole', () => {
    assert.equal(plain('[{copy}]', { ...BARE, copy: 'um\n\ndois' }), '[um\n\ndois]');
  });
});

describe('formats', () => {
  const tricky: MessageOffer = {
    ...FULL,
    title: 'Kit *2* _un_ <b>&"x"</b> [a](b) ~c~ `d` #1 | \\',
    url: 'https://shop.example/p_1?a=1&b=<2>',
  };
  const body = '*{title}*\n{url}';

  test('plain and whatsapp insert values as they are (WhatsApp has no escape)', () => {
    const expected = `*${tricky.title}*\n${tricky.url}`;
    assert.equal(renderTemplate({ body, format: 'plain' }, tricky), expected);
    assert.equal(
      renderTemplate({ body: '*{title}* _{store}_ ~{original_price}~', format: 'whatsapp' }, FULL),
      '*Air Fryer Mondial* _Loja Y_ ~R$ 499,90~',
    );
    assert.equal(renderTemplate({ body, format: 'whatsapp' }, tricky), expected);
  });

  test('markdown backslash-escapes metacharacters in values, not in the body, and leaves the url alone', () => {
    assert.equal(
      renderTemplate({ body: '**{title}** [link]({url})', format: 'markdown' }, tricky),
      '**Kit \\*2\\* \\_un\\_ \\<b\\>&"x"\\</b\\> \\[a\\](b) \\~c\\~ \\`d\\` \\#1 \\| \\\\** [link](https://shop.example/p_1?a=1&b=<2>)',
    );
  });

  test("telegram_html HTML-escapes every value, the url too, and keeps the body's tags", () => {
    assert.equal(
      renderTemplate({ body: '<b>{title}</b>\n<a href="{url}">{store}</a>', format: 'telegram_html' }, { ...tricky, store: 'Tom & Jerry' }),
      '<b>Kit *2* _un_ &lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt; [a](b) ~c~ `d` #1 | \\</b>\n' +
        '<a href="https://shop.example/p_1?a=1&amp;b=&lt;2&gt;">Tom &amp; Jerry</a>',
    );
  });
});

describe('parseTemplate', () => {
  test('lists the placeholders in order of first use, once each', () => {
    assert.deepEqual(parseTemplate('{url} {title}\n{url} {{price}} {coupon}').placeholders, ['url', 'title', 'coupon']);
    assert.deepEqual(parseTemplate('no placeholders {{}}').problems, []);
  });

  test('refuses unknown placeholders, naming each', () => {
    const { problems } = parseTemplate('{title} {prize}\n{Title} {}');
    assert.deepEqual(
      problems.map((p) => p.rule),
      ['placeholder', 'placeholder', 'placeholder'],
    );
    assert.match(problems[0]!.message, /^unknown placeholder \{prize\}; known: \{title\}, \{price\}/);
    assert.match(problems[1]!.message, /^unknown placeholder \{Title\}/);
    assert.match(problems[2]!.message, /^unknown placeholder \{\}/);
  });

  test('refuses lone braces, and a placeholder never spans lines', () => {
    for (const [body, brace, line] of [
      ['a { b', '{', 1],
      ['ok\nprice}', '}', 2],
      ['{title\n}', '{', 1],
      ['{a{title}', '{', 1],
    ] as const) {
      const { problems } = parseTemplate(body);
      assert.equal(problems[0]?.rule, 'brace', body);
      assert.equal(problems[0]?.message, `line ${line} has a lone ${brace}; write ${brace}${brace} for a literal brace`, body);
    }
  });
});
