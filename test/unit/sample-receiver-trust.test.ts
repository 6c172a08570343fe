/**
 * `npm start` trusts the sample webhook receiver's certificate when the
 * receiver left one in the data directory, keeping a CA file the operator
 * named already.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { trustSampleReceiver } from '../../tools/stack/stack';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function dataDir(withCert: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'offerops-trust-'));
  dirs.push(dir);
  if (withCert) {
    mkdirSync(join(dir, 'dev-receiver'));
    writeFileSync(join(dir, 'dev-receiver', 'cert.pem'), '-----BEGIN CERTIFICATE-----\nRECEIVER\n-----END CERTIFICATE-----\n');
  }
  return dir;
}

test('no receiver certificate: the environment is left as it is', () => {
  const env: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: '/somewhere.pem' };
  trustSampleReceiver(dataDir(false), env, () => undefined);
  assert.deepEqual(env, { NODE_EXTRA_CA_CERTS: '/somewhere.pem' });
});

test('a receiver certificate alone is trusted, and webhooks may reach 127.0.0.1 beside what was allowed', () => {
  const dir = dataDir(true);
  const env: NodeJS.ProcessEnv = { OFFEROPS_WEBHOOK_ALLOW: '10.0.0.5' };
  const lines: string[] = [];
  trustSampleReceiver(dir, env, (l) => lines.push(l));
  assert.equal(env.NODE_EXTRA_CA_CERTS, join(dir, 'dev-receiver', 'cert.pem'));
  assert.equal(env.OFFEROPS_WEBHOOK_ALLOW, '10.0.0.5,127.0.0.1');
  assert.match(lines.join('\n'), /trusting the sample webhook receiver's certificate/);
});

test("an operator's CA file is kept: both go into one bundle", () => {
  const dir = dataDir(true);
  const theirs = join(dir, 'corporate.pem');
  writeFileSync(theirs, '-----BEGIN CERTIFICATE-----\nCORPORATE\n-----END CERTIFICATE-----\n');
  const env: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: theirs };
  const lines: string[] = [];
  trustSampleReceiver(dir, env, (l) => lines.push(l));
  const bundle = readFileSync(env.NODE_EXTRA_CA_CERTS!, 'utf8');
  assert.match(bundle, /CORPORATE[\s\S]*RECEIVER/);
  assert.equal(env.OFFEROPS_WEBHOOK_ALLOW, '127.0.0.1');
  assert.match(lines.join('\n'), new RegExp(`beside ${theirs}`));
});

test("an operator's CA file that cannot be read wins, and the start says why", () => {
  const env: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: '/nowhere/ca.pem' };
  const lines: string[] = [];
  trustSampleReceiver(dataDir(true), env, (l) => lines.push(l));
  assert.equal(env.NODE_EXTRA_CA_CERTS, '/nowhere/ca.pem');
  assert.equal(env.OFFEROPS_WEBHOOK_ALLOW, undefined);
  assert.match(lines.join('\n'), /cannot be read/);
});
