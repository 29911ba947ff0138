import { acceptLanguageHeader, locationProfile } from './location.util';

describe('locationProfile', () => {
  it('derives language and time zone of a country from ICU data', () => {
    expect(locationProfile('DE')).toEqual({
      country: 'DE',
      timezone: 'Europe/Berlin',
      locale: 'de-DE',
      languages: ['de-DE', 'de', 'en'],
    });
    expect(locationProfile('JP').timezone).toBe('Asia/Tokyo');
    expect(locationProfile('BR')).toMatchObject({ timezone: 'America/Sao_Paulo', locale: 'pt-BR' });
    expect(locationProfile('US')).toMatchObject({ timezone: 'America/New_York', languages: ['en-US', 'en'] });
  });

  it('lets the request languages win and falls back for unknown regions', () => {
    expect(locationProfile('CH', ['fr-CH', 'de'])).toMatchObject({
      timezone: 'Europe/Zurich',
      locale: 'fr-CH',
      languages: ['fr-CH', 'de'],
    });
    expect(locationProfile('ZZ').timezone).toBe('UTC');
  });

  it('answers a repeated country the same, each call with its own languages', () => {
    expect(locationProfile('de', ['en-GB'])).toMatchObject({
      country: 'DE',
      locale: 'en-GB',
      languages: ['en-GB'],
    });
    const first = locationProfile('DE');
    first.languages.push('xx');
    expect(locationProfile('DE')).toEqual({
      country: 'DE',
      timezone: 'Europe/Berlin',
      locale: 'de-DE',
      languages: ['de-DE', 'de', 'en'],
    });
  });

  it('builds Accept-Language with decreasing q-values', () => {
    expect(acceptLanguageHeader(['de-CH', 'de', 'en'])).toBe('de-CH,de;q=0.9,en;q=0.8');
  });
});
