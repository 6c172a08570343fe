/**
 * An example value for a schema, made from the schema itself (its `example`,
 * `const`, `default` or first `enum` value, its format or the literal prefix
 * of its pattern, its bounds): each request body and success response of the
 * document gets one this way, so no operation is without an example and none
 * is written by hand. Bodies carry their required fields only; responses every field.
 */
import { JsonSchema } from './common';

const FORMATS: Record<string, string> = {
  'date-time': '2026-01-15T12:00:00Z',
  date: '2026-01-15',
  uri: 'https://shop.example/p/cafeteira',
  email: 'ana@shop.example',
  uuid: '00000000-0000-4000-8000-000000000000',
};

/** Values of the document's compound forms (event kinds, field paths, colours, secrets), tried when the plain guess does not match. */
const PATTERN_SAMPLES = [
  '123.50',
  'offer.approved',
  'event.offer.title',
  '#1a2b3c',
  '09:30',
  '2026-01-15T12:00:00Z',
  `whsec_${'A'.repeat(43)}=`,
];

/** A string for `pattern`: its literal start (`^off_`) followed by characters the common id forms take, or a known sample that matches. */
function fromPattern(pattern: string, min: number): string {
  const literal = /^\^((?:[A-Za-z0-9_:./-]|\\.)*)/.exec(pattern)?.[1]?.replace(/\\(.)/g, '$1') ?? '';
  const rest = /\[[^\]]*0-9[^\]]*\]/.test(pattern) ? '0a1b2c3d4e5f6a7b' : /\[[^\]]*a-z/.test(pattern) ? 'abcdefghijklmnop' : 'example';
  const guess = `${literal}${rest}`.padEnd(min, 'a');
  const re = new RegExp(pattern, 'u');
  return [guess, ...PATTERN_SAMPLES].find((v) => re.test(v)) ?? guess;
}

export function exampleOf(schema: JsonSchema | undefined, components: Record<string, JsonSchema>, all: boolean, depth = 0): unknown {
  if (!schema || depth > 12) return null;
  if (typeof schema.$ref === 'string') return exampleOf(components[schema.$ref.split('/').pop()!], components, all, depth + 1);
  if ('example' in schema) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum.find((v) => v !== null) ?? schema.enum[0];
  if (isObject(schema.if)) {
    // The example of the schema without its condition tells which branch holds; that branch then joins the schema.
    const { if: condition, then: yes, else: no, ...rest } = schema;
    const branch = holds(condition, exampleOf(rest, components, all, depth + 1)) ? yes : no;
    return exampleOf(isObject(branch) ? conjoin(rest, branch, components) : rest, components, all, depth + 1);
  }
  for (const key of ['oneOf', 'allOf'] as const) {
    const fields = schema[key] ? chosenFields({ [key]: schema[key] }) : null;
    if (fields) {
      // With every field shown (a response), the alternatives not chosen and the fields a `not` refuses are left out.
      const refused = all ? refusedFields({ [key]: schema[key] }) : [];
      const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).filter(([name]) => !refused.includes(name));
      return exampleOf(
        {
          ...schema,
          [key]: undefined,
          properties: Object.fromEntries(properties),
          required: [...((schema.required ?? []) as string[]), ...fields],
        },
        components,
        all,
        depth + 1,
      );
    }
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = schema[key] as JsonSchema[] | undefined;
    if (branches) {
      const chosen = branches.find((b) => b.type !== 'null') ?? branches[0];
      const base = exampleOf({ ...schema, [key]: undefined }, components, all, depth + 1);
      const branch = exampleOf(chosen, components, all, depth + 1);
      return isObject(base) && isObject(branch) ? { ...base, ...branch } : branch;
    }
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...(schema.allOf as JsonSchema[]).map((s) => exampleOf(s, components, all, depth + 1)).filter(isObject));
  }
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : (schema.type as string | undefined);
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema.required ?? []) as string[]);
      const out: Record<string, unknown> = {};
      for (const [name, prop] of Object.entries(properties)) {
        if (all || required.has(name)) out[name] = exampleOf(prop, components, all, depth + 1);
      }
      return out;
    }
    case 'array': {
      const count = Math.max(1, Number(schema.minItems ?? 1));
      return Array.from({ length: count }, () => exampleOf(schema.items as JsonSchema, components, all, depth + 1));
    }
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number'
        ? Math.max(schema.minimum, 1)
        : typeof schema.maximum === 'number'
          ? Math.min(schema.maximum, 1)
          : 1;
    case 'boolean':
      return true;
    case 'string': {
      const min = Number(schema.minLength ?? 1);
      if (typeof schema.format === 'string' && FORMATS[schema.format]) return FORMATS[schema.format];
      if (typeof schema.pattern === 'string') return fromPattern(schema.pattern, min);
      return 'example'.padEnd(min, 'e');
    }
    case 'null':
      return null;
    default:
      return isObject(schema.properties) ? exampleOf({ ...schema, type: 'object' }, components, all, depth + 1) : null;
  }
}

/** A schema that only tests which fields are present (`present()`). */
const presenceTest = (s: JsonSchema): boolean =>
  isObject(s.properties) && Object.values(s.properties).every((p) => isObject(p) && !Object.keys(p).length);

/** The fields the alternatives over present fields ask of an example (the first of each `oneOf`); null for other alternatives. */
function chosenFields(schema: JsonSchema): string[] | null {
  const oneOf = schema.oneOf as JsonSchema[] | undefined;
  if (oneOf) return oneOf.every(presenceTest) ? ((oneOf[0]!.required ?? []) as string[]) : null;
  if (isObject(schema.not)) return presenceTest(schema.not) ? [] : null;
  const parts = ((schema.allOf ?? []) as JsonSchema[]).map(chosenFields);
  return parts.length && parts.every((p) => p !== null) ? parts.flat() : null;
}

/** The fields alternatives over present fields refuse an example: those of each `oneOf` but its first, the last of each `not`. */
function refusedFields(schema: JsonSchema): string[] {
  const oneOf = schema.oneOf as JsonSchema[] | undefined;
  const not = isObject(schema.not) ? ((schema.not.required ?? []) as string[]) : [];
  return [
    ...(oneOf ?? []).slice(1).flatMap((b) => (b.required ?? []) as string[]),
    ...not.slice(-1),
    ...((schema.allOf ?? []) as JsonSchema[]).flatMap(refusedFields),
  ];
}

/**
 * Whether an example meets an `if`: the forms the document's conditions take
 * (`properties` with a `const` or an `enum`, `required`); any other form
 * throws, so that a new one is taught here rather than given a wrong example.
 */
function holds(condition: JsonSchema, value: unknown): boolean {
  const known = ['properties', 'required'];
  const unknown = Object.keys(condition).filter((k) => !known.includes(k));
  if (unknown.length) throw new Error(`examples: an \`if\` with ${unknown.join(', ')} is not supported`);
  if (!isObject(value)) return false;
  const required = (condition.required ?? []) as string[];
  if (!required.every((name) => name in value)) return false;
  return Object.entries((condition.properties ?? {}) as Record<string, JsonSchema>).every(([name, test]) => {
    if (!(name in value)) return true;
    if ('const' in test) return value[name] === test.const;
    if (Array.isArray(test.enum)) return test.enum.includes(value[name]);
    throw new Error(`examples: an \`if\` testing ${name} by ${Object.keys(test).join(', ')} is not supported`);
  });
}

/**
 * A schema and a branch of its `if` as one: the branch's `required` added, its
 * `properties` joined to the schema's own (following their `$ref`), anything
 * else it says (alternatives, `not`) added under `allOf`; its `type`, which
 * strict Ajv wants restated on a nested object, must be the schema's own.
 */
function conjoin(schema: JsonSchema, branch: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  if (!Object.keys(branch).length) return schema;
  const base = typeof schema.$ref === 'string' ? components[schema.$ref.split('/').pop()!]! : schema;
  const { required, properties, type, ...other } = branch;
  if (type !== undefined && type !== base.type)
    throw new Error(`examples: a branch of type ${JSON.stringify(type)} on a schema of type ${JSON.stringify(base.type)}`);
  const own = (base.properties ?? {}) as Record<string, JsonSchema>;
  const joined = Object.entries((properties ?? {}) as Record<string, JsonSchema>).map(([name, p]) => [
    name,
    own[name] ? conjoin(own[name], p, components) : p,
  ]);
  return {
    ...base,
    ...(required ? { required: [...new Set([...((base.required ?? []) as string[]), ...(required as string[])])] } : {}),
    ...(properties ? { properties: { ...own, ...Object.fromEntries(joined) } } : {}),
    ...(Object.keys(other).length ? { allOf: [...((base.allOf ?? []) as JsonSchema[]), other] } : {}),
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
