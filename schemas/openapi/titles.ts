/**
 * Titles for the branches of every `oneOf`, so a reader of the reference
 * (Redoc labels an untitled branch by its type: "object / object") sees what
 * each alternative is: the value of the constant that tags it (`message`),
 * else the fields only it requires (`with cron`). A branch with a title keeps it.
 */
import { JsonSchema } from './common';

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

function titleOf(branch: JsonSchema, shared: string[]): string | null {
  const props = (isObject(branch.properties) ? branch.properties : {}) as Record<string, JsonSchema>;
  const consts = Object.entries(props).filter(([, p]) => isObject(p) && 'const' in p);
  if (consts.length === 1) {
    const [key, p] = consts[0]!;
    return key === 'type' ? String(p.const) : `${key} ${String(p.const)}`;
  }
  const own = (Array.isArray(branch.required) ? (branch.required as string[]) : []).filter((f) => !shared.includes(f));
  return own.length ? `with ${own.join(' and ')}` : null;
}

/** Adds the titles in place, everywhere below `schema`. */
export function titleAlternatives(schema: unknown): void {
  if (Array.isArray(schema)) return schema.forEach(titleAlternatives);
  if (!isObject(schema)) return;
  const branches = schema.oneOf;
  if (Array.isArray(branches) && branches.every(isObject)) {
    const required = branches.map((b) => (Array.isArray(b.required) ? (b.required as string[]) : []));
    const shared = required.reduce((acc, r) => acc.filter((f) => r.includes(f)));
    for (const branch of branches) {
      const title = branch.title === undefined && !branch.$ref ? titleOf(branch, shared) : null;
      if (title) branch.title = title;
    }
  }
  for (const value of Object.values(schema)) titleAlternatives(value);
}
