/**
 * Which webhook endpoints a sandbox shared over the internet (`railyard serve --public`) may deliver to: public
 * addresses only. A receiver on loopback, a private network, link-local (cloud metadata at 169.254.169.254) or any
 * other special-purpose range would let anyone with sandbox credentials make the sandbox send requests inside the
 * network it runs in. Pure functions, no network: {@link refusedEndpoint} judges a URL as written (a literal address,
 * `localhost`), {@link nonPublicRange} an address a host name resolved to (public-delivery.ts connects only to those).
 */

/** Special-purpose IPv4 ranges (RFC 6890 and successors): [first address, prefix length, what it is]. */
const IPV4_RANGES: readonly (readonly [string, number, string])[] = [
  ['0.0.0.0', 8, 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'private (RFC 1918)'],
  ['100.64.0.0', 10, 'shared (carrier-grade NAT, RFC 6598)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata services live here)'],
  ['172.16.0.0', 12, 'private (RFC 1918)'],
  ['192.0.0.0', 24, 'IETF protocol assignment'],
  ['192.0.2.0', 24, 'documentation (TEST-NET-1)'],
  ['192.88.99.0', 24, '6to4 relay anycast'],
  ['192.168.0.0', 16, 'private (RFC 1918)'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation (TEST-NET-2)'],
  ['203.0.113.0', 24, 'documentation (TEST-NET-3)'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved (and broadcast)'],
];

/**
 * Special-purpose IPv6 ranges, most specific first. `embeds` marks ranges that carry an IPv4 address, judged by the
 * IPv4 rules instead (the bit where it starts).
 */
const IPV6_RANGES: readonly { readonly first: string; readonly bits: number; readonly what: string; readonly embeds?: number }[] = [
  { first: '::', bits: 128, what: 'unspecified' },
  { first: '::1', bits: 128, what: 'loopback' },
  { first: '::ffff:0:0', bits: 96, what: 'IPv4-mapped', embeds: 96 },
  { first: '::', bits: 96, what: 'IPv4-compatible (deprecated)' },
  { first: '64:ff9b::', bits: 96, what: 'NAT64', embeds: 96 },
  { first: '64:ff9b:1::', bits: 48, what: 'local-use NAT64' },
  { first: '100::', bits: 64, what: 'discard-only' },
  { first: '2001:db8::', bits: 32, what: 'documentation' },
  { first: '2001::', bits: 23, what: 'IETF protocol assignment (Teredo, ORCHID)' },
  { first: '2002::', bits: 16, what: '6to4', embeds: 16 },
  { first: '3fff::', bits: 20, what: 'documentation' },
  { first: 'fc00::', bits: 7, what: 'unique local (private)' },
  { first: 'fe80::', bits: 10, what: 'link-local' },
  { first: 'fec0::', bits: 10, what: 'site-local (deprecated)' },
  { first: 'ff00::', bits: 8, what: 'multicast' },
];

/** The IPv4 address as a 32-bit number; only the dotted-decimal form (what URL and DNS give). */
function parseIpv4(text: string): number | undefined {
  const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text)?.slice(1).map(Number);
  if (!parts || parts.some((part) => part > 255)) return undefined;
  return parts.reduce((value, part) => value * 256 + part, 0);
}

/** The IPv6 address as a 128-bit number: hex groups, one `::`, optionally a dotted IPv4 tail. No zone (`%eth0`). */
function parseIpv6(text: string): bigint | undefined {
  const halves = text.toLowerCase().split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (half: string): number[] | undefined => {
    if (half === '') return [];
    const groups: number[] = [];
    const parts = half.split(':');
    for (const [index, part] of parts.entries()) {
      if (index === parts.length - 1 && part.includes('.')) {
        const v4 = parseIpv4(part);
        if (v4 === undefined) return undefined;
        groups.push(Math.floor(v4 / 65536), v4 % 65536);
      } else if (/^[0-9a-f]{1,4}$/.test(part)) {
        groups.push(parseInt(part, 16));
      } else {
        return undefined;
      }
    }
    return groups;
  };
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  return [...head, ...Array<number>(missing).fill(0), ...tail].reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

const inIpv4Range = (address: number, first: string, bits: number) =>
  Math.floor(address / 2 ** (32 - bits)) === Math.floor(parseIpv4(first)! / 2 ** (32 - bits));
const inIpv6Range = (address: bigint, first: string, bits: number) =>
  address >> BigInt(128 - bits) === parseIpv6(first)! >> BigInt(128 - bits);

function ipv4Range(address: number): string | undefined {
  return IPV4_RANGES.find(([first, bits]) => inIpv4Range(address, first, bits))?.[2];
}

function ipv6Range(address: bigint): string | undefined {
  const range = IPV6_RANGES.find(({ first, bits }) => inIpv6Range(address, first, bits));
  if (range?.embeds !== undefined) {
    const embedded = Number((address >> BigInt(128 - range.embeds - 32)) & 0xffffffffn);
    const inner = ipv4Range(embedded);
    return inner === undefined ? undefined : `${range.what} ${ipv4Text(embedded)}, ${inner}`;
  }
  if (range) return range.what;
  // Global unicast is 2000::/3; everything else is unassigned or reserved.
  return address >> 125n === 1n ? undefined : 'not global unicast (reserved)';
}

const ipv4Text = (address: number) => [24, 16, 8, 0].map((shift) => Math.floor(address / 2 ** shift) % 256).join('.');

/**
 * What kind of non-public address `address` is (e.g. `loopback`, `private (RFC 1918)`), or undefined for a public one.
 * Takes an IPv4 or IPv6 address in any form a URL accepts (`2130706433`, `0x7f.1`, `[::ffff:7f00:1]`, `::ffff:127.0.0.1`);
 * text that is not an address is refused too.
 */
export function nonPublicRange(address: string): string | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const v6 = parseIpv6(bare);
  if (v6 !== undefined) return ipv6Range(v6);
  // The URL host parser reads every IPv4 form browsers and resolvers accept (decimal, octal, hex, fewer parts).
  let host: string;
  try {
    host = new URL(`http://${bare}/`).hostname;
  } catch {
    return 'not an address';
  }
  const v4 = parseIpv4(host);
  return v4 === undefined ? 'not an address' : ipv4Range(v4);
}

/** True for a host written as an address (any IPv4 form, or bracketed IPv6), as a URL's `hostname` gives it. */
const isAddressLiteral = (hostname: string) => hostname.startsWith('[') || parseIpv4(hostname) !== undefined;

/**
 * Why webhooks may not go to `url` in a public sandbox, judged from the URL alone: not http(s), `localhost`, or a
 * literal non-public address in any notation. Undefined when the URL names a host whose addresses only resolution
 * can tell (public-delivery.ts checks those before it connects).
 */
export function refusedEndpoint(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `uses ${parsed.protocol}, not http: or https:`;
  // The URL parser has already turned 2130706433, 0x7f.1 and 0177.0.0.1 into 127.0.0.1.
  const host = parsed.hostname.replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return `names ${host}, this machine`;
  if (!isAddressLiteral(host)) return undefined;
  const range = nonPublicRange(host);
  return range === undefined ? undefined : `points to ${host}: ${range}, not a public address`;
}
