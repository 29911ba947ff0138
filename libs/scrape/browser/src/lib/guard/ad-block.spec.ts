import { isAdHost, isAdRequest } from './ad-block';

describe('ad blocking', () => {
  it('matches ad, tracker and consent-manager hosts and their subdomains', () => {
    expect(isAdHost('doubleclick.net')).toBe(true);
    expect(isAdHost('securepubads.g.doubleclick.net')).toBe(true);
    expect(isAdHost('cdn.cookielaw.org')).toBe(true);
    expect(isAdHost('example.com')).toBe(false);
    expect(isAdHost('notdoubleclick.net')).toBe(false);
  });

  it('matches ad-serving paths but not ordinary words', () => {
    expect(isAdRequest(new URL('https://site.test/ads/banner.html'))).toBe(true);
    expect(isAdRequest(new URL('https://site.test/pagead/show_ads.js'))).toBe(true);
    expect(isAdRequest(new URL('https://site.test/js/prebid.js'))).toBe(true);
    expect(isAdRequest(new URL('https://site.test/blog/adding-features'))).toBe(false);
    expect(isAdRequest(new URL('https://site.test/address'))).toBe(false);
    expect(isAdRequest(new URL('https://site.test/downloads/file.zip'))).toBe(false);
  });
});
