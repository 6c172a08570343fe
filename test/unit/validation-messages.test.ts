/**
 * What a 400 `validation_failed` says, without the stack: one problem per
 * field, in words (every pattern of a request carries its form in words), a
 * suggestion for a mistyped value, and a headline that counts problems, not
 * repetitions of one.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { check, validationFailed } from '../../api/middleware/validate';
import { closest } from '../../domain/nearest-word';
import { FORM_KEYWORD, JsonSchema } from '../../schemas/openapi/common';
import { openapiDocument } from '../../schemas/openapi/index';
import { operations } from '../../schemas/operations';

const components = (openapiDocument.components as { schemas: Record<string, JsonSchema> }).schemas;
const operation = (id: string) => operations.find((op) => op.operationId === id)!;
const body = (id: string, value: unknown) => check('body', operation(id).body!.schema, value);
const messages = (id: string, value: unknown) => Object.fromEntries(body(id, value).map((d) => [d.field, d.message]));

/** Every `pattern` a request can break, with where it is (following `$ref`s once each). */
function patternsWithoutWords(): string[] {
  const found = new Set<string>();
  const visited = new Set<string>();
  const walk = (schema: unknown, where: string): void => {
    if (Array.isArray(schema)) return schema.forEach((s) => walk(s, where));
    if (typeof schema !== 'object' || schema === null) return;
    const s = schema as JsonSchema;
    if (typeof s.$ref === 'string') {
      const name = s.$ref.split('/').pop()!;
      if (!visited.has(name)) {
        visited.add(name);
        walk(components[name], `${where} > ${name}`);
      }
    }
    if (typeof s.pattern === 'string' && typeof s[FORM_KEYWORD] !== 'string') found.add(`${where}: ${s.pattern}`);
    for (const [key, value] of Object.entries(s)) if (key !== '$ref') walk(value, where);
  };
  for (const op of operations) {
    walk(op.pathSchema, op.operationId);
    walk(op.querySchema, op.operationId);
    if (op.body) walk(op.body.schema, op.operationId);
  }
  return [...found];
}

describe('validation messages', () => {
  test('every pattern a request can break says its form in words', () => {
    assert.deepEqual(patternsWithoutWords(), []);
  });

  test('one problem per field: a URL without a scheme is told once, in words', () => {
    const found = body('offer_create', { url: 'shop.example/p/1', title: 'Air Fryer', price: 10 });
    assert.deepEqual(
      found.map((d) => [d.field, d.message]),
      [['url', 'must be an https:// URL, e.g. https://example.com/path']],
    );
  });

  test('an http:// webhook URL is told it must be https://', () => {
    assert.equal(
      messages('webhook_create', { url: 'http://hooks.example/x', events: ['offer.created'] }).url,
      'must be an https:// URL, e.g. https://example.com/path',
    );
  });

  test('a time zone that is not an IANA name gets an example of one', () => {
    const found = messages('monitor_create', {
      name: 'M',
      source: { type: 'rss', url: 'https://feed.example/rss' },
      frequency: { cron: '0 9 * * *', timezone: 'Brasilia' },
    });
    assert.equal(found['frequency.timezone'], 'must be an IANA time zone name such as America/Sao_Paulo, or UTC');
  });

  test('a date-time without an offset is one problem, not two', () => {
    const found = body('schedule_create', { text: 'x', group_id: 'grp_0123456789ab', run_at: '2030-01-01T10:00:00' });
    assert.deepEqual(
      found.map((d) => [d.field, d.rule]),
      [['run_at', 'pattern']],
    );
  });

  test('a mistyped value among many: no list of all of them, a suggestion instead', () => {
    const message = messages('webhook_create', { url: 'https://hooks.example/x', events: ['offer.creatd'] })['events.0']!;
    assert.match(message, /did you mean "offer\.created"\?$/);
    assert.doesNotMatch(message, /application\.created/);
    // The headline ends on the question, with no full stop after it.
    const headline = validationFailed(body('webhook_create', { url: 'https://hooks.example/x', events: ['offer.creatd'] })).message;
    assert.match(headline, /^Invalid body field events\.0: .*did you mean "offer\.created"\?$/);
  });

  test('a short list of values is written out, with the suggestion when one is close', () => {
    const query = check('query', operation('offers_list').querySchema, { status: 'pendng' });
    assert.equal(query[0]!.message, 'must be one of: "pending", "approved", "rejected", "archived"; did you mean "pending"?');
  });

  test('bounds in words', () => {
    assert.equal(
      messages('offer_create', { url: 'https://shop.example/p/1', title: 'Ai', price: 10 }).title,
      'must be at least 3 characters long',
    );
    assert.match(messages('offer_create', { url: 'https://shop.example/p/1', title: 'Air Fryer', price: 'ten' }).price!, /^must be a number/);
  });

  test('closest: within a third of the word in edits, swaps of neighbours count once, case ignored', () => {
    assert.equal(closest('offers', ['offer', 'group']), 'offer');
    assert.equal(closest('ofer.cretaed', ['offer.created', 'offer.updated']), 'offer.created');
    assert.equal(closest('PENDING', ['pending', 'approved']), 'pending');
    assert.equal(closest('zzz', ['pending', 'approved']), null);
    assert.equal(closest(42, ['pending']), null);
  });

  test('the headline names a choice between fields once, and counts other problems as problems', () => {
    const destination = body('offer_publish', {});
    assert.equal(validationFailed(destination).message, 'Invalid body: needs one of group_id, segment_id.');
    const two = [
      ...destination,
      { location: 'body' as const, field: 'text', rule: 'maxLength', message: 'must be at most 4096 characters long' },
    ];
    assert.equal(validationFailed(two).message, 'Invalid body: needs one of group_id, segment_id (and 1 more problem, listed in details).');
    const same = ['a', 'b', 'c'].map((field) => ({
      location: 'body' as const,
      field,
      rule: 'pattern',
      message: 'must be an event kind, e.g. offer.created',
    }));
    assert.equal(
      validationFailed(same).message,
      'Invalid body field a: must be an event kind, e.g. offer.created (and 2 more problems, listed in details).',
    );
  });
});
