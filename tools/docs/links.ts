/**
 * Checks the Markdown of the repository the way a reader meets it: every relative
 * link and image names a file or folder that exists, every `#anchor` names a
 * heading (or an `id`) of its target, and every code fence is closed by a bare
 * fence line (a closing fence with text after it is content in CommonMark, so the
 * block swallows what follows). External links (any `scheme:`) are not fetched.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import MarkdownIt, { Token } from 'markdown-it';

const md = new MarkdownIt({ html: true, linkify: false });

export interface Problem {
  /** The file, relative to the root checked. */
  file: string;
  line: number;
  message: string;
}

/** GitHub's heading anchor: lower case, punctuation dropped, each space a hyphen. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The text of a heading as GitHub reads it for its anchor: inline markup dropped, code kept. */
function headingText(inline: Token): string {
  return (inline.children ?? [])
    .filter((t) => t.type === 'text' || t.type === 'code_inline')
    .map((t) => t.content)
    .join('');
}

/** Every anchor a Markdown text defines: its headings' (repeats numbered `-1`, `-2`, …) and the ids of its HTML. */
export function anchorsOf(text: string): Set<string> {
  const tokens = md.parse(text, {});
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  tokens.forEach((token, i) => {
    if (token.type === 'heading_open') {
      const base = slug(headingText(tokens[i + 1]!));
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    const html = token.type === 'html_block' || token.type === 'inline' ? token.content : '';
    for (const m of html.matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  });
  return anchors;
}

interface Link {
  href: string;
  line: number;
}

/** The links and images of a parsed text, with the line of the block they are in. */
function linksOf(tokens: Token[]): Link[] {
  return tokens.flatMap((block): Link[] =>
    block.type !== 'inline'
      ? []
      : (block.children ?? []).flatMap((t): Link[] => {
          const href = t.type === 'link_open' ? t.attrGet('href') : t.type === 'image' ? t.attrGet('src') : null;
          return href === null ? [] : [{ href: String(href), line: (block.map?.[0] ?? 0) + 1 }];
        }),
  );
}

/** Fences that run on: one holding a fence line of its own kind (a closing fence with text after it), or never closed. */
function fenceProblems(tokens: Token[], lines: string[]): Omit<Problem, 'file'>[] {
  return tokens.flatMap((token) => {
    if (token.type !== 'fence' || !token.map) return [];
    const [start, end] = token.map;
    const fence = `\\${token.markup[0]}{${token.markup.length},}`;
    const inner = new RegExp(`^ {0,3}${fence}`);
    const at = token.content.split('\n').findIndex((l) => inner.test(l));
    if (at >= 0) {
      return [
        {
          line: start + 2 + at,
          message: `a fence line inside the code block opened on line ${start + 1}: a closing fence must stand alone (text after it keeps the block open)`,
        },
      ];
    }
    const closer = new RegExp(`^[ \t>]*${fence}[ \t]*$`); // the source line: a list or quote may indent it
    return end - start >= 2 && closer.test(lines[end - 1] ?? '') ? [] : [{ line: start + 1, message: 'a code block that is never closed' }];
  });
}

/** The problems of one Markdown file; `root` is where a link starting with `/` points. */
export function checkFile(file: string, root: string, anchorCache = new Map<string, Set<string>>()): Problem[] {
  const text = readFileSync(file, 'utf8');
  const tokens = md.parse(text, {});
  const name = relative(root, file);
  const problems: Problem[] = fenceProblems(tokens, text.split('\n')).map((p) => ({ file: name, ...p }));
  const anchors = (target: string): Set<string> => {
    let found = anchorCache.get(target);
    if (!found) anchorCache.set(target, (found = anchorsOf(readFileSync(target, 'utf8'))));
    return found;
  };
  for (const { href, line } of linksOf(tokens)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) continue;
    const hash = href.indexOf('#');
    const pathPart = decodeURI(hash < 0 ? href : href.slice(0, hash)).replace(/\?.*$/, '');
    const anchor = hash < 0 ? null : decodeURIComponent(href.slice(hash + 1));
    let target = pathPart === '' ? file : pathPart.startsWith('/') ? join(root, pathPart) : resolve(dirname(file), pathPart);
    if (!existsSync(target)) {
      problems.push({ file: name, line, message: `link to ${href}: no such file or folder (${relative(root, target)})` });
      continue;
    }
    if (anchor === null) continue;
    if (statSync(target).isDirectory()) target = join(target, 'README.md');
    if (!target.endsWith('.md') || !existsSync(target)) continue;
    if (!anchors(target).has(anchor)) {
      problems.push({ file: name, line, message: `link to ${href}: ${relative(root, target)} has no heading or id "${anchor}"` });
    }
  }
  return problems;
}

/** The Markdown files of the documentation: `README.md` and everything under `docs/`. */
export function documentationFiles(root: string): string[] {
  const docs = join(root, 'docs');
  const under = existsSync(docs)
    ? readdirSync(docs, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.md'))
        .map((f) => join(docs, f))
    : [];
  return [join(root, 'README.md'), ...under.sort()].filter((f) => existsSync(f));
}

/** Every problem of every file given. */
export function checkFiles(files: string[], root: string): Problem[] {
  const cache = new Map<string, Set<string>>();
  return files.flatMap((f) => checkFile(f, root, cache));
}
