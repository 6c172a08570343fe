/**
 * The SSRF guard's classification (domain/webhooks/destinations.ts): public
 * unicast only, and IPv6 forms that carry an IPv4 address judged by it. The
 * same rule serves creation (checkDestination) and each connection
 * (pinnedLookup).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPublicAddress, pinnedLookup } from '../../domain/webhooks/destinations';

/** 169.254.169.254 (cloud metadata) XOR-ed as Teredo writes its client address: a9fe:a9fe → 5601:5601. */
const TEREDO_METADATA = '2001:0:4136:e378:8000:63bf:5601:5601';

const REFUSED = [
  ['127.0.0.1', 'loopback'],
  ['10.1.2.3', 'private'],
  ['172.16.0.1', 'private'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['0.0.0.0', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['224.0.0.1', 'multicast'],
  ['192.0.2.10', 'documentation'],
  ['198.18.0.1', 'benchmarking'],
  ['240.0.0.1', 'reserved'],
  ['::1', 'IPv6 loopback'],
  ['::', 'IPv6 unspecified'],
  ['fe80::1', 'IPv6 link-local'],
  ['fd00::1', 'unique-local'],
  ['ff02::1', 'IPv6 multicast'],
  ['2001:db8::1', 'IPv6 documentation'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata, hex form'],
  ['::ffff:0:a9fe:a9fe', 'IPv4-translated metadata (RFC 6145)'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata address'],
  ['64:ff9b::10.0.0.1', 'NAT64 of a private address, dotted form'],
  ['64:ff9b:1::808:808', 'local-use NAT64 (never global), even of a public address'],
  ['2002:a9fe:a9fe::1', '6to4 of the metadata address'],
  ['2002:7f00:1::1', '6to4 of loopback'],
  [TEREDO_METADATA, 'Teredo whose client is the metadata address'],
  ['2001:0:a9fe:a9fe::1', 'Teredo whose server is the metadata address'],
  ['::a9fe:a9fe', 'IPv4-compatible (deprecated)'],
  ['not an address', 'not an address'],
] as const;

const PUBLIC = [
  ['8.8.8.8', 'public IPv4'],
  ['2606:4700:4700::1111', 'public IPv6'],
  ['::ffff:8.8.8.8', 'IPv4-mapped public'],
  ['64:ff9b::808:808', 'NAT64 of a public address'],
  ['2002:808:808::1', '6to4 of a public address'],
  ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'Teredo of a public server and client (8.8.8.8 XOR-ed)'],
] as const;

test('refused: every special-purpose range, and every IPv6 form of one', () => {
  for (const [address, what] of REFUSED) assert.equal(isPublicAddress(address), false, `${what}: ${address}`);
});

test('public unicast passes, also inside an IPv6 form that carries it', () => {
  for (const [address, what] of PUBLIC) assert.equal(isPublicAddress(address), true, `${what}: ${address}`);
});

/** What a pinned lookup answers for `hostname`: the addresses, or the error code. */
function ask(lookup: ReturnType<typeof pinnedLookup>, hostname: string): Promise<string[] | string> {
  return new Promise((resolve) => {
    lookup(hostname, { all: true }, (err, addresses) => {
      if (err) resolve(String(err.code));
      else resolve((addresses as unknown as { address: string }[]).map((a) => a.address));
    });
  });
}

test('a connection is handed only addresses the same rule passes, or those the allow-list names', async () => {
  const addresses = [
    { address: '8.8.8.8', family: 4 as const },
    { address: '64:ff9b::a9fe:a9fe', family: 6 as const },
  ];
  assert.deepEqual(await ask(pinnedLookup(addresses, []), 'hooks.example'), ['8.8.8.8']);
  assert.deepEqual(await ask(pinnedLookup(addresses, ['hooks.example']), 'hooks.example'), ['8.8.8.8', '64:ff9b::a9fe:a9fe']);
  assert.deepEqual(await ask(pinnedLookup(addresses, ['64:ff9b::a9fe:a9fe']), 'hooks.example'), ['8.8.8.8', '64:ff9b::a9fe:a9fe']);
  assert.equal(await ask(pinnedLookup([addresses[1]!], []), 'hooks.example'), 'ENOTFOUND');
});
