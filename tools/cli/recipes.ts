/**
 * The recipe library (`recipes/*.json`, shipped with the product): each file
 * is a journey body for the public `POST /journeys`. `offerops recipes list`
 * shows them; `offerops recipes install NAME` creates one as a draft journey
 * (active 0) through the API, with the account's key (OFFEROPS_API_KEY) at
 * OFFEROPS_BASE_URL, as any REST client could.
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
}

export function readRecipes(dir = RECIPES_DIR): Recipe[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ recipe: f.slice(0, -'.json'.length), body: JSON.parse(readFileSync(resolve(dir, f), 'utf8')) as Recipe['body'] }));
}

export function recipesList(): object {
  return {
    recipes: readRecipes().map((r) => ({
      recipe: r.recipe,
      name: r.body.name,
      description: r.body.description ?? null,
      trigger: r.body.trigger,
      blocks: r.body.blocks.length,
    })),
  };
}

/** An answer of the API that is not a success, as the CLI reports it: 4xx are the caller's (exit 2), others exit 1. */
class ApiFailure extends Error {}

export async function recipeInstall(name: string, env: NodeJS.ProcessEnv = process.env): Promise<object> {
  const recipe = readRecipes().find((r) => r.recipe === name);
  if (!recipe)
    throw new UsageError(
      `no recipe ${name}; known: ${readRecipes()
        .map((r) => r.recipe)
        .join(', ')}`,
    );
  const key = env.OFFEROPS_API_KEY;
  if (!key) throw new UsageError('set OFFEROPS_API_KEY to an API key of the account (scope journeys:write)');
  const base = (env.OFFEROPS_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  let res: Response;
  try {
    res = await fetch(`${base}/journeys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(recipe.body),
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
