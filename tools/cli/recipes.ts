/**
 * The recipe library (`recipes/*.json`, shipped with the product): each file
 * is a journey body for the public `POST /journeys`. `offerops recipes list`
 * shows them; `offerops recipes install NAME` creates one as a draft journey
 * (active 0) through the API, with the account's key (OFFEROPS_API_KEY) at
 * OFFEROPS_BASE_URL, as any REST client could.
 *
 * A recipe that needs something of the account (the group to publish to) says
 * so with a placeholder `{{name}}` in a string of its body: its parameters.
 * `install` fills them from `--set name=value,…`; a REST client replaces them
 * in the JSON before posting it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from './errors';

/** The folder of the recipes: `recipes/` at the root of the package (this file runs from dist/tools/cli/). */
export const RECIPES_DIR = resolve(__dirname, '../../../recipes');
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080/api/v1';

export interface Recipe {
  /** The file name without `.json`: what `install` takes. */
  recipe: string;
  body: { name: string; description?: string; trigger: string; blocks: unknown[] } & Record<string, unknown>;
  /** The names of its placeholders (`{{group_id}}`), in order of first appearance. */
  parameters: string[];
}

const PLACEHOLDER = /\{\{([a-z_]+)\}\}/g;

/** The body with every placeholder replaced by its value (each must have one, not empty). */
export function fillRecipe(recipe: Recipe, values: Record<string, string>): Recipe['body'] {
  const missing = recipe.parameters.filter((p) => values[p] === undefined);
  if (missing.length) throw new UsageError(`the recipe ${recipe.recipe} needs ${missing.map((p) => `${p}=…`).join(', ')} (--set)`);
  // An empty value would leave `"group_id": ""` in the body, which the API refuses with a message about the journey, not the parameter.
  const empty = recipe.parameters.filter((p) => values[p] === '');
  if (empty.length)
    throw new UsageError(`the recipe ${recipe.recipe} needs a value for ${empty.join(', ')}: --set ${empty.map((p) => `${p}=…`).join(',')}`);
  const unknown = Object.keys(values).filter((k) => !recipe.parameters.includes(k));
  if (unknown.length) throw new UsageError(`the recipe ${recipe.recipe} has no parameter ${unknown.join(', ')}`);
  return JSON.parse(JSON.stringify(recipe.body), (_key, value: unknown) =>
    typeof value === 'string' ? value.replace(PLACEHOLDER, (_m, name: string) => values[name]!) : value,
  ) as Recipe['body'];
}

/** `a=1,b=2` as `{a: '1', b: '2'}`. */
export function parseSettings(text: string | undefined): Record<string, string> {
  if (text === undefined) return {};
  const out: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new UsageError(`--set takes name=value pairs separated by commas, not ${JSON.stringify(pair)}`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

export function readRecipes(dir = RECIPES_DIR): Recipe[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const text = readFileSync(resolve(dir, f), 'utf8');
      const parameters = [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
      return { recipe: f.slice(0, -'.json'.length), body: JSON.parse(text) as Recipe['body'], parameters };
    });
}

export function recipesList(): object {
  return {
    recipes: readRecipes().map((r) => ({
      recipe: r.recipe,
      name: r.body.name,
      description: r.body.description ?? null,
      trigger: r.body.trigger,
      blocks: r.body.blocks.length,
      parameters: r.parameters,
    })),
  };
}

/** An answer of the API that is not a success, as the CLI reports it: 4xx are the caller's (exit 2), others exit 1. */
class ApiFailure extends Error {}

export async function recipeInstall(name: string, settings: Record<string, string>, env: NodeJS.ProcessEnv = process.env): Promise<object> {
  const recipe = readRecipes().find((r) => r.recipe === name);
  if (!recipe)
    throw new UsageError(
      `no recipe ${name}; known: ${readRecipes()
        .map((r) => r.recipe)
        .join(', ')}`,
    );
  const body = fillRecipe(recipe, settings);
  const key = env.OFFEROPS_API_KEY;
  if (!key) throw new UsageError('set OFFEROPS_API_KEY to an API key of the account (scope journeys:write)');
  const base = (env.OFFEROPS_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  let res: Response;
  try {
    res = await fetch(`${base}/journeys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiFailure(`the API at ${base} could not be reached (${(err as Error).message})`);
  }
  const text = await res.text();
  let answer: { data?: { id: string; name: string; active: number }; code?: string; message?: string } = {};
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    // not JSON: reported by status below
  }
  if (res.status !== 201 || !answer.data) {
    const why = `${res.status}${answer.code ? ` ${answer.code}` : ''}: ${answer.message ?? 'unexpected answer'}`;
    throw res.status >= 400 && res.status < 500
      ? new UsageError(`the API refused the recipe (${why})`)
      : new ApiFailure(`the API failed (${why})`);
  }
  return { journey_id: answer.data.id, name: answer.data.name, active: answer.data.active };
}
