/**
 * The contract-test runner: checks the running service, over HTTP, against
 * its own contract (the OpenAPI document and the event catalogue), in the
 * account's sandbox. It makes short-lived test keys for itself (one hour)
 * and revokes them when done, and records the run (store.ts).
 *
 * Checks, each with its outcome:
 * - routes: every operation's method and path answer (never 404
 *   `route_not_found` nor 405) with a status and body the document gives it;
 * - scopes: a key without an operation's scope gets 403 `insufficient_scope`;
 * - events: every event kind has a schema with a constant kind and version,
 *   and every event the run made validates against its schema;
 * - webhooks: a delivery to a receiver the caller started carries a valid
 *   Standard Webhooks signature (skipped without a receiver, or when the
 *   service refuses its address);
 * - domains: the responses about the seeded data match their schemas, enum
 *   values included;
 * - isolation: a test key never reads a live id.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Db } from 'mongodb';
import { ERROR_CODES } from '../../schemas/openapi/common';
import { SCOPES } from '../../schemas/openapi/common';
import { Operation, operations } from '../../schemas/operations';
import { EVENT_CATALOGUE, eventErrors } from '../../schemas/events/index';
import { validatorFor } from '../../schemas/validator';
import { createApiKey, getAccount, revokeApiKey, TEST_KEY_LIFETIMES } from '../accounts/store';
import { crossTenantCollection } from '../db';
import { notFound } from '../errors';
import { recordEvent } from '../events/store';
import { sandboxTenant } from '../sandbox/seed';
import { isSigningSecret, verifySignature } from '../webhooks/signature';
import { WebhookReceiver } from './receiver';
import { CheckOutcome, ContractTestRunDoc, MAX_FAILURES, newRunId, saveRun } from './store';

export interface RunOptions {
  /** The API's base, e.g. `http://127.0.0.1:8080/api/v1`. */
  baseUrl: string;
  trigger: 'cli' | 'panel';
  /** A receiver the worker can deliver to; without one the webhook check is skipped. */
  receiver?: WebhookReceiver;
  /** How long the webhook check waits for its delivery (default 30 s). */
  deliveryWaitMs?: number;
}

/** What the runner reads of a JSON answer (the rest is checked against the document's schemas). */
interface AnswerBody {
  code?: string;
  message?: string;
  data?: unknown;
}

interface Answer {
  status: number;
  body: AnswerBody | null;
}

/** The `data` of an answer as one record, or as a list of records. */
const record = (a: Answer): { id?: string; secret?: string } | undefined =>
  typeof a.body?.data === 'object' && a.body.data !== null && !Array.isArray(a.body.data) ? a.body.data : undefined;
const records = (a: Answer): { id: string }[] => (Array.isArray(a.body?.data) ? (a.body.data as { id: string }[]) : []);

interface Context {
  db: Db;
  accountId: string;
  opts: RunOptions;
  /** A fresh test key with `scopes`, revoked when the run ends. */
  key(scopes: readonly string[]): Promise<string>;
  call(key: string, method: string, path: string, body?: unknown): Promise<Answer>;
  /** When the run started: the events it made occurred after. */
  since: Date;
}

/** What a check found: assertions made, failures, or why it was skipped. */
class Tally {
  assertions = 0;
  failures: string[] = [];
  skipped: string | null = null;
  note: string | null = null;
  check(ok: boolean, failure: () => string): void {
    this.assertions++;
    if (!ok) this.failures.push(failure());
  }
}

interface Check {
  name: string;
  description: string;
  run(ctx: Context, t: Tally): Promise<void>;
}

const MISSING_ID = 'zz_contract_test_missing';
const pathOf = (op: Operation) => op.path.replace('{id}', MISSING_ID);
/** The error envelope's schema: compiled when first checked (validatorFor memoises by schema), not when this module loads. */
const ERROR_SCHEMA = { $ref: '#/components/schemas/Error' };

/** What is wrong with `a` as an answer of `op` by the document, or null. */
function undocumented(op: Operation, a: Answer): string | null {
  if (a.status >= 400) {
    const codes = ERROR_CODES[a.status as keyof typeof ERROR_CODES] as readonly string[] | undefined;
    if (!codes) return `status ${a.status} is not in the document`;
    const errorValid = validatorFor(ERROR_SCHEMA);
    if (!errorValid(a.body)) return `error body does not match Error: ${JSON.stringify(errorValid.errors).slice(0, 300)}`;
    const code = a.body?.code ?? '';
    if (!codes.includes(code)) return `code ${code} is not documented for ${a.status}`;
    return null;
  }
  const success = a.status === op.successStatus || (op.operationId === 'offer_create' && a.status === 200);
  if (!success) return `status ${a.status}, documented ${op.successStatus}`;
  const validate = validatorFor(op.responseSchema);
  return validate(a.body) ? null : `body does not match its schema: ${JSON.stringify(validate.errors).slice(0, 300)}`;
}

const routes: Check = {
  name: 'routes',
  description: "every operation's method and path answer as the document says (never 404 route_not_found or 405)",
  async run(ctx, t) {
    const key = await ctx.key(SCOPES);
    for (const op of operations) {
      const a = await ctx.call(key, op.method.toUpperCase(), pathOf(op), op.body ? {} : undefined);
      const where = `${op.operationId} ${op.method.toUpperCase()} ${op.path}`;
      t.check(a.status !== 405 && !(a.status === 404 && a.body?.code === 'route_not_found'), () => `${where}: no route (${a.status})`);
      const problem = undocumented(op, a);
      t.check(problem === null, () => `${where}: ${problem}`);
    }
  },
};

const scopes: Check = {
  name: 'scopes',
  description: "a key without an operation's scope gets 403 insufficient_scope",
  async run(ctx, t) {
    // Two keys of one scope each: every operation lacks the scope of one of them.
    const [a, b] = [SCOPES[0], SCOPES[1]];
    const keys = { [a]: await ctx.key([a]), [b]: await ctx.key([b]) };
    for (const op of operations) {
      const without = op.scope === a ? b : a;
      const answer = await ctx.call(keys[without], op.method.toUpperCase(), pathOf(op), op.body ? {} : undefined);
      t.check(
        answer.status === 403 && answer.body?.code === 'insufficient_scope',
        () => `${op.operationId} (${op.scope}) with a key of ${without} only: ${answer.status} ${answer.body?.code ?? ''}`,
      );
    }
  },
};

/** Makes a few changes in the sandbox (each records an event): an offer created, changed, archived. */
async function makeEvents(ctx: Context, key: string, t: Tally): Promise<void> {
  const url = `https://shop.example/contract-test/${randomBytes(6).toString('hex')}`;
  const created = await ctx.call(key, 'POST', '/offers', { url, title: 'Contract test offer', price: 10 });
  t.check(created.status === 201, () => `POST /offers answered ${created.status}`);
  const id = record(created)?.id;
  if (!id) return;
  const updated = await ctx.call(key, 'PATCH', `/offers/${id}`, { status: 'approved' });
  t.check(updated.status === 200, () => `PATCH /offers/${id} answered ${updated.status}`);
  const archived = await ctx.call(key, 'DELETE', `/offers/${id}`);
  t.check(archived.status === 200, () => `DELETE /offers/${id} answered ${archived.status}`);
}

const events: Check = {
  name: 'events',
  description: 'every event kind has a schema and a version; the events the run made validate against them',
  async run(ctx, t) {
    for (const d of EVENT_CATALOGUE) {
      t.check(
        /^[a-z_]+\.[a-z_]+$/.test(d.kind) && Number.isInteger(d.version) && d.version >= 1,
        () => `${d.kind} v${d.version}: no kind or version`,
      );
      t.check(
        (d.schema as { properties?: { data?: unknown } }).properties?.data !== undefined,
        () => `${d.kind} v${d.version}: the schema does not describe data`,
      );
    }
    await makeEvents(ctx, await ctx.key(['offers:write', 'offers:read']), t);
    const made = await crossTenantCollection(ctx.db, 'events')
      .find({ account_id: ctx.accountId, env: 'test', occurred_at: { $gte: ctx.since } })
      .toArray();
    t.check(made.length > 0, () => 'the run made no event');
    for (const e of made) {
      const event = {
        id: e._id,
        kind: e.kind as string,
        version: e.version as number,
        account: e.account_id,
        environment: e.env,
        occurred_at: (e.occurred_at as Date).toISOString(),
        data: e.data as Record<string, unknown>,
      };
      const errors = eventErrors(event);
      t.check(errors === null, () => `event ${event.id} (${event.kind} v${event.version}): ${errors}`);
    }
  },
};

const webhooks: Check = {
  name: 'webhooks',
  description: 'a webhook delivery carries a valid Standard Webhooks signature',
  async run(ctx, t) {
    const receiver = ctx.opts.receiver;
    if (!receiver) {
      t.skipped = 'no webhook receiver: run it from the CLI with a stack that trusts the dev receiver';
      return;
    }
    const key = await ctx.key(['webhooks:read', 'webhooks:write', 'offers:write']);
    const path = `/contract-test/${randomBytes(6).toString('hex')}`;
    const created = await ctx.call(key, 'POST', '/webhooks', { url: `${receiver.url}${path}`, events: ['offer.created'] });
    if (created.status === 400) {
      t.skipped = `the service refuses the receiver's address (${created.body?.message ?? created.status}): allow 127.0.0.1 with OFFEROPS_WEBHOOK_ALLOW`;
      return;
    }
    t.check(created.status === 201, () => `POST /webhooks answered ${created.status}`);
    const webhook = record(created);
    const secret = webhook?.secret;
    if (!webhook?.id || typeof secret !== 'string' || !isSigningSecret(secret)) {
      t.check(false, () => 'the created webhook has no id or no signing secret (whsec_…)');
      return;
    }
    try {
      const url = `https://shop.example/contract-test/${randomBytes(6).toString('hex')}`;
      await ctx.call(key, 'POST', '/offers', { url, title: 'Contract test delivery', price: 1 });
      const end = Date.now() + (ctx.opts.deliveryWaitMs ?? 30_000);
      while (!receiver.received(path).length && Date.now() < end) await sleep(200);
      const got = receiver.received(path);
      t.check(got.length > 0, () => `no delivery reached the receiver within ${(ctx.opts.deliveryWaitMs ?? 30_000) / 1000} s`);
      for (const d of got) {
        const verdict = verifySignature(secret, d.headers, d.body);
        t.check(verdict.verified, () => `delivery ${d.headers['webhook-id'] ?? '?'}: ${verdict.verified ? '' : verdict.reason}`);
        let kind: unknown;
        try {
          kind = (JSON.parse(d.body) as { kind?: unknown }).kind;
        } catch {
          kind = null;
        }
        t.check(kind === 'offer.created', () => `delivery body is not an offer.created event`);
      }
    } finally {
      await ctx.call(key, 'DELETE', `/webhooks/${webhook.id}`);
    }
  },
};

/** Reads that show the seeded data: lists and the records they name. */
const DOMAIN_READS = [
  '/me',
  '/offers',
  '/segments',
  '/groups',
  '/templates',
  '/publications',
  '/schedules',
  '/webhooks',
  '/journeys',
  '/monitors',
];

const domains: Check = {
  name: 'domains',
  description: "responses about the sandbox's data match their schemas, enum values included",
  async run(ctx, t) {
    const key = await ctx.key(SCOPES);
    for (const path of DOMAIN_READS) {
      const op = operations.find((o) => o.method === 'get' && o.path === path)!;
      const list = await ctx.call(key, 'GET', path);
      const problem = undocumented(op, list);
      t.check(list.status === 200 && problem === null, () => `GET ${path}: ${list.status} ${problem ?? ''}`);
      const items = records(list).slice(0, 3);
      const byId = operations.find((o) => o.method === 'get' && o.path === `${path}/{id}`);
      for (const item of byId ? items : []) {
        const one = await ctx.call(key, 'GET', `${path}/${item.id}`);
        const wrong = undocumented(byId!, one);
        t.check(one.status === 200 && wrong === null, () => `GET ${path}/${item.id}: ${one.status} ${wrong ?? ''}`);
      }
    }
  },
};

const LISTS = ['offers', 'segments', 'groups', 'templates', 'publications', 'schedules', 'webhooks', 'journeys', 'monitors'] as const;

const isolation: Check = {
  name: 'isolation',
  description: 'a test key never reads a live id',
  async run(ctx, t) {
    const key = await ctx.key(SCOPES);
    const live = new Set<string>();
    for (const name of LISTS) {
      const docs = await crossTenantCollection(ctx.db, name)
        .find({ account_id: ctx.accountId, env: 'live' }, { projection: { _id: 1 }, limit: 100 })
        .toArray();
      for (const d of docs) live.add(d._id);
      // A live record asked for by id is not found with a test key.
      for (const d of docs.slice(0, 2)) {
        const a = await ctx.call(key, 'GET', `/${name}/${d._id}`);
        t.check(a.status === 404, () => `GET /${name}/${d._id} (live) with a test key: ${a.status}`);
      }
    }
    for (const name of LISTS) {
      const a = await ctx.call(key, 'GET', `/${name}?limit=100`);
      const ids = records(a).map((x) => x.id);
      t.check(a.status === 200, () => `GET /${name}: ${a.status}`);
      for (const id of ids) t.check(!live.has(id), () => `GET /${name} with a test key listed live ${id}`);
    }
    if (!live.size) t.note = 'the account has no live data yet: only the lists were checked';
  },
};

/** The checks, in the order they run. */
export const CHECKS: readonly Check[] = [routes, scopes, events, webhooks, domains, isolation];

async function call(baseUrl: string, key: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  try {
    const parsed: unknown = text ? JSON.parse(text) : null;
    return { status: res.status, body: typeof parsed === 'object' && parsed !== null ? parsed : null };
  } catch {
    return { status: res.status, body: null };
  }
}

/** What the checks of one run use: its test keys (each kept in `keyIds`, to be revoked) and calls to `opts.baseUrl`. */
function runContext(db: Db, accountId: string, opts: RunOptions, started: Date, keyIds: string[]): Context {
  return {
    db,
    accountId,
    opts,
    since: started,
    async key(scopes) {
      const { keyId, apiKey } = await createApiKey(db, {
        accountId,
        env: 'test',
        scopes,
        name: 'contract test run',
        expiresInMs: TEST_KEY_LIFETIMES['1h'],
      });
      keyIds.push(keyId);
      return apiKey;
    },
    call: (key, method, path, body) => call(opts.baseUrl.replace(/\/$/, ''), key, method, path, body),
  };
}

/** One check's outcome: a check that throws fails with why; past MAX_FAILURES, failures are counted. */
async function runCheck(check: Check, ctx: Context): Promise<CheckOutcome> {
  const t = new Tally();
  const at = Date.now();
  try {
    await check.run(ctx, t);
  } catch (err) {
    t.failures.push(`the check stopped: ${(err as Error).message}`);
  }
  const failures =
    t.failures.length > MAX_FAILURES ? [...t.failures.slice(0, MAX_FAILURES), `… and ${t.failures.length - MAX_FAILURES} more`] : t.failures;
  return {
    name: check.name,
    description: check.description,
    result: t.failures.length ? 'failed' : t.skipped ? 'skipped' : 'passed',
    assertions: t.assertions,
    failures,
    note: t.skipped ?? t.note,
    duration_ms: Date.now() - at,
  };
}

/** Runs every check against `opts.baseUrl` in the sandbox of `accountId`; the recorded run. */
export async function runContractTests(db: Db, accountId: string, opts: RunOptions): Promise<ContractTestRunDoc> {
  if (!(await getAccount(db, accountId))) throw notFound('account', accountId);
  const started = new Date();
  const keyIds: string[] = [];
  const ctx = runContext(db, accountId, opts, started, keyIds);
  const outcomes: CheckOutcome[] = [];
  try {
    for (const check of CHECKS) outcomes.push(await runCheck(check, ctx));
  } finally {
    for (const id of keyIds) await revokeApiKey(db, id);
  }
  const run: ContractTestRunDoc = {
    _id: newRunId(started),
    account_id: accountId,
    base_url: opts.baseUrl,
    trigger: opts.trigger,
    started_at: started,
    duration_ms: Date.now() - started.getTime(),
    result: outcomes.some((o) => o.result === 'failed') ? 'failed' : 'passed',
    checks: outcomes,
  };
  await saveRun(db, run);
  await recordEvent(db, sandboxTenant(accountId), 'contract_test.completed', {
    run_id: run._id,
    result: run.result,
    duration_ms: run.duration_ms,
    checks: outcomes.map((o) => ({ name: o.name, result: o.result })),
  });
  return run;
}
