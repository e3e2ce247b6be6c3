import { describe, expect, it } from 'vitest';
import { nonPublicRange, refusedEndpoint } from './endpoint-policy.js';

// The address policy of a public sandbox (`railyard serve --public`): which receivers webhooks may reach.

describe('nonPublicRange', () => {
  const table: [string, string | undefined][] = [
    // Public.
    ['8.8.8.8', undefined], ['1.1.1.1', undefined], ['93.184.216.34', undefined], ['172.32.0.1', undefined], ['100.128.0.1', undefined],
    ['169.253.255.255', undefined], ['192.169.0.1', undefined], ['2606:4700:4700::1111', undefined], ['2a00:1450:4001:81c::200e', undefined],
    ['::ffff:8.8.8.8', undefined], ['2002:0808:0808::1', undefined],
    // Loopback, in every notation.
    ['127.0.0.1', 'loopback'], ['127.255.255.254', 'loopback'], ['2130706433', 'loopback'], ['0x7f.1', 'loopback'], ['0x7f000001', 'loopback'],
    ['0177.0.0.1', 'loopback'], ['127.1', 'loopback'], ['::1', 'loopback'], ['[::1]', 'loopback'], ['0:0:0:0:0:0:0:1', 'loopback'],
    // Private and shared.
    ['10.0.0.1', 'private (RFC 1918)'], ['172.16.0.1', 'private (RFC 1918)'], ['172.31.255.255', 'private (RFC 1918)'],
    ['192.168.1.1', 'private (RFC 1918)'], ['100.64.0.1', 'shared (carrier-grade NAT, RFC 6598)'], ['100.127.255.255', 'shared (carrier-grade NAT, RFC 6598)'],
    ['fc00::1', 'unique local (private)'], ['fd12:3456:789a::1', 'unique local (private)'],
    // Link-local, cloud metadata.
    ['169.254.169.254', 'link-local (cloud metadata services live here)'], ['169.254.0.1', 'link-local (cloud metadata services live here)'],
    ['fe80::1', 'link-local'], ['febf::1', 'link-local'],
    // Unspecified.
    ['0.0.0.0', 'unspecified ("this network")'], ['0', 'unspecified ("this network")'], ['::', 'unspecified'], ['[::]', 'unspecified'],
    // IPv4 inside IPv6.
    ['::ffff:127.0.0.1', 'IPv4-mapped 127.0.0.1, loopback'], ['::ffff:7f00:1', 'IPv4-mapped 127.0.0.1, loopback'], ['[::ffff:7f00:1]', 'IPv4-mapped 127.0.0.1, loopback'],
    ['::ffff:169.254.169.254', 'IPv4-mapped 169.254.169.254, link-local (cloud metadata services live here)'], ['::ffff:10.1.2.3', 'IPv4-mapped 10.1.2.3, private (RFC 1918)'],
    ['64:ff9b::10.0.0.1', 'NAT64 10.0.0.1, private (RFC 1918)'], ['2002:7f00:1::', '6to4 127.0.0.1, loopback'], ['::127.0.0.1', 'IPv4-compatible (deprecated)'],
    // Other special-purpose ranges.
    ['224.0.0.1', 'multicast'], ['255.255.255.255', 'reserved (and broadcast)'], ['192.0.2.1', 'documentation (TEST-NET-1)'],
    ['198.18.0.1', 'benchmarking'], ['ff02::1', 'multicast'], ['2001:db8::1', 'documentation'], ['2001::1', 'IETF protocol assignment (Teredo, ORCHID)'],
    ['fec0::1', 'site-local (deprecated)'], ['100::1', 'discard-only'], ['4000::1', 'not global unicast (reserved)'],
    // Not addresses.
    ['example.com', 'not an address'], ['', 'not an address'], ['fe80::1%eth0', 'not an address'], ['1::2::3', 'not an address'], ['256.1.1.1', 'not an address'],
  ];
  it.each(table)('%s → %s', (address, range) => {
    expect(nonPublicRange(address)).toBe(range);
  });
});

describe('refusedEndpoint', () => {
  const table: [string, RegExp | undefined][] = [
    ['https://platform.example/webhooks', undefined],
    ['http://hooks.example.com:8080/x', undefined],
    ['https://8.8.8.8/hook', undefined],
    ['https://[2606:4700:4700::1111]/hook', undefined],
    // Host names are judged after resolution, at delivery.
    ['https://127.0.0.1.nip.io/hook', undefined],
    ['http://localhost:4200/webhooks', /names localhost, this machine/],
    ['http://LOCALHOST./webhooks', /names localhost, this machine/],
    ['http://app.localhost/webhooks', /names app\.localhost/],
    ['http://127.0.0.1:4200/webhooks', /points to 127\.0\.0\.1: loopback/],
    ['http://2130706433/', /points to 127\.0\.0\.1: loopback/],
    ['http://0x7f.1/', /points to 127\.0\.0\.1: loopback/],
    ['http://0177.0.0.01/', /points to 127\.0\.0\.1: loopback/],
    ['http://[::1]:4200/', /points to \[::1\]: loopback/],
    ['http://[::ffff:127.0.0.1]/', /points to \[::ffff:7f00:1\]: IPv4-mapped 127\.0\.0\.1, loopback/],
    ['http://169.254.169.254/latest/meta-data/', /link-local/],
    ['http://[fe80::1]/', /link-local/],
    ['http://10.0.0.5/', /private \(RFC 1918\)/],
    ['http://100.100.100.200/', /carrier-grade NAT/],
    ['http://[fd00::1]/', /unique local/],
    ['http://0.0.0.0:4200/', /unspecified/],
    ['http://[::]:4200/', /unspecified/],
    ['ftp://platform.example/hook', /uses ftp:, not http: or https:/],
    ['file:///etc/passwd', /uses file:/],
    ['not a url', /is not a URL/],
  ];
  it.each(table)('%s', (url, refusal) => {
    const reason = refusedEndpoint(url);
    if (refusal === undefined) expect(reason).toBeUndefined();
    else expect(reason).toMatch(refusal);
  });
});
