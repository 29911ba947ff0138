import { AddressPolicy, embeddedIpv4, isLoopbackAddress, isPrivateAddress } from './address-policy';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '[::1]',
    'not-an-ip',
  ])('refuses %s', (address) => expect(isPrivateAddress(address)).toBe(true));

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:93.184.216.34'])(
    'allows %s',
    (address) => expect(isPrivateAddress(address)).toBe(false),
  );

  // Every IPv6 form that carries an IPv4 address, in dotted and hex spelling, is judged by that address.
  const embedded: [form: string, address: string, v4: string][] = [
    ['IPv4-mapped', '::ffff:127.0.0.1', '127.0.0.1'],
    ['IPv4-mapped', '::ffff:7f00:1', '127.0.0.1'],
    ['IPv4-mapped', '0:0:0:0:0:ffff:7f00:0001', '127.0.0.1'],
    ['IPv4-mapped', '::FFFF:169.254.169.254', '169.254.169.254'],
    ['IPv4-mapped', '::ffff:a9fe:a9fe', '169.254.169.254'],
    ['IPv4-compatible', '::127.0.0.1', '127.0.0.1'],
    ['IPv4-compatible', '::7f00:1', '127.0.0.1'],
    ['IPv4-compatible', '0:0:0:0:0:0:10.0.0.1', '10.0.0.1'],
    ['IPv4-compatible', '::a00:1', '10.0.0.1'],
    ['SIIT', '::ffff:0:127.0.0.1', '127.0.0.1'],
    ['SIIT', '::ffff:0:7f00:1', '127.0.0.1'],
    ['SIIT', '0:0:0:0:ffff:0:c0a8:101', '192.168.1.1'],
    ['NAT64', '64:ff9b::127.0.0.1', '127.0.0.1'],
    ['NAT64', '64:ff9b::a9fe:a9fe', '169.254.169.254'],
    ['NAT64', '64:ff9b:0:0:0:0:0a00:0001', '10.0.0.1'],
    ['6to4', '2002:7f00:1::', '127.0.0.1'],
    ['6to4', '2002:7f00:0001:0:0:0:0:1', '127.0.0.1'],
    ['6to4', '2002:a9fe:a9fe::1', '169.254.169.254'],
    ['6to4', '2002:c0a8:0101:1::', '192.168.1.1'],
  ];
  it.each(embedded)('%s %s carries %s and is refused', (_form, address, v4) => {
    expect(embeddedIpv4(address)).toBe(v4);
    expect(isPrivateAddress(address)).toBe(true);
    expect(isPrivateAddress(`[${address}]`)).toBe(true);
  });

  it.each([
    ['::ffff:8.8.8.8', '8.8.8.8'],
    ['::ffff:0:808:808', '8.8.8.8'],
    ['64:ff9b::808:808', '8.8.8.8'],
    ['2002:808:808::1', '8.8.8.8'],
    ['::5db8:d822', '93.184.216.34'],
  ])('judges %s by its public IPv4 address %s', (address, v4) => {
    expect(embeddedIpv4(address)).toBe(v4);
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('finds no IPv4 address in other IPv6 addresses, nor in IPv4 or non-addresses', () => {
    expect(embeddedIpv4('2606:4700:4700::1111')).toBeUndefined();
    expect(embeddedIpv4('fe80::7f00:1')).toBeUndefined();
    expect(embeddedIpv4('127.0.0.1')).toBeUndefined();
    expect(embeddedIpv4('example.com')).toBeUndefined();
  });
});

describe('isLoopbackAddress', () => {
  it.each([
    '127.0.0.1',
    '127.9.9.9',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::127.0.0.1',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
  ])('is true for %s', (address) => expect(isLoopbackAddress(address)).toBe(true));
  it.each(['192.0.2.2', '10.0.0.1', '::', '::2', 'fe80::1', '::ffff:192.0.2.2', 'localhost', ''])(
    'is false for %s',
    (address) => expect(isLoopbackAddress(address)).toBe(false),
  );
});

describe('AddressPolicy', () => {
  it('allows everything when private networks are allowed', () => {
    expect(new AddressPolicy(true).allows('127.0.0.1')).toBe(true);
    expect(new AddressPolicy(true).allows('::127.0.0.1')).toBe(true);
  });

  it('refuses every IPv6 spelling of a private IPv4 address', () => {
    const sut = new AddressPolicy(false);
    for (const address of [
      '::127.0.0.1',
      '::ffff:0:7f00:1',
      '2002:7f00:1::',
      '64:ff9b::127.0.0.1',
      '::ffff:127.0.0.1',
    ])
      expect(sut.allows(address)).toBe(false);
    expect(sut.allows('::ffff:8.8.8.8')).toBe(true);
  });

  it('allows listed private addresses and ranges only, in any spelling that carries them', () => {
    const sut = new AddressPolicy(false, ['127.0.0.1', '10.1.0.0/16']);
    expect(sut.allows('127.0.0.1')).toBe(true);
    expect(sut.allows('::ffff:127.0.0.1')).toBe(true);
    expect(sut.allows('::127.0.0.1')).toBe(true);
    expect(sut.allows('2002:7f00:1::')).toBe(true);
    expect(sut.allows('127.0.0.2')).toBe(false);
    expect(sut.allows('::127.0.0.2')).toBe(false);
    expect(sut.allows('10.1.2.3')).toBe(true);
    expect(sut.allows('64:ff9b::a01:203')).toBe(true);
    expect(sut.allows('10.2.0.1')).toBe(false);
    expect(sut.allows('8.8.8.8')).toBe(true);
  });

  it('rejects a malformed allowlist entry', () => {
    expect(() => new AddressPolicy(false, ['example.com'])).toThrow(/OUTBOUND_ALLOWLIST/);
  });
});
