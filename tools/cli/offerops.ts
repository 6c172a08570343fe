#!/usr/bin/env node
/**
 * The `offerops` command. `-h`/`--help` prints help at every level (plain
 * text on stdout, exit 0). API commands (`offerops offers list`, one per
 * operation of the OpenAPI document: api-commands.ts) print the API's JSON,
 * or a table or record on a terminal; `login` saves a profile, `completion`
 * prints a shell script. Admin commands print one JSON object on stdout.
 * Failures go to stderr — readable text on a terminal (an API error with each
 * problem of its `details` on a line); with `--json` or when stdout is not a
 * terminal, the API's error envelope as sent, or `{"error": …}` for others —
 * and exit 2 (a usage or input error), 4 (the API refused: 4xx), 5 (5xx or no answer, after retries) or 1
 * (anything else). `recipes` commands print one JSON object, or a record
 * on a terminal. `dev` commands run until interrupted. The command tree is
 * program.ts.
 */
import { Command, CommanderError } from 'commander';
import { DomainError } from '../../domain/errors';
import { ApiError, NetworkError } from './api-client';
import { loadApi } from './api-run';
import { UsageError } from './errors';
import { wantsJson } from './output';
import { buildProgram } from './program';

const HELP = new Set(['-h', '--help']);

/**
 * `--json` is read from the whole line (output.ts); `--help` anywhere asks for
 * the help of the command the words name, unless a word names none: that is
 * reported as an unknown command.
 */
function commandLine(program: Command, argv: string[]): string[] {
  const words = argv.filter((t) => t !== '--json' && !HELP.has(t));
  if (!argv.some((t) => HELP.has(t))) return words;
  let cmd = program;
  for (const word of words) {
    if (word.startsWith('-') || !cmd.commands.length) break;
    const next = cmd.commands.find((c) => c.name() === word);
    if (!next) return words;
    cmd = next;
  }
  return [...words, '--help'];
}

async function main(): Promise<void> {
  let api;
  try {
    api = loadApi();
  } catch (err) {
    api = { error: (err as Error).message };
  }
  const program = buildProgram(api);
  await program.parseAsync(commandLine(program, process.argv.slice(2)), { from: 'user' });
}

/** The API's error envelope as it was sent; for an answer that was not one (a proxy's HTML page), its shape made from the status. */
function envelopeOf(err: ApiError): object {
  if (typeof err.body === 'object' && err.body !== null && !Array.isArray(err.body)) return err.body;
  return { code: err.code, message: err.message, request_id: err.requestId };
}

/** An API error in words: status, code, message and request id, then each problem of `details` on a line of its own. */
function apiErrorText(err: ApiError): string {
  const lines = [`offerops: ${err.status} ${err.code}: ${err.message}${err.requestId ? ` (request_id ${err.requestId})` : ''}`];
  // The contract's Error schema: details as ErrorDetail, details_omitted a count.
  const { details = [], details_omitted: omitted } = envelopeOf(err) as {
    details?: { location: string; field: string; rule: string; message: string }[];
    details_omitted?: number;
  };
  for (const d of details) lines.push(`  ${d.field ? `${d.location} ${d.field}` : d.location}: ${d.message} (${d.rule})`);
  if (typeof omitted === 'number') lines.push(`  … and ${omitted} more, not listed (details_omitted)`);
  return `${lines.join('\n')}\n`;
}

function report(err: unknown): void {
  if (err instanceof CommanderError) {
    // Help was printed (--help): commander says so with an "error" that is not one.
    process.exitCode = err.exitCode;
    return;
  }
  const json = wantsJson();
  const message = (err as Error).message;
  if (err instanceof ApiError) {
    process.stderr.write(json ? `${JSON.stringify(envelopeOf(err))}\n` : apiErrorText(err));
    process.exitCode = err.status < 500 ? 4 : 5;
    return;
  }
  if (json) {
    const code = err instanceof DomainError ? { code: err.code } : {};
    process.stderr.write(`${JSON.stringify({ error: message, ...code })}\n`);
  } else {
    const hint = err instanceof UsageError ? err.hint : undefined;
    process.stderr.write(`offerops: ${message}\n${hint ? `\n${hint}\n` : ''}`);
  }
  process.exitCode = err instanceof NetworkError ? 5 : err instanceof UsageError || err instanceof DomainError ? 2 : 1;
}

main().then(() => undefined, report);
