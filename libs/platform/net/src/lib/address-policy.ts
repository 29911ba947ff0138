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

/** `[::1]` and `fe80::1%eth0` as bare addresses. */
function bareAddress(address: string): string {
  return address.replace(/^\[|\]$/g, '').split('%')[0];
}

/** The 16 bytes of an IPv6 address in any spelling (`::` compression, embedded dotted quad); undefined if it is not one. */
function ipv6Bytes(address: string): Uint8Array | undefined {
  if (isIP(address) !== 6) return undefined;
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) =>
    part ? part.split(':').map((group) => parseInt(group, 16)) : [];
  const left = parse(head);
  const right = parse(tail);
  const groups =
    tail === undefined
      ? left
      : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  if (groups.length !== 8 || groups.some((group) => !Number.isInteger(group) || group < 0 || group > 0xffff))
    return undefined;
  const bytes = new Uint8Array(16);
  groups.forEach((group, index) => {
    bytes[index * 2] = group >> 8;
    bytes[index * 2 + 1] = group & 0xff;
  });
  return bytes;
}

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) =>
  prefix.every((byte, index) => bytes[index] === byte);
const dottedQuad = (bytes: Uint8Array, offset: number) =>
  Array.from(bytes.subarray(offset, offset + 4)).join('.');
const ZEROS_80 = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

/**
 * The IPv4 address an IPv6 address carries and reaches, if any: IPv4-mapped `::ffff:a.b.c.d`,
 * IPv4-compatible `::a.b.c.d` (deprecated, RFC 4291), SIIT `::ffff:0:a.b.c.d` (RFC 6052/7915), NAT64
 * `64:ff9b::a.b.c.d` (RFC 6052) and 6to4 `2002:AABB:CCDD::` (RFC 3056), in dotted or hex spelling.
 * A connection to any of them can end at that IPv4 address, so it is judged by it.
 */
export function embeddedIpv4(address: string): string | undefined {
  const bytes = ipv6Bytes(bareAddress(address));
  if (!bytes) return undefined;
  if (startsWith(bytes, [...ZEROS_80, 0xff, 0xff])) return dottedQuad(bytes, 12); // ::ffff:0:0/96
  if (startsWith(bytes, [0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0])) return dottedQuad(bytes, 12); // ::ffff:0:0:0/96
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return dottedQuad(bytes, 12); // 64:ff9b::/96
  if (startsWith(bytes, [0x20, 0x02])) return dottedQuad(bytes, 2); // 2002::/16
  if (startsWith(bytes, [...ZEROS_80, 0, 0])) return dottedQuad(bytes, 12); // ::/96, :: and ::1 included
  return undefined;
}

/** True for private, loopback, link-local, metadata, documentation and multicast addresses, and for anything that is not an IP address. */
export function isPrivateAddress(address: string): boolean {
  const bare = bareAddress(address);
  const family = isIP(bare);
  if (family === 4) return privateRanges.check(bare, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(bare);
    if (v4 !== undefined && privateRanges.check(v4, 'ipv4')) return true;
    return privateRanges.check(bare, 'ipv6');
  }
  return true; // not an address: refuse rather than guess
}

/** True for 127.0.0.0/8 and ::1, in any IPv6 spelling that carries a loopback IPv4 address too. */
export function isLoopbackAddress(address: string): boolean {
  const bare = bareAddress(address);
  const family = isIP(bare);
  if (family === 4) return bare.startsWith('127.');
  if (family !== 6) return false;
  const bytes = ipv6Bytes(bare);
  if (bytes && startsWith(bytes, [...ZEROS_80, 0, 0, 0, 0, 0]) && bytes[15] === 1) return true; // ::1
  const v4 = embeddedIpv4(bare);
  return v4 !== undefined && v4.startsWith('127.');
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
    const bare = bareAddress(address);
    if (this.allowlisted(bare)) return true;
    return !isPrivateAddress(bare);
  }

  /** Listed by OUTBOUND_ALLOWLIST, itself or (for an IPv6 address carrying one) its IPv4 address. */
  private allowlisted(address: string): boolean {
    const family = isIP(address);
    if (!family) return false;
    if (this.allowlist.check(address, family === 4 ? 'ipv4' : 'ipv6')) return true;
    const v4 = family === 6 ? embeddedIpv4(address) : undefined;
    return v4 !== undefined && this.allowlist.check(v4, 'ipv4');
  }
}
