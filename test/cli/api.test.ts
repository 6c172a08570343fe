/**
 * The API commands of `offerops` (one per operation of the OpenAPI document)
 * as child processes against the real API: create, list, update and publish
 * offers, `--all`, `--data @file` and stdin, the exit codes of a refusal and
 * of a usage error, a 429 retried until it passes, `login` and its profile
 * file, help and completion — and an operation added to a copy of the
 * document appearing as a command with no code of its own.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createGroup } from '../../domain/groups/store';
import { cliEnv, CliRun, ok, runCli, usage } from '../helpers/cli';
import { seedTenant, startTestApp, Tenant, terminateRunning, TestApp } from '../helpers/stack';

const taskQueue = `test-cli-api-${randomBytes(4).toString('hex')}`;
let app: TestApp;
let tmp: string;
let me: Tenant;

before(async () => {
  app = await startTestApp({ taskQueue });
  me = await seedTenant(app.db, { env: 'test' });
  tmp = mkdtempSync(join(tmpdir(), 'offerops-cli-api-'));
});
after(async () => {
  await terminateRunning(app, taskQueue);
  rmSync(tmp, { recursive: true, force: true });
  await app.close();
});

const baseEnv = (env: Record<string, string | undefined> = {}) =>
  cliEnv({
    OFFEROPS_API_KEY: me.apiKey,
    OFFEROPS_BASE_URL: app.baseUrl,
    OFFEROPS_PROFILE: undefined,
    OFFEROPS_OPENAPI: undefined,
    XDG_CONFIG_HOME: join(tmp, 'config'),
    ...env,
  });
const cli = (...args: string[]) => runCli(args, baseEnv(), tmp);

interface Envelope {
  code: string;
  message: string;
  request_id: string;
  details?: { location: string; field: string; rule: string; message: string }[];
}

/** An API refusal: exit `code`, the API's error envelope on stderr (one line, nothing added), nothing on stdout. */
function refused(run: CliRun, exit: number): Envelope {
  assert.equal(run.code, exit, `exit ${run.code}: ${run.stdout} ${run.stderr}`);
  assert.equal(run.stdout, '');
  assert.equal(run.stderr.split('\n').length, 2, run.stderr);
  const err = JSON.parse(run.stderr) as Envelope;
  assert.match(err.request_id, /^req_/);
  const known = ['code', 'message', 'request_id', 'details', 'details_omitted'];
  assert.deepEqual(
    Object.keys(err).filter((k) => !known.includes(k)),
    [],
    "only the fields of the contract's Error schema",
  );
  return err;
}

/** The API's own answer to a request, for comparing with what the CLI printed. */
async function direct(method: string, path: string, body?: unknown): Promise<Envelope> {
  const res = await fetch(`${app.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${me.apiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await res.json()) as Envelope;
}
const withoutId = ({ request_id, ...rest }: Envelope) => (assert.match(request_id, /^req_/), rest);

let n = 0;
const url = () => `https://shop.example/cli/${++n}`;

describe('offers', () => {
  test('create with typed flags, list with a filter, update, get: the API JSON when piped', async () => {
    const created = ok(await cli('offers', 'create', '--url', url(), '--title', 'Fone Bluetooth', '--price', '149.9', '--currency', 'BRL'));
    assert.equal(created.created, true);
    const offer = created.data;
    assert.match(offer.id, /^off_/);
    assert.equal(offer.price, 149.9);
    assert.equal(offer.status, 'pending');
    assert.match(created.request_id, /^req_/);

    const pending = ok(await cli('offers', 'list', '--status', 'pending', '--limit', '10'));
    assert.ok(pending.data.some((o: { id: string }) => o.id === offer.id));
    assert.equal(pending.pagination.limit, 10);
    assert.equal(ok(await cli('offers', 'update', offer.id, '--status', 'approved')).data.status, 'approved');
    const approved = ok(await cli('offers', 'list', '--status', 'approved', '--limit', '10'));
    assert.deepEqual(
      approved.data.map((o: { id: string }) => o.id),
      [offer.id],
    );
    assert.equal(ok(await cli('offers', 'get', offer.id)).data.title, 'Fone Bluetooth');
  });

  test('publish OFFER --segment-id: queued to the groups of the segment', async () => {
    const offer = ok(await cli('offers', 'create', '--url', url(), '--title', 'Air Fryer')).data;
    const segment = ok(await cli('segments', 'create', '--name', 'Cozinha')).data;
    const group = await createGroup(app.db, { accountId: me.accountId, env: 'test' }, { name: 'Grupo A', segment_id: segment.id });
    const published = ok(await cli('offers', 'publish', offer.id, '--segment-id', segment.id));
    assert.equal(typeof published.event_id, 'string');
    const [publication] = published.data.publications;
    assert.equal(publication.status, 'queued');
    assert.deepEqual(
      publication.deliveries.map((d: { group_id: string }) => d.group_id),
      [group._id],
    );
  });

  test('a refusal of the API exits 4 with its code, message and request_id; a usage error exits 2 and sends nothing', async () => {
    const missing = refused(await cli('offers', 'get', 'off_doesnotexist00'), 4);
    assert.deepEqual(withoutId(missing), withoutId(await direct('GET', '/offers/off_doesnotexist00')));
    assert.equal(missing.code, 'not_found');
    // Two problems: the envelope as the API sent it, every detail included.
    const invalid = refused(await cli('offers', 'create', '--url', 'http://not-https.example/x', '--title', 'X'), 4);
    assert.equal(invalid.code, 'validation_failed');
    assert.deepEqual(
      invalid.details!.map((d) => d.field),
      ['url', 'title'],
    );
    assert.deepEqual(withoutId(invalid), withoutId(await direct('POST', '/offers', { url: 'http://not-https.example/x', title: 'X' })));

    const total = ok(await cli('offers', 'list')).pagination.total;
    assert.match(usage(await cli('offers', 'create', '--url', url(), '--title', 'X', '--price', 'cheap')), /--price: 'cheap' is not a number/);
    assert.match(usage(await cli('offers', 'list', '--status', 'lost')), /--status: 'lost' is not one of pending, approved/);
    assert.match(usage(await cli('offers', 'list', '--limit', '2.5')), /not an integer/);
    assert.match(usage(await cli('offers', 'create', '--title', 'No URL')), /missing --url/);
    assert.match(usage(await cli('offers', 'get')), /missing ID/);
    assert.match(usage(await cli('offers', 'list', '--colour', 'red')), /unknown option --colour/);
    assert.match(usage(await cli('offers', 'fly')), /unknown command 'offers fly'/);
    assert.equal(ok(await cli('offers', 'list')).pagination.total, total);
  });

  test('no credentials: a usage error naming OFFEROPS_API_KEY and login', async () => {
    assert.match(usage(await runCli(['offers', 'list'], baseEnv({ OFFEROPS_API_KEY: undefined }), tmp)), /OFFEROPS_API_KEY.*offerops login/);
  });

  test('--all follows limit/offset to the last page', async () => {
    const tenant = await seedTenant(app.db, { env: 'test' });
    const env = baseEnv({ OFFEROPS_API_KEY: tenant.apiKey });
    for (let i = 0; i < 5; i++) ok(await runCli(['offers', 'create', '--url', url(), '--title', `Item ${i}`], env, tmp));
    const page = ok(await runCli(['offers', 'list', '--limit', '2'], env, tmp));
    assert.equal(page.data.length, 2);
    assert.equal(page.pagination.has_more, true);
    const all = ok(await runCli(['offers', 'list', '--limit', '2', '--all'], env, tmp));
    assert.equal(all.data.length, 5);
    assert.equal(new Set(all.data.map((o: { id: string }) => o.id)).size, 5);
    assert.deepEqual(all.pagination, { total: 5, limit: 5, offset: 0, has_more: false });
    assert.equal(ok(await runCli(['offers', 'list', '--all', '--offset', '3'], env, tmp)).data.length, 2);
    // What a page says beside its rows stays: an analytics page's window.
    const groups = ok(await runCli(['analytics', 'groups', '--days', '7', '--all'], env, tmp));
    assert.deepEqual([groups.data, groups.window.days, typeof groups.window.first_day], [[], 7, 'string']);
  });
});

// `script` runs the CLI on a pseudo-terminal, as a user's shell does.
const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

test(
  'on a terminal: a list is a table with where the page stands, a resource a record, an error a line',
  { skip: !hasScript && 'no script(1)' },
  async () => {
    const offer = ok(await cli('offers', 'create', '--url', url(), '--title', 'Cafeteira Italiana', '--price', '89.9')).data;
    // Asynchronous: the API answering the CLI runs in this process.
    const onTty = (...args: string[]): Promise<{ code: number; out: string }> => {
      const command = [process.execPath, resolve(__dirname, '../../tools/cli/offerops.js'), ...args].map((a) => `'${a}'`).join(' ');
      return new Promise((done) => {
        execFile('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', env: baseEnv(), timeout: 60_000 }, (err, stdout) => {
          done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, out: stdout });
        });
      });
    };
    const list = await onTty('offers', 'list', '--limit', '1');
    assert.equal(list.code, 0, list.out);
    assert.match(list.out, /^ID +[A-Z_]+ /);
    assert.match(list.out, new RegExp(`\\n${offer.id} `));
    assert.match(list.out, /1–1 of \d+/);
    const one = await onTty('offers', 'get', offer.id);
    assert.match(one.out, /^id +off_/m);
    assert.match(one.out, /^title +Cafeteira Italiana/m);
    const missing = await onTty('offers', 'get', 'off_doesnotexist00');
    assert.equal(missing.code, 4);
    assert.match(missing.out, /^offerops: 404 not_found: .+ \(request_id req_[0-9a-z]+\)/);
    // Every problem of a validation failure, one a line, naming its field.
    const invalid = await onTty('offers', 'create', '--url', 'http://not-https.example/x', '--title', 'X');
    assert.equal(invalid.code, 4);
    const lines = invalid.out.trim().split(/\r?\n/);
    assert.match(
      lines[0]!,
      /^offerops: 400 validation_failed: Invalid body field url: .+\(and 1 more problem, listed in details\)\. \(request_id req_/,
    );
    assert.match(lines[1]!, /^ {2}body url: must be an https:\/\/ URL.* \(\w+\)$/);
    assert.match(lines[2]!, /^ {2}body title: .+ \(minLength\)$/);
    assert.equal(lines.length, 3, invalid.out);
    const login = await onTty('login', '--api-key', me.apiKey, '--base-url', app.baseUrl, '--profile', 'tty');
    assert.equal(login.code, 0, login.out);
    assert.match(login.out, new RegExp(`^Logged in to .+ \\(${me.accountId}\\): profile tty saved in `));
    assert.ok(!login.out.includes(me.apiKey.slice(12)), 'the key is not printed');
  },
);

describe('bodies from --data', () => {
  test('--data @file.json, with a flag over one of its fields; --data - reads stdin; nested bodies', async () => {
    const file = join(tmp, 'offer.json');
    writeFileSync(file, JSON.stringify({ url: url(), title: 'From a file', price: 10, copy: 'texto' }));
    const fromFile = ok(await cli('offers', 'create', '--data', `@${file}`, '--price', '12.5')).data;
    assert.deepEqual([fromFile.title, fromFile.price, fromFile.copy], ['From a file', 12.5, 'texto']);

    const stdin = await runCli(['offers', 'create', '--data', '-'], baseEnv(), tmp, JSON.stringify({ url: url(), title: 'From stdin' }));
    assert.equal(ok(stdin).data.title, 'From stdin');

    const blocks = [
      { id: 'start', type: 'trigger', name: 'Start', config: {}, next: ['done'], position: { x: 0, y: 0 } },
      { id: 'done', type: 'end', name: 'Done', config: {}, next: [], position: { x: 0, y: 120 } },
    ];
    const journey = ok(
      await cli(
        'journeys',
        'create',
        '--name',
        'From flags',
        '--trigger',
        'conversation.created',
        '--blocks',
        JSON.stringify(blocks),
        '--channels',
        'whatsapp,telegram',
      ),
    ).data;
    assert.deepEqual(
      journey.blocks.map((b: { id: string }) => b.id),
      ['start', 'done'],
    );
    assert.deepEqual(journey.channels, ['whatsapp', 'telegram']);
    assert.match(usage(await cli('journeys', 'create', '--channels', 'whatsapp,pigeon')), /--channels: 'pigeon' is not one of whatsapp/);

    assert.match(usage(await cli('offers', 'create', '--data', '@/nonexistent/offer.json')), /cannot read \/nonexistent\/offer.json \(ENOENT\)/);
    assert.match(usage(await cli('offers', 'create', '--data', '{nope')), /--data: the value is not JSON/);
  });
});

describe('retries', () => {
  test('a 429 is retried after its Retry-After until the request passes (spec rule 4)', async () => {
    const limited = await startTestApp({ dbName: app.dbName, rateLimit: { limit: 1, windowMs: 1000 } });
    try {
      const tenant = await seedTenant(app.db, { env: 'test' });
      const env = baseEnv({ OFFEROPS_API_KEY: tenant.apiKey, OFFEROPS_BASE_URL: limited.baseUrl });
      const runs = await Promise.all([
        runCli(['offers', 'list'], env, tmp),
        runCli(['offers', 'list'], env, tmp),
        runCli(['offers', 'list'], env, tmp),
      ]);
      // One request a second: at least two of the three were refused at first; each exits 0 only through its retries.
      for (const run of runs) assert.equal(ok(run).pagination.total, 0);
    } finally {
      await limited.close();
    }
  });

  test('no answer at all: exit 5, and a mutation says to look at the resource before trying again', async () => {
    const env = baseEnv({ OFFEROPS_BASE_URL: 'http://127.0.0.1:9/api/v1' });
    const run = await runCli(['offers', 'create', '--url', url(), '--title', 'Lost'], env, tmp);
    assert.equal(run.code, 5, run.stderr);
    assert.match(JSON.parse(run.stderr).error, /could not be reached .*may or may not have been applied/);
  });
});

describe('login and profiles', () => {
  test('login checks the key with GET /me, saves it in a 0600 file, never prints it; --profile uses it', async () => {
    const config = join(tmp, 'login-config');
    const env = baseEnv({ OFFEROPS_API_KEY: undefined, XDG_CONFIG_HOME: config });
    const run = await runCli(['login', '--profile', 'sandbox', '--base-url', app.baseUrl], env, tmp, `${me.apiKey}\n`);
    const out = ok(run);
    assert.ok(!run.stdout.includes(me.apiKey) && !run.stderr.includes(me.apiKey));
    const file = join(config, 'offerops', 'config.json');
    assert.equal(out.config, file);
    assert.equal(out.profile, 'sandbox');
    assert.equal(out.account.id, me.accountId);
    assert.equal(typeof out.account.name, 'string');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(join(config, 'offerops')).mode & 0o777, 0o700);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')).profiles.sandbox, { base_url: app.baseUrl, api_key: me.apiKey });

    const envNoBase = baseEnv({ OFFEROPS_API_KEY: undefined, OFFEROPS_BASE_URL: undefined, XDG_CONFIG_HOME: config });
    assert.equal(ok(await runCli(['offers', 'list', '--profile', 'sandbox'], envNoBase, tmp)).request_id.slice(0, 4), 'req_');
    assert.match(usage(await runCli(['offers', 'list'], envNoBase, tmp)), /no credentials/);
    assert.match(usage(await runCli(['offers', 'list', '--profile', 'other'], envNoBase, tmp)), /no profile other/);

    const bad = await runCli(['login', '--api-key', 'oo_test_wrong', '--base-url', app.baseUrl, '--profile', 'bad'], env, tmp);
    assert.equal(refused(bad, 4).code, 'invalid_api_key');
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).profiles.bad, undefined);
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });
});

describe('help and completion', () => {
  test('help at every level, from the summaries and the parameter schemas', async () => {
    const top = await cli('--help');
    assert.equal(top.code, 0);
    for (const word of ['offers', 'journeys', 'webhooks', 'login', 'completion', 'admin', 'recipes'])
      assert.match(top.stdout, new RegExp(`\\n  ${word} `));
    const group = (await cli('offers', '--help')).stdout;
    assert.match(group, /usage: offerops offers <command>/);
    assert.match(group, /publish ID +Queue a publication/);
    const one = (await cli('offers', 'list', '--help')).stdout;
    assert.match(one, /usage: offerops offers list \[options\]/);
    assert.match(one, /GET \/offers +\(operation offers_list, scope offers:read\)/);
    assert.match(one, /--status pending\|approved\|rejected\|archived\s+string; one of:\s+pending,\s+approved,\s+rejected,\s+archived/);
    assert.match(one, /--limit LIMIT +integer; default 30/);
    assert.match(one, /--all +follow the pages/);
    const create = (await cli('offers', 'create', '--help')).stdout;
    assert.match(create, /usage: offerops offers create --url URL --title TITLE \[options\]/);
    assert.match(create, /--price PRICE +number/);
    assert.match(create, /--data JSON/);
    assert.match((await cli('journeys', 'executions', '--help')).stdout, /usage: offerops journeys executions ID \[options\]/);
    assert.match((await cli('login', '--help')).stdout, /mode 0600/);
  });

  const hasBash = (() => {
    try {
      execFileSync('bash', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  test('completion bash: commands, flags and enum values, as bash completes them', { skip: !hasBash && 'no bash' }, async () => {
    const script = (await cli('completion', 'bash')).stdout;
    assert.match(script, /complete -F _offerops offerops/);
    const script_ = join(tmp, 'completion.bash');
    writeFileSync(script_, script);
    const complete = (...words: string[]) =>
      execFileSync(
        'bash',
        [
          '-c',
          `source ${script_}; COMP_WORDS=(offerops ${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length}; _offerops; echo "\${COMPREPLY[*]}"`,
        ],
        { encoding: 'utf8' },
      ).trim();
    assert.ok(complete('').split(' ').includes('offers'));
    assert.deepEqual(complete('of'), 'offers');
    assert.ok(complete('offers', '').split(' ').includes('publish'));
    assert.ok(complete('offers', 'list', '--').split(' ').includes('--status'));
    assert.equal(complete('offers', 'list', '--status', 'ap'), 'approved');
    assert.equal(complete('journeys', 'exec'), 'executions');
    assert.ok(complete('admin', 'key', '').split(' ').includes('revoke'));
    const zsh = (await cli('completion', 'zsh')).stdout;
    assert.match(zsh, /^#compdef offerops/);
    assert.match(zsh, /'offers list --status'\) REPLY='pending approved rejected archived'/);
    assert.match(usage(await cli('completion', 'fish')), /no completion for fish/);
  });

  test('an operation added to a copy of the document is a command, with help and completion, and no code of its own', async () => {
    const doc = JSON.parse(readFileSync(resolve(__dirname, '../../../schemas/openapi.json'), 'utf8'));
    doc.tags.push({ name: 'Widgets', description: 'Widgets that spin' });
    doc.paths['/widgets/{id}/spin'] = {
      post: {
        operationId: 'widget_spin',
        summary: 'Spin a widget',
        description: 'Turns the widget round.',
        tags: ['Widgets'],
        'x-offerops-scope': 'widgets:write',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['speed'],
                additionalProperties: false,
                properties: { speed: { type: 'integer', minimum: 1 }, direction: { type: 'string', enum: ['cw', 'ccw'] } },
              },
            },
          },
        },
        responses: { '200': { description: 'spun' } },
      },
    };
    const copy = join(tmp, 'openapi-with-widgets.json');
    writeFileSync(copy, JSON.stringify(doc));
    const env = baseEnv({ OFFEROPS_OPENAPI: copy });
    assert.match((await runCli(['--help'], env, tmp)).stdout, /\n {2}widgets +Widgets that spin/);
    assert.match((await runCli(['widgets', '--help'], env, tmp)).stdout, /spin ID +Spin a widget/);
    const help = (await runCli(['widgets', 'spin', '--help'], env, tmp)).stdout;
    assert.match(help, /usage: offerops widgets spin ID --speed SPEED \[options\]/);
    assert.match(help, /POST \/widgets\/\{id\}\/spin +\(operation widget_spin, scope widgets:write\)/);
    assert.match(help, /--direction cw\|ccw +string; one of: cw, ccw/);
    assert.match((await runCli(['completion', 'bash'], env, tmp)).stdout, /'widgets spin --direction'\) REPLY='cw ccw'/);
    assert.match(usage(await runCli(['widgets', 'spin', 'w1', '--speed', 'fast'], env, tmp)), /--speed: 'fast' is not a number/);
    // The real API has no such route: the call goes out and the API's 404 comes back.
    assert.equal(refused(await runCli(['widgets', 'spin', 'w1', '--speed', '3'], env, tmp), 4).code, 'route_not_found');
    // Without the copy, there is no such command.
    assert.match(usage(await cli('widgets', '--help')), /unknown command 'widgets'/);
  });
});
