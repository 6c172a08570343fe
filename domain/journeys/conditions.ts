/**
 * Tests on fields, shared by a journey's trigger `filter` (on the event) and
 * its `condition` blocks (on the event, the contact, the conversation, the
 * answers of earlier `http` blocks). Pure: the caller gathers the values.
 */
import { Schema } from '../../schemas/types';

export type Condition = Schema<'JourneyFilterCondition'> | Schema<'JourneyConditionConfig'>;

/** What a field path starts with: `event`, `contact`, `conversation`, `http`. */
export type Scope = Record<string, unknown>;

/** The value at `path` (dot-separated) in `scope`; undefined when any step is missing. */
export function valueAt(scope: Scope, path: string): unknown {
  let value: unknown = scope;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

const asText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
const asNumber = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};

/** Whether `condition` holds in `scope`: `eq`/`neq` as text, `contains` in a text or a list, `gt`/`lt` as numbers, `exists` not null. */
export function holds(condition: Condition, scope: Scope): boolean {
  const actual = valueAt(scope, condition.field);
  const expected = condition.value ?? null;
  const present = actual !== undefined && actual !== null;
  switch (condition.operator) {
    case 'exists':
      return present;
    case 'eq':
      return present && expected !== null && asText(actual) === asText(expected);
    case 'neq':
      return !present || expected === null || asText(actual) !== asText(expected);
    case 'contains':
      if (!present || expected === null) return false;
      if (Array.isArray(actual)) return actual.some((item) => asText(item) === asText(expected));
      return asText(actual).toLowerCase().includes(asText(expected).toLowerCase());
    case 'gt':
    case 'lt': {
      const a = asNumber(actual);
      const b = asNumber(expected);
      if (a === null || b === null) return false;
      return condition.operator === 'gt' ? a > b : a < b;
    }
  }
}

/** The conversation and contact an event is about (a conversation's or a message's event, a contact's), when any. */
export function subjectOf(data: Record<string, unknown>): { conversation_id: string | null; contact_id: string | null } {
  const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  const conversation_id = text(valueAt(data, 'conversation.id')) ?? text(valueAt(data, 'message.conversation_id'));
  const contact_id =
    text(valueAt(data, 'conversation.contact_id')) ??
    text(valueAt(data, 'contact_id')) ??
    text(valueAt(data, 'message.contact_id')) ??
    text(valueAt(data, 'contact.id'));
  return { conversation_id, contact_id };
}
