#!/usr/bin/env node
/**
 * The `offerops` command. Operator commands (`offerops admin …`) print one
 * JSON object on stdout; failures print `{"error": …}` on stderr and exit 1
 * (2 for a usage error).
 */
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { accountCreate, accountUpdate, channelConnect, groupCreate, keyCreate, keyRevoke, UsageError } from './admin';
import { dataDir, secretKeyFor, stackInfo } from './stack-config';

const USAGE = `usage:
  offerops admin account create --name NAME [--plan free|pro|business]
  offerops admin account update --account ID --rate-limit N
  offerops admin key create --account ID --scopes a:read,b:write|all [--env live|test] [--expires 1h|1d|7d] [--name N]
  offerops admin key revoke KEY_ID
  offerops admin channel connect --account ID --type http|telegram|sandbox [--url URL] [--token T] [--name N] [--env live|test] [--min-interval-ms N]
  offerops admin group create --account ID --name NAME [--env live|test] [--segment SEG] [--channel CH --address ADDR] [--min-interval-ms N]
The stack is found through OFFEROPS_DATA_DIR (default ./.offerops), or MONGODB_URI and MONGODB_DB.`;

async function run(argv: string[]): Promise<object> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      name: { type: 'string' },
      plan: { type: 'string' },
      account: { type: 'string' },
      scopes: { type: 'string' },
      env: { type: 'string' },
      expires: { type: 'string' },
      segment: { type: 'string' },
      type: { type: 'string' },
      url: { type: 'string' },
      token: { type: 'string' },
      channel: { type: 'string' },
      address: { type: 'string' },
      'min-interval-ms': { type: 'string' },
      'rate-limit': { type: 'string' },
    },
  });
  const [area, noun, verb, ...rest] = positionals;
  if (area !== 'admin') throw new UsageError(USAGE);
  const command = `${noun} ${verb}`;
  const known = ['account create', 'account update', 'key create', 'key revoke', 'channel connect', 'group create'];
  if (!known.includes(command)) throw new UsageError(USAGE);

  const info = stackInfo();
  const client = await MongoClient.connect(info.mongodb_uri, { serverSelectionTimeoutMS: 5_000 });
  try {
    const db = client.db(info.mongodb_db);
    switch (command) {
      case 'account create':
        return await accountCreate(db, values);
      case 'account update':
        return await accountUpdate(db, values);
      case 'key create':
        return await keyCreate(db, values);
      case 'key revoke':
        return await keyRevoke(db, rest[0]);
      case 'channel connect':
        return await channelConnect(db, Buffer.from(secretKeyFor(dataDir()), 'base64'), values);
      default:
        return await groupCreate(db, values);
    }
  } finally {
    await client.close();
  }
}

run(process.argv.slice(2)).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  },
  (err: unknown) => {
    const usage = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`${JSON.stringify({ error: (err as Error).message })}\n`);
    process.exitCode = usage ? 2 : 1;
  },
);
