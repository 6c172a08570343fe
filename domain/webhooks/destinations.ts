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
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible forms
  ['64:ff9b:1::', 48], // local-use IPv4/IPv6 translation
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

/** BlockList checks IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`, `::ffff:a00:1`) against the IPv4 rules. */
const isBlocked = (address: string): boolean => blocked.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');

export class DestinationError extends Error {
  constructor(
    message: string,
    /** True when refused for resolving to a loopback, private or otherwise non-public address (the allow-list could admit it). */
    readonly allowable = false,
  ) {
    super(message);
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves the URL's host and returns every address it resolves to, each
 * checked: the addresses to connect to (pinned), so a second resolution
 * cannot swap in another. Throws DestinationError when one is refused.
 */
export async function checkDestination(url: string, allow: readonly string[]): Promise<ResolvedAddress[]> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') throw new DestinationError('only HTTPS destinations are accepted');
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
  } catch {
    throw new DestinationError(`the host ${host} does not resolve`);
  }
  if (!addresses.length) throw new DestinationError(`the host ${host} does not resolve`);
  const allowed = (a: string) => allow.includes(host) || allow.includes(a);
  const refused = addresses.filter((a) => isBlocked(a.address) && !allowed(a.address));
  if (refused.length) {
    throw new DestinationError(`${host} resolves to a loopback, private, link-local or unique-local address (${refused[0]!.address})`, true);
  }
  return addresses.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

export const allowListFromEnv = (env: NodeJS.ProcessEnv = process.env): string[] => hostListFromEnv('OFFEROPS_WEBHOOK_ALLOW', env);

/** A comma list of hosts or addresses in the variable `name`, lower case, brackets of IPv6 addresses removed. */
export const hostListFromEnv = (name: string, env: NodeJS.ProcessEnv = process.env): string[] =>
  (env[name] ?? '')
    .split(',')
    .map((s) =>
      s
        .trim()
        .toLowerCase()
        .replace(/^\[|\]$/g, ''),
    )
    .filter(Boolean);
