/**
 * Where webhooks may point (OWASP SSRF guidance): every address the host
 * resolves to must be public. Loopback, private, link-local, unique-local,
 * unspecified, multicast and IPv4-mapped forms of those are refused unless
 * the allow-list names the host or the address (OFFEROPS_WEBHOOK_ALLOW).
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

function isBlocked(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  return blocked.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

export class DestinationError extends Error {}

export interface Destination {
  host: string;
  address: string;
  family: 4 | 6;
}

/** Resolves the URL's host and returns the address to connect to (pinned), or throws DestinationError. */
export async function checkDestination(url: string, allow: readonly string[]): Promise<Destination> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') throw new DestinationError('only HTTPS destinations are accepted');
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
  } catch {
    throw new DestinationError(`the host ${host} does not resolve`);
  }
  const allowed = (a: string) => allow.includes(host) || allow.includes(a);
  const refused = addresses.filter((a) => isBlocked(a.address) && !allowed(a.address));
  if (!addresses.length || refused.length) {
    throw new DestinationError(`${host} resolves to a loopback, private, link-local or unique-local address`);
  }
  const first = addresses[0]!;
  return { host, address: first.address, family: first.family === 6 ? 6 : 4 };
}

export const allowListFromEnv = (env: NodeJS.ProcessEnv = process.env): string[] =>
  (env.OFFEROPS_WEBHOOK_ALLOW ?? '').split(',').map((s) => s.trim()).filter(Boolean);
