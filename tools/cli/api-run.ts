/**
 * Running an API command: its arguments and flags checked against the
 * operation's schemas (types, enum values, required fields), the request
 * sent with the profile's or environment's key (api-client.ts: retries), and
 * the answer printed as JSON (piped or `--json`) or as a table or record.
 */
import { readFileSync } from 'node:fs';
import { ApiCommand, ApiGroup, apiGroups, Document, Flag, loadDocument } from './api-commands';
import { request } from './api-client';
import { apiCommandHelp, apiGroupHelp, apiUsageLine, completionScript, LOGIN_HELP } from './api-help';
import type { Command } from './commands';
import { UsageError } from './errors';
import { human } from './output';
import { credentials, readSecret, saveProfile } from './profiles';

/** A usage error with the help line to show under it on a terminal. */
export class ApiUsageError extends UsageError {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

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

interface Parsed {
  positionals: string[];
  values: Map<Flag, unknown>;
  data?: string;
  all: boolean;
  profile?: string;
}

function parseValue(f: Flag, raw: string, hint: string): unknown {
  const bad = (why: string) => new ApiUsageError(`--${f.flag}: ${why}`, hint);
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

function parse(c: ApiCommand, tokens: string[]): Parsed {
  const hint = `usage: ${apiUsageLine(c)}\nRun 'offerops ${c.group} ${c.name} --help' for its options.`;
  const out: Parsed = { positionals: [], values: new Map(), all: false };
  const byFlag = new Map(c.flags.map((f) => [f.flag, f]));
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token === '--') {
      out.positionals.push(...tokens.slice(i + 1));
      break;
    }
    if (!token.startsWith('--') || token === '-') {
      if (token.startsWith('-') && token !== '-') throw new ApiUsageError(`unknown option ${token}`, hint);
      out.positionals.push(token);
      continue;
    }
    const eq = token.indexOf('=');
    const name = token.slice(2, eq < 0 ? undefined : eq);
    const inline = eq < 0 ? undefined : token.slice(eq + 1);
    const next = (): string => {
      if (inline !== undefined) return inline;
      const v = tokens[++i];
      if (v === undefined) throw new ApiUsageError(`--${name} needs a value`, hint);
      return v;
    };
    if (name === 'json') continue;
    if (name === 'all' && c.pageable && inline === undefined) out.all = true;
    else if (name === 'data' && c.body) out.data = next();
    else if (name === 'profile') out.profile = next();
    else {
      const negated = name.startsWith('no-') ? byFlag.get(name.slice(3)) : undefined;
      const f = byFlag.get(name) ?? (negated?.kind === 'boolean' ? negated : undefined);
      if (!f) throw new ApiUsageError(`unknown option --${name}`, hint);
      let value: unknown;
      if (f.kind === 'boolean') value = negated ? false : inline === undefined ? true : parseValue(f, inline, hint);
      else value = parseValue(f, next(), hint);
      const before = out.values.get(f);
      out.values.set(f, f.kind === 'list' && Array.isArray(before) ? [...(before as unknown[]), ...(value as unknown[])] : value);
    }
  }
  if (out.positionals.length < c.args.length) {
    throw new ApiUsageError(
      `missing ${c.args
        .slice(out.positionals.length)
        .map((a) => a.name.toUpperCase())
        .join(' ')}`,
      hint,
    );
  }
  if (out.positionals.length > c.args.length) {
    throw new ApiUsageError(`unexpected argument: ${out.positionals.slice(c.args.length).join(' ')}`, hint);
  }
  return out;
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
      throw new ApiUsageError(`--data: cannot read ${source} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, hint);
    }
    try {
      body = JSON.parse(text) as unknown;
    } catch (err) {
      throw new ApiUsageError(`--data: ${source ?? 'the value'} is not JSON (${(err as Error).message})`, hint);
    }
  }
  const fields = [...p.values].filter(([f]) => f.in === 'body');
  if (fields.length) {
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      throw new ApiUsageError('--data: flags set fields of an object body, but the JSON given is not an object', hint);
    }
    body = { ...(body ?? {}), ...Object.fromEntries(fields.map(([f, v]) => [f.name, v])) };
  }
  const missing = c.flags.filter((f) => f.in === 'body' && f.required && (body as Record<string, unknown> | undefined)?.[f.name] === undefined);
  if (missing.length) throw new ApiUsageError(`missing ${missing.map((f) => `--${f.flag}`).join(', ')} (required; or give it in --data)`, hint);
  if (body === undefined && c.body?.required) throw new ApiUsageError('missing the request body: --data JSON, @file.json or -', hint);
  return body;
}

function queryOf(c: ApiCommand, p: Parsed, hint: string): [string, string][] {
  const missing = c.flags.filter((f) => f.in === 'query' && f.required && !p.values.has(f));
  if (missing.length) throw new ApiUsageError(`missing ${missing.map((f) => `--${f.flag}`).join(', ')}`, hint);
  const pairs: [string, string][] = [];
  for (const [f, v] of p.values) {
    if (f.in !== 'query') continue;
    for (const item of Array.isArray(v) ? v : [v]) pairs.push([f.name, typeof item === 'string' ? item : JSON.stringify(item)]);
  }
  return pairs;
}

function print(body: unknown, json: boolean): void {
  process.stdout.write(json ? `${JSON.stringify(body)}\n` : human(body, process.stdout.columns || 120));
}

/** Every page of a list: from the given offset, `limit` at a time (the largest the document allows unless given), until has_more is false. */
async function allPages(c: ApiCommand, creds: Parameters<typeof request>[0], path: string, query: [string, string][]): Promise<object> {
  const given = (name: string) => query.find(([k]) => k === name)?.[1];
  const limit = Number(given('limit') ?? c.maxLimit ?? 100);
  const start = Number(given('offset') ?? 0);
  const rest = query.filter(([k]) => k !== 'limit' && k !== 'offset');
  const items: unknown[] = [];
  let total: number | undefined;
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
    if (!body?.pagination?.has_more || page.length === 0) break;
    offset += page.length;
  }
  return { data: items, pagination: { total: total ?? items.length, limit: items.length, offset: start, has_more: false } };
}

/** `offerops <group> [<command> …]`: help, or the operation called. */
export async function runApiCommand(api: Api, argv: string[], json: boolean, help: boolean): Promise<void> {
  const words = argv.filter((t) => !t.startsWith('-'));
  const group = api.groups.find((g) => g.name === words[0])!;
  const command = group.commands.find((c) => c.name === words[1]);
  if (!command) {
    if (help && words.length === 1) {
      process.stdout.write(apiGroupHelp(group));
      return;
    }
    const hint = `Run 'offerops ${group.name} --help' to see its commands.`;
    throw new ApiUsageError(
      words[1] === undefined ? `'offerops ${group.name}' needs a command` : `unknown command '${group.name} ${words[1]}'`,
      hint,
    );
  }
  if (help) {
    process.stdout.write(apiCommandHelp(command));
    return;
  }
  const tokens = [...argv];
  tokens.splice(tokens.indexOf(group.name), 1);
  tokens.splice(tokens.indexOf(command.name), 1);
  const parsed = parse(command, tokens);
  const hint = `usage: ${apiUsageLine(command)}`;
  const query = queryOf(command, parsed, hint);
  const body = bodyOf(command, parsed, hint);
  let k = 0;
  const path = command.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(parsed.positionals[k++]!));
  const creds = credentials(parsed.profile, defaultBaseUrl(api));
  if (parsed.all) {
    print(await allPages(command, creds, path, query), json);
    return;
  }
  const answer = await request(creds, command.method, path, query, body, USER_AGENT);
  print(answer.body, json);
}

/** `offerops login`: the key checked with GET /me of the document, then saved as a profile. */
export async function runLogin(api: Api, argv: string[], json: boolean, help: boolean): Promise<void> {
  if (help) {
    process.stdout.write(LOGIN_HELP);
    return;
  }
  const hint = "usage: offerops login [--profile NAME] [--api-key KEY] [--base-url URL]\nRun 'offerops login --help' for more.";
  const opts: Record<string, string> = {};
  const tokens = argv.slice(argv.indexOf('login') + 1).filter((t) => t !== '--json');
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const m = /^--(profile|api-key|base-url)(?:=(.*))?$/.exec(t);
    if (!m) throw new ApiUsageError(t.startsWith('-') ? `unknown option ${t}` : `unexpected argument: ${t}`, hint);
    const v = m[2] ?? tokens[++i];
    if (v === undefined || v === '') throw new ApiUsageError(`--${m[1]} needs a value`, hint);
    opts[m[1]!] = v;
  }
  const me = api.groups.flatMap((g) => g.commands).find((c) => c.method === 'GET' && c.path === '/me');
  if (!me) throw new UsageError('the OpenAPI document has no GET /me to check a key with');
  const profile = opts.profile ?? 'default';
  const baseUrl = (opts['base-url'] ?? process.env.OFFEROPS_BASE_URL ?? defaultBaseUrl(api)).replace(/\/+$/, '');
  const apiKey = opts['api-key'] ?? (await readSecret(`API key for ${baseUrl}: `));
  if (!apiKey) throw new ApiUsageError('no API key given', hint);
  const answer = await request({ baseUrl, apiKey }, 'GET', me.path, [], undefined, USER_AGENT);
  const file = saveProfile(profile, { base_url: baseUrl, api_key: apiKey });
  const account = (answer.body?.data ?? {}) as Record<string, unknown>;
  const out = { profile, base_url: baseUrl, config: file, account: account.account ?? account };
  process.stdout.write(json ? `${JSON.stringify(out)}\n` : `Logged in: profile ${profile} saved in ${file} (${baseUrl}).\n`);
}

export function runCompletion(api: Api, argv: string[], builtIn: Pick<Command, 'words' | 'options'>[]): void {
  const shell = argv[argv.indexOf('completion') + 1];
  if (shell !== 'bash' && shell !== 'zsh') {
    throw new ApiUsageError(
      shell ? `no completion for ${shell}: bash or zsh` : 'which shell? offerops completion bash|zsh',
      'usage: offerops completion bash|zsh',
    );
  }
  process.stdout.write(completionScript(shell, api.groups, builtIn));
}
