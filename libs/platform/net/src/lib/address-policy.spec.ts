import { AddressPolicy, isPrivateAddress } from './address-policy';

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
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    '[::1]',
    'not-an-ip',
  ])('refuses %s', (address) => expect(isPrivateAddress(address)).toBe(true));

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:93.184.216.34'])('allows %s', (address) =>
    expect(isPrivateAddress(address)).toBe(false),
  );
});

describe('AddressPolicy', () => {
  it('allows everything when private networks are allowed', () => {
    expect(new AddressPolicy(true).allows('127.0.0.1')).toBe(true);
  });

  it('allows listed private addresses and ranges only', () => {
    const sut = new AddressPolicy(false, ['127.0.0.1', '10.1.0.0/16']);
    expect(sut.allows('127.0.0.1')).toBe(true);
    expect(sut.allows('127.0.0.2')).toBe(false);
    expect(sut.allows('10.1.2.3')).toBe(true);
    expect(sut.allows('10.2.0.1')).toBe(false);
    expect(sut.allows('8.8.8.8')).toBe(true);
  });

  it('rejects a malformed allowlist entry', () => {
    expect(() => new AddressPolicy(false, ['example.com'])).toThrow(/OUTBOUND_ALLOWLIST/);
  });
});
