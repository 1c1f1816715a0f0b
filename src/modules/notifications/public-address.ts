import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

// The SSRF guard of webhook endpoints (decisions §14): a vendor's URL must lead to the public internet,
// never to this server's own network (loopback, private ranges, cloud metadata at 169.254.169.254). Both
// the endpoints API (at create and update) and the webhook channel (at every send, against DNS
// rebinding) vet a host through hostAddresses.

export interface ResolvedAddress {
  address: string;
  /** 4 or 6 */
  family: number;
}

/** Every address a host name resolves to; rejects when it resolves to none. Injected in tests. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system's resolver (what a connection by name would use). */
export const lookupHost: HostResolver = (hostname) => lookup(hostname, { all: true });

/** ipaddr.js range names, spelled for people (others are shown as ipaddr.js names them). */
const RANGE_NAMES: Record<string, string> = {
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local',
  carrierGradeNat: 'carrier-grade NAT',
  deprecatedSiteLocal: 'site-local',
};

/**
 * Why `address` is not a public unicast address ("10.0.0.1 is a private address"), or null when it is
 * one. An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged, and named, as its IPv4 address; other
 * IPv6 forms that embed an IPv4 address (6to4, NAT64, Teredo) are not unicast, so refused.
 */
export function whyNotPublic(address: string): string | null {
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (range === 'unicast') return null;
  const name = RANGE_NAMES[range] ?? range;
  return `${ip.toString()} is ${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name} address`;
}

export type HostAddresses = { addresses: ResolvedAddress[] } | { refused: string } | { unresolved: string };

/**
 * The addresses a URL's `hostname` (a name, an IPv4 literal, or an IPv6 literal in brackets, as
 * `URL.hostname` gives it) stands for, each of them vetted unless `allowPrivate`. One non-public address
 * refuses the host: a connection could pick any of them.
 */
export async function hostAddresses(
  hostname: string,
  options: { allowPrivate: boolean; resolve: HostResolver },
): Promise<HostAddresses> {
  const literal = hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: ResolvedAddress[];
  if (ipaddr.isValid(literal)) {
    addresses = [{ address: literal, family: ipaddr.parse(literal).kind() === 'ipv4' ? 4 : 6 }];
  } else {
    try {
      addresses = await options.resolve(hostname);
    } catch (error) {
      const code = (error as { code?: string }).code;
      return {
        unresolved: code ? `could not resolve ${hostname} (${code})` : `could not resolve ${hostname}`,
      };
    }
    if (addresses.length === 0) return { unresolved: `could not resolve ${hostname}` };
  }
  if (!options.allowPrivate) {
    for (const { address } of addresses) {
      const why = whyNotPublic(address);
      if (why !== null) return { refused: why };
    }
  }
  return { addresses };
}
