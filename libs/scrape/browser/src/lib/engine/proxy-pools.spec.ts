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

  it('treats anti-bot and proxy statuses as refusals', () => {
    expect([403, 429, 503, 407].every(isRefusalStatus)).toBe(true);
    expect([200, 404, 500].some(isRefusalStatus)).toBe(false);
  });
});
