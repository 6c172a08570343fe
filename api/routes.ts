/**
 * The API's route table: method and path → the route's target and its path
 * parameters, built once from the routes (in order) instead of testing every
 * route's regular expression on each request. Matching as the router did:
 * static segments compared without regard to case, one trailing slash
 * allowed, a parameter is one non-empty segment (percent-decoded when it
 * decodes), a GET route answers HEAD too, and the first route that fits
 * wins (list static paths before parameters).
 */

/** `{name}` segments are parameters. */
type Segment = { static: string } | { param: string };

interface Route<T> {
  method: string;
  segments: Segment[];
  target: T;
}

export type RouteMatch<T> = { target: T; params: Record<string, string> } | { allowed: string[] } | null;

const decode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** The path's segments (after the leading slash, one trailing slash dropped). */
function split(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.slice(1).split('/');
}

export class RouteTable<T> {
  /** By number of segments, in the order given. */
  private readonly bySize = new Map<number, Route<T>[]>();

  constructor(routes: readonly { method: string; path: string; target: T }[]) {
    for (const r of routes) {
      const segments = split(r.path).map((s): Segment => (/^\{\w+\}$/.test(s) ? { param: s.slice(1, -1) } : { static: s.toLowerCase() }));
      const list = this.bySize.get(segments.length) ?? [];
      list.push({ method: r.method.toUpperCase(), segments, target: r.target });
      this.bySize.set(segments.length, list);
    }
  }

  /**
   * The first route for `method` whose path fits, with its parameters; else,
   * when the path fits routes of other methods, those methods (for a 405's
   * Allow); else null.
   */
  match(path: string, method: string): RouteMatch<T> {
    if (!path.startsWith('/')) return null;
    const parts = split(path);
    const candidates = this.bySize.get(parts.length);
    if (!candidates) return null;
    const wanted = method === 'HEAD' ? 'GET' : method;
    let allowed: string[] | null = null;
    for (const route of candidates) {
      if (!fits(route.segments, parts)) continue;
      if (route.method === wanted) return { target: route.target, params: paramsOf(route.segments, parts) };
      allowed ??= [];
      if (!allowed.includes(route.method)) allowed.push(route.method);
    }
    return allowed && { allowed };
  }
}

function fits(segments: Segment[], parts: string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    const part = parts[i]!;
    if ('param' in s ? part === '' : part !== s.static && part.toLowerCase() !== s.static) return false;
  }
  return true;
}

function paramsOf(segments: Segment[], parts: string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    if ('param' in s) params[s.param] = decode(parts[i]!);
  }
  return params;
}
