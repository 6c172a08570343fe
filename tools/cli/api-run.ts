/**
 * Running an API command: its arguments and flags checked against the
 * operation's schemas (types, enum values, required fields), the request
 * sent with the profile's or environment's key (api-client.ts: retries), and
 * the answer printed as JSON (piped or `--json`) or as a table or record.
 */
import { readFileSync } from 'node:fs';
import { ApiCommand, ApiGroup, apiGroups, Document, Flag, loadDocument } from './api-commands';
import { request } from './api-client';
import type { Command } from 'commander';
import { completionScript } from './api-help';
import { UsageError } from './errors';
import { printAnswer, wantsJson } from './output';
import { credentials, readSecret, saveProfile } from './profiles';

export interface Api {
  doc: Document;
  groups: ApiGroup[];
}

export function loadApi(env: NodeJS.ProcessEnv = process.env): Api {
  const doc = loadDocument(env);
  return { doc, groups: apiGroups(doc) };
}

export const defaultBaseUrl = (api: Api): string => api.doc.servers?.[0]?.url ?? 'http://127.0.0.1:8080/api/v1';

const USER_AGENT = 'offerops-cli/0.1';

/** An API command's arguments and flags as commander read them (each flag's value already checked). */
export interface Parsed {
  positionals: string[];
  values: Map<Flag, unknown>;
  data?: string;
  all: boolean;
  profile?: string;
}

/** A flag's value as its schema types it; a value of the wrong type is a usage error. */
export function parseValue(f: Flag, raw: string, hint: string): unknown {
  const bad = (why: string) => new UsageError(`--${f.flag}: ${why}`, hint);
  if (f.nullable && raw === 'null') return null;
  const scalar = (kind: string | undefined, text: string): unknown => {
    let v: unknown = text;
    if (kind === 'number' || kind === 'integer') {
      v = Number(text);
      if (text.trim() === '' || !Number.isFinite(v)) throw bad(`'${text}' is not a number`);
      if (kind === 'integer' && !Number.isInteger(v)) throw bad(`'${text}' is not an integer`);
    } else if (kind === 'boolean') {
      if (text !== 'true' && text !== 'false') throw bad(`'${text}' is not true or false`);
      v = text === 'true';
    }
    if (f.enum && !f.enum.includes(v as string | number | boolean)) throw bad(`'${text}' is not one of ${f.enum.join(', ')}`);
    return v;
  };
  if (f.kind === 'json') {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      throw bad(`not JSON: ${raw}`);
    }
  }
  if (f.kind === 'list') return raw.split(',').map((s) => scalar(f.itemKind, s.trim()));
  return scalar(f.kind, raw);
}

function readStdin(): string {
  return readFileSync(0, 'utf8');
}

function bodyOf(c: ApiCommand, p: Parsed, hint: string): unknown {
  let body: unknown;
  if (p.data !== undefined) {
    const source = p.data === '-' ? 'stdin' : p.data.startsWith('@') ? p.data.slice(1) : null;
    let text: string;
    try {
      text = source === 'stdin' ? readStdin() : source !== null ? readFileSync(source, 'utf8') : p.data;
    } catch (err) {
      throw new UsageError(`--data: cannot read ${source} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, hint);
    }
    try {
      body = JSON.parse(text) as unknown;
    } catch (err) {
      throw new UsageError(`--data: ${source ?? 'the value'} is not JSON (${(err as Error).message})`, hint);
    }
  }
  const fields = [...p.values].filter(([f]) => f.in === 'body');
  if (fields.length) {
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      throw new UsageError('--data: flags set fields of an object body, but the JSON given is not an object', hint);
    }
    body = { ...(body ?? {}), ...Object.fromEntries(fields.map(([f, v]) => [f.name, v])) };
  }
  const missing = c.flags.filter((f) => f.in === 'body' && f.required && (body as Record<string, unknown> | undefined)?.[f.name] === undefined);
  if (missing.length) throw new UsageError(`missing ${missing.map((f) => `--${f.flag}`).join(', ')} (required; or give it in --data)`, hint);
  if (body === undefined && c.body?.required) throw new UsageError('missing the request body: --data JSON, @file.json or -', hint);
  return body;
}

function queryOf(c: ApiCommand, p: Parsed, hint: string): [string, string][] {
  const missing = c.flags.filter((f) => f.in === 'query' && f.required && !p.values.has(f));
  if (missing.length) throw new UsageError(`missing ${missing.map((f) => `--${f.flag}`).join(', ')}`, hint);
  const pairs: [string, string][] = [];
  for (const [f, v] of p.values) {
    if (f.in !== 'query') continue;
    for (const item of Array.isArray(v) ? v : [v]) pairs.push([f.name, typeof item === 'string' ? item : JSON.stringify(item)]);
  }
  return pairs;
}

/** Every page of a list: from the given offset, `limit` at a time (the largest the document allows unless given), until has_more is false. */
async function allPages(c: ApiCommand, creds: Parameters<typeof request>[0], path: string, query: [string, string][]): Promise<object> {
  const given = (name: string) => query.find(([k]) => k === name)?.[1];
  const limit = Number(given('limit') ?? c.maxLimit ?? 100);
  const start = Number(given('offset') ?? 0);
  const rest = query.filter(([k]) => k !== 'limit' && k !== 'offset');
  const items: unknown[] = [];
  let total: number | undefined;
  // What a page says beside its rows and pagination (an analytics page's `window`), as the last page said it.
  let beside: Record<string, unknown> | undefined;
  for (let offset = start; ;) {
    const { body } = await request(
      creds,
      c.method,
      path,
      [...rest, ['limit', String(limit)], ['offset', String(offset)]],
      undefined,
      USER_AGENT,
    );
    const page = (body?.data ?? []) as unknown[];
    items.push(...page);
    total = body?.pagination?.total;
    const { data: _rows, pagination: _pagination, request_id: _id, ...others } = (body ?? {}) as Record<string, unknown>;
    beside = others;
    if (!body?.pagination?.has_more || page.length === 0) break;
    offset += page.length;
  }
  return { data: items, pagination: { total: total ?? items.length, limit: items.length, offset: start, has_more: false }, ...beside };
}

/** An operation called: its query and body from the flags (and --data), the answer printed. */
export async function runApiCommand(api: Api, command: ApiCommand, parsed: Parsed, hint: string): Promise<void> {
  const query = queryOf(command, parsed, hint);
  const body = bodyOf(command, parsed, hint);
  let k = 0;
  const path = command.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(parsed.positionals[k++]!));
  const creds = credentials(parsed.profile, defaultBaseUrl(api));
  if (parsed.all) {
    printAnswer(await allPages(command, creds, path, query));
    return;
  }
  const answer = await request(creds, command.method, path, query, body, USER_AGENT);
  printAnswer(answer.body);
}

/** `offerops login`: the key checked with GET /me of the document, then saved as a profile. */
export async function runLogin(api: Api, opts: { profile?: string; apiKey?: string; baseUrl?: string }): Promise<void> {
  const me = api.groups.flatMap((g) => g.commands).find((c) => c.method === 'GET' && c.path === '/me');
  if (!me) throw new UsageError('the OpenAPI document has no GET /me to check a key with');
  const profile = opts.profile ?? 'default';
  const baseUrl = (opts.baseUrl ?? process.env.OFFEROPS_BASE_URL ?? defaultBaseUrl(api)).replace(/\/+$/, '');
  const apiKey = opts.apiKey ?? (await readSecret(`API key for ${baseUrl}: `));
  if (!apiKey) throw new UsageError('no API key given', 'usage: offerops login [--profile NAME] [--api-key KEY] [--base-url URL]');
  const answer = await request({ baseUrl, apiKey }, 'GET', me.path, [], undefined, USER_AGENT);
  const file = saveProfile(profile, { base_url: baseUrl, api_key: apiKey });
  const data = (answer.body?.data ?? {}) as { account?: { id?: string; name?: string } };
  const account = data.account ?? {};
  const out = { profile, base_url: baseUrl, config: file, account };
  process.stdout.write(
    wantsJson()
      ? `${JSON.stringify(out)}\n`
      : `Logged in to ${account.name ?? 'the account'} (${account.id ?? '?'}): profile ${profile} saved in ${file} (${baseUrl}).\n`,
  );
}

export function runCompletion(shell: string, program: Command): void {
  if (shell !== 'bash' && shell !== 'zsh')
    throw new UsageError(`no completion for ${shell}: bash or zsh`, 'usage: offerops completion bash|zsh');
  process.stdout.write(completionScript(shell, program));
}
