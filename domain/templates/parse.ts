/**
 * A template body's syntax: `{name}` placeholders among literal text, read
 * by the checks on save (./service.ts) and by the renderer (../offers/render.ts).
 */
import { PLACEHOLDERS } from '../../schemas/openapi/templates';

export type Placeholder = (typeof PLACEHOLDERS)[number];

const isPlaceholder = (name: string): name is Placeholder => (PLACEHOLDERS as readonly string[]).includes(name);

type Part = { text: string } | { placeholder: Placeholder };

/** Why a body cannot be saved: an unknown placeholder or a brace that is neither `{{`, `}}` nor part of a placeholder. */
export interface TemplateProblem {
  rule: 'placeholder' | 'brace';
  message: string;
}

export interface ParsedTemplate {
  /** The body's lines, each as literal text and placeholders. */
  lines: Part[][];
  /** Placeholders used, in order of first use. */
  placeholders: Placeholder[];
  problems: TemplateProblem[];
}

const KNOWN = PLACEHOLDERS.map((p) => `{${p}}`).join(', ');

/** Reads a template body: `{name}` is a placeholder, `{{` and `}}` are literal braces; a placeholder never spans lines. */
export function parseTemplate(body: string): ParsedTemplate {
  const placeholders: Placeholder[] = [];
  const problems: TemplateProblem[] = [];
  const lines = body.split('\n').map((line, index) => {
    const parts: Part[] = [];
    let text = '';
    const lone = (brace: string) =>
      problems.push({
        rule: 'brace',
        message: `line ${index + 1} has a lone ${brace}; write ${brace}${brace} for a literal brace`,
      });
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if ((c === '{' || c === '}') && line[i + 1] === c) {
        text += c;
        i++;
      } else if (c === '}') {
        lone('}');
        text += c;
      } else if (c === '{') {
        const end = line.indexOf('}', i + 1);
        const name = end === -1 ? null : line.slice(i + 1, end);
        if (name === null || name.includes('{')) {
          lone('{');
          text += c;
        } else if (!isPlaceholder(name)) {
          problems.push({ rule: 'placeholder', message: `unknown placeholder {${name}}; known: ${KNOWN} ({{ and }} write literal braces)` });
          text += `{${name}}`;
          i = end;
        } else {
          if (text) parts.push({ text });
          text = '';
          parts.push({ placeholder: name });
          if (!placeholders.includes(name)) placeholders.push(name);
          i = end;
        }
      } else {
        text += c;
      }
    }
    if (text) parts.push({ text });
    return parts;
  });
  return { lines, placeholders, problems };
}
