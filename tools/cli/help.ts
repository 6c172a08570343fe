/** The help texts of `offerops`, made from the command table. */
import { AREAS, Command, COMMANDS, NOUNS } from './commands';

export const usageLine = (c: Command): string => ['offerops', ...c.words, ...c.args, c.synopsis].filter(Boolean).join(' ');

const COMMON = [
  '-h, --help            this help',
  '--json                errors as {"error": …} on stderr (the default when stdout is not a terminal)',
];

const STACK =
  'Admin commands find the stack through OFFEROPS_DATA_DIR (default ./.offerops: the stack.json npm start writes there),\nor MONGODB_URI and MONGODB_DB. Each prints one JSON object on stdout; a failure exits 2 (usage or input) or 1.';

const indent = (lines: string[]): string => lines.map((l) => `  ${l}`).join('\n');

function table(rows: [string, string][]): string {
  const width = Math.max(...rows.map(([a]) => a.length)) + 3;
  return indent(rows.map(([a, b]) => `${a.padEnd(width)}${b}`));
}

/** Help for a group of commands: everything (no words), an area (`admin`), or a noun (`admin key`). */
export function groupHelp(words: string[]): string {
  if (words.length === 0) {
    return [
      'offerops: operator commands for an offerops stack',
      '',
      'usage: offerops <area> <command> [options]',
      '',
      table(Object.entries(AREAS)),
      '',
      "Run 'offerops admin --help', 'offerops dev --help' or 'offerops recipes --help' for their commands, and",
      "'offerops <area> <command> --help' for one command's options.",
      '',
      'options:',
      indent(COMMON),
      '',
    ].join('\n');
  }
  const under = COMMANDS.filter((c) => words.every((w, i) => c.words[i] === w));
  const prefix = words.join(' ');
  const about = NOUNS[prefix] ?? AREAS[prefix] ?? '';
  return [
    `offerops ${prefix}: ${about}`,
    '',
    `usage: offerops ${prefix} <command> [options]`,
    '',
    'commands:',
    table(under.map((c) => [[...c.words.slice(words.length), ...c.args].join(' '), c.summary])),
    '',
    `Run 'offerops ${under[0]!.words.join(' ')} --help' (or any command's) for its options.`,
    ...(words[0] === 'admin' ? ['', STACK] : []),
    '',
  ].join('\n');
}

export function commandHelp(c: Command): string {
  return [
    `usage: ${usageLine(c)}`,
    '',
    `${c.summary[0]!.toUpperCase()}${c.summary.slice(1)}.`,
    '',
    'options:',
    indent([...c.details.filter((l) => l.startsWith('-')), ...COMMON]),
    ...(c.prints ? ['', `prints: ${c.prints}`] : []),
    ...c.details.filter((l) => !l.startsWith('-')).flatMap((l, i) => (i === 0 ? ['', l] : [l])),
    ...(c.admin || c.stream ? ['', STACK] : []),
    '',
  ].join('\n');
}
