/**
 * Where webhooks may point (OWASP SSRF guidance): every address the host
 * resolves to must be public. An address is classified by ipaddr.js (its
 * table of special-purpose ranges): only plain unicast passes, so loopback,
 * private, carrier-grade NAT, link-local, unique-local, unspecified,
 * multicast, broadcast, documentation and other reserved ranges are refused.
 * IPv6 forms that carry an IPv4 address are judged by that address:
 * IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), NAT64
 * (64:ff9b::/96), 6to4 (2002::/16) and Teredo (2001::/32, its server and its
 * XOR-ed client address). The local-use NAT64 prefix 64:ff9b:1::/48 and the
 * deprecated IPv4-compatible ::/96 are never public (RFC 8215, RFC 4291).
 * The allow-list (OFFEROPS_WEBHOOK_ALLOW) admits a host or an address.
 * The same check runs when a destination is saved and before every
 * connection, which goes to the checked addresses only (pinnedLookup).
 */
import { lookup } from 'node:dns/promises';
import { isIP, LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

const v4 = (high: number, low: number): ipaddr.IPv4 => ipaddr.IPv4.parse(`${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`);

/** The IPv4 addresses an IPv6 address stands for (empty for a native IPv6 address), or null when its form is never public. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const p = address.parts;
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [v4(p[6]!, p[7]!)];
    case 'rfc6052':
      // 64:ff9b::/96 embeds the address in its last 32 bits; the local-use 64:ff9b:1::/48 is no global address.
      return p[2] === 0 ? [v4(p[6]!, p[7]!)] : null;
    case '6to4':
      return [v4(p[1]!, p[2]!)];
    case 'teredo':
      return [v4(p[2]!, p[3]!), v4(p[6]! ^ 0xffff, p[7]! ^ 0xffff)];
    default:
      // ::/96 (IPv4-compatible, deprecated) is no global address either.
      return p.slice(0, 6).every((x) => x === 0) ? null : [];
  }
}

/** True for an address a destination may resolve to: public unicast, and so is every IPv4 address it carries. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const ipv6 = parsed as ipaddr.IPv6;
  const carried = embeddedIPv4(ipv6);
  if (carried === null) return false;
  if (carried.length) return carried.every((a) => a.range() === 'unicast');
  return ipv6.range() === 'unicast';
}

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
  const refused = addresses.filter((a) => !isPublicAddress(a.address) && !allowed(a.address));
  if (refused.length) {
    throw new DestinationError(
      `${host} resolves to a loopback, private, link-local or otherwise non-public address (${refused[0]!.address})`,
      true,
    );
  }
  return addresses.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

/**
 * The resolver of a connection to a checked destination: it answers only the addresses checkDestination returned, so
 * the connection cannot reach one a later resolution would give (DNS rebinding). Each is judged again as it is
 * handed out, by the same rule (isPublicAddress, or the allow-list naming the host or the address).
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[], allow: readonly string[]): LookupFunction {
  return (hostname, options, callback) => {
    const host = hostname.toLowerCase();
    const usable = addresses.filter((a) => isPublicAddress(a.address) || allow.includes(host) || allow.includes(a.address));
    if (!usable.length) {
      callback(Object.assign(new Error(`${hostname} has no address this service may connect to`), { code: 'ENOTFOUND' }), '', 4);
    } else if (options.all) {
      callback(null, usable);
    } else {
      callback(null, usable[0]!.address, usable[0]!.family);
    }
  };
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
