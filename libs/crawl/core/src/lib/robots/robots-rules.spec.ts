import { RobotsRules } from './robots-rules';

const ROBOTS = `User-agent: *
Disallow: /private
Allow: /private/open

User-agent: SpecialBot
Disallow: /special

Sitemap: https://example.com/sitemap-index.xml`;

describe('RobotsRules', () => {
  it('applies the group of the user-agent token, else the * group', () => {
    const generic = RobotsRules.parse('https://example.com', ROBOTS, 'QuarryBot');
    expect(generic.isAllowed('https://example.com/private/x')).toBe(false);
    expect(generic.isAllowed('https://example.com/private/open/x')).toBe(true);
    expect(generic.isAllowed('https://example.com/special')).toBe(true);
    const special = RobotsRules.parse('https://example.com', ROBOTS, 'SpecialBot');
    expect(special.isAllowed('https://example.com/special/page')).toBe(false);
    expect(special.isAllowed('https://example.com/private/x')).toBe(true);
    expect(generic.sitemaps()).toEqual(['https://example.com/sitemap-index.xml']);
  });

  it('allows everything without a robots.txt', () => {
    expect(RobotsRules.allowAll('https://example.com').isAllowed('https://example.com/private')).toBe(true);
    expect(
      RobotsRules.parse('https://example.com', '', 'QuarryBot').isAllowed('https://example.com/private'),
    ).toBe(true);
  });
});
