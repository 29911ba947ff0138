import { BlockList, isIP } from 'node:net';

/** Ranges an outbound request must never reach unless private networks are allowed (RFC 6890 and friends). */
const PRIVATE_V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const PRIVATE_V6: [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2001::', 23],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

const privateRanges = new BlockList();
for (const [network, prefix] of PRIVATE_V4) privateRanges.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of PRIVATE_V6) privateRanges.addSubnet(network, prefix, 'ipv6');

/** IPv4 embedded in an IPv6 address (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96), if any. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = lower.match(/^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) return dotted[1];
  const hex = lower.match(/^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
  if (hex) {
    const high = parseInt(hex[1], 16);
    const low = parseInt(hex[2], 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return undefined;
}

export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').split('%')[0];
  const family = isIP(bare);
  if (family === 4) return privateRanges.check(bare, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(bare);
    if (v4) return privateRanges.check(v4, 'ipv4');
    return privateRanges.check(bare, 'ipv6');
  }
  return true; // not an address: refuse rather than guess
}

/** Decides whether an outbound connection to an address is allowed. */
export class AddressPolicy {
  private readonly allowlist = new BlockList();

  constructor(
    readonly allowPrivateNetworks: boolean,
    allowlist: readonly string[] = [],
  ) {
    for (const entry of allowlist) {
      const [network, prefix] = entry.split('/');
      const family = isIP(network);
      if (!family) throw new Error(`OUTBOUND_ALLOWLIST entry is not an IP or CIDR: ${entry}`);
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) this.allowlist.addAddress(network, type);
      else this.allowlist.addSubnet(network, Number(prefix), type);
    }
  }

  allows(address: string): boolean {
    if (this.allowPrivateNetworks) return true;
    const bare = address.replace(/^\[|\]$/g, '').split('%')[0];
    const family = isIP(bare);
    if (family && this.allowlist.check(bare, family === 4 ? 'ipv4' : 'ipv6')) return true;
    return !isPrivateAddress(bare);
  }
}
