/**
 * The command tree of `offerops` without a stack: what a mistyped command or
 * flag says (commander's did-you-mean in our words), the groups `offerops`
 * alone lists, help wrapped at 80 columns without a broken word, the data
 * directory found from a sub-folder of a checkout, the terminal output of
 * answers, and node_modules/.bin/offerops linked by the build.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { Command } from 'commander';
import { loadApi } from '../../tools/cli/api-run';
import { UsageError } from '../../tools/cli/errors';
import { buildProgram } from '../../tools/cli/program';
import { human } from '../../tools/cli/output';
import { dataDir } from '../../tools/cli/stack-config';

/** The checkout: this file runs from dist/test/unit/. */
const ROOT = resolve(__dirname, '../../..');

/** The usage error `offerops …args` ends in, before anything runs. */
async function refusal(...args: string[]): Promise<UsageError> {
  try {
    await buildProgram(loadApi()).parseAsync(args, { from: 'user' });
  } catch (err) {
    assert.ok(err instanceof UsageError, String(err));
    return err;
  }
  assert.fail(`offerops ${args.join(' ')} did not fail`);
}

describe('did you mean', () => {
  test('a mistyped group, command or flag is named with the nearest one', async () => {
    assert.equal((await refusal('offer', 'list')).message, "unknown command 'offer'; did you mean offers?");
    assert.equal((await refusal('admin', 'acount', 'list')).message, "unknown command 'admin acount'; did you mean account?");
    assert.equal((await refusal('offers', 'publsh')).message, "unknown command 'offers publsh'; did you mean publish?");
    assert.equal((await refusal('offers', 'list', '--stauts', 'approved')).message, 'unknown option --stauts; did you mean --status?');
    assert.equal((await refusal('offers', 'list', '--colour', 'red')).message, 'unknown option --colour');
  });

  test('a mistyped group lists every group after it, those of the API included', async () => {
    const { hint } = await refusal('offer', 'list');
    for (const group of ['offers', 'journeys', 'webhooks', 'admin', 'dev', 'recipes', 'login'])
      assert.match(hint!, new RegExp(`\\n  ${group} `));
  });

  test('commander’s own wording never reaches the user', async () => {
    for (const args of [
      ['admin', 'key', 'revoke', 'a', 'b'],
      ['admin', 'key', 'revoke'],
      ['admin', 'account', 'create', '--name'],
      ['offers', 'get'],
    ]) {
      const { message } = await refusal(...args);
      assert.doesNotMatch(message, /^error:|too many arguments|missing required argument|argument missing/, message);
    }
    assert.equal((await refusal('admin', 'key', 'revoke', 'a', 'b')).message, 'unexpected argument: b');
    assert.equal((await refusal('admin', 'key', 'revoke')).message, 'missing KEY_ID');
    assert.equal((await refusal('admin', 'account', 'create', '--name')).message, '--name needs a value');
  });

  test('an option followed by another option (an empty shell variable) is refused, naming both', async () => {
    const create = ['admin', 'group', 'create', '--account', 'acc_1', '--name', 'G'];
    // `--channel $CH --address …` with CH empty: commander would take --address as the channel.
    const { message, hint } = await refusal(...create, '--channel', '--address', '1203@g.us');
    assert.equal(message, '--channel needs a value, but --address came next (is a shell variable empty?)');
    assert.match(hint!, /usage: offerops admin group create/);
    // SEG and CH empty: everything parses, with the wrong values.
    assert.equal(
      (await refusal(...create, '--segment', '--channel', '--address', '1203@g.us')).message,
      '--segment needs a value, but --channel came next (is a shell variable empty?)',
    );
    assert.equal(
      (await refusal('offers', 'list', '--marketplace', '--query', 'fryer')).message,
      '--marketplace needs a value, but --query came next (is a shell variable empty?)',
    );
  });
});

test('offerops alone: a usage error whose help lists the groups of the API and the operator areas', async () => {
  const { message, hint } = await refusal();
  assert.equal(message, 'no command given');
  assert.match(hint!, /API commands, one per operation of the OpenAPI document:\n {2}account +/);
  for (const group of ['offers', 'segments', 'inbox', 'admin', 'dev', 'recipes', 'completion'])
    assert.match(hint!, new RegExp(`\\n  ${group} `));
});

test('help at 80 columns: no line is wider, and no word is broken to make it so', () => {
  const program = buildProgram(loadApi());
  const walk = (cmd: Command): Command[] => [cmd, ...cmd.commands.flatMap(walk)];
  const commands = walk(program);
  assert.ok(commands.length > 100);
  for (const cmd of commands) {
    cmd.configureHelp({ helpWidth: 80 });
    const help = cmd.helpInformation();
    const words = (s: string) => s.split(/\s+/).filter(Boolean);
    for (const line of help.split('\n')) {
      // A single word longer than the width (a long URL) is left whole, on a line of its own.
      if (line.length > 80) assert.equal(words(line).length, 1, `${cmd.name()}: ${line}`);
    }
    // Every word of the unwrapped help is still whole in the wrapped one.
    cmd.configureHelp({ helpWidth: 10_000 });
    assert.deepEqual(words(help), words(cmd.helpInformation()), cmd.name());
    // The document's Markdown bold (its "State rules") reads as plain text.
    assert.doesNotMatch(help, /\*\*/, cmd.name());
  }
  const publish = commands.find((c) => c.name() === 'publish' && c.parent?.name() === 'offers')!;
  assert.match(publish.helpInformation(), /\nState rules \(the schemas say/);
});

describe('the data directory of a checkout', () => {
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'offerops-root-')));
  after(() => rmSync(tmp, { recursive: true, force: true }));

  test('found from a sub-folder by the package.json of offerops, or by a running stack’s stack.json', () => {
    const checkout = join(tmp, 'checkout');
    mkdirSync(join(checkout, 'api', 'mcp'), { recursive: true });
    writeFileSync(join(checkout, 'package.json'), JSON.stringify({ name: 'offerops' }));
    assert.equal(dataDir({}, join(checkout, 'api', 'mcp')), join(checkout, '.offerops'));
    assert.equal(dataDir({}, checkout), join(checkout, '.offerops'));

    const other = join(tmp, 'other');
    mkdirSync(join(other, '.offerops'), { recursive: true });
    mkdirSync(join(other, 'a', 'b'), { recursive: true });
    writeFileSync(join(other, '.offerops', 'stack.json'), '{}');
    writeFileSync(join(other, 'a', 'package.json'), JSON.stringify({ name: 'something-else' }));
    assert.equal(dataDir({}, join(other, 'a', 'b')), join(other, '.offerops'));
  });

  test('OFFEROPS_DATA_DIR wins; outside a checkout it is ./.offerops', () => {
    assert.equal(dataDir({ OFFEROPS_DATA_DIR: '/srv/data' }, tmp), '/srv/data');
    const outside = mkdtempSync(join(tmp, 'outside-'));
    assert.equal(dataDir({}, outside), join(outside, '.offerops'));
  });
});

describe('terminal output', () => {
  test('a list leaves out the columns empty on every row', () => {
    const out = human({
      data: [
        { id: 'off_1', title: 'Fone', coupon: null, store: '', tags: [] },
        { id: 'off_2', title: 'Air Fryer', coupon: null, store: '', tags: ['casa'] },
      ],
      pagination: { total: 2, offset: 0, has_more: false },
    });
    const [head, ...rows] = out.split('\n');
    assert.deepEqual(head!.split(/\s+/), ['ID', 'TITLE', 'TAGS']);
    assert.match(rows[1]!, /^off_2 +Air Fryer +casa$/);
    assert.match(out, /1–2 of 2/);
  });

  test('a resource with lists of objects: its fields as a record, each list as a table under its name', () => {
    const out = human({
      data: {
        publications: [{ id: 'pub_1', status: 'queued', deliveries: [{ group_id: 'grp_1' }] }],
      },
      event_id: 'evt_1',
    });
    assert.match(out, /^publications:\n {2}id +pub_1\n {2}status +queued\n\n {2}deliveries:\n {2}GROUP_ID\n {2}grp_1\n/);
    assert.match(out, /\nevent_id +evt_1\n/);
    const journey = human({
      data: { id: 'jrn_1', name: 'Welcome', settings: { quiet: true }, blocks: [{ id: 'start', type: 'trigger', next: ['done'] }] },
    });
    assert.match(journey, /^id +jrn_1\nname +Welcome\nsettings\n {2}quiet +true\n\nblocks:\nID +TYPE +NEXT\nstart +trigger +done\n$/);
  });
});

test('the build links node_modules/.bin/offerops to the built CLI; package.json has no bin for npx to install', () => {
  assert.equal(realpathSync(join(ROOT, 'node_modules/.bin/offerops')), join(ROOT, 'dist/tools/cli/offerops.js'));
  assert.equal((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin?: unknown }).bin, undefined);
  const help = execFileSync(join(ROOT, 'node_modules/.bin/offerops'), ['--help'], { encoding: 'utf8' });
  assert.match(help, /usage: offerops <group> <command>/);
});
