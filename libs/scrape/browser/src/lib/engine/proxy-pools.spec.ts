import { isRefusalStatus, ProxyPools } from './proxy-pools';

describe('ProxyPools', () => {
  it('connects directly without pools whatever the mode', () => {
    const sut = new ProxyPools({ basic: [], enhanced: [] });
    expect(sut.plan('auto')).toEqual([{ tier: 'basic' }]);
    expect(sut.plan('enhanced')).toEqual([{ tier: 'basic' }]);
    expect(sut.plan('basic')).toEqual([{ tier: 'basic' }]);
  });

  it('retries auto on the enhanced pool and rotates each pool', () => {
    const sut = new ProxyPools({ basic: ['http://b1', 'http://b2'], enhanced: ['http://e1'] });
    expect(sut.plan('auto')).toEqual([
      { tier: 'basic', url: 'http://b1' },
      { tier: 'enhanced', url: 'http://e1' },
    ]);
    expect(sut.plan('basic')).toEqual([{ tier: 'basic', url: 'http://b2' }]);
    expect(sut.plan('enhanced')).toEqual([{ tier: 'enhanced', url: 'http://e1' }]);
  });

  it('uses the basic pool for enhanced when no enhanced pool exists', () => {
    expect(new ProxyPools({ basic: ['http://b1'], enhanced: [] }).plan('enhanced')).toEqual([
      { tier: 'basic', url: 'http://b1' },
    ]);
  });

  it('exits in the requested country when a pool for it exists, rotating it apart from the basic pool', () => {
    const sut = new ProxyPools({
      basic: ['http://b1'],
      enhanced: ['http://e1'],
      countries: { DE: ['http://de1', 'http://de2'] },
    });
    expect(sut.plan('basic', 'DE')).toEqual([{ tier: 'basic', url: 'http://de1' }]);
    expect(sut.plan('auto', 'de')).toEqual([
      { tier: 'basic', url: 'http://de2' },
      { tier: 'enhanced', url: 'http://e1' },
    ]);
    // no pool for the country, or no country: the basic pool
    expect(sut.plan('basic', 'FR')).toEqual([{ tier: 'basic', url: 'http://b1' }]);
    expect(sut.plan('basic')).toEqual([{ tier: 'basic', url: 'http://b1' }]);
    // enhanced stays on the enhanced pool
    expect(sut.plan('enhanced', 'DE')).toEqual([{ tier: 'enhanced', url: 'http://e1' }]);
  });

  it('treats anti-bot and proxy statuses as refusals', () => {
    expect([403, 429, 503, 407].every(isRefusalStatus)).toBe(true);
    expect([200, 404, 500].some(isRefusalStatus)).toBe(false);
  });
});
