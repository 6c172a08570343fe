/** Pure rules of analytics: money as decimal strings, and an offer's source key. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decimalOf } from '../../domain/analytics/service';
import { sourceOf } from '../../domain/analytics/sources';

test('minor units become exact decimal strings with the currency’s digits', () => {
  assert.equal(decimalOf(12345, 'BRL'), '123.45');
  assert.equal(decimalOf(5, 'BRL'), '0.05');
  assert.equal(decimalOf(0, 'USD'), '0.00');
  assert.equal(decimalOf(-250, 'EUR'), '-2.50');
  assert.equal(decimalOf(500, 'JPY'), '500');
  assert.equal(decimalOf(1234, 'KWD'), '1.234');
  // Sums far beyond what floats add exactly in cents stay exact.
  assert.equal(decimalOf(900719925474099, 'BRL'), '9007199254740.99');
});

test("an offer's source: its marketplace field first, then its URL's host, else other", () => {
  assert.equal(sourceOf({ marketplace: 'Mercado Livre', url: 'https://x.example/' }), 'mercadolivre');
  assert.equal(sourceOf({ marketplace: 'Amazon BR' }), 'amazon');
  assert.equal(sourceOf({ marketplace: 'Loja do Zé', url: 'https://www.magazineluiza.com.br/p/1' }), 'magalu');
  assert.equal(sourceOf({ url: 'https://pt.aliexpress.com/item/1.html' }), 'aliexpress');
  assert.equal(sourceOf({ url: 'https://shopee.com.br/produto-i.1.2' }), 'shopee');
  assert.equal(sourceOf({ marketplace: 'Kabum', url: 'https://www.kabum.com.br/produto/1' }), 'other');
  assert.equal(sourceOf({ url: 'not a url' }), 'other');
});
